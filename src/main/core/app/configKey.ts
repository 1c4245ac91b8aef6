import type { ProcessEntry } from '../sessions';

/** `agents.<name>` / `processes.<name>`: a switchboard.json entry's key across reloads and restarts. */
export function configKey(entry: Pick<ProcessEntry, 'kind' | 'definition'>): string {
  return `${entry.kind === 'agent' ? 'agents' : 'processes'}.${entry.definition.configName}`;
}
