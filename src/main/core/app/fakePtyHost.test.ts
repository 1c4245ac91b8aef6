/**
 * The core runs on whatever PTY host it is given: here a fake one that records each spawn and
 * lets the test play the program's output and exit. Spawn, output, exit and describe go through
 * the façade as the UI and MCP call them; no real PTY is started.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SwitchboardCore } from './switchboardCore';
import type { PtySpawner } from '../sessions';
import { buildCore } from '../composition';
import { waitForEvent } from '../base';
import type { ControlEvent } from '../../../shared/api';

/** Above any pid_max: no process has it, so killing "its tree" at exit signals nobody. */
const FAKE_PID = 4_194_304 + 17;

type Spawn = Parameters<PtySpawner['spawn']>;

class FakePtyHost implements PtySpawner {
  readonly spawns: Array<{ file: string; args: string[]; options: Spawn[2]; events: Spawn[3]; input: string[] }> = [];

  spawn(file: string, args: string[], options: Spawn[2], events: Spawn[3]) {
    let hasExited = false;
    const exitOnce: Spawn[3] = {
      onData: (data) => events.onData(data),
      onExit: (exit) => !hasExited && ((hasExited = true), events.onExit(exit)),
    };
    const run = { file, args, options, events: exitOnce, input: [] as string[] };
    this.spawns.push(run);
    return { pid: FAKE_PID, write: (data: string) => void run.input.push(data), resize: () => undefined, setReading: () => undefined };
  }
}

let core: SwitchboardCore | undefined;
let ptys: FakePtyHost | undefined;
afterEach(async () => {
  // A fake program hears no signal: one still running ends as a killed one would, so the core's stop completes.
  for (const run of ptys?.spawns ?? []) run.events.onExit({ exitCode: 0, signal: 9 });
  await core?.dispose();
  core = undefined;
});

function changedTo(state: string) {
  return (event: ControlEvent) => event.type === 'processChanged' && event.process.state === state;
}

describe('SwitchboardCore on a fake PTY host', () => {
  it('spawns, shows output, reports the exit and describes the entry, without a real PTY', async () => {
    ptys = new FakePtyHost();
    core = buildCore({ projectDir: mkdtempSync(join(tmpdir(), 'sb-fakepty-')), watchConfig: false, ptys });
    await core.init();

    const info = await core.spawnProcess({ kind: 'command', argv: ['sh', '-c', 'echo hi'], name: 'echo', cols: 100, rows: 30 });
    expect(ptys.spawns).toHaveLength(1);
    const [run] = ptys.spawns;
    expect(run.args).toEqual(['-c', 'echo hi']);
    expect(run.options).toMatchObject({ cols: 100, rows: 30 });
    expect(run.options.env.SWITCHBOARD_PROCESS_ID).toBe(info.id);
    // A command without a readiness check shows starting until its readiness settles.
    expect(core.describe(info.id)).toMatchObject({ name: 'echo', state: 'starting', pid: FAKE_PID });

    core.writeInput(info.id, 'typed');
    expect(run.input).toEqual(['typed']);

    const output = waitForEvent(core.onDidFlushOutput, (batch) => batch.id === info.id && batch.data.includes('hello from the fake'));
    run.events.onData(Buffer.from('hello from the fake\r\n'));
    await output;

    // A command that exits 0 before any readiness check answered is a finished one-shot job.
    const completed = waitForEvent(core.onEvent, changedTo('completed'));
    run.events.onExit({ exitCode: 0, signal: 0 });
    await completed;
    expect(core.describe(info.id)).toMatchObject({ state: 'completed' });
    expect(core.entry(info.id).lastExit).toMatchObject({ exitCode: 0 });
    expect(core.describe(info.id).pid).toBeUndefined();
    // The screen had parsed the run's last output before the exit was reported.
    expect(core.entry(info.id).screen.getVisibleLines().join('\n')).toContain('hello from the fake');
  });
});
