/**
 * Bounds the pattern waits one caller (one token) holds open at once: each wait keeps a listener
 * on an entry's output and tests every line against its pattern, so an agent looping on
 * wait_for_pattern must not multiply that work without end.
 */
import { SwitchboardError } from '../../../shared/errors';

export const MAX_PATTERN_WAITS_PER_CALLER = 16;

export class WaitLimiter {
  private readonly open = new Map<string, number>();

  constructor(private readonly max = MAX_PATTERN_WAITS_PER_CALLER) {}

  /** Takes a slot for `callerKey`; the returned function gives it back (idempotent). */
  acquire(callerKey: string): () => void {
    const count = this.open.get(callerKey) ?? 0;
    if (count >= this.max) {
      throw new SwitchboardError(
        'too_many_waits',
        `Too many pattern waits open for this caller (${this.max}): wait for one to end or cancel it before starting another`,
        { limit: this.max },
      );
    }
    this.open.set(callerKey, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(callerKey) ?? 1) - 1;
      if (left > 0) this.open.set(callerKey, left);
      else this.open.delete(callerKey);
    };
  }

  countFor(callerKey: string): number {
    return this.open.get(callerKey) ?? 0;
  }
}
