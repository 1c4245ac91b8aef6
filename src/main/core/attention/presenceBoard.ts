/**
 * Where the person is, as the windows and tabs at this machine report it: the desktop window's
 * focus and keystrokes (the Electron shell), a loopback browser tab's (serve). Present while any
 * viewer has focus; the last input is the latest of them all. A viewer that goes away is forgotten,
 * so a closed window never counts as focused.
 */
import type { Presence } from './notifyPolicy';

interface ViewerPresence {
  focused: boolean;
  lastInputAt?: number;
}

export class PresenceBoard implements Presence {
  private readonly viewers = new Map<string, ViewerPresence>();
  /** The latest input of the viewers that went away. */
  private closedInputAt: number | undefined;

  /** What `viewer` says now; an absent field keeps what it said before. */
  report(viewer: string, update: { focused?: boolean; inputAt?: number }): void {
    const before = this.viewers.get(viewer) ?? { focused: false };
    this.viewers.set(viewer, {
      focused: update.focused ?? before.focused,
      lastInputAt: Math.max(update.inputAt ?? 0, before.lastInputAt ?? 0) || undefined,
    });
  }

  /** The viewer closed: its focus no longer counts (its last input still does). */
  forget(viewer: string): void {
    const gone = this.viewers.get(viewer)?.lastInputAt;
    this.viewers.delete(viewer);
    if (gone !== undefined) this.closedInputAt = Math.max(gone, this.closedInputAt ?? 0);
  }

  focused(): boolean {
    return [...this.viewers.values()].some((v) => v.focused);
  }

  lastInputAt(): number | undefined {
    const times = [...this.viewers.values(), { lastInputAt: this.closedInputAt }].flatMap((v) =>
      v.lastInputAt === undefined ? [] : [v.lastInputAt],
    );
    return times.length > 0 ? Math.max(...times) : undefined;
  }
}
