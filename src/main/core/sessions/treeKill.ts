/**
 * Ends a process and everything it started: the process group first, then every descendant
 * and every process carrying the run's environment marker; SIGTERM, then SIGKILL after a grace.
 */
import { collectTree, findByEnvMarker, isAlive, readProcessTable } from './processTree';

/** docs/app.md: default grace between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 3_000;
/** How often survivors are re-checked during the grace period (no exit event exists for non-children). */
const KILL_POLL_MS = 25;
/** Upper bound on waiting for SIGKILLed processes to disappear (uninterruptible sleep can delay it). */
const SIGKILL_REAP_MS = 2_000;

interface KillTarget {
  /** The leader (its group and descendants); absent for leftovers of a previous app run, found by marker only. */
  pid?: number;
  /** Environment marker `key=value` inherited by every descendant. */
  marker?: { key: string; value: string };
}

interface KillResult {
  signalled: number;
  /** Processes that needed SIGKILL. */
  forced: number;
}

export async function killTree(target: KillTarget, signal: NodeJS.Signals = 'SIGTERM', graceMs = KILL_GRACE_MS): Promise<KillResult> {
  const victims = snapshot(target);
  if (target.pid !== undefined) signalGroup(target.pid, signal);
  for (const pid of victims) signalPid(pid, signal);

  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    // New descendants may appear while the tree shuts down; they get the same signal.
    for (const pid of snapshot(target)) {
      if (!victims.has(pid)) {
        victims.add(pid);
        signalPid(pid, signal);
      }
    }
    if (![...victims].some(isAlive)) return { signalled: victims.size, forced: 0 };
    await delay(KILL_POLL_MS);
  }

  for (const pid of snapshot(target)) victims.add(pid);
  const survivors = [...victims].filter(isAlive);
  if (target.pid !== undefined) signalGroup(target.pid, 'SIGKILL');
  for (const pid of survivors) signalPid(pid, 'SIGKILL');
  // SIGKILL is delivered asynchronously: report only once the tree is really gone.
  const reapDeadline = Date.now() + SIGKILL_REAP_MS;
  while (survivors.some(isAlive) && Date.now() < reapDeadline) await delay(KILL_POLL_MS / 5);
  return { signalled: victims.size, forced: survivors.length };
}

/**
 * SIGKILL the whole tree at once, synchronously: the path for a second Ctrl-C during a slow stop
 * and for a fatal error, where nothing may wait for a grace period or the event loop.
 */
export function killTreeNow(target: KillTarget): number {
  const victims = snapshot(target);
  if (target.pid !== undefined) signalGroup(target.pid, 'SIGKILL');
  for (const pid of victims) signalPid(pid, 'SIGKILL');
  return victims.size;
}

function snapshot(target: KillTarget): Set<number> {
  const tree = target.pid !== undefined ? collectTree(target.pid, readProcessTable()) : new Set<number>();
  if (target.marker) for (const pid of findByEnvMarker(target.marker.key, target.marker.value)) tree.add(pid);
  tree.delete(process.pid);
  return tree;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: already exited.
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
