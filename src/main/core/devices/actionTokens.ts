/**
 * Answers carried by a notification: a random token per action, bound to one prompt (its project,
 * entry and fingerprint), one choice and, for Web Push, the device it was sent to. Each works once,
 * for a short while, and only for a request that also carries a paired device's credential: the
 * token alone (a URL copied out of a webhook log) answers nothing.
 */
import { randomBytes } from 'node:crypto';
import { SwitchboardError } from '../../../shared/errors';
import type { PromptChoiceKind } from '../../../shared/inbox';
import { realClock, type Clock } from '../base';

export const ACTION_TTL_MS = 15 * 60_000;

export interface PromptAction {
  projectId: string;
  entryId: string;
  /** The agent's name as the notification showed it: the confirmation names it without asking its host. */
  entryName: string;
  fingerprint: string;
  choice: PromptChoiceKind;
  /** Only this device may use it; absent: any paired device (webhook and ntfy actions). */
  deviceId?: string;
}

interface Issued extends PromptAction {
  expiresAt: number;
}

export class ActionTokens {
  private readonly issued = new Map<string, Issued>();

  constructor(private readonly clock: Clock = realClock) {}

  issue(action: PromptAction): string {
    this.prune();
    const token = randomBytes(24).toString('base64url');
    this.issued.set(token, { ...action, expiresAt: this.clock.now() + ACTION_TTL_MS });
    return token;
  }

  /** What the token would do, without using it (the confirmation page); undefined when it cannot be used. */
  peek(token: string): PromptAction | undefined {
    const issued = this.issued.get(token);
    if (!issued || issued.expiresAt <= this.clock.now()) return undefined;
    const { expiresAt: _expiresAt, ...action } = issued;
    return action;
  }

  /** The action, consumed; throws (and consumes nothing) when it is unknown, used, expired or another device's. */
  redeem(token: string, deviceId: string): PromptAction {
    const issued = this.issued.get(token);
    if (!issued)
      throw new SwitchboardError('forbidden', 'This action was already used, withdrawn or never issued: open Switchboard to answer.');
    if (issued.expiresAt <= this.clock.now()) {
      this.issued.delete(token);
      throw new SwitchboardError('forbidden', 'This action has expired: open Switchboard to answer.');
    }
    if (issued.deviceId !== undefined && issued.deviceId !== deviceId)
      throw new SwitchboardError('forbidden', 'This action was sent to another device.');
    // Every action of the same prompt goes with it: Approve used means Deny can no longer be.
    this.withdraw(issued.projectId, issued.entryId);
    const { expiresAt: _expiresAt, ...action } = issued;
    return action;
  }

  /** The prompt of `entryId` was answered or went away: its actions are void. */
  withdraw(projectId: string, entryId: string): void {
    for (const [token, issued] of this.issued) if (issued.projectId === projectId && issued.entryId === entryId) this.issued.delete(token);
  }

  private prune(): void {
    const now = this.clock.now();
    for (const [token, issued] of this.issued) if (issued.expiresAt <= now) this.issued.delete(token);
  }
}
