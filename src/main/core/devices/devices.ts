/**
 * The devices capability: pairing (one-time code, QR), the paired devices' credentials, and the
 * single-use answers notifications carry. One instance per `serve` or app, shared by every project.
 */
import { join } from 'node:path';
import QRCode from 'qrcode';
import { SwitchboardError } from '../../../shared/errors';
import type { DeviceInfo, PairingOffer, PushSubscriptionJson } from '../../../shared/devices';
import { realClock, type Clock } from '../base';
import { identityKeyOf, loadOrCreateSecret } from '../security';
import { ActionTokens } from './actionTokens';
import { DeviceStore, type DevicePrincipal } from './deviceStore';
import { PairingCodes } from './pairingCodes';

const DEVICES_FILE = 'devices.json';
/** Kept across runs, so a device's page recognises a restarted server as the same one. */
const IDENTITY_FILE = 'device-identity';

interface DevicesOptions {
  dataDir: string;
  /** The address devices reach (`--public-url`, or `https://ADDR:PORT` of `--listen`); absent: loopback only. */
  publicUrl?: string;
  clock?: Clock;
}

export class Devices {
  readonly actions: ActionTokens;
  /** The key this server proves itself with to paired devices' pages (apart from the loopback UI's). */
  readonly identityKey: string;
  private readonly store: DeviceStore;
  private readonly codes: PairingCodes;

  constructor(private readonly options: DevicesOptions) {
    const clock = options.clock ?? realClock;
    this.store = new DeviceStore(join(options.dataDir, DEVICES_FILE), clock);
    this.codes = new PairingCodes(clock);
    this.actions = new ActionTokens(clock);
    this.identityKey = identityKeyOf(loadOrCreateSecret(join(options.dataDir, IDENTITY_FILE)));
  }

  get publicUrl(): string | undefined {
    return this.options.publicUrl;
  }

  list(): DeviceInfo[] {
    return this.store.list();
  }

  /** A new one-time code, with the link and QR code to open it on the device. */
  async startPairing(): Promise<PairingOffer> {
    const { code, expiresAt } = this.codes.start();
    const base = this.options.publicUrl;
    if (!base) return { code, expiresAt };
    const url = `${base.replace(/\/+$/, '')}/pair#code=${code}`;
    return { code, expiresAt, url, qrSvg: await QRCode.toString(url, { type: 'svg', margin: 1 }) };
  }

  /** Redeems a pairing code for a new device credential (returned once). */
  pair(code: string, name: string): { device: DevicePrincipal; credential: string } {
    this.codes.redeem(code);
    return this.store.add(name);
  }

  authenticate(credential: string | undefined): DevicePrincipal | undefined {
    return this.store.authenticate(credential);
  }

  /** The device as it is now (its control setting changed, or it was revoked). */
  current(deviceId: string): DevicePrincipal | undefined {
    return this.store.find(deviceId);
  }

  revoke(deviceId: string): { revoked: true } {
    this.store.revoke(deviceId);
    return { revoked: true };
  }

  setControl(deviceId: string, mayControl: boolean): DeviceInfo {
    return this.store.setControl(deviceId, mayControl);
  }

  subscribe(device: DevicePrincipal, subscription: PushSubscriptionJson): void {
    if (!this.store.find(device.deviceId)) throw new SwitchboardError('unauthorized', 'This device was revoked: pair it again.');
    this.store.addSubscription(device.deviceId, subscription);
  }

  unsubscribe(endpoint: string): boolean {
    return this.store.dropSubscription(endpoint);
  }

  subscriptions(): { deviceId: string; subscription: PushSubscriptionJson }[] {
    return this.store.subscriptions();
  }
}
