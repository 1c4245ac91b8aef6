/**
 * The per-process readiness fields of switchboard.json (SPEC §2, §3). The lead merges this object
 * into the process schema; core/ready reads only these fields (see core/ready/readyConfig.ts for
 * the defaults and clamps).
 */
import { z } from 'zod';
import { FRAMEWORK_IDS } from './ready';

export const AUTO_RESTART_POLICIES = ['no', 'on-failure', 'always'] as const;
export type AutoRestartPolicy = (typeof AUTO_RESTART_POLICIES)[number];

/** Longest pattern we accept: a guard against pasting a whole log as a pattern. */
export const MAX_USER_PATTERN_CHARS = 500;

/**
 * A user pattern is a JavaScript regular expression source ("Server initialized", "listening on
 * port \\d+"), or `/source/flags` to pass flags ("/ready/i"). Plain text works as-is.
 * Throws a SyntaxError whose message names the pattern.
 */
export function compileUserPattern(pattern: string): RegExp {
  const slashed = /^\/(.+)\/([dimsuy]*)$/s.exec(pattern);
  const source = slashed ? slashed[1] : pattern;
  const flags = slashed ? slashed[2] : '';
  try {
    return new RegExp(source, flags);
  } catch (err) {
    const reason = err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : String(err);
    throw new SyntaxError(`invalid regular expression ${JSON.stringify(pattern)}: ${reason}`, { cause: err });
  }
}

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

const HttpUrlSchema = z.string().superRefine((value, ctx) => {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} is not a URL (expected http://localhost:3000/health)` });
    return;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} must be an http:// or https:// URL` });
  }
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
  /** Restart policy after an exit (applied by the session layer, with backoff and a cap). */
  autoRestart: z.enum(AUTO_RESTART_POLICIES, { error: () => `must be one of ${AUTO_RESTART_POLICIES.join(', ')}` }).optional(),
});

export type ReadinessConfig = z.infer<typeof ReadinessConfigSchema>;
