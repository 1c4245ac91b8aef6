import { describe, expect, it } from 'vitest';
import type { NotificationSettings } from '../../../shared/notifications';
import { formOf, isAtThisMachine, lastUseLabel, settingsOf } from './notificationForm';

const SETTINGS: NotificationSettings = {
  webPush: true,
  webhooks: [{ url: 'https://hooks.example.com/••••9f2a' }, { url: 'http://127.0.0.1:9000/hook' }],
  ntfy: [
    { server: 'https://ntfy.example.com/base', topic: 'agents', token: '••••1234' },
    { server: 'https://ntfy.sh', topic: 'second' },
  ],
  quietHours: { from: '23:00', to: '06:30' },
  onlyWhenAwayMinutes: 10,
};

describe('the notification form', () => {
  it('round-trips the settings as the server gave them, masked secrets and further ntfy topics included', () => {
    const form = formOf(SETTINGS);
    expect(form).toMatchObject({
      webhooks: 'https://hooks.example.com/••••9f2a\nhttp://127.0.0.1:9000/hook',
      ntfyUrl: 'https://ntfy.example.com/base/agents',
    });
    expect(settingsOf(form)).toEqual({ settings: SETTINGS });
  });

  it('reads an ntfy topic URL, blank lines and unchecked options', () => {
    const form = {
      ...formOf({ webPush: false, webhooks: [], ntfy: [] }),
      webhooks: '\n https://a.example/h \n\n',
      ntfyUrl: 'https://ntfy.sh/my_topic',
      ntfyToken: ' tk_x ',
    };
    expect(settingsOf(form)).toEqual({
      settings: {
        webPush: false,
        webhooks: [{ url: 'https://a.example/h' }],
        ntfy: [{ server: 'https://ntfy.sh', topic: 'my_topic', token: 'tk_x' }],
      },
    });
  });

  it('names the field of the first problem', () => {
    const empty = formOf({ webPush: true, webhooks: [], ntfy: [] });
    expect(settingsOf({ ...empty, webhooks: 'http://example.com/hook' })).toEqual({
      problem: 'Webhooks: use an https:// URL (plain http only to 127.0.0.1 / localhost)',
    });
    expect(settingsOf({ ...empty, ntfyUrl: 'ntfy.sh/x' })).toEqual({
      problem: 'ntfy: "ntfy.sh/x" is not a URL (write it as https://ntfy.sh/your_topic)',
    });
    expect(settingsOf({ ...empty, ntfyUrl: 'https://ntfy.sh/' })).toEqual({
      problem: 'ntfy: give the topic URL, e.g. https://ntfy.sh/your_topic',
    });
    expect(settingsOf({ ...empty, away: true, awayMinutes: '0' })).toMatchObject({ problem: expect.stringMatching(/^Only while away/) });
    expect(settingsOf({ ...empty, quiet: true, quietFrom: '25:00' })).toMatchObject({ problem: 'Quiet hours: a time is HH:MM (24 h)' });
  });

  it('says when a device was last used', () => {
    const now = 1_700_000_000_000;
    expect(lastUseLabel(undefined, now)).toBe('never');
    expect(lastUseLabel(now - 30_000, now)).toBe('just now');
    expect(lastUseLabel(now - 12 * 60_000, now)).toBe('12 min ago');
    expect(lastUseLabel(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(lastUseLabel(now - 3 * 86_400_000, now)).toBe('3 days ago');
  });

  it('offers the device commands only to the person at this machine', () => {
    expect(isAtThisMachine('127.0.0.1', false)).toBe(true);
    expect(isAtThisMachine('', true)).toBe(true);
    expect(isAtThisMachine('10.1.2.3', false)).toBe(false);
    expect(isAtThisMachine('phone.example.ts.net', false)).toBe(false);
  });
});
