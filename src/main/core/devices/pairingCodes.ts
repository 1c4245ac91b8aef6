/**
 * One-time pairing codes: one live code at a time, short-lived, and guarded against guessing. A
 * wrong guess counts against a window shared by every caller (an attacker changes addresses
 * freely); past the limit every attempt is refused until the window passes, and a code that drew
 * too many wrong guesses is burnt, so the person starts a new pairing.
 */
import { randomInt } from 'node:crypto';
import { SwitchboardError } from '../../../shared/errors';
import { realClock, type Clock } from '../base';
import { tokensEqual } from '../security';

/** No 0/O, 1/I/L: read off a screen and typed on a phone. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** 10 symbols of 31: about 50 bits, against at most a handful of guesses per minute. */
const CODE_LENGTH = 10;
export const PAIRING_CODE_TTL_MS = 5 * 60_000;
export const FAILED_ATTEMPTS_PER_WINDOW = 5;
export const ATTEMPT_WINDOW_MS = 60_000;
/** Wrong guesses after which the live code is burnt. */
const FAILURES_BURNING_A_CODE = 10;

interface LiveCode {
  code: string;
  expiresAt: number;
  failures: number;
}

export class PairingCodes {
  private live: LiveCode | undefined;
  private failures: number[] = [];

  constructor(private readonly clock: Clock = realClock) {}

  /** A new code; the previous one stops working. */
  start(): { code: string; expiresAt: number } {
    let code = '';
    for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
    this.live = { code, expiresAt: this.clock.now() + PAIRING_CODE_TTL_MS, failures: 0 };
    return { code, expiresAt: this.live.expiresAt };
  }

  /** Consumes the code, or throws saying why not (rate limit, expired, wrong). */
  redeem(given: string): void {
    const now = this.clock.now();
    this.failures = this.failures.filter((at) => now - at < ATTEMPT_WINDOW_MS);
    if (this.failures.length >= FAILED_ATTEMPTS_PER_WINDOW) {
      const retryIn = Math.ceil((this.failures[0] + ATTEMPT_WINDOW_MS - now) / 1000);
      throw new SwitchboardError('forbidden', `Too many wrong pairing codes: try again in ${retryIn} s.`, { retryAfterSeconds: retryIn });
    }
    const live = this.live;
    const normalized = given.trim().toUpperCase().replace(/[\s-]/g, '');
    if (live && live.expiresAt > now && tokensEqual(normalized, live.code)) {
      this.live = undefined;
      return;
    }
    this.failures.push(now);
    if (live && live.expiresAt <= now) {
      this.live = undefined;
      throw new SwitchboardError('unauthorized', 'This pairing code has expired: start a new pairing on the desktop.');
    }
    if (live && ++live.failures >= FAILURES_BURNING_A_CODE) this.live = undefined;
    throw new SwitchboardError('unauthorized', 'Wrong or used pairing code: check it, or start a new pairing on the desktop.');
  }
}
