/**
 * `serve --listen` on an address beyond loopback (a veth pair into a network namespace this test
 * makes), HTTPS with a certificate made by openssl now. Pairing from the other "host", what a device
 * may and may not call, guessing codes, and the loopback UI secret refused through this listener.
 */
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCertificate, makeVethHost, netnsAvailable, type VethHost } from '../support/netns';
import { freePort } from '../support/ports';
import { spawnServe, startServe, type ServeProcess } from '../serve/serveProcess';
import { uiCall, uiSession } from '../serve/uiSession';
import type { PairingOffer } from '../../src/shared/devices';
import { deviceWsCall, httpsCall, type DeviceHttp } from './deviceClient';

const unavailable = !netnsAvailable();
let veth: VethHost;
let serve: ServeProcess;
let target: DeviceHttp;
let certFiles: { cert: string; key: string };

beforeAll(async () => {
  if (unavailable) return;
  veth = makeVethHost();
  certFiles = makeTestCertificate(mkdtempSync(join(tmpdir(), 'sb-cert-')), veth.hostAddress);
  const port = await freePort();
  serve = await startServe({
    staticFiles: { 'index.html': '<!doctype html><title>phone</title>' },
    extraArgs: ['--listen', `${veth.hostAddress}:${port}`, '--tls-cert', certFiles.cert, '--tls-key', certFiles.key],
  });
  target = { origin: `https://${veth.hostAddress}:${port}`, ca: readFileSync(certFiles.cert) };
});
afterAll(() => {
  serve?.kill();
  veth?.dispose();
});

async function pairingCode(): Promise<PairingOffer> {
  return uiCall<PairingOffer>(serve.printed.ui, 'startPairing', {});
}

describe.skipIf(unavailable)('serve --listen: paired devices over HTTPS beyond loopback', () => {
  it('prints where devices go, and answers only HTTPS there', async () => {
    expect((serve.printed as unknown as { devices: unknown }).devices).toEqual({ url: target.origin, listen: target.origin });
    const plain = await fetch(`http://${new URL(target.origin).host}/`).then(
      (r) => r.status,
      () => 'refused',
    );
    expect(plain).not.toBe(200);
  });

  it('pairs a device from the other host with the one-time code; the cookie then reaches the phone view’s commands only', async () => {
    const offer = await pairingCode();
    expect(offer.url).toBe(`${target.origin}/pair#code=${offer.code}`);
    expect(offer.qrSvg).toMatch(/^<svg/);
    // The phone is in the namespace: its request crosses the veth pair.
    const curl = execFileSync(
      'ip',
      [
        'netns',
        'exec',
        veth.name,
        'curl',
        '-sS',
        '-i',
        '--cacert',
        certFiles.cert,
        '-H',
        'Content-Type: application/json',
        '-H',
        `Origin: ${target.origin}`,
        '--data',
        JSON.stringify({ code: offer.code, name: 'Test phone' }),
        `${target.origin}/pair`,
      ],
      { encoding: 'utf8' },
    );
    expect(curl).toMatch(/^HTTP\/1\.1 200/);
    const setCookie = /^set-cookie: (.*)$/im.exec(curl)?.[1] ?? '';
    expect(setCookie).toMatch(/^__Host-sb_device=[\w-]{43}; HttpOnly; Secure; SameSite=Strict; Path=\//);
    const cookie = setCookie.split(';')[0];

    // The app's page signs in with the cookie alone, and can later check it is still this server.
    const session = await httpsCall(target, 'GET', '/session', { headers: { Cookie: cookie } });
    expect(session.status).toBe(200);
    const { identity } = session.json<{ identity: string }>();
    expect(identity).toMatch(/^[\w-]{43}$/);
    const nonce = 'n'.repeat(32);
    const proof = await httpsCall(target, 'GET', `/identity?nonce=${nonce}`, {});
    expect(proof.json<{ proof: string }>().proof).toBe(
      createHmac('sha256', Buffer.from(identity, 'base64url')).update(nonce).digest('base64url'),
    );
    expect((await httpsCall(target, 'GET', '/session', {})).status).toBe(401);

    const workspace = await deviceWsCall(target, cookie, 'getWorkspace', {});
    expect(workspace.ok).toBe(true);
    const waiting = await deviceWsCall(target, cookie, 'listWaitingAcrossProjects', {});
    expect(waiting).toMatchObject({ ok: true, value: { agents: [] } });
    const config = await deviceWsCall(target, cookie, 'writeConfig', { entries: [{ name: 'x', command: 'true' }] });
    expect(config).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const stop = await deviceWsCall(target, cookie, 'stopProcess', { id: 'any' });
    expect(stop).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining('may not start, stop') } });
    const pairAgain = await deviceWsCall(target, cookie, 'startPairing', {});
    expect(pairAgain).toMatchObject({ ok: false, error: { code: 'forbidden' } });

    // Listed on the desktop with its last use; revoked, it is refused at once.
    const { devices } = await uiCall<{ devices: { id: string; name: string; lastUsedAt?: number }[] }>(serve.printed.ui, 'listDevices', {});
    expect(devices).toEqual([expect.objectContaining({ name: 'Test phone', lastUsedAt: expect.any(Number) })]);
    await uiCall(serve.printed.ui, 'revokeDevice', { deviceId: devices[0].id });
    await expect(deviceWsCall(target, cookie, 'getWorkspace', {})).rejects.toThrow(/401/);
  });

  it('refuses the used code, then every attempt once wrong guesses pile up', async () => {
    const offer = await pairingCode();
    const results: number[] = [];
    for (let i = 0; i < 5; i++) results.push((await httpsCall(target, 'POST', '/pair', { body: { code: `WRONG${i}`, name: 'x' } })).status);
    expect(results).toEqual([401, 401, 401, 401, 401]);
    const right = await httpsCall(target, 'POST', '/pair', { body: { code: offer.code, name: 'x' } });
    expect(right.status).toBe(403);
    expect(right.json()).toMatchObject({ error: { message: expect.stringContaining('Too many wrong pairing codes') } });
  });

  it('refuses the loopback UI secret and a request without a credential', async () => {
    const { cookie, secret } = await uiSession(serve.printed.ui);
    const uiCookieValue = cookie.split('=')[1];
    const attempts: Record<string, string>[] = [
      { Cookie: cookie },
      { Authorization: `Bearer ${secret}` },
      { Cookie: `__Host-sb_device=${uiCookieValue}` },
      {},
    ];
    for (const headers of attempts) {
      const subscribe = await httpsCall(target, 'POST', '/push/subscribe', {
        headers,
        body: { endpoint: 'https://push.example/x', keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) } },
      });
      expect(subscribe.status).toBe(401);
      await expect(deviceWsCall(target, headers.Cookie ?? '', 'getWorkspace', {})).rejects.toThrow(/401/);
    }
    const action = await httpsCall(target, 'GET', '/action/AAAAAAAAAAAAAAAAAAAAAAAA', { headers: { Accept: 'text/html' } });
    expect(action.status).toBe(401);
    expect(action.text).toContain('not paired');
  });

  it('refuses to start without a certificate, or with an http public URL, in one line', async () => {
    const dirs = { projectDir: serve.projectDir, dataDir: join(serve.root, 'data2'), staticDir: serve.staticDir };
    for (const [args, message] of [
      [['--listen', `${veth.hostAddress}:1`], /--listen serves HTTPS only: give --tls-cert FILE and --tls-key FILE/],
      [['--public-url', 'http://phone.example'], /--public-url must be an https:\/\/ URL/],
    ] as const) {
      await expect(spawnServe(dirs, [...args])).rejects.toThrow(message);
    }
  });
});
