/**
 * Paired devices and their credentials, kept in the data directory (0600). Only a hash of each
 * credential is stored: the file alone lets no one in. A device's push subscriptions live with it,
 * so revoking the device also stops its pushes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { SwitchboardError } from '../../../shared/errors';
import { PushSubscriptionSchema, type DeviceInfo, type PushSubscriptionJson } from '../../../shared/devices';
import { realClock, writeFileAtomic, type Clock } from '../base';
import { generateToken } from '../security';

const StoredDevice = z.object({
  id: z.string(),
  name: z.string(),
  credentialHash: z.string().regex(/^[0-9a-f]{64}$/),
  pairedAt: z.number(),
  lastUsedAt: z.number().optional(),
  mayControl: z.boolean(),
  subscriptions: z.array(PushSubscriptionSchema),
});
type StoredDevice = z.infer<typeof StoredDevice>;
const StoredFile = z.object({ devices: z.array(StoredDevice) });

/** A device as an authenticated request sees it. */
export interface DevicePrincipal {
  kind: 'device';
  deviceId: string;
  name: string;
  mayControl: boolean;
}

/** Last-use times are kept to the minute: a busy phone does not rewrite the file per request. */
const LAST_USE_RESOLUTION_MS = 60_000;
/** Subscriptions one device may hold (one per browser profile; a few is plenty). */
const MAX_SUBSCRIPTIONS_PER_DEVICE = 5;

function hashCredential(credential: string): string {
  return createHash('sha256').update(credential).digest('hex');
}

export class DeviceStore {
  private devices: StoredDevice[];

  constructor(
    private readonly file: string,
    private readonly clock: Clock = realClock,
  ) {
    this.devices = load(file);
  }

  list(): DeviceInfo[] {
    return this.devices.map((d) => ({
      id: d.id,
      name: d.name,
      pairedAt: d.pairedAt,
      ...(d.lastUsedAt !== undefined && { lastUsedAt: d.lastUsedAt }),
      mayControl: d.mayControl,
      pushSubscriptions: d.subscriptions.length,
    }));
  }

  /** A new device; its credential is returned once and never stored in clear. */
  add(name: string): { device: DevicePrincipal; credential: string } {
    const credential = generateToken();
    const stored: StoredDevice = {
      id: `dev_${randomBytes(6).toString('hex')}`,
      name,
      credentialHash: hashCredential(credential),
      pairedAt: this.clock.now(),
      mayControl: false,
      subscriptions: [],
    };
    this.devices.push(stored);
    this.save();
    return { device: principalOf(stored), credential };
  }

  /** The device holding `credential`, its last use noted; undefined for an unknown or revoked one. */
  authenticate(credential: string | undefined): DevicePrincipal | undefined {
    if (!credential) return undefined;
    const hash = hashCredential(credential);
    const device = this.devices.find((d) => d.credentialHash === hash);
    if (!device) return undefined;
    const now = this.clock.now();
    if (device.lastUsedAt === undefined || now - device.lastUsedAt >= LAST_USE_RESOLUTION_MS) {
      device.lastUsedAt = now;
      this.save();
    }
    return principalOf(device);
  }

  /** The device now, or undefined once revoked (a principal checked again before it acts). */
  find(deviceId: string): DevicePrincipal | undefined {
    const device = this.devices.find((d) => d.id === deviceId);
    return device && principalOf(device);
  }

  revoke(deviceId: string): void {
    this.mustFind(deviceId);
    this.devices = this.devices.filter((d) => d.id !== deviceId);
    this.save();
  }

  setControl(deviceId: string, mayControl: boolean): DeviceInfo {
    this.mustFind(deviceId).mayControl = mayControl;
    this.save();
    return this.list().find((d) => d.id === deviceId)!;
  }

  addSubscription(deviceId: string, subscription: PushSubscriptionJson): void {
    const device = this.mustFind(deviceId);
    this.dropSubscription(subscription.endpoint);
    device.subscriptions = [...device.subscriptions, subscription].slice(-MAX_SUBSCRIPTIONS_PER_DEVICE);
    this.save();
  }

  /** Forgets a subscription wherever it is (the device unsubscribed, or the push service said it is gone). */
  dropSubscription(endpoint: string): boolean {
    let dropped = false;
    for (const device of this.devices) {
      const kept = device.subscriptions.filter((s) => s.endpoint !== endpoint);
      dropped ||= kept.length !== device.subscriptions.length;
      device.subscriptions = kept;
    }
    if (dropped) this.save();
    return dropped;
  }

  /** Every subscription with the device that holds it. */
  subscriptions(): { deviceId: string; subscription: PushSubscriptionJson }[] {
    return this.devices.flatMap((d) => d.subscriptions.map((subscription) => ({ deviceId: d.id, subscription })));
  }

  private mustFind(deviceId: string): StoredDevice {
    const device = this.devices.find((d) => d.id === deviceId);
    if (!device) throw new SwitchboardError('not_found', `No paired device has the id "${deviceId}" (revoked already?).`);
    return device;
  }

  private save(): void {
    writeFileAtomic(this.file, `${JSON.stringify({ devices: this.devices }, null, 2)}\n`, 0o600);
  }
}

function principalOf(device: StoredDevice): DevicePrincipal {
  return { kind: 'device', deviceId: device.id, name: device.name, mayControl: device.mayControl };
}

/** A missing file is no devices; an unreadable one is refused loudly rather than silently emptied. */
function load(file: string): StoredDevice[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const parsed = StoredFile.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${file} is not a valid devices file; fix or remove it (every device then pairs again)`);
  return parsed.data.devices;
}
