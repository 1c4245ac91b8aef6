import { describe, expect, it } from 'vitest';
import { decodeClaudeMessage } from './claudeStream';
import { summarizeClaudeTool } from './claudeRunner';
import { NdjsonReader } from './ndjsonReader';
import { TEXT_TAIL_CHARS, TaskStateMachine } from './taskState';
import type { TaskPhase } from '../../../shared/task';
import { readCapture } from './testing/fakeTaskSession';

const T0 = 1_000_000;

/** Replays a capture into a machine, one message per millisecond; returns the distinct phases passed. */
function replay(name: string): { machine: TaskStateMachine; phases: TaskPhase[] } {
  const machine = new TaskStateMachine(summarizeClaudeTool, T0);
  const reader = new NdjsonReader();
  const phases: TaskPhase[] = [machine.phase];
  let now = T0;
  for (const item of [...reader.push(readCapture(name)), ...reader.flush()]) {
    if (item.kind === 'noise') {
      machine.noteNoise(item.line);
      continue;
    }
    for (const event of decodeClaudeMessage(item.value)) machine.apply(event, (now += 1));
    if (phases.at(-1) !== machine.phase) phases.push(machine.phase);
  }
  return { machine, phases };
}

describe('TaskStateMachine on real Claude Code streams', () => {
  it('a Bash run goes starting → generating → tool_executing → generating → done, with turns and cost', () => {
    const { machine, phases } = replay('claude-2.1.197-bash-success');
    expect(phases).toEqual(['starting', 'generating', 'tool_executing', 'generating', 'done']);
    expect(machine.turns).toBe(2);
    expect(machine.costUsd).toBeGreaterThan(0);
    expect(machine.usage?.outputTokens).toBeGreaterThan(0);
    expect(machine.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(machine.model).toBe('claude-opus-4-8[1m]');
    expect(machine.text).toBe('Running it.\n\nAll done: the command printed done.');
    expect(machine.recentTools).toMatchObject([{ name: 'Bash', summary: 'sleep 1 && echo done', isError: false }]);
    expect(machine.currentTools).toEqual([]);
    expect(machine.describePhase()).toMatch(/^Finished in 2 turns, \$0\.\d{4}$/);
    expect(machine.noiseLineCount).toBe(0);
  });

  it("max turns ends failed with error_max_turns and the agent's message", () => {
    const { machine, phases } = replay('claude-2.1.197-max-turns');
    expect(phases.at(-1)).toBe('failed');
    expect(machine.error).toBe('error_max_turns: Reached maximum number of turns (1)');
    expect(machine.result).toMatchObject({ subtype: 'error_max_turns', isError: true });
    expect(machine.describePhase()).toBe('Failed: error_max_turns: Reached maximum number of turns (1)');
  });

  it('parallel tools are both in flight until both results are back', () => {
    const machine = new TaskStateMachine(summarizeClaudeTool, T0);
    const reader = new NdjsonReader();
    let maxInFlight = 0;
    for (const item of reader.push(readCapture('claude-2.1.197-parallel'))) {
      if (item.kind !== 'json') continue;
      for (const event of decodeClaudeMessage(item.value)) machine.apply(event, T0 + 1);
      maxInFlight = Math.max(maxInFlight, machine.currentTools.length);
    }
    expect(maxInFlight).toBe(2);
    expect(machine.phase).toBe('done');
    expect(machine.toolCallCount).toBe(2);
  });

  it('a subagent keeps the phase in tool_executing until its Task call returns', () => {
    const { phases, machine } = replay('claude-2.1.197-subagent');
    expect(phases).toEqual(['starting', 'generating', 'tool_executing', 'generating', 'done']);
    expect(machine.recentTools).toMatchObject([{ name: 'Task', summary: 'look around' }]);
  });

  it('a retry is recorded as the last activity and keeps generating', () => {
    const machine = new TaskStateMachine(summarizeClaudeTool, T0);
    machine.apply({ type: 'requesting' }, T0 + 1);
    machine.apply({ type: 'retry', attempt: 1, maxRetries: 10, errorStatus: 529, error: 'overloaded' }, T0 + 2);
    expect(machine.phase).toBe('generating');
    expect(machine.describePhase()).toBe('Retrying: model request failed (529 overloaded); retry 1/10');
  });

  it('describes what it was doing: tools with their input and time, else the last activity', () => {
    const machine = new TaskStateMachine(summarizeClaudeTool, T0);
    expect(machine.describeActivity(T0 + 5_000)).toBe('starting up (no message from the agent in 5.0 s)');
    machine.apply({ type: 'text', text: 'Let me think about this' }, T0 + 1_000);
    expect(machine.describeActivity(T0 + 3_000)).toBe('generating; last activity 2.0 s ago: writing "Let me think about this"');
    machine.apply({ type: 'tool_start', id: 't1', name: 'Bash' }, T0 + 4_000);
    machine.apply(
      { type: 'assistant', messageId: 'm1', text: '', toolUses: [{ id: 't1', name: 'Bash', input: { command: 'npm test' } }] },
      T0 + 4_100,
    );
    expect(machine.describeActivity(T0 + 16_000)).toBe('running Bash (npm test) for 12 s');
    expect(machine.describePhase()).toBe('Running Bash (npm test)');
  });

  it('ends once: a later end or event changes nothing', () => {
    const machine = new TaskStateMachine(summarizeClaudeTool, T0);
    machine.apply({ type: 'tool_start', id: 't1', name: 'Bash' }, T0 + 1);
    expect(machine.end('stalled', 'no output', T0 + 2)).toBe(true);
    expect(machine.end('cancelled', 'late', T0 + 3)).toBe(false);
    machine.apply({ type: 'text', text: 'late' }, T0 + 4);
    expect(machine.phase).toBe('stalled');
    expect(machine.error).toBe('no output');
    expect(machine.text).toBe('');
    expect(machine.recentTools).toMatchObject([{ id: 't1', isError: true }]);
    expect(machine.currentTools).toEqual([]);
  });

  it('keeps a bounded tail of the text and of the noise', () => {
    const machine = new TaskStateMachine(summarizeClaudeTool, T0);
    for (let i = 0; i < 100; i++) machine.apply({ type: 'text', text: `${i} ${'x'.repeat(100)} ` }, T0 + i);
    expect(machine.text.length).toBe(TEXT_TAIL_CHARS);
    expect(machine.text.trimEnd().endsWith('x')).toBe(true);
    for (let i = 0; i < 50; i++) machine.noteNoise(`line ${i}`);
    expect(machine.noiseLineCount).toBe(50);
    expect(machine.noiseTail).toEqual(Array.from({ length: 10 }, (_, i) => `line ${40 + i}`));
  });
});
