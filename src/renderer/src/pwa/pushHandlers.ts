/**
 * The service worker's work as plain functions over the few browser objects they touch, so unit
 * tests call them with stand-ins: a push shows, replaces or withdraws an agent's notification; a
 * click on one of its buttons POSTs the button's url, a click elsewhere brings the app forward.
 */
import type { PushAction, PushPayload } from '../../../shared/pushPayload';

/** What the notification remembers for its click. */
interface NotificationData {
  project: string;
  entryId: string;
  actions: PushAction[];
}

interface ShownNotification {
  readonly tag: string;
  readonly data: unknown;
  close(): void;
}

export interface NotificationOptionsWithActions {
  body: string;
  tag: string;
  /** A newer message of the same agent alerts again instead of changing the old one silently. */
  renotify: boolean;
  data: NotificationData;
  actions: { action: string; title: string }[];
}

interface NotificationHost {
  showNotification(title: string, options: NotificationOptionsWithActions): Promise<void>;
  getNotifications(filter: { tag: string }): Promise<readonly ShownNotification[]>;
}

interface WindowClient {
  readonly url: string;
  focus(): Promise<unknown>;
}

export interface ClickHost extends NotificationHost {
  fetch(url: string, init: { method: 'POST'; credentials: 'include' }): Promise<{ ok: boolean; status: number; text(): Promise<string> }>;
  matchWindows(): Promise<readonly WindowClient[]>;
  openWindow(url: string): Promise<unknown>;
  /** The app's address (the service worker's scope). */
  appUrl: string;
}

/** The payload, or undefined for anything else (a push from an older server, a test message): shown as nothing rather than as garbage. */
export function parsePushPayload(data: unknown): PushPayload | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const p = data as Record<string, unknown>;
  const isText = (v: unknown): v is string => typeof v === 'string';
  if ((p.event !== 'attention' && p.event !== 'resolved') || !isText(p.tag) || p.tag === '') return undefined;
  const actions = Array.isArray(p.actions) ? p.actions.filter(isPushAction) : [];
  return {
    event: p.event,
    tag: p.tag,
    title: isText(p.title) ? p.title : 'Switchboard',
    body: isText(p.body) ? p.body : '',
    project: isText(p.project) ? p.project : '',
    entryId: isText(p.entryId) ? p.entryId : '',
    actions,
  };
}

function isPushAction(value: unknown): value is PushAction {
  if (typeof value !== 'object' || value === null) return false;
  const a = value as Record<string, unknown>;
  return typeof a.action === 'string' && typeof a.label === 'string' && typeof a.url === 'string' && isHttpUrl(a.url);
}

function isHttpUrl(text: string): boolean {
  try {
    return ['https:', 'http:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

export function notificationOptions(payload: PushPayload): NotificationOptionsWithActions {
  return {
    body: payload.body,
    tag: payload.tag,
    renotify: true,
    data: { project: payload.project, entryId: payload.entryId, actions: payload.actions },
    actions: payload.actions.map((a) => ({ action: a.action, title: a.label })),
  };
}

/** `attention` shows (replacing the same tag's older one); `resolved` closes what is shown under the tag. */
export async function handlePush(raw: unknown, host: NotificationHost): Promise<void> {
  const payload = parsePushPayload(raw);
  if (!payload) return;
  if (payload.event === 'attention') return host.showNotification(payload.title, notificationOptions(payload));
  for (const shown of await host.getNotifications({ tag: payload.tag })) shown.close();
}

/**
 * A button: POST its url (the server checks the device and that the prompt is still the one
 * asked); a refusal replaces the notification with the server's words. The body: focus the app.
 */
export async function handleNotificationClick(action: string, notification: ShownNotification, host: ClickHost): Promise<void> {
  notification.close();
  const data = notification.data as Partial<NotificationData> | undefined;
  const chosen = action ? data?.actions?.find((a) => a.action === action) : undefined;
  if (!chosen) return focusApp(host);
  let refusal: string | undefined;
  try {
    const response = await host.fetch(chosen.url, { method: 'POST', credentials: 'include' });
    if (!response.ok) refusal = `${response.status}: ${(await response.text()).slice(0, 200)}`;
  } catch (err) {
    refusal = err instanceof Error ? err.message : String(err);
  }
  if (refusal === undefined) return;
  await host.showNotification(`${chosen.label} was not done`, {
    body: refusal,
    tag: notification.tag,
    renotify: true,
    data: { project: data?.project ?? '', entryId: data?.entryId ?? '', actions: [] },
    actions: [],
  });
}

async function focusApp(host: ClickHost): Promise<void> {
  const open = (await host.matchWindows()).find((w) => w.url.startsWith(host.appUrl));
  if (open) await open.focus();
  else await host.openWindow(host.appUrl);
}
