/**
 * The back-off probe (docs/agent-status.md, "Continue at reset"): where a blocked agent shows no
 * reset time, continuing by itself means trying now and then — 1, 2, 4, 8, 16, then 30 minutes,
 * six tries at most — each try typing the CLI's continue and checking that the agent went on. The
 * first wait is the project's `settings.continueProbeFirstMs` (at least 5 s) when set.
 */
import type { BlockedDetail } from '../../../shared/status';

const PROBE_FIRST_DELAY_MS = 60_000;
const PROBE_MAX_DELAY_MS = 30 * 60_000;
export const PROBE_MAX_TRIES = 6;

/**
 * Causes that may pass by themselves. A refused sign-in needs a person, and an exhausted credit
 * balance does not come back with time: those are never probed.
 */
const PROBED: ReadonlySet<BlockedDetail> = new Set<BlockedDetail>(['limit', 'api_error', 'network']);

export function isProbed(detail: BlockedDetail): boolean {
  return PROBED.has(detail);
}

/** The wait before try `n` (1-based): doubling from the first delay, capped. */
export function probeDelayMs(n: number, firstDelayMs = PROBE_FIRST_DELAY_MS): number {
  return Math.min(firstDelayMs * 2 ** (n - 1), PROBE_MAX_DELAY_MS);
}
