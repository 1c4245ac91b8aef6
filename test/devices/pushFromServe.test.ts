/**
 * A real Claude Code (against the mock Messages API) reaches a permission prompt in `serve`; the
 * paired phone's push subscription (at a local stand-in that decrypts what it gets), a webhook and
 * an ntfy receiver hear of it; the push's Approve action, posted with the device's credential,
 * answers the prompt, Claude runs the tool, and a resolved push and webhook follow. The action
 * cannot be used twice, and the prompt's other action is void.
 */
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServerMessage } from '../../src/shared/api';
import type { PairingOffer } from '../../src/shared/devices';
import type { ProcessInfo } from '../../src/shared/model';
import { startMockAnthropic, type MockAnthropic } from '../fixtures/anthropic/mockAnthropic';
import { CLAUDE_BIN, createClaudeHarness, type ClaudeHarness } from '../fixtures/anthropic/claudeHarness';
import { makeTestCertificate, makeVethHost, netnsAvailable, type VethHost } from '../support/netns';
import { freePort } from '../support/ports';
import { exitOf, spawnServe } from '../serve/serveProcess';
import { uiCall } from '../serve/uiSession';
import { httpsCall, type DeviceHttp } from './deviceClient';
import { startPushStandIn, type PushStandIn } from './pushStandIn';

const unavailable = !netnsAvailable();
const COMMAND = 'curl -X POST http://127.0.0.1:9/upload';

interface Received {
  method: string;
  url: string;
  body: string;
  at: number;
}

async function receiver(): Promise<{ url: string; hits: Received[]; server: Server }> {
  const hits: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push({ method: req.method ?? '', url: req.url ?? '', body, at: Date.now() });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, hits, server };
}

async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function folder(root: string, name: string): string {
  mkdirSync(join(root, name));
  return join(root, name);
}

let veth: VethHost;
let mock: MockAnthropic;
let harness: ClaudeHarness;
let push: PushStandIn;
let webhook: Awaited<ReturnType<typeof receiver>>;
let ntfy: Awaited<ReturnType<typeof receiver>>;
let serve: Awaited<ReturnType<typeof spawnServe>>;
let target: DeviceHttp;

beforeAll(async () => {
  if (unavailable) return;
  veth = makeVethHost();
  const root = mkdtempSync(join(tmpdir(), 'sb-push-serve-'));
  const listenCert = makeTestCertificate(folder(root, 'listen'), veth.hostAddress);
  const pushCert = makeTestCertificate(folder(root, 'push'), '127.0.0.1');
  push = await startPushStandIn(pushCert);
  webhook = await receiver();
  ntfy = await receiver();
  mock = await startMockAnthropic({
    turns: [[{ toolUse: { name: 'Bash', input: { command: COMMAND, description: 'Upload the build' } } }], [{ text: 'Uploaded.' }]],
  });
  harness = await createClaudeHarness({ baseUrl: mock.url });
  const projectDir = folder(root, 'project');
  const claude = {
    preset: 'claude',
    command: CLAUDE_BIN,
    args: ['--permission-mode', 'default', 'Upload the build'],
    cwd: harness.cwd,
    env: harness.env,
  };
  writeFileSync(join(projectDir, 'switchboard.json'), JSON.stringify({ agents: { uploader: claude } }));
  const port = await freePort();
  serve = await spawnServe(
    { projectDir, dataDir: join(root, 'data'), staticDir: folder(root, 'static') },
    [
      '--trust',
      ...['--listen', `${veth.hostAddress}:${port}`, '--tls-cert', listenCert.cert, '--tls-key', listenCert.key],
      ...['--notify', `${webhook.url}/hook`, '--notify', `ntfy+${ntfy.url}/sb_topic`],
    ],
    // How a person trusts a private CA in Node: here, the push stand-in's certificate.
    { NODE_EXTRA_CA_CERTS: pushCert.cert },
  );
  target = { origin: `https://${veth.hostAddress}:${port}`, ca: readFileSync(listenCert.cert) };
});

afterAll(async () => {
  if (serve) {
    serve.child.kill('SIGTERM');
    await exitOf(serve.child);
  }
  await mock?.close();
  await harness?.cleanup();
  await push?.close();
  webhook?.server.close();
  ntfy?.server.close();
  veth?.dispose();
});

describe.skipIf(unavailable)('push from serve when Claude Code asks permission', () => {
  it('pushes the question to the paired phone, answers it from the Approve action, then withdraws it', async () => {
    const ui = serve.printed.ui;
    const offer = await uiCall<PairingOffer>(ui, 'startPairing', {});
    const paired = await httpsCall(target, 'POST', '/pair', { body: { code: offer.code, name: 'Phone' } });
    expect(paired.status).toBe(200);
    const cookie = String(paired.headers['set-cookie']).split(';')[0];
    const { publicKey } = (await httpsCall(target, 'GET', '/push/key')).json<{ publicKey: string }>();
    const subscription = push.subscribe();
    expect((await httpsCall(target, 'POST', '/push/subscribe', { body: subscription, headers: { Cookie: cookie } })).status).toBe(200);

    // The phone watches over the control socket; the moment it sees the agent waiting is the baseline.
    const phone = new WebSocket(`${target.origin.replace('https:', 'wss:')}/ws`, {
      ca: target.ca,
      headers: { Cookie: cookie, Origin: target.origin },
    });
    let waitingSeenAt: number | undefined;
    phone.on('message', (raw, isBinary) => {
      if (isBinary) return;
      const message = JSON.parse(raw.toString()) as ServerMessage;
      const event = message.t === 'event' ? message.event : undefined;
      if (event?.type === 'processChanged' && event.process.agent?.primary === 'waiting') waitingSeenAt ??= Date.now();
    });
    await new Promise((r, j) => phone.once('open', r).once('error', j));

    const { processes } = await uiCall<{ processes: ProcessInfo[] }>(ui, 'getSnapshot', {});
    const uploader = processes.find((p) => p.name === 'uploader')!;
    await uiCall(ui, 'startProcess', { id: uploader.id });

    const attention = await push.waitFor((p) => p.payload.event === 'attention' && (p.payload.actions as unknown[]).length > 0, 120_000);
    const seen = await until(() => waitingSeenAt, 'the phone to see the agent waiting');
    expect(attention.at - seen).toBeLessThan(2_000);
    expect(attention.vapidKey).toBe(publicKey);
    expect(attention.payload).toMatchObject({
      event: 'attention',
      title: expect.stringContaining('uploader needs you'),
      body: expect.stringContaining(COMMAND),
      entryId: uploader.id,
      actions: [
        { action: 'approve', label: expect.any(String), url: expect.stringMatching(new RegExp(`^${target.origin}/action/`)) },
        { action: 'deny', label: expect.any(String), url: expect.stringMatching(new RegExp(`^${target.origin}/action/`)) },
      ],
    });
    const hook = await until(() => webhook.hits.find((h) => JSON.parse(h.body).event === 'attention'), 'the webhook');
    expect(JSON.parse(hook.body)).toMatchObject({
      entry: { id: uploader.id, name: 'uploader' },
      question: expect.stringContaining(COMMAND),
    });
    const published = await until(() => ntfy.hits.find((h) => h.method === 'POST'), 'ntfy');
    expect(JSON.parse(published.body)).toMatchObject({ topic: 'sb_topic', priority: 5, actions: [{ action: 'view' }, { action: 'view' }] });

    const [approve, deny] = attention.payload.actions as { url: string }[];
    const path = (url: string) => new URL(url).pathname;
    const anonymous = await httpsCall(target, 'POST', path(approve.url), { headers: { Accept: 'application/json' } });
    expect(anonymous.status).toBe(401);
    const approved = await httpsCall(target, 'POST', path(approve.url), { headers: { Cookie: cookie, Accept: 'application/json' } });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.json()).toMatchObject({ entry: { id: uploader.id, name: 'uploader' } });

    const toolUse = await mock.waitFor('tool_use');
    const result = await mock.waitFor('tool_result', (e) => e.toolUseId === toolUse.id, { timeoutMs: 60_000 });
    expect(result.content).not.toMatch(/doesn.t want to proceed|rejected/i);

    const replay = await httpsCall(target, 'POST', path(approve.url), { headers: { Cookie: cookie, Accept: 'application/json' } });
    expect(replay.status).toBe(403);
    expect(replay.json()).toMatchObject({ error: { code: 'forbidden', message: expect.stringContaining('already used') } });
    const stale = await httpsCall(target, 'POST', path(deny.url), { headers: { Cookie: cookie, Accept: 'text/html' } });
    expect(stale.status).toBe(403);
    expect(stale.text).toContain('already used');

    const resolved = await push.waitFor((p) => p.payload.event === 'resolved', 60_000);
    expect(resolved.payload).toMatchObject({ tag: attention.payload.tag, actions: [] });
    expect(resolved.headers.topic).toBe(attention.headers.topic);
    await until(() => webhook.hits.find((h) => JSON.parse(h.body).event === 'resolved'), 'the resolved webhook');
    await until(() => ntfy.hits.find((h) => h.method === 'DELETE' && h.url.startsWith('/sb_topic/sb-')), 'the ntfy delete');
    phone.close();
  });
});
