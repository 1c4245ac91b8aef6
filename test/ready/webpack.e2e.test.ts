/**
 * Failures that look like progress, on the real webpack-dev-server 5 (test/fixtures/servers/webpack-app,
 * installed by scripts/ensureTestDeps.mjs) in a real PTY: it prints its URL before the first compile,
 * and after a failed compile it keeps serving and watching. Neither is ready; the port answering is
 * the ground truth that a port-only rule would have called green.
 */
import { cpSync, existsSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, freePort, httpStatus, phaseReached, useReadyHarness } from './readyHarness';

const APP = join(FIXTURES, 'webpack-app');
const WEBPACK = join(APP, 'node_modules/.bin/webpack');
const { harness } = useReadyHarness('webpack-dev-server (ms)');

/** A copy of the fixture app (its own src/ and dist/) that uses the fixture's install. */
function app(source: string): string {
  const dir = harness().tempDir('sb-webpack-');
  cpSync(join(APP, 'webpack.config.js'), join(dir, 'webpack.config.js'));
  cpSync(join(APP, 'src'), join(dir, 'src'), { recursive: true });
  symlinkSync(join(APP, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'src', 'index.js'), source);
  return dir;
}

const CLEAN = 'document.body.textContent = "hello";\n';
const MISSING_IMPORT = 'import "./missing";\ndocument.body.textContent = "hello";\n';

describe.skipIf(!existsSync(WEBPACK))('webpack serve (webpack-dev-server 5.2.7, webpack 5.113.0)', () => {
  it('the URL printed before the first compile is not ready; the compile line is', async () => {
    const port = await freePort();
    const server = await harness().start({ name: 'wds', argv: [WEBPACK, 'serve', '--port', String(port)], cwd: app(CLEAN) });
    const ready = await phaseReached(server.tracker, 'ready');
    expect(ready).toMatchObject({ port, message: `webpack-dev-server ready on http://localhost:${port}` });
    const urlAt = server.firstOutputAt(/\[webpack-dev-server\] Loopback: http:\/\/localhost:\d+\//);
    const compiledAt = server.firstOutputAt(/compiled successfully/);
    expect(urlAt).toBeDefined();
    expect(compiledAt).toBeDefined();
    expect(urlAt!).toBeLessThanOrEqual(compiledAt!);
    expect(server.phases.filter((p) => p.phase === 'ready' && p.at < compiledAt!)).toEqual([]);
    expect(await httpStatus(`http://127.0.0.1:${port}/main.js`)).toBe(200);
  }, 90_000);

  it('a compile error while it serves and watches is an error, never ready; the fix makes it ready', async () => {
    const port = await freePort();
    const dir = app(MISSING_IMPORT);
    const server = await harness().start({ name: 'wds', argv: [WEBPACK, 'serve', '--port', String(port)], cwd: dir });
    const failed = await phaseReached(server.tracker, 'error');
    expect(failed.message).toMatch(/Module not found|webpack compiled with 1 error|Error in \.\/src\/index\.js/);
    // Its summary line may follow the error line the tracker acted on.
    await server.outputSeen(/compiled with 1 error/);
    // The failure looks like progress: the server answers HTTP and keeps watching.
    expect(await httpStatus(`http://127.0.0.1:${port}/`)).toBeDefined();
    expect(server.tracker.info.phase).toBe('error');
    const fixedAt = Date.now();
    const ready = phaseReached(server.tracker, 'ready');
    writeFileSync(join(dir, 'src', 'index.js'), CLEAN);
    expect(await ready).toMatchObject({ port });
    expect(server.phases.filter((p) => p.phase === 'ready' && p.at < fixedAt)).toEqual([]);
  }, 90_000);
});
