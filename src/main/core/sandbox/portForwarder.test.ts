/**
 * Ports forwarded out of a network namespace of its own (real bwrap, `--unshare-net`), through the
 * same relay script a sandboxed run starts with.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { innerScript } from './bwrapBackend';
import { HostSockets } from './hostSockets';
import { SandboxPortForwarder } from './portForwarder';

const hasBwrap = process.platform === 'linux' && spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-net', 'true']).status === 0;
const hasSocat = spawnSync('socat', ['-V']).status === 0;

function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

function getText(url: string): Promise<string> {
  return new Promise((done, fail) => {
    get(url, { agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += String(chunk)));
      res.on('end', () => done(body));
    }).on('error', fail);
  });
}

/** HTTP servers inside: `v4` on 127.0.0.1, `v6` on ::1 only, `relay` standing for a sandbox relay. */
const SERVERS = `const http = require('http');
const [v4, v6, relay] = process.argv.slice(1).map(Number);
const serve = (port, host, name) => http.createServer((req, res) => res.end(name + ' answered ' + req.url)).listen(port, host);
serve(v4, '127.0.0.1', 'v4'); serve(v6, '::1', 'v6'); serve(relay, '127.0.0.1', 'relay');`;

let child: ChildProcess | undefined;
let sockets: HostSockets | undefined;
let forwarder: SandboxPortForwarder | undefined;
afterEach(() => {
  forwarder?.dispose();
  sockets?.dispose();
  child?.kill('SIGKILL');
  child = sockets = forwarder = undefined;
});

describe.runIf(hasBwrap && hasSocat)('ports forwarded out of a network namespace', () => {
  it('each server inside answers on the host loopback at its port, several at once; a relay port is not forwarded; ending the run closes them', async () => {
    const [v4, v6, relay] = await Promise.all([freePort(), freePort(), freePort()]);
    sockets = new HostSockets();
    forwarder = new SandboxPortForwarder(sockets);
    const plan = {
      mounts: { home: '/nonexistent', rw: [], ro: [], hidden: [] },
      socketDir: sockets.dir,
      relays: [],
      spareLink: forwarder.link,
      alwaysHidden: [],
      cwd: '/',
    };
    const argv = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', '--unshare-pid', '--die-with-parent'];
    const program = [process.execPath, '-e', SERVERS, String(v4), String(v6), String(relay)];
    child = spawn('bwrap', [...argv, '--', '/bin/sh', '-c', innerScript(plan, 'socat'), 'sandbox', ...program], { stdio: 'ignore' });
    forwarder.beginRun(child.pid!, [relay]);
    await vi.waitFor(() => expect(forwarder!.ports).toEqual([v4, v6].sort((a, b) => a - b)), { timeout: 15_000, interval: 50 });

    const answers = await Promise.all([1, 2, 3].map((n) => getText(`http://127.0.0.1:${v4}/${n}`)));
    expect(answers).toEqual(['v4 answered /1', 'v4 answered /2', 'v4 answered /3']);
    expect(await getText(`http://127.0.0.1:${v6}/`), 'an IPv6-only server inside answers on the host IPv4 loopback').toBe('v6 answered /');
    await expect(getText(`http://127.0.0.1:${relay}/`)).rejects.toThrow(/ECONNREFUSED/);

    forwarder.endRun();
    await expect(getText(`http://127.0.0.1:${v4}/`)).rejects.toThrow(/ECONNREFUSED/);
  }, 30_000);
});
