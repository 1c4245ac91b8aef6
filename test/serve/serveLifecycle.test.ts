/**
 * `serve` as a process: one instance per data dir and project (the second names the holder's
 * pid, a dead holder's lock is taken over), and a second signal during a slow stop SIGKILLs
 * every process tree at once.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callOk, connectClient } from '../mcp/mcpHarness';
import { exitOf, startServe, type ServeProcess } from './serveProcess';
import { isPidAlive } from '../../src/main/core/instance';

const started: ServeProcess[] = [];
let root: string | undefined;
afterEach(() => {
  for (const serve of started.splice(0)) serve.kill();
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

async function serveIn(dir: string): Promise<ServeProcess> {
  const serve = await startServe({ root: dir });
  started.push(serve);
  return serve;
}

describe('one serve per data dir and project', () => {
  it("a second serve on the same data dir and project exits 1 naming the pid that holds the lock; a dead holder's lock is taken over", async () => {
    root = mkdtempSync(join(tmpdir(), 'serve-lock-'));
    const first = await serveIn(root);
    const second = await startServe({ root }).then(
      (s) => {
        started.push(s);
        return undefined;
      },
      (err: Error) => err.message,
    );
    expect(second).toMatch(/serve exited with 1/);
    expect(second).toContain(`pid ${first.printed.pid}`);
    expect(first.child.exitCode).toBeNull();

    first.child.kill('SIGKILL'); // no clean-up: the lock stays behind with a dead pid
    await exitOf(first.child);
    const third = await serveIn(root);
    expect(third.printed.pid).not.toBe(first.printed.pid);
  }, 120_000);
});

describe('stopping serve', () => {
  it('a second SIGINT during a slow stop SIGKILLs every process tree at once instead of waiting out the grace', async () => {
    root = mkdtempSync(join(tmpdir(), 'serve-stop-'));
    mkdirSync(join(root, 'project'));
    // Ignores SIGTERM (and so do its children): only SIGKILL ends it, after a minute of grace.
    writeFileSync(
      join(root, 'project', 'switchboard.json'),
      JSON.stringify({
        settings: { killGraceMs: 60_000 },
        processes: { stubborn: { command: 'sh', args: ['-c', "trap '' TERM; echo up; while :; do sleep 1; done"] } },
      }),
    );
    const serve = await serveIn(root);
    const client = await connectClient(serve.printed.url, serve.printed.token);
    const { processes } = await callOk<{ processes: Array<{ pid?: number; name: string }> }>(client, 'list_processes');
    await client.close();
    const pid = processes.find((p) => p.name === 'stubborn')?.pid;
    expect(pid).toBeGreaterThan(0);

    const exited = exitOf(serve.child);
    serve.child.kill('SIGTERM');
    const stillStopping = await Promise.race([exited.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), 1_000))]);
    expect(stillStopping).toBe(true); // the grace is a minute; the stop is under way
    serve.child.kill('SIGINT');
    const result = await Promise.race([exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), 15_000))]);
    expect(result).toEqual({ code: 130, signal: null });
    expect(serve.stderr()).toMatch(/SIGINT again while stopping: killing every process tree now/);
    await expect.poll(() => isPidAlive(pid!), { timeout: 5_000 }).toBe(false);
  }, 120_000);
});
