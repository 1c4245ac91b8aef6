/**
 * switchboard.json (docs/config.md): the zod schema is the single source of truth; the JSON Schema that
 * ships for editors is generated from it (`npm run schema`).
 */
import { z } from 'zod';
import { ReadinessConfigSchema } from './readyConfig';
import { AgentsSectionSchema } from './agentConfig';
import { DEPENDENCY_CONDITIONS } from './model';
import { McpAccessConfigSchema } from './trust';
import { SandboxConfigSchema } from './sandbox';
import { BudgetConfigSchema } from './budget';

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
  /** Other processes (by name) that must reach a condition before this one starts. */
  dependsOn: z
    .record(EntryNameSchema, z.enum(DEPENDENCY_CONDITIONS, { error: () => `must be one of ${DEPENDENCY_CONDITIONS.join(', ')}` }))
    .optional(),
  /** Give this process an MCP token with these scopes (commands and terminals get none otherwise). */
  mcp: McpAccessConfigSchema.optional(),
  /** Run the whole process tree in a sandbox (docs/sandbox.md): `true` for the defaults, or the options. */
  sandbox: SandboxConfigSchema.optional(),
  ...ReadinessConfigSchema.shape,
});
export type ProcessConfig = z.infer<typeof ProcessConfigSchema>;

const ProcessesSectionSchema = z.record(EntryNameSchema, ProcessConfigSchema);

/** Project-wide settings: the memory bound per entry and the kill grace period (docs/app.md). */
export const SettingsSchema = z.strictObject({
  /** Raw output kept per entry for `since_offset` readers (bytes; 64 KiB – 256 MiB). */
  outputBufferBytes: z
    .number()
    .int()
    .min(64 * 1024, 'must be at least 65536 (64 KiB)')
    .max(256 * 1024 * 1024, 'must be at most 268435456 (256 MiB)')
    .optional(),
  /** Lines of scrollback kept by each entry's headless screen (0 – 100000). */
  scrollbackLines: z.number().int().min(0, 'cannot be negative').max(100_000, 'must be at most 100000').optional(),
  /** Grace between SIGTERM and SIGKILL when a process tree is stopped (ms; 0 – 60000). */
  killGraceMs: z.number().int().min(0, 'cannot be negative').max(60_000, 'must be at most 60000').optional(),
  /** Default for entries running when the app went down: `auto` starts/resumes them at launch, `manual` (default) waits. */
  resume: z.enum(['auto', 'manual']).optional(),
  /** Default for the project's agents: continue a blocked agent by itself at its limit's reset, or probe with
   *  back-off when no reset is shown (default false; an agent's own `continueAtReset` wins). */
  continueAtReset: z.boolean().optional(),
  /** The back-off probe's first wait (ms; 5000 – 1800000, default 60000); each later try waits twice as long, up to 30 min. */
  continueProbeFirstMs: z
    .number()
    .int()
    .min(5_000, 'must be at least 5000 (5 s)')
    .max(30 * 60_000, 'must be at most 1800000 (30 min)')
    .optional(),
  /** Saved scrollback per entry across restarts (bytes of serialized screen; 0 – 64 MiB, default 2 MiB). */
  savedScrollbackBytes: z
    .number()
    .int()
    .min(0, 'cannot be negative')
    .max(64 * 1024 * 1024, 'must be at most 67108864 (64 MiB)')
    .optional(),
});
export type Settings = z.infer<typeof SettingsSchema>;

/** Worktrees Switchboard makes for agents: how they are made (docs/worktrees.md) and what runs in each (docs/runtime.md). */
export const WorktreesSectionSchema = z.strictObject({
  /** Managed folder for this project's worktrees (absolute, or relative to the project root); default under the data dir. */
  dir: z.string().min(1).optional(),
  /** Untracked files copied from the main checkout into a new worktree (globs relative to the root, e.g. ".env*"). */
  copy: z.array(z.string().min(1)).optional(),
  /** Shell commands run in order as one-shot entries in a new worktree before its agent gets instructions. */
  setup: z.array(z.string().min(1)).optional(),
  /** Entries that start with a new worktree: their names, or "all"; absent: none (on demand). */
  start: z.union([z.literal('all'), z.array(EntryNameSchema)]).optional(),
  /** Stop a worktree's servers once its agents have been idle this long (ms, at least 1000); absent: never. */
  idleStop: z.number().int('must be a whole number of milliseconds').min(1_000, 'must be at least 1000 ms').optional(),
});
export type WorktreesSection = z.infer<typeof WorktreesSectionSchema>;

export const SwitchboardConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  settings: SettingsSchema.optional(),
  processes: ProcessesSectionSchema.optional(),
  agents: AgentsSectionSchema.optional(),
  worktrees: WorktreesSectionSchema.optional(),
  /** A cap on what the project's agents spend together, per day or per run (docs/usage.md, "Budgets"). */
  budget: BudgetConfigSchema.optional(),
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
