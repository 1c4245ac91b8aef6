import { execFileSync } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxConfigSchema, sandboxOptionsOf } from '../../../shared/sandbox';
import { makeTestRepo } from '../worktrees/testing/gitRepo';
import { API_KEY_ROUTES, placeholderKey, upstreamPath } from './apiKeyRoutes';
import { bwrapArgs, innerScript } from './bwrapBackend';
import { createEgressProxy } from './egressProxy';
import { createKeyProxy } from './keyProxy';
import { isAllowed, isLocalAddress } from './networkAllowlist';
import { sandboxMounts } from './sandboxMounts';
import { quoted, seatbeltProfile } from './seatbeltProfile';
import type { SandboxRunPlan } from './sandboxBackend';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function listening(server: Server): Promise<number> {
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done((server.address() as AddressInfo).port)));
}

function serve(handler: Parameters<typeof createServer>[1]): Promise<number> {
  const server = createServer(handler);
  cleanups.push(() => server.close());
  return listening(server);
}

const plan = (overrides: Partial<SandboxRunPlan> = {}): SandboxRunPlan => ({
  mounts: { home: '/home/dev', rw: ['/home/dev/app', '/home/dev/.claude'], ro: ['/home/dev/app/.git/hooks'], hidden: ['/opt/secrets'] },
  socketDir: '/tmp/switchboard-sandbox-x',
  relays: [{ port: 3128, socket: '/tmp/switchboard-sandbox-x/proxy.sock' }],
  alwaysHidden: [],
  cwd: '/home/dev/app',
  ...overrides,
});

describe('the sandbox setting', () => {
  it('takes true, false or options, and names a bad network target', () => {
    expect(sandboxOptionsOf(SandboxConfigSchema.parse(true))).toEqual({});
    expect(sandboxOptionsOf(SandboxConfigSchema.parse(false))).toBeUndefined();
    expect(SandboxConfigSchema.safeParse({ network: { allow: ['registry.npmjs.org', '127.0.0.1:4873', '*.github.com'] } }).success).toBe(
      true,
    );
    const bad = SandboxConfigSchema.safeParse({ network: { allow: ['https://github.com'] } });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toContain('must be \\"host\\" or \\"host:port\\"');
    expect(SandboxConfigSchema.safeParse({ network: { allow: ['example.com:70000'] } }).success).toBe(false);
    expect(SandboxConfigSchema.safeParse({ memoryMb: 10 }).success).toBe(false);
    expect(SandboxConfigSchema.safeParse({ unknown: 1 }).success).toBe(false);
  });
});

describe('the network allowlist', () => {
  it('matches hosts, subdomains and ports', () => {
    const allow = ['registry.npmjs.org', '*.github.com', '127.0.0.1:4873', '[::1]:8080'];
    expect(isAllowed(allow, 'registry.npmjs.org', 443)).toBe(true);
    expect(isAllowed(allow, 'REGISTRY.npmjs.org', 80)).toBe(true);
    expect(isAllowed(allow, 'evil-registry.npmjs.org', 443)).toBe(false);
    expect(isAllowed(allow, 'api.github.com', 443)).toBe(true);
    expect(isAllowed(allow, 'github.com.evil.example', 443)).toBe(false);
    expect(isAllowed(allow, '127.0.0.1', 4873)).toBe(true);
    expect(isAllowed(allow, '127.0.0.1', 4874)).toBe(false);
    expect(isAllowed(allow, '::1', 8080)).toBe(true);
    expect(isAllowed([], 'anything', 1)).toBe(false);
  });
});

describe('the bubblewrap command line', () => {
  it('unshares everything, drops capabilities and layers the mounts: system read-only, private /tmp, home hidden, then the writable folders, then the read-only ones', () => {
    const root = mkdtempSync(join(tmpdir(), 'sb-args-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const args = bwrapArgs(plan({ mounts: { home: root, rw: ['/home/dev/app'], ro: ['/home/dev/app/.git/hooks'], hidden: [] } }));
    expect(args.slice(0, 4)).toEqual(['--die-with-parent', '--unshare-all', '--cap-drop', 'ALL']);
    expect(args).not.toContain('--share-net');
    const at = (flag: string, path: string) => args.findIndex((arg, i) => arg === flag && args[i + 1] === path);
    expect(at('--ro-bind', '/')).toBeGreaterThan(0);
    expect(at('--tmpfs', '/tmp')).toBeGreaterThan(at('--ro-bind', '/'));
    expect(at('--tmpfs', root)).toBeGreaterThan(at('--tmpfs', '/tmp'));
    expect(at('--bind-try', '/home/dev/app')).toBeGreaterThan(at('--tmpfs', root));
    expect(at('--ro-bind-try', '/home/dev/app/.git/hooks')).toBeGreaterThan(at('--bind-try', '/home/dev/app'));
    expect(args.slice(-2)).toEqual(['--chdir', '/home/dev/app']);
  });

  it('starts the relays, waits for their ports and becomes the program under the limits', () => {
    const script = innerScript(plan({ memoryMb: 512, maxProcesses: 64 }), '/usr/bin/socat');
    expect(script).toContain(
      "'/usr/bin/socat' 'TCP-LISTEN:3128,bind=127.0.0.1,fork,reuseaddr,nodelay' 'UNIX-CONNECT:/tmp/switchboard-sandbox-x/proxy.sock' 2>/dev/null &",
    );
    expect(script).toContain('*:0C38) up=$((up+1))');
    expect(script.trim().split('\n').at(-1)).toBe(`exec prlimit --nproc=64 --data=${512 * 1024 * 1024} -- "$@"`);
    const shell = execFileSync('sh', ['-c', innerScript(plan({ relays: [] }), 'socat'), 'sandbox', 'printf', '%s|', 'two words', "it's"], {
      encoding: 'utf8',
    });
    expect(shell).toBe("two words|it's|");
  });
});

describe('the Seatbelt profile (macOS, as text)', () => {
  it('denies by default, hides the home but its state folders and working tree, writes only there, and reaches only our loopback ports', () => {
    const profile = seatbeltProfile({
      mounts: {
        home: '/Users/dev',
        rw: ['/Users/dev/app', '/Users/dev/.claude'],
        ro: ['/Users/dev/app/.git/hooks'],
        hidden: ['/Volumes/keys'],
      },
      alwaysHidden: ['/Users/dev/Library/Application Support/Switchboard'],
      loopbackPorts: [3128, 41234],
    });
    const lines = profile.trim().split('\n');
    expect(lines[0]).toBe('(version 1)');
    expect(lines[1]).toBe('(deny default)');
    const denyHome = lines.findIndex((l) => l.startsWith('(deny file-read*') && l.includes('(subpath "/Users/dev")'));
    const allowWork = lines.findIndex((l) => l.startsWith('(allow file-read*') && l.includes('(subpath "/Users/dev/app")'));
    expect(denyHome).toBeGreaterThan(0);
    expect(allowWork, 'a later rule wins: the working tree is readable again').toBeGreaterThan(denyHome);
    expect(lines[denyHome]).toContain('(subpath "/Users/dev/Library/Application Support/Switchboard")');
    const writes = lines.find((l) => l.startsWith('(allow file-write*'))!;
    expect(writes).toContain('(subpath "/Users/dev/app")');
    expect(writes).not.toContain('(subpath "/Users/dev")');
    expect(lines).toContain('(deny file-write* (subpath "/Users/dev/app/.git/hooks"))');
    expect(lines).toContain('(allow network-outbound (remote ip "localhost:3128"))');
    expect(lines).toContain('(allow network-outbound (remote ip "localhost:41234"))');
    expect(profile).not.toMatch(/\(allow network\*\)|\(allow network-outbound\)\n/);
    expect(quoted('/a "b"\\c')).toBe('"/a \\"b\\"\\\\c"');
  });
});

describe('the egress proxy', () => {
  async function proxy(allow: string[], fixed: Record<string, number> = {}, names: Record<string, string> = {}) {
    const refused: string[] = [];
    const server = createEgressProxy({
      allow: () => allow,
      resolve: async (host) => {
        if (names[host] === undefined) throw new Error(`${host}: not found`);
        return names[host];
      },
      fixed: (hostPort) => (fixed[hostPort] !== undefined ? () => connect({ host: '127.0.0.1', port: fixed[hostPort] }) : undefined),
      onRefused: (host, port) => refused.push(`${host}:${port}`),
    });
    cleanups.push(() => server.close());
    return { port: await listening(server), refused };
  }

  function viaProxy(proxyPort: number, url: string): Promise<{ status: number; body: string }> {
    return new Promise((done, fail) => {
      const req = request({ host: '127.0.0.1', port: proxyPort, path: url, agent: false }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => done({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', fail);
      req.end();
    });
  }

  function tunnel(proxyPort: number, target: string): Promise<string> {
    return new Promise((done, fail) => {
      const socket = connect({ host: '127.0.0.1', port: proxyPort }, () => {
        socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
      });
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
        if (text.startsWith('HTTP/1.1 200') && text.includes('\r\n\r\n') && !text.includes('GET')) {
          socket.write(`GET / HTTP/1.1\r\nHost: ${target}\r\nConnection: close\r\n\r\n`);
        }
      });
      socket.on('end', () => done(text));
      socket.on('error', fail);
    });
  }

  it('forwards plain requests and tunnels to allowed hosts, and refuses and records the others', async () => {
    const allowedPort = await serve((_req, res) => res.end('allowed'));
    const otherPort = await serve((_req, res) => res.end('other'));
    const { port, refused } = await proxy([`127.0.0.1:${allowedPort}`]);
    expect(await viaProxy(port, `http://127.0.0.1:${allowedPort}/x`)).toEqual({ status: 200, body: 'allowed' });
    expect(await tunnel(port, `127.0.0.1:${allowedPort}`)).toContain('allowed');
    const plainRefusal = await viaProxy(port, `http://127.0.0.1:${otherPort}/`);
    expect(plainRefusal.status).toBe(403);
    expect(plainRefusal.body).not.toContain('other');
    const tunnelRefusal = await tunnel(port, `127.0.0.1:${otherPort}`);
    expect(tunnelRefusal).toMatch(/^HTTP\/1.1 403/);
    expect(refused).toEqual([`127.0.0.1:${otherPort}`, `127.0.0.1:${otherPort}`]);
    expect((await viaProxy(port, '/relative')).status).toBe(400);
  });

  it('reuses its connection to an allowed host across plain requests, passing on only end-to-end headers', async () => {
    let connections = 0;
    const seen: Record<string, unknown>[] = [];
    const upstream = createServer((req, res) => {
      seen.push(req.headers);
      res.end('registry');
    });
    upstream.on('connection', () => (connections += 1));
    cleanups.push(() => upstream.close());
    const allowedPort = await listening(upstream);
    const otherPort = await serve((_req, res) => res.end('other'));
    const { port, refused } = await proxy([`127.0.0.1:${allowedPort}`]);
    const answers = [];
    for (let i = 0; i < 3; i++) {
      answers.push(
        await new Promise<{ body: string; headers: Record<string, unknown> }>((done, fail) => {
          const headers = { 'proxy-authorization': 'Basic c2VjcmV0', connection: 'close, x-hop', 'x-hop': 'one hop', 'x-end': 'kept' };
          const req = request({ host: '127.0.0.1', port, path: `http://127.0.0.1:${allowedPort}/p${i}`, agent: false, headers }, (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => done({ body, headers: res.headers }));
          });
          req.on('error', fail);
          req.end();
        }),
      );
    }
    expect(answers.map((a) => a.body)).toEqual(['registry', 'registry', 'registry']);
    expect(connections).toBe(1);
    for (const headers of seen) {
      expect(headers['x-end']).toBe('kept');
      expect(headers).not.toHaveProperty('proxy-authorization');
      expect(headers).not.toHaveProperty('x-hop');
      expect(headers.connection).not.toBe('close');
    }
    // The upstream's keep-alive terms are its connection's, not the client's.
    expect(answers[0].headers).not.toHaveProperty('keep-alive');
    // Reuse is per allowed destination: another host is still refused and recorded.
    expect((await viaProxy(port, `http://127.0.0.1:${otherPort}/`)).status).toBe(403);
    expect(refused).toEqual([`127.0.0.1:${otherPort}`]);
  });

  it('refuses an allowed name that resolves to a local address, unless that address and port are allowed', async () => {
    const hostPort = await serve((_req, res) => res.end('host service'));
    const names = { 'localtest.me': '127.0.0.1', 'rebound.example.com': '::ffff:127.0.0.1' };
    const byName = await proxy(['localtest.me', '*.example.com', '127.0.0.1'], {}, names);
    const plain = await viaProxy(byName.port, `http://localtest.me:${hostPort}/`);
    expect(plain.status).toBe(403);
    expect(plain.body).toContain(`localtest.me resolves to 127.0.0.1, a local address; only an allowlist entry 127.0.0.1:${hostPort}`);
    expect(await tunnel(byName.port, `rebound.example.com:${hostPort}`)).toMatch(/^HTTP\/1.1 403/);
    expect((await viaProxy(byName.port, `http://127.0.0.1:${hostPort}/`)).status, 'a bare loopback address opens no port').toBe(403);
    // Recorded by the address, so the inbox's "allow" names what would let it through.
    expect(byName.refused).toEqual([`127.0.0.1:${hostPort}`, `::ffff:127.0.0.1:${hostPort}`, `127.0.0.1:${hostPort}`]);

    const explicit = await proxy(['localtest.me', `127.0.0.1:${hostPort}`], {}, names);
    expect(await viaProxy(explicit.port, `http://localtest.me:${hostPort}/`)).toEqual({ status: 200, body: 'host service' });
    expect(explicit.refused).toEqual([]);
    const unknown = await viaProxy(explicit.port, `http://localtest.me.invalid:${hostPort}/`);
    expect(unknown.status, 'a name not allowed is refused before any lookup').toBe(403);
  });

  it('tells local addresses from the others', () => {
    for (const local of [
      '127.0.0.1',
      '127.8.9.10',
      '::1',
      '[::1]',
      '0.0.0.0',
      '::',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
    ])
      expect(isLocalAddress(local), local).toBe(true);
    for (const remote of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isLocalAddress(remote), remote).toBe(false);
  });

  it('always lets Switchboard’s own destinations through', async () => {
    const ownPort = await serve((_req, res) => res.end('mcp endpoint'));
    const { port, refused } = await proxy([], { [`127.0.0.1:${ownPort}`]: ownPort });
    expect((await viaProxy(port, `http://127.0.0.1:${ownPort}/mcp`)).body).toBe('mcp endpoint');
    expect(refused).toEqual([]);
  });
});

describe('the key proxy', () => {
  const gemini = API_KEY_ROUTES.find((route) => route.keyEnv === 'GEMINI_API_KEY')!;
  const realGeminiKey = 'AIzaSyREAL-gemini-key_0123456789';

  it('puts the real key in Gemini’s key parameter when the request carried one, leaving the rest as sent', () => {
    const placeholder = placeholderKey(realGeminiKey);
    expect(upstreamPath(gemini, '/', `/ws/Service.Bidi?key=${placeholder}&alt=sse%20x`, realGeminiKey)).toBe(
      `/ws/Service.Bidi?key=${realGeminiKey}&alt=sse%20x`,
    );
    expect(upstreamPath(gemini, '/base/', `/v1beta/models?pageSize=5&key`, realGeminiKey)).toBe(
      `/base/v1beta/models?pageSize=5&key=${realGeminiKey}`,
    );
    // No key parameter: none is added (the header carries it); a parameter merely ending in "key" is not the key.
    expect(upstreamPath(gemini, '', '/v1beta/models?pagekey=1', realGeminiKey)).toBe('/v1beta/models?pagekey=1');
    // Routes whose API takes no key parameter leave the query alone.
    const anthropic = API_KEY_ROUTES[0];
    expect(upstreamPath(anthropic, '/base', '/v1/messages?key=x', 'sk-ant-real')).toBe('/base/v1/messages?key=x');
  });

  it('relays a WebSocket upgrade with the real key in the header and the key parameter', async () => {
    const upstream = createServer((_req, res) => res.writeHead(426).end());
    upstream.on('upgrade', (req, socket) => {
      socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      socket.write(`saw ${req.url} ${String(req.headers['x-goog-api-key'])}\n`);
      socket.on('data', (chunk: Buffer) => socket.write(`echo ${chunk.toString()}`));
    });
    cleanups.push(() => upstream.close());
    const upstreamPort = await listening(upstream);
    const keyProxy = createKeyProxy(gemini, `http://127.0.0.1:${upstreamPort}`, realGeminiKey);
    cleanups.push(() => keyProxy.close());
    const port = await listening(keyProxy);
    const placeholder = placeholderKey(realGeminiKey);
    const text = await new Promise<string>((done, fail) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.write(
          `GET /ws/Live.Bidi?key=${placeholder} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
            `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nx-goog-api-key: ${placeholder}\r\n\r\n`,
        );
      });
      let seen = '';
      socket.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('saw ') && !seen.includes('hello')) socket.write('hello');
        if (seen.includes('echo hello')) {
          socket.destroy();
          done(seen);
        }
      });
      socket.on('error', fail);
    });
    expect(text).toMatch(/^HTTP\/1.1 101 Switching Protocols\r\n/);
    expect(text).toContain(`saw /ws/Live.Bidi?key=${realGeminiKey} ${realGeminiKey}\n`);
    expect(text).not.toContain(placeholder);
  });

  it('sends the real key (in the API’s own header) to the real base URL, whatever key the sandbox sent', async () => {
    const seen: { path?: string; headers?: Record<string, unknown> } = {};
    const upstreamPort = await serve((req, res) => {
      seen.path = req.url;
      seen.headers = req.headers;
      res.end('streamed answer');
    });
    const [anthropic, openai] = API_KEY_ROUTES;
    const realKey = 'sk-ant-api03-REAL-KEY-0123456789';
    const keyProxy = createKeyProxy(anthropic, `http://127.0.0.1:${upstreamPort}/base`, realKey);
    cleanups.push(() => keyProxy.close());
    const port = await listening(keyProxy);
    const body = await new Promise<string>((done, fail) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/v1/messages', method: 'POST', headers: { 'x-api-key': placeholderKey(realKey) }, agent: false },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => done(text));
        },
      );
      req.on('error', fail);
      req.end('{}');
    });
    expect(body).toBe('streamed answer');
    expect(seen.path).toBe('/base/v1/messages');
    expect(seen.headers?.['x-api-key']).toBe(realKey);
    expect(openai.header).toBe('authorization');
  });

  it('gives the sandbox a placeholder of the same shape, stable per key, that reveals nothing of it', () => {
    const key = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789';
    const placeholder = placeholderKey(key);
    expect(placeholder.startsWith('sk-ant-api03-')).toBe(true);
    expect(placeholder).toBe(placeholderKey(key));
    expect(placeholder).not.toContain(key.slice(13, 21));
    expect(placeholder.slice(-20)).not.toBe(key.slice(-20));
    expect(placeholderKey('other-key')).not.toBe(placeholder);
  });
});

describe('what a sandboxed run sees of the file system', () => {
  it('a linked worktree writes its checkout and the repository’s git folder, never its hooks or config; the CLI’s state folders follow their variables', () => {
    const repo = makeTestRepo();
    cleanups.push(() => repo.cleanup());
    const worktree = join(repo.home, 'wt-a');
    repo.git('worktree', 'add', '--quiet', '-b', 'a', worktree);
    const mounts = sandboxMounts({
      cwd: join(worktree),
      env: { HOME: '/home/dev', CLAUDE_CONFIG_DIR: '/srv/claude-config' },
      options: { fs: { rw: ['~/.npm'], ro: ['shared'], hidden: ['/etc/ssl/private'] } },
      stateFolders: [{ env: 'CLAUDE_CONFIG_DIR', home: ['.claude', '.claude.json'] }, { home: ['.codex'] }],
      projectDir: repo.root,
    });
    expect(mounts.home).toBe('/home/dev');
    expect(mounts.rw).toEqual([worktree, join(repo.root, '.git'), '/srv/claude-config', '/home/dev/.codex', '/home/dev/.npm']);
    expect(mounts.ro).toEqual([join(repo.root, '.git', 'hooks'), join(repo.root, '.git', 'config'), join(repo.root, 'shared')]);
    expect(mounts.hidden).toEqual(['/etc/ssl/private']);
  });
});
