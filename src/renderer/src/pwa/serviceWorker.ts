/**
 * The phone view's service worker (built to /sw.js, scope /): shows and withdraws the server's push
 * notifications and answers their buttons (pushHandlers.ts). It caches nothing: the app is live
 * data from the core, and a stale shell would only hide that the server is gone.
 */
import { handleNotificationClick, handlePush, type ClickHost, type NotificationOptionsWithActions } from './pushHandlers';

/** The parts of ServiceWorkerGlobalScope used here (the DOM lib the renderer compiles with does not declare it). */
interface ExtendableEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  readonly data: { json(): unknown } | null;
}
interface NotificationEvent extends ExtendableEvent {
  readonly action: string;
  readonly notification: { readonly tag: string; readonly data: unknown; close(): void };
}
interface ServiceWorkerScope {
  readonly registration: {
    readonly scope: string;
    showNotification(title: string, options: NotificationOptionsWithActions): Promise<void>;
    getNotifications(filter: { tag: string }): Promise<{ readonly tag: string; readonly data: unknown; close(): void }[]>;
  };
  readonly clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<{ readonly url: string; focus(): Promise<unknown> }[]>;
    openWindow(url: string): Promise<unknown>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
}

const sw = self as unknown as ServiceWorkerScope;

const host: ClickHost = {
  showNotification: (title, options) => sw.registration.showNotification(title, options),
  getNotifications: (filter) => sw.registration.getNotifications(filter),
  fetch: (url, init) => fetch(url, init),
  matchWindows: () => sw.clients.matchAll({ type: 'window', includeUncontrolled: true }),
  openWindow: (url) => sw.clients.openWindow(url),
  appUrl: sw.registration.scope,
};

// A new version takes over at once: it holds no state an old page depends on.
sw.addEventListener('install', (event) => event.waitUntil(sw.skipWaiting()));
sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim()));
sw.addEventListener('push', (event) => event.waitUntil(handlePush(readJson(event), host)));
sw.addEventListener('notificationclick', (event) => event.waitUntil(handleNotificationClick(event.action, event.notification, host)));

function readJson(event: PushEvent): unknown {
  try {
    return event.data?.json();
  } catch {
    return undefined;
  }
}
