import { describe, expect, it } from 'vitest';
import { mayNotifyNow } from './notifyPolicy';
import { PresenceBoard } from './presenceBoard';

const AWAY_5_MIN = { webPush: true, webhooks: [], ntfy: [], onlyWhenAwayMinutes: 5 };
const NOW = new Date(2026, 10, 29, 12, 0, 0);
const minutesAgo = (m: number) => NOW.getTime() - m * 60_000;

describe('presence at this machine', () => {
  it('holds notifications back while the desktop window has focus, and sends once it lost it and no key was pressed lately', () => {
    const board = new PresenceBoard();
    expect(mayNotifyNow(AWAY_5_MIN, board, NOW)).toBe(true); // nobody reported: away
    board.report('window', { focused: true, inputAt: minutesAgo(30) });
    expect(mayNotifyNow(AWAY_5_MIN, board, NOW)).toBe(false);
    board.report('window', { focused: false });
    expect(mayNotifyNow(AWAY_5_MIN, board, NOW)).toBe(true);
    board.report('window', { inputAt: minutesAgo(2) }); // a keystroke into the window two minutes ago
    expect(mayNotifyNow(AWAY_5_MIN, board, NOW)).toBe(false);
    expect(mayNotifyNow({ ...AWAY_5_MIN, onlyWhenAwayMinutes: 1 }, board, NOW)).toBe(true);
  });

  it('counts any viewer: one focused is enough, the latest input of all is the last', () => {
    const board = new PresenceBoard();
    board.report('window', { focused: false, inputAt: minutesAgo(20) });
    board.report('tab-1', { focused: true, inputAt: minutesAgo(10) });
    expect(board.focused()).toBe(true);
    expect(board.lastInputAt()).toBe(minutesAgo(10));
    board.report('tab-1', { inputAt: minutesAgo(15) }); // an older report never moves the time back
    expect(board.lastInputAt()).toBe(minutesAgo(10));
  });

  it('forgets a closed viewer’s focus but keeps its last input', () => {
    const board = new PresenceBoard();
    board.report('tab-1', { focused: true, inputAt: minutesAgo(3) });
    board.forget('tab-1');
    expect(board.focused()).toBe(false);
    expect(board.lastInputAt()).toBe(minutesAgo(3));
    expect(mayNotifyNow(AWAY_5_MIN, board, NOW)).toBe(false);
  });
});
