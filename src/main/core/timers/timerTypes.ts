/**
 * The timer model inside the core (docs/timers.md): what a timer is, who may act on it, and the limits.
 * The wire shapes (TimerSummary, TimerHistoryEntry) live in src/shared/model.ts.
 */
import type { TimerHistoryEntry, TimerSummary } from '../../../shared/model';

type TimerKind = TimerSummary['kind'];
/** States of a timer that still exists; the ended ones live in history. */
type LiveTimerState = 'pending' | 'paused' | 'due';
export type EndedTimerState = TimerHistoryEntry['state'];

/** What made a timer come due. */
export type FireCause = 'delay' | 'idle' | 'max_wait' | 'fire_now';

/**
 * Who acts on timers: a process Switchboard started (its own token), or anyone holding the app
 * token (the UI, clients started elsewhere). Same shape as the MCP caller, so tools pass it on.
 */
export type TimerActor = { kind: 'external' } | { kind: 'process'; processId: string };

export const APP_ACTOR: TimerActor = { kind: 'external' };

/** An entry as a timer remembers it: the config name lets a restarted app find it again. */
export interface EntryRef {
  id: string;
  name: string;
  configName?: string;
}

/** Everything a timer is, as persisted. Times are relative so a restart can resume them. */
export interface TimerRecord {
  id: string;
  kind: TimerKind;
  label?: string;
  body: string;
  owner: EntryRef;
  /** Idle timers: the entries whose idleness they wait for (empty for delay timers). */
  watched: EntryRef[];
  /** Process id of the creator, or "external". */
  createdBy: string;
  createdAt: number;
  state: LiveTimerState;
  /**
   * Delay timers: milliseconds until they fire. Idle timers: milliseconds until the max-wait
   * fallback (absent without one). Counted from the moment of the snapshot.
   */
  remainingMs?: number;
  /** For a due timer: what made it fire. */
  firedBy?: FireCause;
  /** A continue at reset: delivered while its owner is blocked (docs/agent-status.md, "Continue at reset"). */
  whenBlocked?: true;
}

export interface SetDelayRequest {
  seconds: number;
  body: string;
  label?: string;
  ownerId?: string;
  /** Deliver while the owner is blocked (its limit's continue) instead of only at its idle prompt. */
  whenBlocked?: true;
}

export interface SetIdleRequest {
  kind: 'idle_any' | 'idle_all';
  watched: string[];
  body: string;
  maxWaitSeconds?: number;
  label?: string;
  ownerId?: string;
}

/** The answer to arming a timer: the timer plus, for idle timers, who is idle already. */
export interface TimerArmed {
  timer: TimerSummary;
  /** Watched entries idle when armed (idle-any: they must go busy and come back to count). */
  alreadyIdle: string[];
  /** Watched entries the timer is still waiting on. */
  waitingOn: string[];
}

export interface TimerList {
  timers: TimerSummary[];
  history: TimerHistoryEntry[];
}

/** Live timers at once, across owners: enough for a busy orchestration, bounded against runaway loops. */
export const MAX_LIVE_TIMERS = 500;
/** Ended timers kept for timer_list (newest first). */
export const HISTORY_LIMIT = 100;
/** Longest body preview shown in lists and tooltips. */
const BODY_PREVIEW_CHARS = 120;

export function bodyPreview(body: string): string {
  const firstLine = body.trim().split('\n')[0] ?? '';
  return firstLine.length > BODY_PREVIEW_CHARS ? `${firstLine.slice(0, BODY_PREVIEW_CHARS - 1)}…` : firstLine;
}

export function actorKey(actor: TimerActor): string {
  return actor.kind === 'process' ? actor.processId : 'external';
}
