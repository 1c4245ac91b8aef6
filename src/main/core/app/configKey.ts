import type { ProcessEntry } from '../sessions';
import { configKeyOf } from '../../../shared/configKey';

/** A switchboard.json entry's key (`agents.<name>` / `processes.<name>`). */
export function configKey(entry: Pick<ProcessEntry, 'kind' | 'definition'>): string {
  return configKeyOf(entry.kind, entry.definition.configName);
}
