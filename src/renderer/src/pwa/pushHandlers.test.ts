import { describe, expect, it } from 'vitest';
import type { PushPayload } from '../../../shared/pushPayload';
import {
  handleNotificationClick,
  handlePush,
  notificationOptions,
  parsePushPayload,
  type ClickHost,
  type NotificationOptionsWithActions,
} from './pushHandlers';

const ATTENTION: PushPayload = {
  event: 'attention',
  tag: 'agent:p_1',
  title: 'claude asks permission',
  body: 'curl -X POST http://127.0.0.1:9/upload',
  project: 'proj1',
  entryId: 'p_1',
  actions: [
    { action: 'approve', label: 'Approve', url: 'https://box.example/act/approve-token' },
    { action: 'deny', label: 'Deny', url: 'https://box.example/act/deny-token' },
  ],
};

/** A notification shade and a network: what the handlers showed, closed and POSTed. */
function fakeHost(
  respond: (url: string) => { ok: boolean; status: number; body: string } | Error = () => ({ ok: true, status: 204, body: '' }),
) {
  const shown: { title: string; options: NotificationOptionsWithActions; closed: boolean }[] = [];
  const posted: string[] = [];
  const focused: string[] = [];
  const opened: string[] = [];
  const windows: { url: string; focus(): Promise<unknown> }[] = [];
  const host: ClickHost = {
    async showNotification(title, options) {
      // The browser's rule: a notification with the same tag replaces the one shown.
      for (const n of shown) if (n.options.tag === options.tag) n.closed = true;
      shown.push({ title, options, closed: false });
    },
    async getNotifications({ tag }) {
      return shown
        .filter((n) => !n.closed && n.options.tag === tag)
        .map((n) => ({ tag: n.options.tag, data: n.options.data, close: () => (n.closed = true) }));
    },
    async fetch(url) {
      posted.push(url);
      const answer = respond(url);
      if (answer instanceof Error) throw answer;
      return { ok: answer.ok, status: answer.status, text: async () => answer.body };
    },
    async matchWindows() {
      return windows;
    },
    async openWindow(url) {
      opened.push(url);
    },
    appUrl: 'https://box.example/',
  };
  const open = () => shown.filter((n) => !n.closed);
  const asShown = (n: (typeof shown)[number]) => ({ tag: n.options.tag, data: n.options.data, close: () => (n.closed = true) });
  return { host, shown, open, asShown, posted, focused, opened, windows };
}

describe('push payloads', () => {
  it('turn into a notification tagged per entry, its buttons labelled as the server named them', () => {
    expect(notificationOptions(ATTENTION)).toEqual({
      body: ATTENTION.body,
      tag: 'agent:p_1',
      renotify: true,
      data: { project: 'proj1', entryId: 'p_1', actions: ATTENTION.actions },
      actions: [
        { action: 'approve', title: 'Approve' },
        { action: 'deny', title: 'Deny' },
      ],
    });
  });

  it('refuse what is not a payload, and drop actions whose url is not http(s)', () => {
    expect(parsePushPayload('hello')).toBeUndefined();
    expect(parsePushPayload({ event: 'news', tag: 'x' })).toBeUndefined();
    expect(parsePushPayload({ event: 'attention', tag: '' })).toBeUndefined();
    const parsed = parsePushPayload({
      ...ATTENTION,
      actions: [...ATTENTION.actions, { action: 'x', label: 'X', url: 'javascript:alert(1)' }],
    });
    expect(parsed?.actions.map((a) => a.action)).toEqual(['approve', 'deny']);
  });
});

describe('the push handler', () => {
  it('shows attention; newer news of the same entry replaces the older; resolved closes it', async () => {
    const { host, open } = fakeHost();
    await handlePush(ATTENTION, host);
    await handlePush({ ...ATTENTION, tag: 'agent:p_2', entryId: 'p_2' }, host);
    await handlePush({ ...ATTENTION, body: 'now asks something else' }, host);
    expect(open().map((n) => [n.options.tag, n.options.body])).toEqual([
      ['agent:p_2', ATTENTION.body],
      ['agent:p_1', 'now asks something else'],
    ]);
    await handlePush({ ...ATTENTION, event: 'resolved', actions: [] }, host);
    expect(open().map((n) => n.options.tag)).toEqual(['agent:p_2']);
  });

  it('shows nothing for a message it cannot read', async () => {
    const { host, shown } = fakeHost();
    await handlePush(undefined, host);
    await handlePush({ event: 'attention' }, host);
    expect(shown).toEqual([]);
  });
});

describe('the click handler', () => {
  it('POSTs the url of the button pressed, once, and closes the notification', async () => {
    const { host, shown, open, asShown, posted } = fakeHost();
    await handlePush(ATTENTION, host);
    await handleNotificationClick('deny', asShown(shown[0]), host);
    expect(posted).toEqual(['https://box.example/act/deny-token']);
    expect(open()).toEqual([]);
  });

  it("replaces the notification with the server's refusal when the action is refused", async () => {
    const { host, shown, open, asShown } = fakeHost(() => ({ ok: false, status: 409, body: 'The prompt changed since this notification' }));
    await handlePush(ATTENTION, host);
    await handleNotificationClick('approve', asShown(shown[0]), host);
    expect(open().map((n) => [n.title, n.options.body, n.options.tag, n.options.actions])).toEqual([
      ['Approve was not done', '409: The prompt changed since this notification', 'agent:p_1', []],
    ]);
  });

  it('says so when the server cannot be reached', async () => {
    const { host, shown, open, asShown } = fakeHost(() => new TypeError('Failed to fetch'));
    await handlePush(ATTENTION, host);
    await handleNotificationClick('approve', asShown(shown[0]), host);
    expect(open()[0]?.options.body).toBe('Failed to fetch');
  });

  it('a click on the body focuses an open app window, or opens one; it POSTs nothing', async () => {
    const { host, shown, asShown, posted, opened, windows, focused } = fakeHost();
    await handlePush(ATTENTION, host);
    await handleNotificationClick('', asShown(shown[0]), host);
    expect(opened).toEqual(['https://box.example/']);
    windows.push({ url: 'https://box.example/#x', focus: async () => focused.push('app') });
    await handlePush(ATTENTION, host);
    await handleNotificationClick('', asShown(shown.at(-1)!), host);
    expect(focused).toEqual(['app']);
    expect(opened).toHaveLength(1);
    expect(posted).toEqual([]);
  });
});
