/**
 * No logic in transports: every MCP tool is paired with the one core method it calls. Each tool's
 * handler runs against a recording stand-in of the core (and of the scratchpads), which answers
 * every member with another stand-in and records each call; the calls a tool makes must be
 * exactly its pairing below. A new tool without a pairing fails here.
 */
import { describe, expect, it } from 'vitest';
import { CORE_TOOLS } from './mcpService';
import type { ToolCall, ToolContext } from './toolContext';

/**
 * Reads any tool may make besides its own method: the entry it names and the caller's rights
 * (assertAllowed, sender tags), or its screen and output ring.
 */
const LOOKUPS = new Set(['core.entry', 'core.findEntry', 'core.scopesOf', 'core.access.owns', 'core.access.spawnerOf']);

/** The core method each tool calls; a read-only overview lists the reads it composes. */
interface Pairing {
  calls: readonly string[];
  args?: Record<string, unknown>;
  /** Members the tool reads as values (an entry's kind), by path. */
  values?: Record<string, unknown>;
  /** The call is cancelled before it starts (a wait returns at once). */
  aborted?: boolean;
}

const PAIRING: Readonly<Record<string, Pairing>> = {
  whoami: { calls: ['core.snapshot'] },
  get_project_status: { calls: ['core.listProcesses', 'core.snapshot', 'core.trustState', 'scratchpads.list'] },
  trust_project: { calls: ['core.grantTrust'] },
  help: { calls: [] },
  send_input: { calls: ['core.writeInput'], args: { text: 'ls' } },
  send_message: { calls: ['core.sendAutomatedTurn'], args: { message: 'hello' }, values: { 'core.entry().kind': 'agent' } },
  request_human_attention: { calls: ['core.requestAttention'], args: { reason: 'look' } },
  list_waiting: { calls: ['core.listWaiting'] },
  answer_prompt: { calls: ['core.answerPrompt'], args: { choice: '1' } },
  get_process_output: { calls: ['core.entry'] },
  get_process_raw_output: { calls: ['core.entry'] },
  search_output: { calls: ['core.entry'], args: { pattern: 'x' } },
  wait_for_pattern: { calls: ['core.entry'], args: { pattern: 'x', timeout_seconds: 0.001 }, aborted: true },
  list_processes: { calls: ['core.listProcesses'] },
  get_process_status: { calls: ['core.describe'] },
  spawn_process: { calls: ['core.spawnProcess'], args: { kind: 'command', argv: ['true'] } },
  spawn_agent: { calls: ['core.spawnAgent'], args: { agent: 'generic' } },
  start_process: { calls: ['core.startProcess'] },
  resume_process: { calls: ['core.resumeProcess'] },
  stop_process: { calls: ['core.stopProcess'] },
  close_process: { calls: ['core.closeProcess'] },
  restart_process: { calls: ['core.restartProcess'], args: { wait_for_ready: false } },
  check_process_ready: { calls: ['core.checkReady'] },
  get_process_ports: { calls: ['core.describe'] },
  rename_process: { calls: ['core.renameProcess'], args: { name: 'web' } },
  select_process: { calls: ['core.selectProcess'] },
  scratchpad_list: { calls: ['scratchpads.list'] },
  scratchpad_read: { calls: ['scratchpads.read'], args: { name: 'notes' } },
  scratchpad_write: { calls: ['scratchpads.write'], args: { name: 'notes', content: 'x' } },
  scratchpad_append: { calls: ['scratchpads.append'], args: { name: 'notes', content: 'x' } },
  scratchpad_delete: { calls: ['scratchpads.delete'], args: { name: 'notes' } },
  start_task: { calls: ['core.startTask'], args: { prompt: 'do it' } },
  get_task: { calls: ['core.getTask'], args: { task_id: 'p_1' } },
  cancel_task: { calls: ['core.cancelTask'], args: { task_id: 'p_1' } },
  wait_for_task: { calls: ['core.waitForTask'], args: { task_id: 'p_1' } },
  timer_set: { calls: ['core.timers.setDelay'], args: { delay_seconds: 60, message: 'x' } },
  timer_fire_when_idle_any: { calls: ['core.timers.setIdle'], args: { watch: ['p_2'], message: 'x' } },
  timer_fire_when_idle_all: { calls: ['core.timers.setIdle'], args: { watch: ['p_2'], message: 'x' } },
  timer_cancel: { calls: ['core.timers.cancel'], args: { timer_id: 't_1' } },
  timer_pause: { calls: ['core.timers.pause'], args: { timer_id: 't_1' } },
  timer_resume: { calls: ['core.timers.resume'], args: { timer_id: 't_1' } },
  timer_list: { calls: ['core.timers.list'] },
  timer_wait: { calls: ['core.timers.setLegacyWait'], args: { seconds: 1, message: 'x' } },
  create_worktree: { calls: ['core.worktrees.createWorktree'], args: { name: 'feature' } },
  list_worktrees: { calls: ['core.worktrees.manager.overview'] },
  worktree_diff: { calls: ['core.worktrees.manager.diff'], args: { worktree: 'w_1' } },
  merge_worktree: { calls: ['core.worktrees.manager.merge'], args: { worktree: 'w_1' } },
  remove_worktree: { calls: ['core.worktrees.manager.remove'], args: { worktree: 'w_1' } },
  propose_commit_message: { calls: ['core.worktrees.proposeCommitMessage'], args: { message: 'Add notes' } },
  resolve_blocked: { calls: ['core.services[blocked agents].resolve'], args: { action: 'retry_now' } },
  get_usage: { calls: ['core.services[budget].stateOf', 'core.services[usage].ofProcess'] },
  set_continue_at_reset: { calls: ['core.services[blocked agents].setContinueAtReset'], args: { enabled: true } },
};

/** Tools whose arguments choose the method: each other choice with its own pairing. */
const VARIANTS: ReadonlyArray<[string, Pairing]> = [
  ['spawn_process', { calls: ['core.spawnFromConfig'], args: { kind: 'command', preset: 'web' } }],
  ['restart_process', { calls: ['core.restartAndWait'], values: { 'core.entry().kind': 'command' } }],
];

/** Members every tool reads as values, not calls. */
const VALUES: Readonly<Record<string, unknown>> = { 'core.projectDir': '/project' };

/**
 * A stand-in for `path` (`core`, `scratchpads`): every member is another stand-in, every call of
 * one whose path leads back to the root by members only is recorded; results are stand-ins too.
 */
function recorder(path: string, calls: string[], values: Record<string, unknown> = VALUES, isRoot = true): unknown {
  const target = function standIn() {};
  return new Proxy(target, {
    get: (_target, property) => {
      if (property === 'then') return undefined; // not a promise: `await` takes it as it is
      if (property === Symbol.iterator) return function* empty() {};
      if (property === Symbol.toPrimitive) return (hint: string) => (hint === 'string' ? path : 0);
      if (property === 'toString' || property === 'valueOf') return () => path;
      if (typeof property === 'symbol') return undefined;
      const member = `${path}.${property}`;
      if (member in values) return values[member];
      return recorder(member, calls, values, isRoot);
    },
    apply: (_target, _this, args: unknown[]) => {
      // A service looked up by its key is a root of its own: its method calls are what count.
      if (path === 'core.services.find') return recorder(`core.services[${(args[0] as { name: string }).name}]`, calls, values, true);
      if (isRoot) calls.push(path);
      return recorder(`${path}()`, calls, values, false);
    },
  });
}

async function callsOf(name: string, pairing: Pairing | undefined = PAIRING[name]): Promise<string[]> {
  const tool = CORE_TOOLS.find((t) => t.name === name)!;
  const calls: string[] = [];
  const ctx = {
    core: recorder('core', calls, { ...VALUES, ...pairing?.values }),
    scratchpads: recorder('scratchpads', calls),
    identity: recorder('identity', []),
    patternWaits: { acquire: () => () => undefined },
    tools: CORE_TOOLS,
  } as unknown as ToolContext;
  const abort = new AbortController();
  if (pairing?.aborted) abort.abort();
  const call: ToolCall = { caller: { kind: 'external' }, signal: abort.signal, progress: () => undefined, hasProgress: false };
  await tool.run({ process_id: 'p_1', ...pairing?.args }, call, ctx);
  return [...new Set(calls)].filter((c) => !LOOKUPS.has(c) || pairing?.calls.includes(c)).sort();
}

describe('every MCP tool calls one core method', () => {
  it('every tool has a pairing, and every pairing a tool', () => {
    expect(CORE_TOOLS.map((t) => t.name as string).sort()).toEqual(Object.keys(PAIRING).sort());
  });

  it.each(CORE_TOOLS.map((t) => t.name as string))('%s calls exactly what it is paired with', async (name) => {
    expect(await callsOf(name)).toEqual([...(PAIRING[name]?.calls ?? ['(no pairing)'])].sort());
  });

  it.each(VARIANTS)('%s with other arguments calls its other method', async (name, pairing) => {
    expect(await callsOf(name, pairing)).toEqual([...pairing.calls].sort());
  });

  it('a tool that calls something else is caught', async () => {
    const calls: string[] = [];
    const core = recorder('core', calls) as { stopProcess(id: string): void; closeProcess(id: string): void };
    core.stopProcess('p_1');
    core.closeProcess('p_1');
    expect(calls).toEqual(['core.stopProcess', 'core.closeProcess']);
  });
});
