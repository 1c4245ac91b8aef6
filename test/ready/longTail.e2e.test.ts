/**
 * The readiness long tail (docs/readiness.md, "The held-out set"), one real tool per class, in a
 * real PTY: Debian's Hugo (watch mode without a server, a server, a taken port), sirv-cli (a taken
 * port, another chosen), and Python's http.server started by a script whose helper is missing
 * (bash's "git: command not found") and that prints its address on 0.0.0.0. Ground truth is the
 * port answering, polled by the harness.
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, SYSTEM_PYTHON, expectReadyAfterPortOpened, freePort, httpStatus, phaseReached, useReadyHarness } from './readyHarness';

const HUGO = '/usr/bin/hugo';
const SIRV = join(BIN, 'sirv');
const { harness, timings } = useReadyHarness('long tail (ms)');

/** A one-page Hugo site. */
function hugoSite(): string {
  const dir = harness().tempDir('sb-hugo-');
  writeFileSync(join(dir, 'hugo.toml'), 'baseURL = "http://example.org/"\ntitle = "long tail"\n');
  mkdirSync(join(dir, 'layouts'));
  writeFileSync(join(dir, 'layouts', 'index.html'), '<h1>{{ .Site.Title }}</h1>\n');
  return dir;
}

function staticSite(): string {
  const dir = harness().tempDir('sb-static-');
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title><h1>hello</h1>\n');
  return dir;
}

describe.skipIf(!existsSync(HUGO))('hugo (Debian)', () => {
  it('hugo --watch builds and watches: ready without a port once the site is written', async () => {
    const dir = hugoSite();
    const out = join(dir, 'public');
    const { tracker } = await harness().start({ name: 'hugo-watch', argv: [HUGO, '--watch', '-d', out], cwd: dir });
    const ready = await phaseReached(tracker, 'ready');
    expect(ready.port).toBeUndefined();
    expect(ready.message).toMatch(/watching for changes$/);
    expect(existsSync(join(out, 'index.html'))).toBe(true);
  }, 60_000);

  it('hugo server is ready on its port once it answers HTTP', async () => {
    const dir = hugoSite();
    const port = await freePort();
    const watcher = harness().watchPort(port);
    const server = await harness().start({ name: 'hugo-server', argv: [HUGO, 'server', '--port', String(port)], cwd: dir });
    const ready = await phaseReached(server.tracker, 'ready');
    expect(ready.port).toBe(port);
    expect(await httpStatus(`http://127.0.0.1:${port}/`)).toBe(200);
    timings.push({ test: 'hugo server', ...(await expectReadyAfterPortOpened(server, watcher, /Web Server is available at/)) });
  }, 60_000);

  it('hugo server on a taken port is an error naming the port, never ready', async () => {
    const dir = hugoSite();
    const port = await freePort();
    await harness().holdPort(port);
    const server = await harness().start({ name: 'hugo-taken', argv: [HUGO, 'server', '--port', String(port)], cwd: dir });
    const failed = await phaseReached(server.tracker, 'error');
    expect(failed.message).toMatch(new RegExp(`^Port ${port} already in use`));
    expect(server.phases.map((p) => p.phase)).not.toContain('ready');
  }, 60_000);
});

describe('sirv-cli (devDependency)', () => {
  it('a taken port, another one chosen: ready on the new port, which answers', async () => {
    const taken = await freePort();
    await harness().holdPort(taken);
    const server = await harness().start({ name: 'sirv', argv: [SIRV, '.', '--dev', '--port', String(taken)], cwd: staticSite() });
    const ready = await phaseReached(server.tracker, 'ready');
    expect(ready.port).toBeDefined();
    expect(ready.port).not.toBe(taken);
    expect(await httpStatus(`http://127.0.0.1:${ready.port}/`)).toBe(200);
    expect(server.phases.filter((p) => p.phase === 'ready')).toHaveLength(1);
  }, 60_000);
});

describe.skipIf(!existsSync(SYSTEM_PYTHON))('a missing helper while the server comes up', () => {
  it('"git: command not found" is not a failure; http.server on 0.0.0.0 is ready on loopback', async () => {
    // A PATH with bash and python3 but no git, as on a machine without it.
    const bin = harness().tempDir('sb-nogit-');
    symlinkSync('/bin/bash', join(bin, 'bash'));
    symlinkSync(SYSTEM_PYTHON, join(bin, 'python3'));
    const port = await freePort();
    const watcher = harness().watchPort(port);
    const server = await harness().start({
      name: 'missing-helper',
      argv: [join(bin, 'bash'), '-c', `git rev-parse --short HEAD; exec python3 -m http.server ${port}`],
      cwd: staticSite(),
      env: { PATH: bin },
    });
    const ready = await phaseReached(server.tracker, 'ready');
    expect(server.firstOutputAt(/git: command not found/)).toBeDefined();
    expect(ready.message).toBe(`Server ready on http://localhost:${port}`);
    expect(server.phases.map((p) => p.phase)).not.toContain('error');
    timings.push({ test: 'missing helper', ...(await expectReadyAfterPortOpened(server, watcher, /Serving HTTP on/)) });
  }, 60_000);
});
