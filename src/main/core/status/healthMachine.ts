/**
 * Health of an agent run (docs/agent-status.md): ALIVE → STUCK → RECOVERED → ALIVE, any → DEAD. DEAD is
 * terminal for the run; a new run of the same entry starts a new machine (`reset`).
 * Transitions are a table; events that do not apply in a state are ignored.
 */
import type { Health } from '../../../shared/status';

export type HealthEvent =
  /** An active agent showed no meaningful progress for the stuck threshold. */
  | 'progressStalled'
  /** A stuck agent changed its screen meaningfully again (or went idle or waiting). */
  | 'progressResumed'
  /** A recovered agent stayed healthy for RECOVERED_HOLD_MS. */
  | 'recoveryConfirmed'
  /** The process exited. */
  | 'exited';

/** How long RECOVERED shows before it settles to ALIVE: long enough for a person to notice. */
export const RECOVERED_HOLD_MS = 10_000;

const TRANSITIONS: Readonly<Record<Health, Partial<Record<HealthEvent, Health>>>> = {
  ALIVE: { progressStalled: 'STUCK', exited: 'DEAD' },
  STUCK: { progressResumed: 'RECOVERED', exited: 'DEAD' },
  RECOVERED: { progressStalled: 'STUCK', recoveryConfirmed: 'ALIVE', exited: 'DEAD' },
  DEAD: {},
};

export class HealthMachine {
  private current: Health = 'ALIVE';
  private changedAt: number;

  constructor(now: number) {
    this.changedAt = now;
  }

  get state(): Health {
    return this.current;
  }

  /** Epoch ms of the last transition. */
  get since(): number {
    return this.changedAt;
  }

  /** Applies an event; returns whether the state changed. */
  apply(event: HealthEvent, now: number): boolean {
    const next = TRANSITIONS[this.current][event];
    if (!next || next === this.current) return false;
    this.current = next;
    this.changedAt = now;
    return true;
  }

  /** A new run: back to ALIVE whatever happened before. */
  reset(now: number): void {
    this.current = 'ALIVE';
    this.changedAt = now;
  }
}
