/**
 * The timer manager inside a real core (createCore: real PTYs, the real timer file): a timer's
 * body typed into a running command, timers shown on the entry, a pending delay carried across a
 * core restart on the same data directory, and close dropping timers. No agent CLI here (see
 * claudeTimers.e2e.test.ts); `cat` echoes what is typed, so output is the ground truth.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type CoreHandle } from '../../src/main/core/composition';
import { APP_ACTOR } from '../../src/main/core/timers';
import { dispatchSharedCommand, parseCommandArgs } from '../../src/main/core/bridge';
import { waitForEvent } from '../../src/main/core/base';
import { waitForOutput } from '../support/wait';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function tempProject(config: unknown): { projectDir: string; dataDir: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'switchboard-timers-core-')));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const projectDir = join(root, 'project');
  const dataDir = join(root, 'data');
  mkdirSync(projectDir);
  mkdirSync(dataDir);
  writeFileSync(join(projectDir, 'switchboard.json'), JSON.stringify(config));
  return { projectDir, dataDir };
}

async function start(dirs: { projectDir: string; dataDir: string }): Promise<CoreHandle> {
  const handle = await createCore({ ...dirs, watchConfig: false, killGraceMs: 1_000, grantTrust: true });
  let isDisposed = false;
  cleanups.push(async () => {
    if (!isDisposed) await handle.dispose();
  });
  const dispose = handle.dispose.bind(handle);
  handle.dispose = async () => {
    isDisposed = true;
    await dispose();
  };
  return handle;
}

const ECHO_CONFIG = { processes: { echo: { command: 'cat', autoStart: true } } };

describe('timers in the core', () => {
  it('types the body into a running command when due, and shows the timer on the entry meanwhile', async () => {
    const handle = await start(tempProject(ECHO_CONFIG));
    const { core } = handle;
    const echo = core.listProcesses().find((p) => p.name === 'echo')!;
    expect(core.timers).toBe(handle.timers);
    const changed = waitForEvent(
      core.onEvent,
      (e) => e.type === 'processChanged' && e.process.id === echo.id && (e.process.timers?.length ?? 0) > 0,
      5_000,
    );
    const ended = waitForEvent(handle.timers.onDidEndTimer, (h) => h.bodyPreview === 'timer-body-42', 5_000);
    const { timer } = handle.timers.setDelay(APP_ACTOR, { seconds: 0.3, body: 'timer-body-42', ownerId: echo.id });
    const shown = await changed;
    expect(shown.type === 'processChanged' && shown.process.timers).toMatchObject([{ id: timer.id, state: 'pending', ownerId: echo.id }]);
    await waitForOutput(core.entry(echo.id), /timer-body-42/, 5_000);
    expect(await ended).toMatchObject({ id: timer.id, state: 'fired', reason: 'delay' });
    expect(core.describe(echo.id).timers).toBeUndefined();
  });

  it('a pending delay survives a core restart on the same data directory, with its remaining time', async () => {
    const dirs = tempProject(ECHO_CONFIG);
    const first = await start(dirs);
    const oldId = first.core.listProcesses().find((p) => p.name === 'echo')!.id;
    const { timer } = first.timers.setDelay(APP_ACTOR, { seconds: 600, body: 'after-restart', label: 'kept', ownerId: oldId });
    await first.dispose();

    const second = await start(dirs);
    const echo = second.core.listProcesses().find((p) => p.name === 'echo')!;
    const [restored] = second.timers.list(APP_ACTOR).timers;
    expect(restored).toMatchObject({ id: timer.id, label: 'kept', state: 'pending', ownerId: echo.id });
    expect(restored.remainingMs).toBeGreaterThan(590_000);
    expect(restored.remainingMs).toBeLessThanOrEqual(600_000);
    expect(second.core.describe(echo.id).timers).toMatchObject([{ id: timer.id }]);
  });

  it('a restart of the owner keeps its timers; a stop drops them into history', async () => {
    const handle = await start(tempProject(ECHO_CONFIG));
    const echo = handle.core.listProcesses().find((p) => p.name === 'echo')!;
    const { timer } = handle.timers.setDelay(APP_ACTOR, { seconds: 600, body: 'later', ownerId: echo.id });
    await handle.core.restartProcess(echo.id);
    // The coalesced change event that follows shows the new run, never the moment in between.
    await waitForEvent(handle.core.onEvent, (e) => e.type === 'processChanged' && e.process.id === echo.id && e.process.runId === 2, 5_000);
    expect(handle.timers.list(APP_ACTOR).timers.map((t) => t.id)).toEqual([timer.id]);
    const dropped = waitForEvent(handle.timers.onDidEndTimer, (h) => h.id === timer.id, 5_000);
    await handle.core.stopProcess(echo.id);
    expect(await dropped).toMatchObject({ state: 'dropped', reason: `owner echo (${echo.id}) exited` });
  });

  it('closing the owner drops its timers into history', async () => {
    const handle = await start(tempProject(ECHO_CONFIG));
    const echo = handle.core.listProcesses().find((p) => p.name === 'echo')!;
    const { timer } = handle.timers.setDelay(APP_ACTOR, { seconds: 600, body: 'never', ownerId: echo.id });
    await handle.core.closeProcess(echo.id);
    expect(handle.timers.list(APP_ACTOR)).toMatchObject({
      timers: [],
      history: [{ id: timer.id, state: 'dropped', reason: `owner echo (${echo.id}) was closed` }],
    });
  });
});

describe('setTimer from the UI', () => {
  it('arms a delay through the same TimerManager as MCP and refuses an idle timer on a non-agent with its reason', async () => {
    const { core } = await start(tempProject(ECHO_CONFIG));
    const echo = core.listProcesses().find((p) => p.name === 'echo')!;
    const args = parseCommandArgs('setTimer', {
      kind: 'delay',
      ownerId: echo.id,
      body: 'ui-timer-7',
      seconds: 0.2,
      label: 'from the pane',
    });
    const timer = (await dispatchSharedCommand(core, 'setTimer', args)) as { id: string; label?: string };
    expect(core.timers.list(APP_ACTOR).timers).toMatchObject([{ id: timer.id, label: 'from the pane', kind: 'delay' }]);
    await waitForOutput(core.entry(echo.id), /ui-timer-7/, 5_000);

    const idle = parseCommandArgs('setTimer', { kind: 'idle_all', ownerId: echo.id, body: 'x', watched: [echo.id] });
    await expect(dispatchSharedCommand(core, 'setTimer', idle)).rejects.toMatchObject({ code: 'wrong_kind' });
    expect(() => parseCommandArgs('setTimer', { kind: 'idle_any', ownerId: echo.id, body: 'x', watched: [] })).toThrow(
      /at least one agent/,
    );
  });
});
