/**
 * A generated corpus of malformed requests for `serve`'s web server: bad paths, encodings,
 * headers, WebSocket upgrade variants, oversized and slow bodies. Raw bytes over a socket, so
 * nothing is normalized by a client library. Deterministic (seeded): a failure names a case.
 */
import { connect } from 'node:net';
import { prng } from '../support/prng';

type WebCorpusCategory = 'bad-paths' | 'encodings' | 'headers' | 'upgrades' | 'oversized' | 'slow-bodies';

export interface WebCorpusCase {
  category: WebCorpusCategory;
  description: string;
  /** Raw request bytes, sent chunk by chunk with `gapMs` between chunks. */
  chunks: Buffer[];
  gapMs?: number;
  /** Status codes that count as a correct answer; 0 means "the server may close without one". */
  expected: number[];
  /** Close the socket after sending instead of waiting for an answer (abandoned requests). */
  abandon?: boolean;
}

interface WebCorpusContext {
  port: number;
  /** Headers that authenticate a browser (the UI cookie). */
  auth: Record<string, string>;
  /** Files the static dir holds, by request path (a 200 must serve one of them). */
  files: string[];
}

const SEGMENTS = [
  '',
  '.',
  '..',
  '%',
  '%2',
  '%zz',
  '%2e%2e',
  '%2f',
  '%5c',
  '%00',
  '%ff',
  '%c0%af',
  '%E0%A4%A',
  '/',
  'ws',
  'index.html',
  'app.js',
  '~',
  '\\',
  ';',
  '@',
  ':',
  'a%20b',
  '%25',
  'ΩΩ',
];
const WS_KEY = 'dGhlIHNhbXBsZSBub25jZQ==';

function request(method: string, target: string, headers: Record<string, string>, body: Buffer | string = ''): Buffer {
  const lines = [`${method} ${target} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(body)]);
}

export function generateWebCorpus(context: WebCorpusContext, seed = 11): WebCorpusCase[] {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const host = `127.0.0.1:${context.port}`;
  const base = { Host: host, Connection: 'close' };
  const authed = { ...base, ...context.auth };
  const cases: WebCorpusCase[] = [];
  const add = (
    category: WebCorpusCategory,
    description: string,
    bytes: Buffer | Buffer[],
    expected: number[],
    extra: Partial<WebCorpusCase> = {},
  ) => cases.push({ category, description, chunks: Array.isArray(bytes) ? bytes : [bytes], expected, ...extra });

  // Paths that once threw (`//`, `%`) and their relatives, with and without credentials.
  const known: Array<[string, number[]]> = [
    ['//', [400]],
    ['///', [400]],
    ['//evil.example/', [400]],
    ['//127.0.0.1/index.html', [400]],
    ['/%', [400]],
    ['/%zz', [400]],
    ['/%E0%A4%A', [400]],
    ['/%00', [400]],
    ['/index.html%00.js', [400]],
    ['*', [400]],
    ['x', [400]],
    ['/../../etc/passwd', [404]],
    ['/..%2f..%2fetc%2fpasswd', [404]],
    ['/%2e%2e/%2e%2e/etc/passwd', [404]],
    ['/ws/../', [404]],
    ['/?%', [200]],
    ['/?token=%zz&&&', [200]],
    ['/index.html', [200]],
    ['/app.js', [200]],
    ['/nope.js', [404]],
  ];
  for (const [target, expected] of known) {
    for (const headers of [authed, base])
      add('bad-paths', `GET ${target}${headers === base ? ' (no credentials)' : ''}`, request('GET', target, headers), expected);
    add('bad-paths', `HEAD ${target}`, request('HEAD', target, authed), expected);
  }
  for (let i = 0; i < 360; i++) {
    const depth = 1 + Math.floor(random() * 5);
    const target = '/' + Array.from({ length: depth }, () => pick(SEGMENTS)).join(pick(['/', '/', '//', '']));
    // Any of these is a fair answer; the assertion that matters is that our handler gave it.
    add(
      'bad-paths',
      `random path ${JSON.stringify(target)}`,
      request(pick(['GET', 'HEAD']), target.replace(/ /g, '%20'), random() < 0.8 ? authed : base),
      [200, 400, 404],
    );
  }

  // Encodings: raw high bytes, overlong UTF-8, control characters, bad query escapes.
  const rawTargets = [
    Buffer.from([0x2f, 0xc0, 0xaf]),
    Buffer.from([0x2f, 0xff, 0xfe]),
    Buffer.from([0x2f, 0x80]),
    Buffer.from('/\x7f'),
    Buffer.from('/\t'),
    Buffer.from('/a\u0001b'),
  ];
  for (let round = 0; round < 10; round++) {
    for (const [i, target] of rawTargets.entries()) {
      add(
        'encodings',
        `raw target ${i} round ${round}`,
        Buffer.concat([Buffer.from('GET '), target, Buffer.from(` HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)]),
        [400, 404],
      );
    }
  }
  for (let i = 0; i < 60; i++) {
    const escapes = Array.from(
      { length: 1 + Math.floor(random() * 6) },
      () =>
        `%${Math.floor(random() * 256)
          .toString(16)
          .padStart(2, '0')}`,
    ).join('');
    add('encodings', `escapes ${escapes}`, request('GET', `/${escapes}`, authed), [400, 404]);
    add('encodings', `query escapes ${escapes}`, request('GET', `/?token=${escapes}%&x=%%`, authed), [200]);
  }

  // Headers: Host, Origin, cookies, lengths, methods and versions.
  const headerVariants: Array<[string, Buffer, number[]]> = [
    ['no Host', Buffer.from('GET / HTTP/1.1\r\nConnection: close\r\n\r\n'), [400]],
    ['evil Host', request('GET', '/', { ...authed, Host: 'evil.example' }), [403]],
    ['Host other port', request('GET', '/', { ...authed, Host: `127.0.0.1:${context.port + 1}` }), [403]],
    ['two Hosts', Buffer.from(`GET / HTTP/1.1\r\nHost: ${host}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`), [400]],
    ['empty Host', request('GET', '/', { ...authed, Host: '' }), [400, 403]],
    ['cookie soup', request('GET', '/', { ...base, Cookie: '=;;=;sb_ui=;sb_ui_=x;===;' }), [200]],
    ['huge cookie', request('GET', '/', { ...base, Cookie: `sb_ui_${context.port}=${'x'.repeat(7000)}` }), [200]],
    ['Authorization junk', request('GET', '/', { ...base, Authorization: 'Bearer \u00ff\u00fe' }), [200]],
    ['negative Content-Length', request('GET', '/', { ...authed, 'Content-Length': '-1' }), [400]],
    ['non-numeric Content-Length', request('GET', '/', { ...authed, 'Content-Length': 'ten' }), [400]],
    [
      'Content-Length and chunked',
      request('POST', '/session', { ...authed, 'Content-Length': '3', 'Transfer-Encoding': 'chunked' }, '0\r\n\r\n'),
      [400],
    ],
    ['bad chunk size', request('POST', '/session', { ...authed, 'Transfer-Encoding': 'chunked' }, 'zz\r\nabc\r\n0\r\n\r\n'), [400, 401]],
    ['identity without a nonce', request('GET', '/identity', base), [400]],
    ['identity with a short nonce', request('GET', '/identity?nonce=abc', base), [400]],
    ['identity with a huge nonce', request('GET', `/identity?nonce=${'a'.repeat(200)}`, base), [400]],
    ['identity with a broken nonce', request('GET', '/identity?nonce=%zz%zz%zz%zz%zz%zz%zz%zz', base), [400]],
    ['identity posted', request('POST', '/identity?nonce=aaaaaaaaaaaaaaaaaaaaaaaa', { ...base, 'Content-Length': '0' }), [405]],
    ['session asked without a cookie', request('GET', '/session', base), [401]],
    ['session asked with a made-up cookie', request('GET', '/session', { ...base, Cookie: `sb_ui_${context.port}=made-up` }), [401]],
    ['HTTP/0.9', Buffer.from('GET /\r\n\r\n'), [400, 505]],
    ['HTTP/2.0 line', Buffer.from(`GET / HTTP/2.0\r\nHost: ${host}\r\n\r\n`), [400, 505]],
    ['HTTP/1.9 line', Buffer.from(`GET / HTTP/1.9\r\nHost: ${host}\r\n\r\n`), [400, 505]],
    ['HTTP/1.0 no Host', Buffer.from('GET / HTTP/1.0\r\n\r\n'), [403]],
    ['lowercase method', Buffer.from(`get / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`), [400]],
    ['PROPFIND', request('PROPFIND', '/', authed), [405]],
    ['DELETE', request('DELETE', '/index.html', authed), [405]],
    ['CONNECT', request('CONNECT', `127.0.0.1:${context.port}`, authed), [400, 405]],
    ['OPTIONS *', request('OPTIONS', '*', authed), [400]],
    ['TRACE', request('TRACE', '/', authed), [405]],
    ['Expect 100-continue', request('POST', '/session', { ...base, Expect: '100-continue', 'Content-Length': '0' }), [401, 417]],
    ['header with NUL', Buffer.from(`GET / HTTP/1.1\r\nHost: ${host}\r\nX-A: a\0b\r\nConnection: close\r\n\r\n`), [400]],
    ['header without colon', Buffer.from(`GET / HTTP/1.1\r\nHost: ${host}\r\nnonsense\r\nConnection: close\r\n\r\n`), [400]],
    ['obs-fold header', Buffer.from(`GET / HTTP/1.1\r\nHost: ${host}\r\nX-A: a\r\n b\r\nConnection: close\r\n\r\n`), [400]],
    ['bare LF', Buffer.from(`GET / HTTP/1.1\nHost: ${host}\nConnection: close\n\n`), [200, 400]],
    ['evil Origin', request('POST', '/session', { ...authed, Origin: 'https://evil.example', 'Content-Length': '0' }), [403]],
    ['null Origin', request('POST', '/session', { ...authed, Origin: 'null', 'Content-Length': '0' }), [403]],
  ];
  for (let round = 0; round < 8; round++) {
    for (const [description, bytes, expected] of headerVariants) add('headers', `${description} ${round}`, bytes, expected);
  }

  // WebSocket upgrades: wrong paths (`//` too), bad keys and versions, foreign origins, no credentials.
  const upgrade = (target: string, extra: Record<string, string>) =>
    request('GET', target, {
      Host: host,
      Connection: 'Upgrade',
      Upgrade: 'websocket',
      'Sec-WebSocket-Version': '13',
      'Sec-WebSocket-Key': WS_KEY,
      ...extra,
    });
  const upgrades: Array<[string, Buffer, number[]]> = [
    ['//', upgrade('//', context.auth), [400]],
    ['/%', upgrade('/%', context.auth), [400]],
    ['/ws%', upgrade('/ws%', context.auth), [400]],
    ['//ws', upgrade('//ws', context.auth), [400]],
    ['/ws/../ws', upgrade('/ws/../ws', context.auth), [404]],
    ['other path', upgrade('/index.html', context.auth), [404]],
    ['no credentials', upgrade('/ws', {}), [401]],
    ['wrong token', upgrade('/ws?token=wrong', {}), [401]],
    [
      'cookie for another port',
      upgrade('/ws', { Cookie: `sb_ui_${context.port + 1}=${Object.values(context.auth)[0]?.split('=')[1] ?? ''}` }),
      [401],
    ],
    ['evil origin', upgrade('/ws', { ...context.auth, Origin: 'https://evil.example' }), [403]],
    ['evil host', upgrade('/ws', { ...context.auth, Host: 'evil.example' }), [403]],
    [
      'no key',
      request('GET', '/ws', { Host: host, Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', ...context.auth }),
      [400],
    ],
    ['bad key', upgrade('/ws', { ...context.auth, 'Sec-WebSocket-Key': 'short' }), [400]],
    ['version 8', upgrade('/ws', { ...context.auth, 'Sec-WebSocket-Version': '8' }), [400, 426]],
    ['h2c', request('GET', '/ws', { Host: host, Connection: 'Upgrade', Upgrade: 'h2c', ...context.auth }), [400]],
    [
      'Upgrade without Connection',
      request('GET', '/ws', { Host: host, Upgrade: 'websocket', Connection: 'close', ...context.auth }),
      [200, 400, 404, 426],
    ],
    [
      'POST upgrade',
      request('POST', '/ws', {
        Host: host,
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': WS_KEY,
        'Content-Length': '0',
        ...context.auth,
      }),
      [400, 405],
    ],
  ];
  for (let round = 0; round < 10; round++) {
    for (const [description, bytes, expected] of upgrades) add('upgrades', `upgrade ${description} ${round}`, bytes, expected);
  }

  // Oversized: headers, URLs, header counts, bodies nobody asked for.
  for (let round = 0; round < 6; round++) {
    add('oversized', `64 KB header ${round}`, request('GET', '/', { ...authed, 'X-Big': 'x'.repeat(64 * 1024) }), [431]);
    add('oversized', `200 KB URL ${round}`, request('GET', `/${'a'.repeat(200 * 1024)}`, authed), [414, 431]);
    add(
      'oversized',
      `2000 headers ${round}`,
      request(
        'GET',
        '/',
        Object.fromEntries([
          ...Object.entries(authed),
          ...Array.from({ length: 2000 }, (_, i) => [`X-Header-${String(i).padStart(5, '0')}`, 'v'.repeat(16)]),
        ]),
      ),
      [431],
    );
    add(
      'oversized',
      `5 MB body on GET ${round}`,
      request('GET', '/', { ...authed, 'Content-Length': String(5 * 1024 * 1024) }, Buffer.alloc(5 * 1024 * 1024, 0x41)),
      [200, 0],
    );
    add(
      'oversized',
      `5 MB body on POST /session ${round}`,
      request('POST', '/session', { ...base, 'Content-Length': String(5 * 1024 * 1024) }, Buffer.alloc(5 * 1024 * 1024, 0x41)),
      [401, 413, 0],
    );
  }

  // Slow and abandoned: bodies and headers dribbled in, requests cut off half way.
  for (let round = 0; round < 8; round++) {
    const body = Buffer.alloc(64, 0x42);
    const head = request('POST', '/session', { ...base, 'Content-Length': String(body.length) });
    add('slow-bodies', `dribbled body ${round}`, [head, ...Array.from({ length: 8 }, (_, i) => body.subarray(i * 8, i * 8 + 8))], [401], {
      gapMs: 15,
    });
    const get = request('GET', '/index.html', authed);
    add(
      'slow-bodies',
      `dribbled headers ${round}`,
      Array.from({ length: 6 }, (_, i) => get.subarray(Math.floor((i * get.length) / 6), Math.floor(((i + 1) * get.length) / 6))),
      [200],
      { gapMs: 15 },
    );
    add('slow-bodies', `abandoned headers ${round}`, get.subarray(0, 20), [0], { abandon: true });
    add('slow-bodies', `abandoned body ${round}`, [head, body.subarray(0, 10)], [0], { abandon: true });
    add('slow-bodies', `abandoned upgrade ${round}`, upgrade('/ws', context.auth).subarray(0, 40), [0], { abandon: true });
  }
  return cases;
}

interface WebAnswer {
  status: number;
  headers: string;
  body: Buffer;
}

/** Sends one case over a fresh socket; status 0 when the server closed without answering. */
export function sendCase(port: number, c: WebCorpusCase, timeoutMs = 15_000): Promise<WebAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let settled = false;
    const finish = (answer: WebAnswer | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (answer instanceof Error) reject(answer);
      else resolve(answer);
    };
    const timer = setTimeout(() => finish(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const parse = (): WebAnswer => {
      const all = Buffer.concat(received);
      const end = all.indexOf('\r\n\r\n');
      const head = (end < 0 ? all : all.subarray(0, end)).toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      return { status: match ? Number(match[1]) : 0, headers: head, body: end < 0 ? Buffer.alloc(0) : all.subarray(end + 4) };
    };
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('end', () => finish(parse()));
    socket.on('close', () => finish(parse()));
    socket.on('error', () => finish(parse())); // a reset after (or instead of) the answer
    void (async () => {
      for (const [i, chunk] of c.chunks.entries()) {
        if (socket.destroyed) return;
        if (i > 0 && c.gapMs) await new Promise((r) => setTimeout(r, c.gapMs));
        socket.write(chunk);
      }
      if (c.abandon) finish({ status: 0, headers: '', body: Buffer.alloc(0) });
      // A 101 keeps the socket open: the answer is complete once the head is in.
      else if (c.expected.includes(101)) socket.once('data', () => finish(parse()));
    })();
  });
}
