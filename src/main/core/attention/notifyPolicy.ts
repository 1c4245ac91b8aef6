/** Whether a new notification goes out now: quiet hours, and "only while I am away". */
import type { NotificationSettings } from '../../../shared/notifications';

/** What the app knows of the person at the desk; `serve` alone knows neither, and counts as away. */
export interface Presence {
  /** The desktop window has focus. */
  focused(): boolean;
  /** Epoch ms of the person's last keystroke or click in the desktop UI. */
  lastInputAt(): number | undefined;
}

export const AWAY: Presence = { focused: () => false, lastInputAt: () => undefined };

function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return h * 60 + m;
}

/** `from`–`to` in local time; a range past midnight (22:00–07:00) wraps. */
export function inQuietHours(quiet: NotificationSettings['quietHours'], now: Date): boolean {
  if (!quiet) return false;
  const minute = now.getHours() * 60 + now.getMinutes();
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  return from <= to ? minute >= from && minute < to : minute >= from || minute < to;
}

export function mayNotifyNow(settings: NotificationSettings, presence: Presence, now: Date): boolean {
  if (inQuietHours(settings.quietHours, now)) return false;
  const away = settings.onlyWhenAwayMinutes;
  if (away === undefined) return true;
  if (presence.focused()) return false;
  const lastInput = presence.lastInputAt();
  return lastInput === undefined || now.getTime() - lastInput >= away * 60_000;
}
