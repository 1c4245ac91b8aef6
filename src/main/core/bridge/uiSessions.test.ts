import { describe, expect, it } from 'vitest';
import { UiSessions } from './uiSessions';

describe('UI sessions', () => {
  it('a cookie value maps to its session; any valid one among several counts, made-up ones never', () => {
    const sessions = new UiSessions();
    const { value, session } = sessions.create({ kind: 'uiSecret' });
    expect(value).toMatch(/^[\w-]{43}$/);
    expect(sessions.resolve([value])).toBe(session);
    expect(sessions.resolve(['tossed', '', value])).toBe(session);
    expect(sessions.resolve(['tossed', 'other'])).toBeUndefined();
    expect(sessions.resolve([])).toBeUndefined();
  });

  it('ends after the idle time without use, and use keeps it alive', () => {
    let now = 0;
    const sessions = new UiSessions({ idleMs: 1_000, now: () => now });
    const { value, session } = sessions.create({ kind: 'uiSecret' });
    now = 900;
    sessions.touch(session);
    now = 1_800;
    expect(sessions.resolve([value])).toBe(session);
    now = 2_801;
    const ended: string[] = [];
    sessions.onRevoked((s) => ended.push(s.id));
    expect(sessions.resolve([value])).toBeUndefined();
    expect(ended).toEqual([session.id]);
    expect(sessions.isLive(session)).toBe(false);
  });

  it('revoking one session leaves the others; revokeAll ends every one and tells listeners', () => {
    const sessions = new UiSessions();
    const a = sessions.create({ kind: 'uiSecret' });
    const b = sessions.create({ kind: 'uiSecret' });
    const ended: string[] = [];
    sessions.onRevoked((s) => ended.push(s.id));
    expect(sessions.revoke(a.session.id)).toBe(true);
    expect(sessions.revoke(a.session.id)).toBe(false);
    expect(sessions.resolve([a.value])).toBeUndefined();
    expect(sessions.resolve([b.value])).toBe(b.session);
    sessions.revokeAll();
    expect(sessions.list()).toEqual([]);
    expect(ended).toEqual([a.session.id, b.session.id]);
  });

  it('keeps at most maxSessions, the least recently used going first', () => {
    let now = 0;
    const sessions = new UiSessions({ maxSessions: 2, now: () => now });
    const first = sessions.create({ kind: 'uiSecret' });
    now = 1;
    const second = sessions.create({ kind: 'uiSecret' });
    now = 2;
    sessions.resolve([first.value]);
    now = 3;
    sessions.create({ kind: 'uiSecret' });
    expect(sessions.resolve([second.value])).toBeUndefined();
    expect(sessions.resolve([first.value])).toBe(first.session);
  });
});
