/**
 * "Notify me on this device": a Web Push subscription with the server's VAPID key, handed to the
 * server (docs/devices.md: GET /push/key, POST /push/subscribe, POST /push/unsubscribe).
 */
import { httpProblem } from '../common/httpProblem';
import { canUseServiceWorker } from './registerServiceWorker';

/** Why this browser cannot take pushes here, in words a person can act on; undefined when it can. */
export function pushUnavailableReason(): string | undefined {
  if (!window.isSecureContext) return 'Notifications need HTTPS: open this page through the address serve printed for devices.';
  if (!canUseServiceWorker()) return 'This browser has no service workers here, so it cannot receive notifications.';
  if (!('PushManager' in window) || !('Notification' in window))
    return 'This browser has no Push API here. On iPhone and iPad: Share → Add to Home Screen, then open Switchboard from there.';
  return undefined;
}

/** A VAPID public key (base64url, as web-push prints it) as the bytes PushManager.subscribe takes. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  if (pushUnavailableReason()) return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

export async function subscribeThisDevice(): Promise<void> {
  if ((await Notification.requestPermission()) !== 'granted')
    throw new Error('Notifications are blocked for this site: allow them in the browser settings, then try again.');
  const keyResponse = await fetch('/push/key');
  if (!keyResponse.ok) throw new Error(`No push notifications from this server: ${await httpProblem(keyResponse)}`);
  const { publicKey } = (await keyResponse.json()) as { publicKey: string };
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: applicationServerKey(publicKey),
  });
  await postJson('/push/subscribe', subscription.toJSON());
}

export async function unsubscribeThisDevice(subscription: PushSubscription): Promise<void> {
  await postJson('/push/unsubscribe', { endpoint: subscription.endpoint });
  await subscription.unsubscribe();
}

async function postJson(url: string, body: unknown): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(await httpProblem(response));
}
