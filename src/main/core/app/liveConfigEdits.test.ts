/**
 * Live edits of switchboard.json do what they say, with real PTYs: an unchanged entry is never
 * restarted (not even after an earlier edit of it), a command edit restarts once, and an edit of
 * readiness rules decides the next run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SwitchboardCore } from './switchboardCore';
import { buildCore } from '../composition';
import { waitForEvent } from '../base';
import type { ProcessInfo } from '../../../shared/model';
import type { ControlEvent } from '../../../shared/api';
import { waitForOutput } from '../../../../test/support/wait';

let core: SwitchboardCore | undefined;
afterEach(async () => {
  await core?.dispose();
  core = undefined;
});

function writeConfig(dir: string, processes: Record<string, unknown>): void {
  writeFileSync(join(dir, 'switchboard.json'), JSON.stringify({ processes }));
}

async function open(processes: Record<string, unknown>): Promise<{ dir: string; core: SwitchboardCore }> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-edits-'));
  writeConfig(dir, processes);
  core = buildCore({ projectDir: dir, watchConfig: false, killGraceMs: 500 });
  await core.init();
  return { dir, core };
}

const byName = (c: SwitchboardCore, name: string): ProcessInfo => c.listProcesses().find((p) => p.configName === name)!;

function phaseOf(c: SwitchboardCore, name: string, phase: string, timeoutMs = 15_000): Promise<unknown> {
  if (byName(c, name).state === phase) return Promise.resolve();
  return waitForEvent<ControlEvent>(
    c.onEvent,
    (e) => e.type === 'processChanged' && e.process.configName === name && e.process.state === phase,
    timeoutMs,
  );
}

describe('live config edits', () => {
  it('two successive edits of other entries restart nothing else; a command edit restarts its entry once', async () => {
    const worker = { command: 'bash', args: ['-c', 'echo up; exec sleep 600'] };
    const { dir, core: c } = await open({ a: worker, b: worker, c: worker });
    const pidsBefore = Object.fromEntries(['a', 'b', 'c'].map((n) => [n, byName(c, n).pid]));
    expect(Object.values(pidsBefore).every((pid) => typeof pid === 'number')).toBe(true);
    c.resizeProcess(byName(c, 'b').id, 100, 30); // the UI sizes panes: not part of the file

    // Edit 1: a's command changes.
    writeConfig(dir, { a: { command: 'bash', args: ['-c', 'echo edited; exec sleep 600'] }, b: worker, c: worker });
    await c.reloadConfig();
    const aAfterFirst = byName(c, 'a');
    expect(aAfterFirst.pid).not.toBe(pidsBefore.a);
    expect(aAfterFirst.runId).toBe(2);
    expect(byName(c, 'b').pid).toBe(pidsBefore.b);
    expect(byName(c, 'c').pid).toBe(pidsBefore.c);

    // Edit 2: c changes; a (edited once before) and b must keep their runs.
    writeConfig(dir, {
      a: { command: 'bash', args: ['-c', 'echo edited; exec sleep 600'] },
      b: worker,
      c: { ...worker, env: { MODE: 'x' } },
    });
    await c.reloadConfig();
    expect(byName(c, 'a')).toMatchObject({ pid: aAfterFirst.pid, runId: 2 });
    expect(byName(c, 'b')).toMatchObject({ pid: pidsBefore.b, runId: 1 });
    expect(byName(c, 'c').pid).not.toBe(pidsBefore.c);

    // Saving the same file again restarts nothing.
    const pidsNow = Object.fromEntries(['a', 'b', 'c'].map((n) => [n, byName(c, n).pid]));
    await c.reloadConfig();
    expect(Object.fromEntries(['a', 'b', 'c'].map((n) => [n, byName(c, n).pid]))).toEqual(pidsNow);
  });

  it('an edit of readyPatterns makes the new pattern decide readiness on the next run', async () => {
    const script = 'echo "warming caches"; sleep 0.3; echo "Service online"; exec sleep 600';
    const { dir, core: c } = await open({
      svc: { command: 'bash', args: ['-c', script], readyPatterns: ['never printed'], timeout: 20_000, stabilityDelay: 200 },
    });
    await waitForOutput(c.entry(byName(c, 'svc').id), /Service online/);
    expect(byName(c, 'svc').state).toBe('starting'); // the old pattern never matches

    writeConfig(dir, {
      svc: { command: 'bash', args: ['-c', script], readyPatterns: ['Service online'], timeout: 20_000, stabilityDelay: 200 },
    });
    const ready = phaseOf(c, 'svc', 'ready');
    await c.reloadConfig();
    await ready;
    const svc = byName(c, 'svc');
    expect(svc.runId).toBe(2);
    expect(svc.readiness?.reason).toMatch(/custom-ready-0/);
  });

  it('an edit of autoRestart restarts the run once under the new policy; saving again restarts nothing', async () => {
    const { dir, core: c } = await open({ job: { command: 'bash', args: ['-c', 'exec sleep 600'], autoRestart: 'no' } });
    const pid = byName(c, 'job').pid;
    writeConfig(dir, { job: { command: 'bash', args: ['-c', 'exec sleep 600'], autoRestart: 'always' } });
    await c.reloadConfig();
    // A rule change is a definition change: the run restarts once under the new rules.
    const job = byName(c, 'job');
    expect(job.pid).not.toBe(pid);
    expect(job.runId).toBe(2);
    await c.reloadConfig();
    expect(byName(c, 'job').pid).toBe(job.pid);
  });
});
