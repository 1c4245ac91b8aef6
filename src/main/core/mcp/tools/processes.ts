/**
 * Process lifecycle tools: list, inspect, spawn, start/stop/restart/close, readiness, ports,
 * rename and select. Each calls the same SwitchboardCore method the UI uses.
 */
import type { ProcessInfo } from '../../../../shared/model';
import { DEFAULT_READY_TIMEOUT_MS } from '../../../../shared/readyConfig';
import { InvalidArgumentError } from '../../../../shared/errors';
import { defineTool, isAllowed, spawnOrigin, type ToolCall, type ToolContext } from '../toolContext';
import { callerWorktree, scopedList } from '../callerWorktree';
import { MAIN_WORKTREE_ID } from '../../../../shared/worktree';

/** The compact view of an entry used in lists: enough to decide what to look at next. */
export function summarize(info: ProcessInfo): Record<string, unknown> {
  return {
    id: info.id,
    name: info.name,
    kind: info.kind,
    state: info.state,
    message: info.message,
    ...(info.pid !== undefined ? { pid: info.pid } : {}),
    ...(info.configName ? { config_name: info.configName } : {}),
    worktree: info.worktree ?? MAIN_WORKTREE_ID,
    ...(info.readiness
      ? { ready: { phase: info.readiness.phase, message: info.readiness.message, url: info.readiness.url, port: info.readiness.port } }
      : {}),
    ...(info.agent
      ? {
          agent: {
            preset: info.agent.preset,
            status: info.agent.primary,
            detail: info.agent.detail,
            health: info.agent.health,
            reason: info.agent.reason,
            verified: info.agent.verified,
            ...(info.agent.cliVersion ? { cli_version: info.agent.cliVersion } : {}),
            confidence: info.agent.confidence,
            ...(info.agent.confidenceReason ? { confidence_reason: info.agent.confidenceReason } : {}),
          },
        }
      : {}),
    ...(info.ports ? { ports: portsOf(info) } : {}),
    ...(info.attention ? { attention: info.attention } : {}),
    ...(info.timers?.length ? { timers: info.timers.length } : {}),
    ...(info.trust ? { trust: info.trust === 'new' ? 'not trusted yet' : 'changed since trusted: runs nothing new until trusted' } : {}),
  };
}

/** What every token may read of any entry: its state, status, health, ports, trust and attention. */
const STATUS_ONLY: { open: string } = { open: 'status fields of any entry (state, agent status, health, ports): what every token may see' };

/**
 * What another entry's status holds that is its content, not its status: shown only with the read
 * right on it (its own, one it spawned, or entries:read-all), and named as withheld otherwise. The
 * command line may carry a prompt or a session id; the terminal title is often the conversation's
 * topic.
 */
const CONTENT_FIELDS = ['argv', 'title', 'task prompt, text, tools, result and session', 'timer body previews', 'session id'] as const;

function mayRead(ctx: ToolContext, call: ToolCall, id: string): boolean {
  return isAllowed(ctx, call, { entry: id, right: 'read', action: 'reading' });
}

const WITHHELD = '(withheld: needs the read right on the entry, entries:read-all)';

/** An entry as the caller may see it: whole with the read right on it, its status only otherwise. */
export function asSeenBy(ctx: ToolContext, call: ToolCall, info: ProcessInfo): ProcessInfo {
  return mayRead(ctx, call, info.id) ? info : statusOnly(info);
}

/**
 * `info` with its content fields replaced by what every token may see. A task's message names its
 * tool calls ("Running Bash: …") or its error: its phase stands for it.
 */
function statusOnly(info: ProcessInfo): ProcessInfo {
  const { task } = info;
  return {
    ...info,
    ...(task ? { message: `Task ${task.phase}` } : {}),
    argv: [],
    title: '',
    ...(info.timers ? { timers: info.timers.map((t) => ({ ...t, bodyPreview: WITHHELD })) } : {}),
    ...(info.session
      ? { session: { resumable: info.session.resumable, ...(info.session.reason ? { reason: info.session.reason } : {}) } }
      : {}),
    ...(task
      ? {
          task: {
            ...task,
            prompt: '',
            text: '',
            message: `Task ${task.phase}`,
            currentTools: [],
            recentTools: [],
            decisions: [],
            noiseTail: [],
            lastActivity: undefined,
            stallWarning: undefined,
            result: undefined,
            error: undefined,
            sessionId: undefined,
            resumeSessionId: undefined,
            allowedTools: undefined,
          },
        }
      : {}),
  };
}

function portsOf(info: ProcessInfo): { listening: number[]; urls: string[] } {
  return { listening: info.ports?.listening ?? [], urls: [...new Set((info.ports?.sightings ?? []).map((s) => s.url))] };
}

const listProcesses = defineTool({
  name: 'list_processes',
  title: 'List processes',
  summary: 'Every entry with id, state, status, health and ports.',
  description:
    'Every process entry of the project (dev servers, workers, jobs, terminals, agents) with its id, state, readiness or agent status, health and ports. States: starting, ready (a server answered), running (up; for a command without a readiness check this is its healthy state), unhealthy (was ready, liveness probes fail), completed (a one-shot job exited 0), waiting (for the processes it depends on), error, stopped. Start here to find process ids.',
  annotations: { readOnlyHint: true },
  requires: STATUS_ONLY,
  run: ({ kind, worktree }, call, ctx) => ({
    processes: scopedList(ctx.core.listProcesses(kind), worktree, callerWorktree(ctx, call)).map((p) => summarize(asSeenBy(ctx, call, p))),
  }),
});

const getProcessStatus = defineTool({
  name: 'get_process_status',
  title: 'Process status',
  summary: 'Full status of one entry, with the reason for it.',
  description:
    'Full status of one entry: state and message, readiness or agent status with the reason (the rule or signal that decided it), whether the agent preset was verified against the real CLI, the status confidence (low with a reason when no rule matches the screen), health, ports, screen size, output offsets, attention flag and timers. ' +
    "Of an entry you may not read (not yours, not spawned by you, no entries:read-all) its content is withheld and `withheld` names it: command line, title, a task's prompt, text, tools, result and session, timers' body previews, the session id.",
  annotations: { readOnlyHint: true },
  requires: {
    open: `status fields of any entry; its content (${CONTENT_FIELDS.join(', ')}) only with the read right, withheld and named otherwise`,
  },
  run: ({ process_id }, call, ctx) => {
    const described = ctx.core.describe(process_id);
    const info = asSeenBy(ctx, call, described);
    const readable = info === described;
    const entry = ctx.core.entry(process_id);
    return {
      ...info,
      reason: info.agent?.reason ?? info.readiness?.reason ?? info.message,
      screen: { cols: info.cols, rows: info.rows, title: info.title, cursor: entry.screen.getCursor() },
      ...(readable ? {} : { withheld: { fields: [...CONTENT_FIELDS], reason: WITHHELD } }),
    };
  },
});

const spawnProcess = defineTool({
  name: 'spawn_process',
  title: 'Spawn a process',
  summary: 'Start a command (argv, shell or preset) or a terminal; returns its id.',
  description:
    'Create and start a new entry: a command (argv, or shell for a command line, or preset to start another instance of a process from switchboard.json) or an interactive terminal. ready adds readiness settings (readyPatterns, port, url, …). Returns the new entry; its id is what the other tools take.',
  requires: { open: "a new entry of the caller's own (a preset copies the config entry's command, never its scopes)" },
  run: async (args, call, ctx) => {
    if (args.preset !== undefined) {
      if (args.argv || args.shell) throw new InvalidArgumentError('Give one of argv, shell or preset');
      const { kind, name, working_dir: cwd, env, ready, cols, rows, worktree } = args;
      return ctx.core.spawnFromConfig(args.preset, { kind, name, cwd, env, ready, cols, rows, worktree }, spawnOrigin(call));
    }
    return ctx.core.spawnProcess(
      {
        kind: args.kind,
        argv: args.argv,
        shell: args.shell,
        name: args.name,
        cwd: args.working_dir,
        env: args.env,
        ready: args.ready,
        cols: args.cols,
        rows: args.rows,
        worktree: args.worktree,
        sandbox: args.sandbox,
      },
      spawnOrigin(call),
    );
  },
});

const spawnAgent = defineTool({
  name: 'spawn_agent',
  title: 'Spawn an agent',
  summary: 'Start a coding agent preset, optionally with its first instructions.',
  description:
    "Start a coding agent (claude, codex, gemini, opencode, qwen, pi, copilot, aider, cursor-agent, or any command) in its own PTY, already connected to this Switchboard. agent_instructions is typed as its first user turn once it is ready for input. argv replaces the preset's command and keeps its status detection. Returns the new entry.",
  requires: { open: "a new agent of the caller's own, with default rights" },
  run: (args, call, ctx) =>
    ctx.core.spawnAgent(
      {
        preset: args.agent,
        name: args.name,
        cwd: args.working_dir,
        argv: args.argv,
        env: args.env,
        instructions: args.agent_instructions,
        cols: args.cols,
        rows: args.rows,
        worktree: args.worktree,
        sandbox: args.sandbox,
        budget: args.budget,
      },
      spawnOrigin(call),
    ),
});

/** `process_id` is a switchboard.json process not running in the worktree yet (names were resolved there before). */
function startsNewInstance(ctx: ToolContext, processId: string): boolean {
  return !ctx.core.findEntry(processId) && ctx.core.configuredProcesses().has(processId);
}

const startProcess = defineTool({
  name: 'start_process',
  title: 'Start a process',
  description:
    "Start a stopped entry again (same command, cwd and env). Does nothing if it is running. A switchboard.json process name starts that process in your worktree (or `worktree`): its existing instance there, or a new one on its own port, after the same worktree's processes it depends on. Returns the entry.",
  summary: 'Start a stopped entry again, or a switchboard.json process in your worktree.',
  startsByName: true,
  // A name not running there yet makes a new instance, which needs no right (like spawn_process).
  requires: {
    perCall: ({ process_id }, _call, ctx) =>
      startsNewInstance(ctx, process_id) ? [] : [{ entry: process_id, right: 'control', action: 'starting' }],
  },
  run: ({ process_id, worktree }, call, ctx) => {
    if (startsNewInstance(ctx, process_id))
      return ctx.core.worktrees.startInstance({ worktree: worktree ?? callerWorktree(ctx, call), name: process_id }, spawnOrigin(call));
    return ctx.core.startProcess(process_id);
  },
});

const resumeProcess = defineTool({
  name: 'resume_process',
  title: 'Resume an agent',
  summary: 'Start a stopped agent again in its last conversation.',
  description:
    "Start a stopped agent again continuing its last conversation (the CLI's own resume: Claude Code --resume, codex resume). Works when get_process_status shows session.resumable, e.g. after the app restarted. Returns the entry.",
  // It starts the agent again with that agent's argv and scopes: control, like start_process.
  requires: { perCall: ({ process_id }) => [{ entry: process_id, right: 'control', action: 'resuming' }] },
  run: ({ process_id }, _call, ctx) => ctx.core.resumeProcess(process_id),
});

const stopProcess = defineTool({
  name: 'stop_process',
  title: 'Stop a process',
  summary: "Stop an entry's process tree; the entry stays.",
  description:
    "Stop the entry's whole process tree (signal, default SIGTERM, then SIGKILL after the grace period). The entry stays and can be started again. Returns the entry.",
  annotations: { destructiveHint: true },
  requires: { perCall: ({ process_id }) => [{ entry: process_id, right: 'control', action: 'stopping' }] },
  run: ({ process_id, signal }, _call, ctx) => ctx.core.stopProcess(process_id, signal),
});

const closeProcess = defineTool({
  name: 'close_process',
  title: 'Close a process',
  summary: "Stop an entry's process tree and remove the entry.",
  description: "Stop the entry's process tree (signal, default SIGTERM) and remove the entry. Its id stops working.",
  annotations: { destructiveHint: true },
  requires: { perCall: ({ process_id }) => [{ entry: process_id, right: 'control', action: 'closing' }] },
  run: async ({ process_id, signal }, _call, ctx) => {
    if (signal) await ctx.core.stopProcess(process_id, signal);
    await ctx.core.closeProcess(process_id);
    return { closed: true, process_id };
  },
});

const restartProcess = defineTool({
  name: 'restart_process',
  title: 'Restart a process',
  summary: 'Restart an entry and wait until it is ready or failed.',
  description:
    "Stop the process tree and start it again (after the processes it depends on). For a command, wait_for_ready (default true) waits until it is ready (or running, for a command without a readiness check) or failed; for a one-shot job, until it finished. Returns { success, state, message, duration_ms, url?, port?, logs?, exit_code? } (logs: last lines on failure and of a finished job; exit_code: a finished job's). Sends progress notifications while waiting when given a progress token; cancellable.",
  requires: { perCall: ({ process_id }) => [{ entry: process_id, right: 'control', action: 'restarting' }] },
  run: async ({ process_id, signal, wait_for_ready, ready_timeout }, call, ctx) => {
    const entry = ctx.core.entry(process_id);
    if (wait_for_ready !== false && entry.kind === 'command') {
      const timeoutMs = ready_timeout ?? DEFAULT_READY_TIMEOUT_MS;
      return ctx.core.restartAndWait(process_id, {
        signal,
        readyTimeoutMs: timeoutMs,
        abort: call.signal,
        onProgress: (p) => call.progress(p.elapsed_ms, timeoutMs, `${p.state}: ${p.message}`),
      });
    }
    const startedAt = Date.now();
    const info = await ctx.core.restartProcess(process_id, signal);
    // Terminals and agents have no readiness (docs/readiness.md is for commands): the new run being up is the result.
    return {
      success: info.state !== 'error',
      state: info.state,
      message: info.message,
      duration_ms: Date.now() - startedAt,
      process: summarize(info),
    };
  },
});

const checkProcessReady = defineTool({
  name: 'check_process_ready',
  title: 'Is it ready?',
  summary: 'Readiness of a command now, without waiting.',
  description:
    'Readiness of a command right now: { ready, state, message, url?, port? }. ready is true only for a server that answered (state ready); state also says running (no readiness check), unhealthy, completed, waiting (for dependencies) or error, with the reason in message. Does not wait (restart_process with wait_for_ready does).',
  annotations: { readOnlyHint: true },
  requires: STATUS_ONLY,
  run: ({ process_id }, _call, ctx) => ctx.core.checkReady(process_id),
});

const getProcessPorts = defineTool({
  name: 'get_process_ports',
  title: 'Ports and URLs',
  summary: 'URLs an entry printed and the TCP ports it listens on.',
  description: 'URLs the process printed (with the byte offset where each was seen) and the TCP ports its process tree listens on.',
  annotations: { readOnlyHint: true },
  requires: STATUS_ONLY,
  run: ({ process_id }, _call, ctx) => {
    const info = ctx.core.describe(process_id);
    return {
      process_id,
      sightings: info.ports?.sightings ?? [],
      listening: info.ports?.listening ?? [],
      ...(info.readiness?.url ? { url: info.readiness.url } : {}),
      ...(info.readiness?.port ? { port: info.readiness.port } : {}),
    };
  },
});

const renameProcess = defineTool({
  name: 'rename_process',
  title: 'Rename a process',
  summary: "Change an entry's label.",
  description: 'Change the label shown in the UI and in lists. Returns the entry.',
  requires: { perCall: ({ process_id }) => [{ entry: process_id, right: 'control', action: 'renaming' }] },
  run: ({ process_id, name }, _call, ctx) => ctx.core.renameProcess(process_id, name),
});

const selectProcess = defineTool({
  name: 'select_process',
  title: 'Focus a process in the UI',
  summary: "Focus an entry's pane in the Switchboard window.",
  description: "Select and focus the entry's pane in the Switchboard window (to show a person something).",
  requires: { open: "moves the window's focus to a pane; nothing in the entry changes and nothing of it is read" },
  run: ({ process_id }, _call, ctx) => ctx.core.selectProcess(process_id),
});

export const processTools = [
  listProcesses,
  getProcessStatus,
  spawnProcess,
  spawnAgent,
  startProcess,
  resumeProcess,
  stopProcess,
  closeProcess,
  restartProcess,
  checkProcessReady,
  getProcessPorts,
  renameProcess,
  selectProcess,
];
