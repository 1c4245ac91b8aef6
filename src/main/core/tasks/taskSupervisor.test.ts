import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../base';
import { DEFAULT_TASK_TIMEOUTS, type TaskInfo } from '../../../shared/task';
import { RESULT_EXIT_GRACE_MS, TaskSupervisor, type TaskConfig, type TaskSupervisorOptions } from './taskSupervisor';
import { SECOND_OPINION_MAX_EXTENSIONS, type SecondOpinionProvider, type SecondOpinionVerdict } from './secondOpinion';
import { FakeTaskSession, claudeMessages as msg, readCapture } from './testing/fakeTaskSession';

const TIMEOUTS = { idleMs: 2_000, turnMs: 10_000, wallClockMs: 60_000 };

const disposables: Array<{ dispose(): void }> = [];
afterEach(() => {
  while (disposables.length) disposables.pop()?.dispose();
});

function setup(config: Partial<TaskConfig> = {}, options: TaskSupervisorOptions = {}) {
  const clock = new VirtualClock();
  const session = new FakeTaskSession();
  const full: TaskConfig = { agent: 'claude', prompt: 'Do the thing', cwd: '/project', timeouts: TIMEOUTS, env: {}, ...config };
  const supervisor = new TaskSupervisor(session, full, { clock, firstMessageDeadlineFloorMs: 0, ...options });
  disposables.push(supervisor);
  const ended: TaskInfo[] = [];
  supervisor.onDidEnd((info) => ended.push(info));
  session.start();
  return { clock, session, supervisor, ended, info: () => supervisor.info };
}

/** Drives a Bash call to the point where it runs silently. */
function startBash(session: FakeTaskSession, command: string, input: Record<string, unknown> = {}): void {
  session.message(msg.init());
  session.message(msg.requesting());
  session.message(msg.toolStart('t1', 'Bash'));
  session.message(msg.assistantTool('m1', 't1', 'Bash', { command, ...input }));
}

describe('TaskSupervisor', () => {
  it('a real success stream ends done with turns, cost and a finished decision; ended once the process exits', () => {
    const { session, info, ended } = setup();
    for (const chunk of readCapture('claude-2.1.197-bash-success').match(/[\s\S]{1,64}/g) ?? []) session.print(chunk);
    expect(info()).toMatchObject({ phase: 'done', turns: 2, isEnded: false, result: { subtype: 'success' } });
    expect(info().costUsd).toBeGreaterThan(0);
    expect(info().decisions.map((d) => d.kind)).toEqual(['finished']);
    session.exit(0);
    expect(info().isEnded).toBe(true);
    expect(ended).toHaveLength(1);
    expect(session.stops).toBe(0);
  });

  it('a silent Bash call within its own timeout is extended, not killed, and the warning clears when it returns', () => {
    const { clock, session, info } = setup();
    startBash(session, 'sleep 4');
    clock.advanceBy(2_000);
    const extended = info();
    expect(extended.phase).toBe('tool_executing');
    expect(extended.decisions).toMatchObject([{ kind: 'extended', trigger: 'idle', rule: 'bash-own-timeout' }]);
    expect(extended.stallWarning).toBe(
      'Silent for 2.0 s: Bash (sleep 4) has run 2.0 s of its own 120 s timeout; silence is expected until then (+30 s). Waiting up to 148 s more.',
    );
    clock.advanceBy(2_000);
    session.message(msg.toolResult('t1', 'done'));
    expect(info().stallWarning).toBeUndefined();
    expect(info().phase).toBe('generating');
    session.message(msg.result());
    session.exit(0);
    expect(info()).toMatchObject({ phase: 'done', isEnded: true });
    expect(session.stops).toBe(0);
  });

  it('a Bash call that outlives its own timeout is a stall: tree ended, reason says so', () => {
    const { clock, session, info, ended } = setup();
    startBash(session, 'sleep 900', { timeout: 5_000 });
    clock.advanceBy(2_000); // idle → extended to 5 s + 30 s margin
    clock.advanceBy(33_000);
    expect(info().phase).toBe('stalled');
    expect(info().error).toMatch(/Bash \(sleep 900\) has run 35 s, past its own 5\.0 s timeout/);
    expect(session.stops).toBe(1);
    expect(ended).toHaveLength(1);
    // The turn deadline (10 s) gets the same allowance as idle did; at 35 s idle decides first.
    expect(info().decisions.map((d) => [d.kind, d.trigger])).toEqual([
      ['extended', 'idle'],
      ['extended', 'turn'],
      ['stalled', 'idle'],
      ['killed', undefined],
    ]);
  });

  it('a stream that hangs mid-message is stalled after the idle timeout, with the last activity', () => {
    const { clock, session, info } = setup();
    session.message(msg.init());
    session.message(msg.requesting());
    session.message(msg.messageStart());
    session.message(msg.text('Let me think about'));
    clock.advanceBy(2_000);
    const stalled = info();
    expect(stalled.phase).toBe('stalled');
    expect(stalled.error).toBe(
      'no output for 2.0 s while generating; last activity 2.0 s ago: writing "Let me think about"; the model stream went silent mid-message',
    );
    expect(stalled.lastActivity).toMatchObject({ kind: 'text', description: 'writing "Let me think about"' });
    expect(stalled.decisions).toMatchObject([{ kind: 'stalled', trigger: 'idle', rule: 'silent-stream' }, { kind: 'killed' }]);
    expect(session.stops).toBe(1);
    expect(stalled.isEnded).toBe(true);
  });

  it('the wall clock fails the run even while a tool earns extensions', () => {
    const { clock, session, info } = setup({ timeouts: { idleMs: 2_000, turnMs: 10_000, wallClockMs: 5_000 } });
    startBash(session, 'sleep 30');
    clock.advanceBy(5_000);
    expect(info().phase).toBe('failed');
    expect(info().error).toBe('wall-clock limit of 5.0 s reached while running Bash (sleep 30) for 5.0 s');
    expect(info().decisions.map((d) => [d.kind, d.trigger])).toEqual([
      ['extended', 'idle'],
      ['timed_out', 'wall_clock'],
      ['killed', undefined],
    ]);
    expect(session.stops).toBe(1);
  });

  it('cancel mid-tool: cancelled, tree ended, resolves once it is gone; a second cancel is a no-op', async () => {
    const { session, supervisor, info } = setup();
    startBash(session, 'sleep 60');
    await supervisor.cancel();
    expect(info()).toMatchObject({ phase: 'cancelled', error: 'cancelled by request', isEnded: true });
    expect(info().recentTools).toMatchObject([{ name: 'Bash', isError: true }]);
    await supervisor.cancel();
    expect(session.stops).toBe(1);
    expect(info().decisions.map((d) => d.kind)).toEqual(['cancelled', 'killed']);
  });

  it('an exit without a result fails, quoting the last non-JSON output (stderr goes through the PTY)', () => {
    const { session, info } = setup();
    session.message(msg.init());
    session.print('Error: connect ECONNREFUSED 127.0.0.1:1\r\n');
    session.exit(1);
    expect(info()).toMatchObject({ phase: 'failed', isEnded: true, noiseLineCount: 1 });
    expect(info().error).toBe(
      'Claude Code exited with code 1 before reporting a result (last output: Error: connect ECONNREFUSED 127.0.0.1:1)',
    );
  });

  it('a result line without a newline before the exit still counts', () => {
    const { session, info } = setup();
    session.message(msg.init());
    session.print(JSON.stringify(msg.result()));
    session.exit(0);
    expect(info()).toMatchObject({ phase: 'done', isEnded: true });
  });

  it('a result followed by no exit: the tree is ended after the grace period, the outcome kept', () => {
    const { clock, session, info } = setup();
    session.message(msg.init());
    session.message(msg.result());
    clock.advanceBy(RESULT_EXIT_GRACE_MS);
    expect(session.stops).toBe(1);
    expect(info()).toMatchObject({ phase: 'done', isEnded: true });
    expect(info().decisions.at(-1)?.reason).toMatch(/reported its result but did not exit within 10 s/);
  });

  it('stopped from outside (Stop, Close): cancelled with that reason', async () => {
    const { session, info } = setup();
    session.message(msg.init());
    await session.stop();
    expect(info()).toMatchObject({ phase: 'cancelled', isEnded: true });
    expect(info().error).toMatch(/stopped from outside the task/);
  });

  it('a restart begins a fresh run: phase, text, decisions and deadlines reset', () => {
    const { clock, session, info } = setup();
    session.message(msg.text('first'));
    clock.advanceBy(2_000);
    expect(info().phase).toBe('stalled');
    session.start();
    expect(info()).toMatchObject({ phase: 'starting', text: '', decisions: [], isEnded: false });
    expect(info().deadlines?.idleAt).toBe(clock.now() + TIMEOUTS.idleMs);
  });

  it('an agent that never prints a message is a stall once the start-up grace has passed', () => {
    const { clock, session, info } = setup({}, { firstMessageDeadlineFloorMs: 30_000 });
    clock.advanceBy(29_999);
    expect(info().phase).toBe('starting');
    clock.advanceBy(1);
    expect(info().phase).toBe('stalled');
    expect(info().error).toBe('no output for 30 s while starting up (no message from the agent in 30 s); the agent never got going');
    expect(session.stops).toBe(1);
  });

  it('a spawn failure is a failed task with the reason', () => {
    const session = new FakeTaskSession();
    const supervisor = new TaskSupervisor(session, undefined, { clock: new VirtualClock() });
    disposables.push(supervisor);
    supervisor.failToStart('Command not found: claude');
    expect(supervisor.info).toMatchObject({
      phase: 'failed',
      error: 'Command not found: claude',
      isEnded: true,
      timeouts: DEFAULT_TASK_TIMEOUTS,
    });
  });

  it('dispose leaves no timer behind', () => {
    const { clock, session, supervisor } = setup();
    startBash(session, 'sleep 4');
    supervisor.dispose();
    expect(clock.pendingTimers).toBe(0);
  });

  describe('second opinion (opt-in)', () => {
    function withOpinion(answer: (n: number) => Promise<SecondOpinionVerdict>) {
      let calls = 0;
      const provider: SecondOpinionProvider = () => answer(++calls);
      const s = setup({ secondOpinion: { enabled: true, model: 'fast-model' } }, { secondOpinionFor: () => provider });
      return { ...s, calls: () => calls };
    }

    it('is never asked unless the task opted in', () => {
      let asked = false;
      const { clock, session, info } = setup(
        {},
        { secondOpinionFor: () => async () => ((asked = true), { verdict: 'extend', reason: 'x' }) },
      );
      session.message(msg.text('hm'));
      clock.advanceBy(2_000);
      expect(asked).toBe(false);
      expect(info().phase).toBe('stalled');
    });

    it('can extend a silence the rules call a stall, a bounded number of times', async () => {
      const { clock, session, info, calls } = withOpinion(async () => ({ verdict: 'extend', reason: 'a build is plausible' }));
      session.message(msg.text('Building'));
      for (let i = 0; i < SECOND_OPINION_MAX_EXTENSIONS; i++) {
        clock.advanceBy(2_000);
        await Promise.resolve(); // the provider's answer
        await Promise.resolve();
        expect(info().phase).toBe('generating');
      }
      expect(
        info()
          .decisions.filter((d) => d.kind === 'extended')
          .map((d) => d.rule),
      ).toEqual(['second-opinion', 'second-opinion']);
      expect(info().stallWarning).toMatch(/fast-model advises waiting: a build is plausible/);
      clock.advanceBy(2_000); // no more opinions: the rules decide
      expect(info().phase).toBe('stalled');
      expect(calls()).toBe(SECOND_OPINION_MAX_EXTENSIONS);
    });

    it('a confirming opinion stalls with both reasons', async () => {
      const { clock, session, info } = withOpinion(async () => ({ verdict: 'stall', reason: 'nothing should take this long' }));
      session.message(msg.text('Hm'));
      clock.advanceBy(2_000);
      await new Promise((r) => setImmediate(r));
      expect(info().phase).toBe('stalled');
      expect(info().error).toMatch(/mid-message; fast-model agrees: nothing should take this long$/);
    });

    it('a failing provider falls back to the rules, and says so', async () => {
      const { clock, session, info } = withOpinion(async () => {
        throw new Error('HTTP 500');
      });
      session.message(msg.text('Hm'));
      clock.advanceBy(2_000);
      await new Promise((r) => setImmediate(r));
      expect(info().phase).toBe('stalled');
      expect(info().decisions.map((d) => d.reason)).toContainEqual('no second opinion (HTTP 500); acting on the rules');
    });

    it('an answer that arrives after the agent spoke again is ignored', async () => {
      let answer!: (v: SecondOpinionVerdict) => void;
      const { clock, session, info } = withOpinion(() => new Promise((r) => (answer = r)));
      session.message(msg.text('Hm'));
      clock.advanceBy(2_000);
      session.message(msg.text(' more'));
      answer({ verdict: 'stall', reason: 'too slow' });
      await new Promise((r) => setImmediate(r));
      expect(info().phase).toBe('generating');
      expect(info().stallWarning).toBeUndefined();
    });

    it('an opinion that takes too long is abandoned', async () => {
      const { clock, session, info } = withOpinion(
        () => new Promise((_resolve, reject) => setTimeout(() => reject(new Error('no answer in time')), 0)),
      );
      session.message(msg.text('Hm'));
      clock.advanceBy(2_000);
      await new Promise((r) => setTimeout(r, 5));
      expect(info().phase).toBe('stalled');
    });
  });
});
