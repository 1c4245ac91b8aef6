import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../base';
import { Devices } from './devices';
import { assertDeviceMayCall } from './devicePolicy';
import { deviceCommandHandler } from './deviceCommands';
import { ATTEMPT_WINDOW_MS, FAILED_ATTEMPTS_PER_WINDOW, PAIRING_CODE_TTL_MS } from './pairingCodes';
import { ACTION_TTL_MS } from './actionTokens';

function setup(publicUrl?: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-devices-'));
  const clock = new VirtualClock();
  return { dataDir, clock, devices: new Devices({ dataDir, clock, publicUrl }) };
}

const SUBSCRIPTION = {
  endpoint: 'https://push.example/sub/1',
  keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) },
};

describe('pairing', () => {
  it('trades a one-time code for a credential stored only as a hash, in a 0600 file', async () => {
    const { devices, dataDir } = setup('https://phone.example');
    const offer = await devices.startPairing();
    expect(offer.url).toBe(`https://phone.example/pair#code=${offer.code}`);
    expect(offer.qrSvg).toMatch(/^<svg/);
    const { device, credential } = devices.pair(offer.code.toLowerCase(), 'My phone');
    expect(devices.authenticate(credential)).toEqual(device);
    const file = join(dataDir, 'devices.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain(credential);
    expect(() => devices.pair(offer.code, 'Second')).toThrow(/Wrong or used pairing code/);
    expect(new Devices({ dataDir }).authenticate(credential)?.name).toBe('My phone');
  });

  it('refuses an expired code', async () => {
    const { devices, clock } = setup();
    const { code } = await devices.startPairing();
    clock.advanceTo(clock.now() + PAIRING_CODE_TTL_MS);
    expect(() => devices.pair(code, 'Late')).toThrow(/expired/);
  });

  it('refuses every attempt, even the right code, once too many wrong guesses came in a window', async () => {
    const { devices, clock } = setup();
    const { code } = await devices.startPairing();
    for (let i = 0; i < FAILED_ATTEMPTS_PER_WINDOW; i++) expect(() => devices.pair(`WRONG${i}`, 'x')).toThrow(/Wrong/);
    expect(() => devices.pair(code, 'x')).toThrow(/Too many wrong pairing codes/);
    clock.advanceTo(clock.now() + ATTEMPT_WINDOW_MS);
    expect(devices.pair(code, 'Phone').device.name).toBe('Phone');
  });

  it('burns a code that drew too many wrong guesses', async () => {
    const { devices, clock } = setup();
    const { code } = await devices.startPairing();
    for (let i = 0; i < 10; i++) {
      clock.advanceTo(clock.now() + ATTEMPT_WINDOW_MS / FAILED_ATTEMPTS_PER_WINDOW + 1);
      expect(() => devices.pair(`WRONG${i}`, 'x')).toThrow(/Wrong/);
    }
    clock.advanceTo(clock.now() + ATTEMPT_WINDOW_MS);
    expect(() => devices.pair(code, 'x')).toThrow(/Wrong or used/);
  });
});

describe('devices', () => {
  it('revoking a device ends its credential and its push subscriptions', async () => {
    const { devices } = setup();
    const { device, credential } = devices.pair((await devices.startPairing()).code, 'Phone');
    devices.subscribe(device, SUBSCRIPTION);
    expect(devices.list()[0]).toMatchObject({ name: 'Phone', mayControl: false, pushSubscriptions: 1 });
    devices.revoke(device.deviceId);
    expect(devices.authenticate(credential)).toBeUndefined();
    expect(devices.subscriptions()).toEqual([]);
    expect(() => devices.revoke(device.deviceId)).toThrow(/No paired device/);
  });

  it('notes the last use, to the minute', async () => {
    const { devices, clock } = setup();
    const { credential } = devices.pair((await devices.startPairing()).code, 'Phone');
    devices.authenticate(credential);
    expect(devices.list()[0].lastUsedAt).toBe(clock.now());
  });

  it('lets a device call only the phone view commands, and control only when allowed', async () => {
    const { devices } = setup();
    const { device } = devices.pair((await devices.startPairing()).code, 'Phone');
    expect(() => assertDeviceMayCall(device, 'answerPrompt')).not.toThrow();
    expect(() => assertDeviceMayCall(device, 'attach')).not.toThrow();
    expect(() => assertDeviceMayCall(device, 'getUsage')).not.toThrow();
    expect(() => assertDeviceMayCall(device, 'dismissUsageWarning')).not.toThrow();
    expect(() => assertDeviceMayCall(device, 'writeConfig')).toThrow(/not available from a paired device/);
    expect(() => assertDeviceMayCall(device, 'grantTrust')).toThrow(/not available/);
    expect(() => assertDeviceMayCall(device, 'stopProcess')).toThrow(/may not start, stop/);
    devices.setControl(device.deviceId, true);
    expect(() => assertDeviceMayCall(devices.current(device.deviceId)!, 'stopProcess')).not.toThrow();
  });
});

describe('notification actions', () => {
  const action = { projectId: 'pj_1', entryId: 'e1', entryName: 'claude', fingerprint: 'fp', choice: 'approve' as const };

  it('work once, for their device only, and take the prompt’s other actions with them', () => {
    const { devices } = setup();
    const approve = devices.actions.issue({ ...action, deviceId: 'dev_a' });
    const deny = devices.actions.issue({ ...action, choice: 'deny', deviceId: 'dev_a' });
    expect(() => devices.actions.redeem(approve, 'dev_b')).toThrow(/another device/);
    expect(devices.actions.redeem(approve, 'dev_a')).toEqual({ ...action, deviceId: 'dev_a' });
    expect(() => devices.actions.redeem(approve, 'dev_a')).toThrow(/already used/);
    expect(() => devices.actions.redeem(deny, 'dev_a')).toThrow(/already used/);
  });

  it('expire', () => {
    const { devices, clock } = setup();
    const token = devices.actions.issue(action);
    clock.advanceTo(clock.now() + ACTION_TTL_MS);
    expect(() => devices.actions.redeem(token, 'dev_a')).toThrow(/expired/);
  });
});

describe('presence reports', () => {
  it('reach the presence sink named by their viewer, idle time turned into the time of the last input, and are no device’s to send', async () => {
    const reports: unknown[] = [];
    const handler = deviceCommandHandler(new Devices({ dataDir: mkdtempSync(join(tmpdir(), 'sb-presence-')) }), undefined, {
      report: (viewer, update) => reports.push({ viewer, ...update }),
    });
    const before = Date.now();
    await expect(handler('reportPresence', { viewer: 'tab-1', focused: true, idleMs: 60_000 })).resolves.toEqual({ reported: true });
    await handler('reportPresence', { viewer: 'tab-1', focused: false });
    expect(reports).toEqual([
      { viewer: 'tab-1', focused: true, inputAt: expect.any(Number) },
      { viewer: 'tab-1', focused: false },
    ]);
    const inputAt = (reports[0] as { inputAt: number }).inputAt;
    expect(inputAt).toBeGreaterThanOrEqual(before - 60_000);
    expect(inputAt).toBeLessThanOrEqual(Date.now() - 60_000);
    const phone = { kind: 'device' as const, deviceId: 'd1', name: 'phone', mayControl: true };
    expect(() => assertDeviceMayCall(phone, 'reportPresence')).toThrow(/reportPresence is not available from/);
  });
});
