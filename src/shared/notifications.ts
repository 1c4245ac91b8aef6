/**
 * Where Switchboard calls a person away from the desk (docs/devices.md): Web Push to paired
 * devices, webhooks and ntfy. Set per user in the data directory, never by a project: a cloned
 * repository must not redirect anyone's notifications.
 */
import { z } from 'zod';

/** https anywhere; plain http only to this machine (a local relay or ntfy server). */
const DeliveryUrl = z
  .string()
  .url()
  .max(2048)
  .refine((value) => {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname));
  }, 'use an https:// URL (plain http only to 127.0.0.1 / localhost)');

const ClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time is HH:MM (24 h)');

export const NtfyTargetSchema = z.strictObject({
  /** The ntfy server, e.g. https://ntfy.sh. */
  server: DeliveryUrl,
  /** The topic (ntfy: letters, digits, - and _, up to 64). */
  topic: z.string().regex(/^[-\w]{1,64}$/, 'an ntfy topic is letters, digits, - and _ (1–64)'),
  /** An access token for a protected topic. */
  token: z.string().min(1).max(512).optional(),
});
export type NtfyTarget = z.infer<typeof NtfyTargetSchema>;

export const WebhookTargetSchema = z.strictObject({ url: DeliveryUrl });

export const NotificationSettingsSchema = z.strictObject({
  /** Web Push to every paired device that subscribed. */
  webPush: z.boolean().default(true),
  webhooks: z.array(WebhookTargetSchema).max(10).default([]),
  ntfy: z.array(NtfyTargetSchema).max(5).default([]),
  /** Nothing new is sent between these local times (what is already out is still withdrawn). */
  quietHours: z.strictObject({ from: ClockTime, to: ClockTime }).optional(),
  /** Only while away: nothing while the desktop window has focus or the person typed within this many minutes. */
  onlyWhenAwayMinutes: z.number().int().min(1).max(240).optional(),
});
export type NotificationSettings = z.output<typeof NotificationSettingsSchema>;

/** Which channel a test reached, and why not when it failed. */
export interface ChannelTestResult {
  channel: string;
  ok: boolean;
  error?: string;
}

/** One notification action: `url` answers only with a paired device's credential, once. */
export interface NotificationAction {
  action: 'approve' | 'deny';
  label: string;
  url: string;
}

/** What a webhook receives (JSON POST). */
export interface WebhookPayload {
  event: 'attention' | 'resolved';
  entry: { id: string; name: string };
  project: { id: string; name: string };
  reason: string;
  /** What the agent asks (its prompt as on screen), when it asks something. */
  question?: string;
  /** The prompt's known answers (Approve / Deny), each usable once by a paired device. */
  actions: NotificationAction[];
  /** Epoch ms. */
  at: number;
}
