/**
 * Paired devices (docs/devices.md): a phone or another computer that reaches `serve` or the app
 * beyond loopback with its own revocable credential, and what it may do there.
 */
import { z } from 'zod';
import { NotificationSettingsSchema, type ChannelTestResult, type NotificationSettings } from './notifications';

export interface DeviceInfo {
  id: string;
  name: string;
  /** Epoch ms. */
  pairedAt: number;
  /** Epoch ms of its last authenticated request. */
  lastUsedAt?: number;
  /** May start and stop entries (off: status, screens and answers only). */
  mayControl: boolean;
  /** Web Push subscriptions it registered. */
  pushSubscriptions: number;
}

export interface PairingOffer {
  /** The one-time code (also inside `url`'s fragment). */
  code: string;
  /** Epoch ms after which the code is refused. */
  expiresAt: number;
  /** `<public url>/pair#code=…`, when a public address is configured. */
  url?: string;
  /** The same URL as an SVG QR code. */
  qrSvg?: string;
}

const DEVICE_NAME_MAX = 80;
/** A day: beyond it the person is away under any setting. */
const MAX_IDLE_MS = 24 * 3_600_000;

export const PairRequestSchema = z.strictObject({
  code: z.string().trim().min(1, 'the pairing code is required').max(64),
  name: z.string().trim().min(1, 'name the device').max(DEVICE_NAME_MAX),
});

/** A browser's PushSubscription.toJSON(): where to send and the keys to encrypt for (RFC 8291). */
export const PushSubscriptionSchema = z.object({
  endpoint: z
    .string()
    .url()
    .max(2048)
    .refine((url) => url.startsWith('https://'), 'a push endpoint is an https:// URL'),
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({
    p256dh: z.string().regex(/^[\w-]{80,100}$/, 'p256dh is a base64url P-256 public key'),
    auth: z.string().regex(/^[\w-]{16,32}$/, 'auth is a base64url 16-byte secret'),
  }),
});
export type PushSubscriptionJson = z.infer<typeof PushSubscriptionSchema>;

const DeviceIdArgs = z.strictObject({ deviceId: z.string().min(1).max(64) });
const SetDeviceControlArgs = z.strictObject({ deviceId: z.string().min(1).max(64), mayControl: z.boolean() });

/** Devices and notification settings: the desktop's commands (never a device's own). */
export const DeviceCommandArgs = {
  /** The paired devices, with their last use. */
  listDevices: z.strictObject({}),
  /** A new one-time pairing code (the previous one stops working), with its link and QR code. */
  startPairing: z.strictObject({}),
  revokeDevice: DeviceIdArgs,
  /** Whether the device may start, stop and type into entries. */
  setDeviceControl: SetDeviceControlArgs,
  /** Where notifications go (Web Push, webhooks, ntfy), quiet hours and "only while away". */
  getNotificationSettings: z.strictObject({}),
  setNotificationSettings: z.strictObject({ settings: NotificationSettingsSchema }),
  /** Sends a test notification through every channel now; says which worked. */
  sendTestNotification: z.strictObject({}),
  /** A loopback tab says whether the person is at it ("only while I am away"); the session names the tab. */
  reportPresence: z.strictObject({ focused: z.boolean(), idleMs: z.number().int().min(0).max(MAX_IDLE_MS) }),
} as const;

export type DeviceCommandName = keyof typeof DeviceCommandArgs;

export interface DeviceResults {
  listDevices: { devices: DeviceInfo[]; publicUrl?: string };
  startPairing: PairingOffer;
  revokeDevice: { revoked: true };
  setDeviceControl: DeviceInfo;
  getNotificationSettings: NotificationSettings;
  setNotificationSettings: NotificationSettings;
  sendTestNotification: { results: ChannelTestResult[] };
  reportPresence: { reported: true };
}
