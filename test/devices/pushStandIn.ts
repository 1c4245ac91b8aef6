/**
 * A stand-in for a push service (RFC 8030) on this machine: it hands out subscriptions whose keys
 * it holds, as a browser's push service would, and decrypts each message it receives (RFC 8291,
 * aes128gcm) with them, after checking the sender's VAPID signature (RFC 8292). What it records is
 * what a phone's service worker would get.
 */
import { createECDH, createPublicKey, hkdfSync, randomBytes, createDecipheriv, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';

interface ReceivedPush {
  subscription: string;
  at: number;
  payload: Record<string, unknown>;
  headers: { ttl?: string; topic?: string; urgency?: string };
  vapidKey: string;
}

interface Subscriber {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
}

export interface PushStandIn {
  url: string;
  received: ReceivedPush[];
  /** A new subscription: the JSON a browser's PushSubscription.toJSON() gives. */
  subscribe(): { endpoint: string; keys: { p256dh: string; auth: string } };
  /** From now on this subscription answers 410 Gone. */
  expire(endpoint: string): void;
  /** Resolves with the first message (already received or coming) that passes `test`. */
  waitFor(test: (push: ReceivedPush) => boolean, timeoutMs?: number): Promise<ReceivedPush>;
  close(): Promise<void>;
}

export async function startPushStandIn(tls: { cert: string; key: string }): Promise<PushStandIn> {
  const subscribers = new Map<string, Subscriber>();
  const gone = new Set<string>();
  const received: ReceivedPush[] = [];
  const waiters: { test: (p: ReceivedPush) => boolean; resolve: (p: ReceivedPush) => void }[] = [];
  const server: Server = createServer({ cert: readFileSync(tls.cert), key: readFileSync(tls.key) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = /^\/push\/(\w+)$/.exec(req.url ?? '')?.[1] ?? '';
      const subscriber = subscribers.get(id);
      if (!subscriber || gone.has(id)) return void res.writeHead(subscriber ? 410 : 404).end();
      try {
        const vapidKey = checkVapid(req.headers.authorization ?? '', `https://${req.headers.host}`);
        const payload = JSON.parse(decrypt(Buffer.concat(chunks), subscriber).toString('utf8')) as Record<string, unknown>;
        const push: ReceivedPush = {
          subscription: id,
          at: Date.now(),
          payload,
          headers: { ttl: req.headers.ttl as string, topic: req.headers.topic as string, urgency: req.headers.urgency as string },
          vapidKey,
        };
        received.push(push);
        for (const w of waiters.filter((w) => w.test(push))) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(push);
        }
        res.writeHead(201).end();
      } catch (err) {
        res.writeHead(400).end(String(err));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    received,
    subscribe() {
      const id = randomBytes(8).toString('hex');
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      subscribers.set(id, { ecdh, auth });
      return {
        endpoint: `${url}/push/${id}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      };
    },
    expire(endpoint) {
      gone.add(endpoint.split('/').pop() ?? '');
    },
    waitFor(test, timeoutMs = 30_000) {
      const found = received.find(test);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no such push within ${timeoutMs} ms; got ${JSON.stringify(received.map((r) => r.payload))}`)),
          timeoutMs,
        );
        waiters.push({ test, resolve: (p) => (clearTimeout(timer), resolve(p)) });
      });
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** RFC 8291 §3.4 and RFC 8188: one aes128gcm record, keyed from our ECDH key and auth secret. */
function decrypt(body: Buffer, subscriber: Subscriber): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body[20];
  const senderKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const ecdhSecret = subscriber.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), subscriber.ecdh.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, subscriber.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('not a final record (no 0x02 delimiter)');
  return padded.subarray(0, end);
}

/** RFC 8292: `vapid t=<ES256 JWT for our origin>, k=<sender's public key>`; returns k. */
function checkVapid(authorization: string, origin: string): string {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization);
  if (!match) throw new Error(`no VAPID authorization: ${authorization}`);
  const [header, claims, signature] = match[1].split('.');
  const raw = Buffer.from(match[2], 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) throw new Error('VAPID signature does not verify');
  const { aud, exp } = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { aud: string; exp: number };
  if (aud !== origin || exp * 1000 < Date.now()) throw new Error(`VAPID claims wrong: aud ${aud}, exp ${exp}`);
  return match[2];
}
