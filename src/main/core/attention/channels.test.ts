import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Agent } from 'node:https';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCertificate } from '../../../../test/support/netns';
import { startPushStandIn, type PushStandIn } from '../../../../test/devices/pushStandIn';
import type { PushSubscriptionJson } from '../../../shared/devices';
import type { AttentionNews } from './attentionTracker';
import { deliver } from './delivery';
import { inQuietHours, mayNotifyNow } from './notifyPolicy';
import { ntfyChannel, sequenceIdOf } from './ntfyChannel';
import { loadOrCreateVapidKeys } from './vapidKeys';
import { webhookChannel } from './webhookChannel';
import { webPushChannel } from './webPushChannel';

const NEWS: AttentionNews = {
  event: 'attention',
  key: 'pj_1:e1',
  project: { id: 'pj_1', name: 'shop' },
  entry: { id: 'e1', name: 'claude' },
  reason: 'Waiting for your permission',
  question: 'Bash command: rm -rf build — Do you want to proceed?',
  prompt: {
    fingerprint: 'fp1',
    choices: [
      { id: 'approve', label: 'Yes' },
      { id: 'deny', label: 'No' },
    ],
  },
  at: 1_700_000_000_000,
};
const ACTIONS = [
  { action: 'approve' as const, label: 'Yes', url: 'https://phone.example/action/tokenA' },
  { action: 'deny' as const, label: 'No', url: 'https://phone.example/action/tokenD' },
];
const FAST = { timeoutMs: 1_000, backoffMs: [50, 100] };
/** One attempt with room for a loaded machine: the format tests count requests. */
const ONCE = { timeoutMs: 10_000, backoffMs: [] };

interface Hit {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local receiver answering each request with the next of `statuses` (then 200); `hang` answers nothing. */
async function receiver(statuses: (number | 'hang')[] = []): Promise<{ url: string; hits: Hit[]; server: Server }> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const status = statuses.shift() ?? 200;
      if (status !== 'hang') res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, hits, server };
}

describe('webhook', () => {
  it('posts the event, entry, project, reason, question and actions as JSON', async () => {
    const r = await receiver();
    await webhookChannel(`${r.url}/hook`, ONCE).send(NEWS, () => ACTIONS);
    expect(r.hits[0].method).toBe('POST');
    expect(r.hits[0].headers['content-type']).toBe('application/json');
    expect(JSON.parse(r.hits[0].body)).toEqual({
      event: 'attention',
      entry: { id: 'e1', name: 'claude' },
      project: { id: 'pj_1', name: 'shop' },
      reason: 'Waiting for your permission',
      question: NEWS.question,
      actions: [
        { action: 'approve', label: 'Yes', url: ACTIONS[0].url },
        { action: 'deny', label: 'No', url: ACTIONS[1].url },
      ],
      at: NEWS.at,
    });
    await webhookChannel(`${r.url}/hook`, ONCE).send({ ...NEWS, event: 'resolved' }, () => ACTIONS);
    expect(JSON.parse(r.hits[1].body)).toMatchObject({ event: 'resolved', entry: { id: 'e1' }, actions: [] });
    r.server.close();
  });

  it('retries a timeout and a 503 with backoff, and gives up on a 404 at once', async () => {
    const r = await receiver(['hang', 503]);
    await deliver({ url: r.url, method: 'POST', body: '{}' }, FAST);
    expect(r.hits).toHaveLength(3);
    const refused = await receiver([404]);
    await expect(deliver({ url: refused.url, method: 'POST', body: '{}' }, FAST)).rejects.toThrow(/answered 404/);
    expect(refused.hits).toHaveLength(1);
    const down = await receiver(['hang', 'hang', 'hang']);
    await expect(deliver({ url: down.url, method: 'POST', body: '{}' }, FAST)).rejects.toThrow();
    expect(down.hits).toHaveLength(3);
    for (const s of [r, refused, down]) {
      s.server.closeAllConnections();
      s.server.close();
    }
  });
});

describe('ntfy', () => {
  it('publishes JSON with priority, tags and view buttons under one sequence id per agent, and deletes it when resolved', async () => {
    const r = await receiver();
    const channel = ntfyChannel({ server: r.url, topic: 'sb_alerts', token: 'tk_secret' }, 'https://phone.example', ONCE);
    await channel.send(NEWS, () => ACTIONS);
    const published = JSON.parse(r.hits[0].body) as Record<string, unknown>;
    expect(r.hits[0]).toMatchObject({ method: 'POST', url: '/' });
    expect(r.hits[0].headers.authorization).toBe('Bearer tk_secret');
    expect(published).toEqual({
      topic: 'sb_alerts',
      sequence_id: sequenceIdOf(NEWS.key),
      title: 'claude needs you (shop)',
      message: `Waiting for your permission: ${NEWS.question}`,
      priority: 5,
      tags: ['raising_hand'],
      click: 'https://phone.example',
      actions: ACTIONS.map((a) => ({ action: 'view', label: a.label, url: a.url, clear: true })),
    });
    expect(sequenceIdOf(NEWS.key)).toMatch(/^[-\w]{1,64}$/);
    await channel.send({ ...NEWS, event: 'resolved' }, () => ACTIONS);
    expect(r.hits[1]).toMatchObject({ method: 'DELETE', url: `/sb_alerts/${sequenceIdOf(NEWS.key)}` });
    r.server.close();
  });
});

describe('web push', () => {
  let push: PushStandIn;
  let agent: Agent;
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-push-'));
  beforeAll(async () => {
    const tls = makeTestCertificate(dataDir, '127.0.0.1');
    push = await startPushStandIn(tls);
    agent = new Agent({ ca: readFileSync(tls.cert) });
  });
  afterAll(() => push.close());

  it('encrypts the payload for each subscription, signs with the stored VAPID key, and drops a subscription that is gone', async () => {
    const keys = loadOrCreateVapidKeys(join(dataDir, 'vapid.json'));
    expect(loadOrCreateVapidKeys(join(dataDir, 'vapid.json'))).toEqual(keys);
    const subscriptions: { deviceId: string; subscription: PushSubscriptionJson }[] = [
      { deviceId: 'dev_a', subscription: push.subscribe() },
      { deviceId: 'dev_b', subscription: push.subscribe() },
    ];
    const dropped: string[] = [];
    const channel = webPushChannel({
      keys,
      subject: 'https://phone.example',
      targets: { subscriptions: () => subscriptions, unsubscribe: (endpoint) => dropped.push(endpoint) > 0 },
      log: () => {},
      agent,
    });
    const actionsAskedFor: (string | undefined)[] = [];
    await channel.send(NEWS, (deviceId) => (actionsAskedFor.push(deviceId), ACTIONS));
    expect(actionsAskedFor).toEqual(['dev_a', 'dev_b']);
    expect(push.received).toHaveLength(2);
    expect(push.received[0].vapidKey).toBe(keys.publicKey);
    expect(push.received[0].headers).toMatchObject({ ttl: '3600', urgency: 'high', topic: expect.stringMatching(/^[\w-]{32}$/) });
    expect(push.received[0].payload).toEqual({
      event: 'attention',
      tag: 'pj_1:e1',
      title: 'claude needs you (shop)',
      body: `Waiting for your permission: ${NEWS.question}`,
      project: 'pj_1',
      entryId: 'e1',
      actions: ACTIONS,
    });

    push.expire(subscriptions[1].subscription.endpoint);
    await channel.send({ ...NEWS, event: 'resolved' }, () => ACTIONS);
    expect(dropped).toEqual([subscriptions[1].subscription.endpoint]);
    expect(push.received[2].payload).toMatchObject({ event: 'resolved', tag: 'pj_1:e1', actions: [] });
    expect(push.received[2].headers.topic).toBe(push.received[0].headers.topic);
  });
});

describe('when to notify', () => {
  const settings = { webPush: true, webhooks: [], ntfy: [] };
  const at = (h: number, m: number) => new Date(2026, 0, 5, h, m);
  it('keeps quiet hours, across midnight too', () => {
    expect(inQuietHours({ from: '22:00', to: '07:00' }, at(23, 30))).toBe(true);
    expect(inQuietHours({ from: '22:00', to: '07:00' }, at(6, 59))).toBe(true);
    expect(inQuietHours({ from: '22:00', to: '07:00' }, at(7, 0))).toBe(false);
    expect(inQuietHours({ from: '12:00', to: '13:00' }, at(12, 30))).toBe(true);
    expect(inQuietHours({ from: '12:00', to: '13:00' }, at(13, 30))).toBe(false);
  });

  it('only while away: not while the window has focus or the person typed lately', () => {
    const now = at(10, 0);
    const away = { ...settings, onlyWhenAwayMinutes: 5 };
    expect(mayNotifyNow(away, { focused: () => true, lastInputAt: () => undefined }, now)).toBe(false);
    expect(mayNotifyNow(away, { focused: () => false, lastInputAt: () => now.getTime() - 60_000 }, now)).toBe(false);
    expect(mayNotifyNow(away, { focused: () => false, lastInputAt: () => now.getTime() - 6 * 60_000 }, now)).toBe(true);
    expect(mayNotifyNow(settings, { focused: () => true, lastInputAt: () => now.getTime() }, now)).toBe(true);
  });
});
