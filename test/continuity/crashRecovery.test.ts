/**
 * serve killed by SIGKILL: a detached process its entry started (setsid: it survives the PTY's
 * hang-up) is still running; the next serve on the same data dir kills it by its run marker before
 * it reports ready, brings the entry back, and replaces the dead instance's discovery file.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callOk } from '../mcp/mcpHarness';
import { startServe } from './serveChild';
import { StateStore } from '../../src/main/core/continuity';
import { waitForFileText } from '../support/wait';
import type { Proc } from './restartHarness';

/** Running (a zombie waiting for a reaper that is not us counts as gone). */
function isAlive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined);
});

describe('crash recovery', () => {
  it('after SIGKILL the next launch kills leftovers by run marker, restores the entry and replaces the discovery file', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'continuity-crash-')));
    cleanups.push(async () => rmSync(root, { recursive: true, force: true }));
    const project = join(root, 'project');
    const dataDir = join(root, 'data');
    mkdirSync(project);

    const first = await startServe(project, dataDir, root);
    cleanups.push(async () => void (await first.stop('SIGKILL')));
    const entry = await callOk<Proc>(first.client, 'spawn_process', {
      kind: 'command',
      shell: 'setsid sleep 600 & echo "daemon=$!"; wait',
      name: 'with-daemon',
    });
    const found = await callOk<{ matches: Array<{ line: string }> }>(first.client, 'wait_for_pattern', {
      process_id: entry.id,
      pattern: 'daemon=\\d+',
      timeout_seconds: 20,
    });
    const daemon = Number(/daemon=(\d+)/.exec(JSON.stringify(found))![1]);
    expect(isAlive(daemon)).toBe(true);
    // A crash may lose the last few seconds of output: crash once the periodic copy holds the line.
    await waitForFileText(join(new StateStore(dataDir, project).dir, `${entry.id}.screen`), `daemon=${daemon}`, 30_000);
    expect(await first.stop('SIGKILL')).toBeNull();
    expect(isAlive(daemon)).toBe(true); // nothing cleaned up after a crash
    cleanups.push(async () => void (isAlive(daemon) && process.kill(daemon, 'SIGKILL')));
    expect(JSON.parse(readFileSync(join(dataDir, 'mcp-endpoint.json'), 'utf8')).pid).toBe(first.pid);

    const second = await startServe(project, dataDir, root);
    cleanups.push(async () => void (await second.stop('SIGTERM')));
    expect(isAlive(daemon)).toBe(false);
    expect(JSON.parse(readFileSync(join(dataDir, 'mcp-endpoint.json'), 'utf8'))).toMatchObject({ pid: second.pid, url: second.url });
    const back = await callOk<Proc>(second.client, 'get_process_status', { process_id: entry.id });
    expect(back).toMatchObject({ id: entry.id, name: 'with-daemon', state: 'stopped' });
    const previous = await callOk<{ text: string }>(second.client, 'get_process_output', { process_id: entry.id, run: 'previous' });
    expect(previous.text).toContain(`daemon=${daemon}`);
  }, 150_000);
});
