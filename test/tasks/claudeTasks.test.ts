/**
 * Tasks end to end: the REAL Claude Code 2.1.197 in `-p` stream-json mode, in a real PTY entry of
 * a real SwitchboardCore, against the mock Messages API. Small timeouts stand in for the defaults
 * (idle 2 s instead of 180 s). Waits are on the task's end, the mock's timeline or a pid file.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_BIN } from '../fixtures/anthropic/claudeHarness';
import type { AnthropicStep, AnthropicTurn } from '../fixtures/anthropic/mockAnthropic';
import { alive, createTaskWorld, describeTask, survivorsOf, waitForFile, type TaskWorld } from './taskHarness';

const worlds: TaskWorld[] = [];
afterEach(async () => {
  while (worlds.length) await worlds.pop()?.close();
});

async function world(turns: AnthropicTurn[], options: Parameters<typeof createTaskWorld>[1] = {}): Promise<TaskWorld> {
  const w = await createTaskWorld(turns, options);
  worlds.push(w);
  return w;
}

const bash = (command: string, extra: Record<string, unknown> = {}): AnthropicStep => ({
  toolUse: { name: 'Bash', input: { command, description: 'test command', ...extra } },
});

describe('headless Claude Code tasks', () => {
  it('finishes: result, turns and cost reported, tree gone', async () => {
    const w = await world([[{ text: 'Looking.' }, bash('echo hello-from-bash')], [{ text: 'Done: the command printed hello-from-bash.' }]]);
    const started = await w.start('Print a greeting', { maxTurns: 5 });
    expect(started).toMatchObject({ phase: 'starting', state: 'running', prompt: 'Print a greeting', maxTurns: 5 });
    const task = await w.waitEnd(started.taskId);
    expect(task, describeTask(task)).toMatchObject({
      phase: 'done',
      isEnded: true,
      turns: 2,
      result: { subtype: 'success', isError: false, text: 'Done: the command printed hello-from-bash.', numTurns: 2 },
      recentTools: [{ name: 'Bash', summary: 'echo hello-from-bash', isError: false }],
      noiseLineCount: 0,
    });
    expect(task.costUsd).toBeGreaterThan(0);
    expect(task.usage?.outputTokens).toBeGreaterThan(0);
    expect(task.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(task.text).toContain('Looking.');
    expect(task.message).toMatch(/^Finished in 2 turns, \$\d+\.\d{4}$/);
    expect(task.decisions.map((d) => d.kind)).toEqual(['finished']);
    expect(w.mock.lastUserMessage()).toBe('Print a greeting');
    // The task sits in the same process table as everything else.
    expect(w.core.listProcesses('task').map((p) => p.id)).toEqual([task.taskId]);
    expect(w.core.describe(task.taskId).task?.phase).toBe('done');
    expect(survivorsOf(task.taskId)).toEqual([]);
  });

  it('the prompt reaches the real claude -p on stdin and is on no command line while the task runs', async () => {
    const marker = `prompt-secret-${process.pid}-${Date.now()}`;
    const pidFile = path.join(mkdtempSync(path.join(tmpdir(), 'task-argv-')), 'running');
    const w = await world([[bash(`echo $$ > ${pidFile}; sleep 2`)], [{ text: 'Checked.' }]]);
    // Starts with "-": on a command line it would read as a flag.
    const prompt = `--not-a-flag ${marker}: deploy with key sk-test-123`;
    const started = await w.start(prompt);
    await waitForFile(pidFile);
    const commandLines = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
        } catch {
          return ''; // gone meanwhile
        }
      });
    expect(commandLines.filter((line) => line.includes(marker))).toEqual([]);
    const task = await w.waitEnd(started.taskId);
    expect(task, describeTask(task)).toMatchObject({ phase: 'done', prompt, result: { text: 'Checked.' } });
    expect(w.mock.lastUserMessage()).toBe(prompt);
  });

  it('hits max turns: error_max_turns surfaced', async () => {
    const w = await world([[bash('echo one')], [bash('echo two')], [{ text: 'never reached' }]]);
    const task = await w.waitEnd((await w.start('Keep going', { maxTurns: 1 })).taskId);
    expect(task, describeTask(task)).toMatchObject({
      phase: 'failed',
      result: { subtype: 'error_max_turns', isError: true, errors: ['Reached maximum number of turns (1)'] },
      error: 'error_max_turns: Reached maximum number of turns (1)',
    });
    expect(task.message).toBe('Failed: error_max_turns: Reached maximum number of turns (1)');
    expect(task.costUsd).toBeGreaterThan(0);
  });

  it('a long auto-run Bash command silent longer than the idle timeout is extended, not killed', async () => {
    const w = await world([[bash('sleep 4 && echo slept')], [{ text: 'Slept well.' }]]);
    const task = await w.waitEnd((await w.start('Sleep a while', { timeouts: { idleSeconds: 2 } })).taskId);
    expect(task, describeTask(task)).toMatchObject({ phase: 'done', result: { text: 'Slept well.' } });
    const extensions = task.decisions.filter((d) => d.kind === 'extended');
    expect(extensions.length).toBeGreaterThanOrEqual(1);
    expect(extensions[0]).toMatchObject({ trigger: 'idle', rule: 'bash-own-timeout' });
    expect(extensions[0].reason).toMatch(/^Bash \(sleep 4 && echo slept\) has run \d+\.\d s of its own 120 s timeout/);
    expect(task.decisions.some((d) => d.kind === 'stalled' || d.kind === 'killed')).toBe(false);
    const toolResult = await w.mock.waitFor('tool_result');
    expect(toolResult.content).toBe('slept');
  });

  it('a stream that hangs mid-message: stall detected, tree killed, last activity reported', async () => {
    const w = await world([[{ text: 'Let me think about this' }, { hang: true }]]);
    const started = await w.start('Think hard', { timeouts: { idleSeconds: 2 } });
    const pid = started.pid as number;
    await w.mock.waitFor('hang_start');
    const task = await w.waitEnd(started.taskId);
    expect(task, describeTask(task)).toMatchObject({
      phase: 'stalled',
      lastActivity: { kind: 'assistant', description: 'said "Let me think about this"' },
    });
    expect(task.error).toMatch(
      /^no output for 2\.\d s while generating; last activity 2\.\d s ago: said "Let me think about this"; the model stream went silent mid-message$/,
    );
    expect(task.decisions.map((d) => [d.kind, d.rule])).toEqual([
      ['stalled', 'silent-stream'],
      ['killed', undefined],
    ]);
    expect(alive([pid])).toEqual([]);
    expect(survivorsOf(task.taskId)).toEqual([]);
    await w.mock.waitFor('client_abort'); // the killed CLI dropped its connection
  });

  it("wall-clock timeout: failed while a tool earns idle extensions, the tool's process gone too", async () => {
    // Not `sleep 60`: Claude Code 2.1.332 blocks a long sleep ("Blocked: standalone sleep 60").
    const w = await world([[bash('node -e "setTimeout(() => {}, 60000)"')]]);
    const started = await w.start('Wait forever', { timeouts: { idleSeconds: 1, wallClockSeconds: 8 } });
    await w.mock.waitFor('tool_use');
    const task = await w.waitEnd(started.taskId);
    expect(task, describeTask(task)).toMatchObject({ phase: 'failed' });
    expect(task.error).toMatch(
      /^wall-clock limit of 8\.0 s reached while running Bash \(node -e "setTimeout\(\(\) => \{\}, 60000\)"\) for \d+\.\d s$/,
    );
    expect(task.decisions.map((d) => d.kind)).toContain('timed_out');
    expect(task.decisions.filter((d) => d.kind === 'extended')[0]).toMatchObject({ rule: 'bash-own-timeout' });
    expect(survivorsOf(task.taskId)).toEqual([]);
  });

  it('cancel mid-tool: grandchildren that ignore SIGTERM, one re-parented by setsid, do not survive', async () => {
    const w = await world([]);
    const pidDir = path.join(w.harness.home, 'pids');
    mkdirSync(pidDir);
    w.mock.enqueue([bash(stubbornCommand(pidDir))]);
    const started = await w.start('Start a stubborn process', { timeouts: { idleSeconds: 1 } });
    const grandchild = Number(await waitForFile(path.join(pidDir, 'grandchild.pid')));
    const daemon = Number(await waitForFile(path.join(pidDir, 'daemon.pid')));
    expect(alive([grandchild, daemon])).toEqual([grandchild, daemon]);
    const during = w.core.getTask(started.taskId);
    expect(during.phase).toBe('tool_executing');
    expect(during.currentTools).toMatchObject([{ name: 'Bash' }]);

    const cancelled = await w.core.cancelTask(started.taskId);
    expect(cancelled, describeTask(cancelled)).toMatchObject({ phase: 'cancelled', isEnded: true, error: 'cancelled by request' });
    expect(cancelled.decisions.slice(-2).map((d) => d.kind)).toEqual(['cancelled', 'killed']);
    expect(alive([grandchild, daemon, started.pid as number])).toEqual([]);
    expect(survivorsOf(started.taskId)).toEqual([]);
  });

  it('non-JSON noise on stdout does not break parsing (a wrapper script chatters, then execs claude)', async () => {
    const w = await world([[{ text: 'Through the wrapper.' }]]);
    const wrapper = path.join(path.dirname(w.harness.cwd), 'claude-wrapper.sh');
    writeFileSync(
      wrapper,
      [
        '#!/bin/sh',
        'echo "[wrapper] warming up"',
        'echo "warning: {not json"',
        'printf \'{"partial": \\n\'',
        `exec "${CLAUDE_BIN}" "$@"`,
        '',
      ].join('\n'),
    );
    chmodSync(wrapper, 0o755);
    const task = await w.waitEnd((await w.start('Say something', { argv: [wrapper] })).taskId);
    expect(task, describeTask(task)).toMatchObject({ phase: 'done', result: { text: 'Through the wrapper.' }, noiseLineCount: 3 });
    expect(task.noiseTail).toEqual(['[wrapper] warming up', 'warning: {not json', '{"partial":']);
  });

  it('a missing agent binary is a failed task with the reason, not an exception', async () => {
    const w = await world([]);
    const task = await w.start('Anything', { argv: ['/nonexistent/claude'] });
    expect(task).toMatchObject({ phase: 'failed', isEnded: true, state: 'error' });
    expect(task.error).toMatch(/nonexistent\/claude/);
  });

  it('second opinion (opt-in): the model can extend a silence the rules call a stall', async () => {
    const w = await world([[{ text: 'Compiling the world' }, { hang: true }]], {
      mock: { sideReply: () => '{"verdict":"extend","reason":"compilation can be slow"}' },
    });
    const started = await w.start('Compile', {
      timeouts: { idleSeconds: 1.5 },
      secondOpinion: { enabled: true, model: 'claude-haiku-4-5' },
    });
    const task = await w.waitEnd(started.taskId);
    expect(task, describeTask(task)).toMatchObject({ phase: 'stalled', isSecondOpinionEnabled: true });
    const extended = task.decisions.filter((d) => d.kind === 'extended');
    expect(extended.map((d) => d.rule)).toEqual(['second-opinion', 'second-opinion']);
    expect(extended[0].reason).toBe('claude-haiku-4-5 advises waiting: compilation can be slow');
    const asked = w.mock.requests.filter((r) => r.kind === 'side');
    expect(asked).toHaveLength(2);
    expect(asked[0].body.model).toBe('claude-haiku-4-5');
  });
});

/**
 * A Bash command leaving two processes that ignore SIGTERM: a grandchild in the foreground, and a
 * daemon double-forked with setsid (re-parented away from the tree; only the env marker finds it).
 */
function stubbornCommand(pidDir: string): string {
  const stubborn = (name: string) => `bash -c 'trap "" TERM; echo $$ > ${pidDir}/${name}.pid; exec sleep 300'`;
  return `( setsid ${stubborn('daemon')} </dev/null >/dev/null 2>&1 & ) ; ${stubborn('grandchild')}`;
}
