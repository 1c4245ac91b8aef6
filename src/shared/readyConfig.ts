/**
 * The per-process readiness fields of switchboard.json (docs/config.md, docs/readiness.md). The lead merges this object
 * into the process schema; core/ready reads only these fields (see core/ready/readyConfig.ts for
 * the defaults and clamps).
 */
import { z } from 'zod';
import { FRAMEWORK_IDS } from './ready';
import { compileUserPattern, MAX_USER_PATTERN_CHARS } from './userPattern';

/** How long a start may take to become ready (the `timeout` field, MCP `ready_timeout`); longer is an error. */
export const DEFAULT_READY_TIMEOUT_MS = 30_000;

/** `unhealthy`: restart when liveness probes fail after ready (and on a failed exit, like `on-failure`). */
const AUTO_RESTART_POLICIES = ['no', 'on-failure', 'always', 'unhealthy'] as const;
export type AutoRestartPolicy = (typeof AUTO_RESTART_POLICIES)[number];

export { compileUserPattern } from './userPattern';

const PatternSchema = z
  .string()
  .min(1, 'a pattern cannot be empty')
  .max(MAX_USER_PATTERN_CHARS, `a pattern is at most ${MAX_USER_PATTERN_CHARS} characters`)
  .superRefine((pattern, ctx) => {
    try {
      compileUserPattern(pattern);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
    }
  });

const MillisecondsSchema = z.number().int('must be a whole number of milliseconds').min(0, 'cannot be negative');

/** `${port}`, `${port:api}` and `${worktree}` stand for values known when the entry runs (docs/runtime.md). */
function withSampleReferences(value: string): string {
  return value.replace(/\$\{port(?::[\w.-]+)?\}/g, '1').replace(/\$\{worktree\}/g, 'w');
}

const HttpUrlSchema = z.string().superRefine((value, ctx) => {
  let parsed: URL;
  try {
    parsed = new URL(withSampleReferences(value));
  } catch {
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} is not a URL (expected http://localhost:3000/health)` });
    return;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} must be an http:// or https:// URL` });
  }
});

const LivenessConfigSchema = z.strictObject({
  /** Time between probes once ready (ms). */
  period: z.number().int('must be a whole number of milliseconds').min(100, 'must be at least 100 ms').optional(),
  /** Consecutive failed probes before the entry is `unhealthy`. */
  failureThreshold: z.number().int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').optional(),
  /** How long a probe gives the server to accept its connection (or the `url` to answer) before it counts as failed (ms). */
  timeout: z.number().int('must be a whole number of milliseconds').min(1, 'must be at least 1 ms').optional(),
});

export const ReadinessConfigSchema = z.object({
  /** Override auto-detection of the framework whose built-in patterns apply. */
  framework: z.enum(FRAMEWORK_IDS, { error: () => `must be one of ${FRAMEWORK_IDS.join(', ')}` }).optional(),
  /** TCP port that must accept connections before the process counts as ready. */
  port: z.number().int('must be a whole number').min(1, 'must be 1–65535').max(65535, 'must be 1–65535').optional(),
  /** After a ready line, how long the known port may take to accept connections (ms). */
  portTimeout: MillisecondsSchema.optional(),
  /** Extra ready patterns (regex sources); any match counts as the ready signal. */
  readyPatterns: z.array(PatternSchema).optional(),
  /** Extra error patterns (regex sources); a match during start is an error. */
  errorPatterns: z.array(PatternSchema).optional(),
  /** HTTP(S) URL that must answer (status below 500) before the process counts as ready. */
  url: HttpUrlSchema.optional(),
  /** How long a ready line without a port, or an open port without a ready line, must hold (ms). */
  stabilityDelay: MillisecondsSchema.optional(),
  /** How long a start may take before it is an error (ms); the process is left running. */
  timeout: z.number().int('must be a whole number of milliseconds').min(1, 'must be at least 1 ms').optional(),
  /** A job that runs to its end: exit 0 is `completed`, not an error; no readiness is awaited. */
  oneShot: z.boolean().optional(),
  /** Probes of the ready port (TCP, or HTTP when it speaks HTTP) after ready; `false` turns them off. */
  liveness: z.union([z.literal(false), LivenessConfigSchema]).optional(),
  /** Restart policy after an exit (applied by the session layer, with backoff and a cap). */
  autoRestart: z.enum(AUTO_RESTART_POLICIES, { error: () => `must be one of ${AUTO_RESTART_POLICIES.join(', ')}` }).optional(),
});

export type ReadinessConfig = z.infer<typeof ReadinessConfigSchema>;
