/**
 * The gate every turn Switchboard itself sends to an agent passes (timer deliveries, continues at
 * reset, instructions, messages from other agents): a capability that may hold deliveries (the
 * budget) provides it under `TURN_GATE`; without one, everything passes. A person typing into the
 * pane never goes through it.
 */
import { serviceKey, type Event, type ServiceKey } from '../base';
import { SwitchboardError } from '../../../shared/errors';
import type { DeliveryHold } from '../../../shared/budget';

export interface TurnGate {
  /** Undefined: `what` may go to the agent now (a pass a person granted is used up). Otherwise why it is held. */
  admit(id: string, what: string): DeliveryHold | undefined;
  /** Whether deliveries to the agent are held now, without using a pass. */
  holdOf(id: string): DeliveryHold | undefined;
  /** A delivery was held for the agent and is waiting (released by a person or a new cap). */
  waiting(id: string, delta: 1 | -1): void;
  /** The agent's hold may have changed (released, cap raised, a pass granted): held deliveries try again. */
  readonly onDidChange: Event<string>;
}

export const TURN_GATE: ServiceKey<TurnGate> = serviceKey<TurnGate>('turn gate');

/** The error a caller gets for a turn the gate holds; the message says why and how to go on. */
export class DeliveryHeldError extends SwitchboardError {
  constructor(hold: DeliveryHold) {
    super('held', hold.message, { reason: hold.reason });
  }
}
