/**
 * Watchers are ready without a server, and a Next.js that prints its ready line and then fails
 * is never green: the real `tsc --watch` and `next dev` (devDependencies) in a real PTY.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReadinessInfo, ReadinessPhase } from '../../src/shared/ready';
import type { ReadinessTracker } from '../../src/main/core/ready';
import { BIN, FIXTURES, freePort, useReadyHarness } from './readyHarness';

const TSC = join(BIN, 'tsc');
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

/**
 * The tracker's info once it enters `phase`. An entry without readiness fields is `running` after
 * stabilityDelay (tsc may load for longer than that) and switches when the watcher speaks.
 */
function phaseReached(tracker: ReadinessTracker, phase: ReadinessPhase): Promise<ReadinessInfo> {
  if (tracker.info.phase === phase) return Promise.resolve(tracker.info);
  return new Promise((resolve) => {
    const listener = tracker.onDidChange((info) => {
      if (info.phase !== phase) return;
      listener.dispose();
      resolve(info);
    });
  });
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
