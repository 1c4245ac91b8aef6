/**
 * switchboard.json (SPEC §2): the zod schema is the single source of truth; the JSON Schema that
 * ships for editors is generated from it (`npm run schema`).
 */
import { z } from 'zod';
import { ReadinessConfigSchema } from './readyConfig';
import { AgentsSectionSchema } from './agentConfig';

export const CONFIG_FILE_NAME = 'switchboard.json';

const EntryNameSchema = z.string().regex(/^[A-Za-z0-9][\w.-]*$/, 'names use letters, digits, ".", "_" and "-"');

export const ProcessConfigSchema = z.strictObject({
  /** Program to run. Without `args`, a command line with spaces runs through /bin/sh -c. */
  command: z.string().min(1, 'command must not be empty'),
  args: z.array(z.string()).optional(),
  /** Working directory, relative to the project root or absolute. */
  cwd: z.string().min(1).optional(),
  env: z.record(z.string(), z.string()).optional(),
  /** Start when the project opens (default true for processes). */
  autoStart: z.boolean().optional(),
  ...ReadinessConfigSchema.shape,
});
export type ProcessConfig = z.infer<typeof ProcessConfigSchema>;

export const ProcessesSectionSchema = z.record(EntryNameSchema, ProcessConfigSchema);

export const SwitchboardConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  processes: ProcessesSectionSchema.optional(),
  agents: AgentsSectionSchema.optional(),
});
export type SwitchboardConfig = z.infer<typeof SwitchboardConfigSchema>;

/** One problem in the config file, with the path of the field it is about. */
export interface ConfigIssue {
  /** "processes.web.port", or "" for the file as a whole. */
  path: string;
  message: string;
}

export function formatConfigIssue(issue: ConfigIssue): string {
  return issue.path ? `${CONFIG_FILE_NAME}: ${issue.path} ${issue.message}` : `${CONFIG_FILE_NAME}: ${issue.message}`;
}
