/**
 * Watchers are ready without a server, and a Next.js that prints its ready line and then fails
 * is never green: the real `tsc --watch`, `esbuild --watch`, `rollup` and `next dev`
 * (devDependencies) in a real PTY.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReadinessTracker } from '../../src/main/core/ready';
import { stripAnsi } from '../../src/main/core/base';
import { BIN, FIXTURES, freePort, phaseReached, useReadyHarness, type StartedServer } from './readyHarness';

const TSC = join(BIN, 'tsc');
const ESBUILD = join(BIN, 'esbuild');
const ROLLUP = join(BIN, 'rollup');
const NEXT = join(BIN, 'next');
const { harness, timings } = useReadyHarness('watchers (ms)');

/** A one-file TypeScript project (src/index.ts). */
function tinyProject(): string {
  const dir = harness().tempDir('sb-tsc-watch-');
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, outDir: 'dist' }, include: ['src'] }));
  mkdirSync(join(dir, 'src'));
  return dir;
}

function writeSource(dir: string, source: string): void {
  writeFileSync(join(dir, 'src', 'index.ts'), source);
}

describe('tsc --watch', () => {
  it('a clean first compile is ready: "TypeScript watching for changes", no port, no timeout', async () => {
    const dir = tinyProject();
    writeSource(dir, 'export const answer: number = 42;\n');
    const { tracker, startedAt, firstOutputAt } = await harness().start({ name: 'tsc', argv: [TSC, '--watch', '-p', dir], cwd: dir });
    const ready = await phaseReached(tracker, 'ready');
    expect(ready.message).toBe('TypeScript watching for changes');
    expect(ready.port).toBeUndefined();
    const lineAt = firstOutputAt(/Found 0 errors\. Watching for file changes\./);
    expect(lineAt).toBeDefined();
    timings.push({ test: 'tsc clean', watchingLine: lineAt! - startedAt, ready: tracker.info.readyAt! - startedAt });
  }, 90_000);

  it('a type error is an error with the count; fixing the file makes it ready', async () => {
    const dir = tinyProject();
    writeSource(dir, 'export const answer: number = "42";\n');
    const { tracker } = await harness().start({ name: 'tsc', argv: [TSC, '--watch', '--preserveWatchOutput', '-p', dir], cwd: dir });
    const failed = await phaseReached(tracker, 'error');
    expect(failed.message).toBe('TypeScript: Found 1 error. Watching for file changes.');
    const ready = phaseReached(tracker, 'ready');
    writeSource(dir, 'export const answer: number = 42;\n');
    expect((await ready).message).toBe('TypeScript watching for changes');
  }, 90_000);
});

/** Resolves once the entry's output (escape sequences removed) matches `pattern`: the watcher is armed. */
function outputSeen({ entry, firstOutputAt }: StartedServer, pattern: RegExp): Promise<void> {
  if (firstOutputAt(pattern) !== undefined) return Promise.resolve();
  let text = '';
  return new Promise((resolve) => {
    const listener = entry.onDidWriteOutput((chunk) => {
      text += stripAnsi(chunk.text);
      if (!pattern.test(text)) return;
      listener.dispose();
      resolve();
    });
  });
}

/**
 * A false ready would come a stabilityDelay after the watcher's line; nothing marks its absence,
 * so the check waits out that window (twice, for a loaded machine) once.
 */
const DEFAULT_STABILITY_DELAY_MS = 1_000;
async function stillErrorAfterStabilityWindow(tracker: ReadinessTracker): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 2 * DEFAULT_STABILITY_DELAY_MS));
  expect(tracker.info.phase).toBe('error');
}

/** A one-file JavaScript project (src/app.js). */
function jsProject(source: string): string {
  const dir = harness().tempDir('sb-js-watch-');
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'app.js'), source);
  return dir;
}

const BROKEN_JS = 'export const answer = ;\n';
const CLEAN_JS = 'export const answer = 42;\n';

describe('esbuild --watch', () => {
  it('a failed first build prints "[watch] build finished" too: an error, never ready; the fix makes it ready', async () => {
    const dir = jsProject(BROKEN_JS);
    const server = await harness().start({
      name: 'esbuild',
      argv: [ESBUILD, 'src/app.js', '--bundle', '--watch=forever', '--outdir=dist'],
      cwd: dir,
    });
    const { tracker, phases } = server;
    const armed = outputSeen(server, /\[watch\] build finished/);
    const failed = await phaseReached(tracker, 'error');
    expect(failed.message).toMatch(/Unexpected ";"|Expected/);
    await armed;
    await stillErrorAfterStabilityWindow(tracker);
    const fixedAt = Date.now();
    const ready = phaseReached(tracker, 'ready');
    writeFileSync(join(dir, 'src', 'app.js'), CLEAN_JS);
    expect((await ready).message).toBe('esbuild watching for changes');
    expect(phases.filter((p) => p.phase === 'ready' && p.at < fixedAt)).toEqual([]);
  }, 90_000);
});

describe('rollup', () => {
  it('-c -w with a failed first build is an error until an edit fixes it', async () => {
    const dir = jsProject(BROKEN_JS);
    writeFileSync(
      join(dir, 'rollup.config.mjs'),
      'export default { input: "src/app.js", output: { file: "dist/app.js", format: "es" } };\n',
    );
    const server = await harness().start({ name: 'rollup', argv: [ROLLUP, '-c', '-w'], cwd: dir });
    const { tracker } = server;
    const armed = outputSeen(server, /waiting for changes\.\.\./);
    const failed = await phaseReached(tracker, 'error');
    expect(failed.message).toMatch(/^Rollup: /);
    await armed;
    await stillErrorAfterStabilityWindow(tracker);
    const ready = phaseReached(tracker, 'ready');
    writeFileSync(join(dir, 'src', 'app.js'), CLEAN_JS);
    expect((await ready).message).toBe('Rollup watching for changes');
  }, 90_000);
});

describe('next dev with a broken next.config', () => {
  it('is never ready (at most settling): error naming the config', async () => {
    const app = harness().tempDir('sb-next-broken-');
    cpSync(join(FIXTURES, 'next-app'), app, { recursive: true });
    writeFileSync(join(app, 'next.config.mjs'), 'export default {\n  distDir: ".next-broken",\n  experimental: { ,\n};\n');
    const port = await freePort();
    const { tracker, phases } = await harness().start({
      name: 'next',
      argv: [NEXT, 'dev', '--port', String(port)],
      cwd: app,
      env: { NEXT_TELEMETRY_DISABLED: '1' },
    });
    const result = await tracker.waitForReady(60_000);
    expect(result.success).toBe(false);
    expect(result.state).toBe('error');
    // "✓ Ready" may be printed (and answered over HTTP) before the config fails to load: never a
    // settled ready, and never shown green (a settling ready is drawn as starting).
    expect(phases.filter((p) => p.phase === 'ready' && p.settledAt !== undefined)).toEqual([]);
    expect(result.message).toMatch(/next\.config\.mjs/);
  }, 90_000);
});
