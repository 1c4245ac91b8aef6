import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SwitchboardCore } from './switchboardCore';
import { buildCore } from '../composition';
import { waitForEvent } from '../base';
import type { ControlEvent } from '../../../shared/api';
import { waitForOutput } from '../../../../test/support/wait';

let core: SwitchboardCore | undefined;
afterEach(async () => {
  await core?.dispose();
  core = undefined;
});

function project(config: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-core-'));
  writeFileSync(join(dir, 'switchboard.json'), typeof config === 'string' ? config : JSON.stringify(config));
  return dir;
}

describe('SwitchboardCore', () => {
  it('creates and auto-starts entries from switchboard.json', async () => {
    const dir = project({
      processes: {
        hello: { command: 'bash', args: ['-c', 'echo hello-$SWITCHBOARD_PROCESS_ID; exec cat'] },
        idle: { command: 'cat', autoStart: false },
      },
    });
    core = buildCore({ projectDir: dir, watchConfig: false, killGraceMs: 500 });
    await core.init();
    const [hello, idle] = core.listProcesses();
    expect(hello).toMatchObject({ name: 'hello', configName: 'hello', cwd: dir });
    expect(hello.pid).toBeGreaterThan(0);
    expect(['starting', 'running', 'ready']).toContain(hello.state);
    expect(idle).toMatchObject({ name: 'idle', state: 'stopped' });
    await waitForOutput(core.entry(hello.id), new RegExp(`hello-${hello.id}`));
  });

  it('starts with what it can use from a broken config and reports the rest', async () => {
    const dir = project({ processes: { ok: { command: 'cat' }, broken: { command: 'cat', port: 'x' } } });
    core = buildCore({ projectDir: dir, watchConfig: false });
    await core.init();
    expect(core.listProcesses().map((p) => p.name)).toEqual(['ok']);
    expect(core.snapshot().configIssues).toEqual([{ path: 'processes.broken.port', message: 'must be a number' }]);
  });

  it('survives a config file that is not JSON at all', async () => {
    core = buildCore({ projectDir: project('{ nope'), watchConfig: false });
    await core.init();
    expect(core.listProcesses()).toEqual([]);
    expect(core.issues[0].message).toMatch(/is not valid JSON/);
  });

  it('applies config edits while running: add, change (restart), remove', async () => {
    const dir = project({ processes: { a: { command: 'cat' }, b: { command: 'cat' } } });
    core = buildCore({ projectDir: dir, killGraceMs: 500 });
    await core.init();
    const a = core.listProcesses().find((p) => p.name === 'a')!;
    const removed = waitForEvent<ControlEvent>(core.onEvent, (e) => e.type === 'processRemoved', 10_000);
    writeFileSync(
      join(dir, 'switchboard.json'),
      JSON.stringify({ processes: { a: { command: 'bash', args: ['-c', 'echo changed; exec cat'] }, c: { command: 'cat' } } }),
    );
    await removed;
    await waitForOutput(core.entry(a.id), /changed/);
    expect(
      core
        .listProcesses()
        .map((p) => p.name)
        .sort(),
    ).toEqual(['a', 'c']);
    expect(core.describe(a.id).runId).toBe(2);
  });

  it('keeps a spawn failure as an entry in error and says which one', async () => {
    core = buildCore({ projectDir: mkdtempSync(join(tmpdir(), 'sb-core-')), watchConfig: false });
    await core.init();
    await expect(core.spawnProcess({ kind: 'command', argv: ['no-such-binary-abc'] })).rejects.toThrow(
      /Command not found: no-such-binary-abc \(entry p_[0-9a-f]+ /,
    );
    expect(core.listProcesses()[0]).toMatchObject({ state: 'error', message: 'Command not found: no-such-binary-abc' });
  });

  it('rejects unknown ids precisely', async () => {
    core = buildCore({ projectDir: mkdtempSync(join(tmpdir(), 'sb-core-')), watchConfig: false });
    await core.init();
    await expect(core.stopProcess('p_abcdef')).rejects.toThrow('Unknown process id "p_abcdef"');
    expect(() => core!.writeInput('p_abcdef', 'x')).toThrow(/Unknown process id/);
  });

  it('coalesces bursts of changes into processChanged events with composed info', async () => {
    core = buildCore({ projectDir: mkdtempSync(join(tmpdir(), 'sb-core-')), watchConfig: false, killGraceMs: 500 });
    await core.init();
    const info = await core.spawnProcess({ kind: 'terminal', argv: ['cat'], name: 'term' });
    const changed = waitForEvent<ControlEvent>(core.onEvent, (e) => e.type === 'processChanged' && e.process.name === 'renamed', 5_000);
    core.renameProcess(info.id, 'renamed');
    const event = await changed;
    expect(event.type === 'processChanged' && event.process.id).toBe(info.id);
  });
});

describe('settings from switchboard.json', () => {
  it('bound the output kept per entry', async () => {
    const dir = project({
      settings: { outputBufferBytes: 65536 },
      processes: { big: { command: 'bash', args: ['-c', 'head -c 300000 /dev/zero | tr "\\\\0" x; echo; echo done-marker; exec cat'] } },
    });
    core = buildCore({ projectDir: dir, watchConfig: false, killGraceMs: 500 });
    await core.init();
    const entry = core.entry(core.listProcesses()[0].id);
    await waitForOutput(entry, /done-marker/, 10_000, 0);
    expect(entry.ring.capacity).toBe(65536);
    expect(entry.ring.end - entry.ring.start).toBe(65536);
  });
});

describe('instructions for an agent that never reaches its prompt', () => {
  it('typeWhenIdle timing out (an agent stuck on a trust dialog) asks for attention instead of rejecting unhandled', async () => {
    const dir = project({});
    core = buildCore({ projectDir: dir, watchConfig: false, killGraceMs: 500, instructionsReadyTimeoutMs: 300 });
    await core.init();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const events: ControlEvent[] = [];
      const sub = core.onEvent((event) => events.push(event));
      const agent = await core.spawnAgent({ preset: 'claude', argv: ['sleep', '60'], instructions: 'refactor the parser' });
      const attention = await waitForEvent(core.onEvent, (event) => event.type === 'attentionRequested', 10_000);
      sub.dispose();
      expect(attention).toMatchObject({
        type: 'attentionRequested',
        id: agent.id,
        reason: expect.stringMatching(/instructions were not typed/),
      });
      expect(core.describe(agent.id).attention?.reason).toMatch(/did not show its prompt/);
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
      expect(events.some((e) => e.type === 'attentionRequested')).toBe(true);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
