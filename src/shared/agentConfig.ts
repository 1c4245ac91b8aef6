/**
 * One entry of switchboard.json's `agents` section (docs/config.md):
 *   "agents": { "claude": { "preset": "claude" }, "reviewer": { "preset": "codex", "args": ["--model", "gpt-5"] } }
 * The preset supplies argv, env, detection rules and thresholds; the fields here adjust it.
 */
import { z } from 'zod';
import { McpAccessConfigSchema } from './trust';
import { SandboxConfigSchema } from './sandbox';
import { BudgetConfigSchema } from './budget';

/** Upper bound for a stuck threshold: beyond an hour "stuck" stops meaning anything. */
const MAX_STUCK_THRESHOLD_MS = 3_600_000;
/** Lower bound: below a second, spinner gaps and normal rendering pauses would read as stuck. */
const MIN_STUCK_THRESHOLD_MS = 1_000;

export const AgentConfigSchema = z
  .strictObject({
    /** Preset id (claude, codex, gemini, opencode, qwen, pi, copilot, aider, cursor-agent, generic). Unknown ids fall
     *  back to the generic preset, with `command` (or the id itself) as the program to run. */
    preset: z.string().min(1, 'preset must name an agent preset, e.g. "claude"').optional(),
    /** Extra arguments appended to the preset's default arguments. */
    args: z.array(z.string()).optional(),
    /** Replaces the preset's program (a wrapper script, another install path); the preset's
     *  detection rules still apply. */
    command: z.string().min(1, 'command must not be empty').optional(),
    /** Working directory, relative to the project root or absolute. */
    cwd: z.string().min(1).optional(),
    /** Extra environment; TERM is fixed by the preset (detection rules assume xterm-256color). */
    env: z.record(z.string(), z.string()).optional(),
    /** Milliseconds without meaningful progress, while active, before the agent counts as stuck. */
    stuckThresholdMs: z
      .number()
      .int('stuckThresholdMs must be a whole number of milliseconds')
      .min(MIN_STUCK_THRESHOLD_MS, `stuckThresholdMs must be at least ${MIN_STUCK_THRESHOLD_MS}`)
      .max(MAX_STUCK_THRESHOLD_MS, `stuckThresholdMs must be at most ${MAX_STUCK_THRESHOLD_MS}`)
      .optional(),
    /** Start the agent when the project opens (default false: agents cost money when they run). */
    autoStart: z.boolean().optional(),
    /** After an app restart, `auto` resumes the conversation it had if it was running; `manual` (default) offers Resume. */
    resume: z.enum(['auto', 'manual']).optional(),
    /** At a usage limit, type the CLI's continue by itself: at the reset when the CLI shows one, else a bounded
     *  back-off probe (docs/agent-status.md, "Continue at reset"). Overrides `settings.continueAtReset`. */
    continueAtReset: z.boolean().optional(),
    /** A cap on what this agent spends, per day or per run (docs/usage.md, "Budgets"); at it Switchboard sends it nothing more. */
    budget: BudgetConfigSchema.optional(),
    /** Scopes added to the agent's MCP token, e.g. { "scopes": ["entries:read-all"] }. */
    mcp: McpAccessConfigSchema.optional(),
    /** Run the agent and everything it starts in a sandbox (docs/sandbox.md): `true` for the defaults, or the options. */
    sandbox: SandboxConfigSchema.optional(),
  })
  .refine((c) => c.preset !== undefined || c.command !== undefined, {
    message: 'an agent needs a "preset" or a "command"',
  });
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

export const AgentsSectionSchema = z.record(
  z.string().regex(/^[A-Za-z0-9][\w.-]*$/, 'agent names use letters, digits, ".", "_" and "-"'),
  AgentConfigSchema,
);
