/**
 * `agents.<name>` / `processes.<name>`: a switchboard.json entry's key across reloads, restarts,
 * trust and the window's layout.
 */
export function configKeyOf(kind: string, configName: string | undefined): string {
  return `${kind === 'agent' ? 'agents' : 'processes'}.${configName}`;
}
