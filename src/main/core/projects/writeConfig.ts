/**
 * Writes the entries a person kept from a proposal as the project's switchboard.json, with a
 * `$schema` so editors complete and check it. Never overwrites an existing file.
 */
import { writeFileSync } from 'node:fs';
import { CONFIG_FILE_NAME, SwitchboardConfigSchema, type SwitchboardConfig } from '../../../shared/config';
import { SwitchboardError } from '../../../shared/errors';
import type { ProposedEntry } from '../../../shared/proposal';
import { configPath } from './proposeConfig';

/** Where the app's JSON Schema is referenced from a written config. */
const SCHEMA_REFERENCE = './node_modules/switchboard/resources/switchboard.schema.json';

function configFromEntries(entries: readonly ProposedEntry[], schema = SCHEMA_REFERENCE): SwitchboardConfig {
  const config: SwitchboardConfig = { $schema: schema };
  for (const entry of entries) {
    if (entry.section === 'processes') config.processes = { ...config.processes, [entry.name]: entry.config };
    else config.agents = { ...config.agents, [entry.name]: entry.config };
  }
  const checked = SwitchboardConfigSchema.safeParse(config);
  if (!checked.success)
    throw new SwitchboardError(
      'config_invalid',
      `The selection is not a valid ${CONFIG_FILE_NAME}: ${checked.error.issues[0]?.message ?? 'unknown problem'}`,
    );
  return checked.data;
}

export function writeConfig(projectDir: string, entries: readonly ProposedEntry[], schema?: string): string {
  const path = configPath(projectDir);
  const text = `${JSON.stringify(configFromEntries(entries, schema), null, 2)}\n`;
  try {
    writeFileSync(path, text, { flag: 'wx' }); // wx: a config written meanwhile (by hand, by an agent) is never replaced
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      throw new SwitchboardError('config_invalid', `${CONFIG_FILE_NAME} already exists in ${projectDir}; nothing was written`);
    throw new SwitchboardError('config_invalid', `Could not write ${path}: ${(err as Error).message}`);
  }
  return path;
}
