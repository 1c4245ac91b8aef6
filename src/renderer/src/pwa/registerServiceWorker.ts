/**
 * Registers /sw.js where it can work: served over HTTPS or from loopback (a secure context), by
 * `serve` (the Electron window loads the page from a file and never gets pushes). A failure only
 * means no notifications: the page says so where they are offered.
 */
const SERVICE_WORKER_URL = '/sw.js';

export function canUseServiceWorker(): boolean {
  return window.isSecureContext && 'serviceWorker' in navigator && location.protocol.startsWith('http');
}

export function registerServiceWorker(): void {
  if (!canUseServiceWorker()) return;
  navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).catch(() => undefined);
}
