/**
 * Pairing a device (docs/devices.md): the desktop shows a link `/pair#code=…`; the code rides in
 * the fragment (never sent to a server or kept in the address bar), and this page trades it once,
 * with the device's name, at `POST /pair` for the device's own credential (an HttpOnly cookie).
 */
import { httpProblem } from '../common/httpProblem';

/** The page that pairs: the app answers it with the pairing form instead of connecting. */
export const PAIR_PATH = '/pair';
/** A name the person can keep or change; the server lists devices by it. */
const MAX_NAME_LENGTH = 60;

/** The one-time code in `#code=…`, or undefined. */
export function pairingCodeOf(fragment: string): string | undefined {
  const code = new URLSearchParams(fragment.replace(/^#/, '')).get('code')?.trim();
  return code ? code : undefined;
}

/** A first guess at the device's name from its user agent ("iPhone", "Android phone", …). */
export function suggestedDeviceName(userAgent: string): string {
  if (/iPhone/.test(userAgent)) return 'iPhone';
  if (/iPad/.test(userAgent)) return 'iPad';
  if (/Android/.test(userAgent)) return /Mobile/.test(userAgent) ? 'Android phone' : 'Android tablet';
  if (/Macintosh/.test(userAgent)) return 'Mac';
  if (/Windows/.test(userAgent)) return 'Windows PC';
  if (/Linux/.test(userAgent)) return 'Linux PC';
  return 'My device';
}

export function cleanDeviceName(name: string): string {
  return name
    .replace(/\p{Cc}/gu, '')
    .trim()
    .slice(0, MAX_NAME_LENGTH);
}

/** Pairs this browser: resolves with the device id, or throws the server's own words (an expired code, too many tries). */
export async function pairDevice(code: string, name: string): Promise<string> {
  const response = await fetch(PAIR_PATH, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code, name: cleanDeviceName(name) }),
  });
  if (!response.ok) throw new Error(await httpProblem(response));
  return ((await response.json()) as { deviceId: string }).deviceId;
}
