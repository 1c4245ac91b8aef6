/** Typed timer errors with messages an agent or a person can act on. */
import { SwitchboardError } from '../../../shared/errors';

export class TimerNotFoundError extends SwitchboardError {
  constructor(id: string) {
    super('not_found', `No timer "${id}" that you can manage. timer_list shows yours (ended ones are in its history).`, { timer_id: id });
  }
}

export class TimerStateError extends SwitchboardError {
  constructor(message: string, id: string) {
    super('invalid_argument', message, { timer_id: id });
  }
}

export class TimerLimitError extends SwitchboardError {
  constructor(limit: number) {
    super('invalid_argument', `Too many live timers (${limit}). Cancel some with timer_cancel before setting more.`, { limit });
  }
}
