/**
 * Process lifecycle tools: list, inspect, spawn, start/stop/restart/close, readiness, ports,
 * rename and select. Each calls the same SwitchboardCore method the UI uses.
 */
import { resolve } from 'node:path';
import { loadConfig, processSpecFromConfig } from '../../config';
import type { ProcessInfo, ProcessSpec } from '../../../../shared/model';
import type { ReadinessResult } from '../../../../shared/ready';
import { DEFAULT_READY_TIMEOUT_MS } from '../../../../shared/mcp';
import { InvalidArgumentError } from '../../../../shared/errors';
import { defineTool, NotAvailableError, type ToolCall, type ToolContext } from '../toolContext';

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
    ...(info.readiness
      ? { ready: { phase: info.readiness.phase, message: info.readiness.message, url: info.readiness.url, port: info.readiness.port } }
      : {}),
    ...(info.agent
      ? { agent: { preset: info.agent.preset, status: info.agent.primary, detail: info.agent.detail, health: info.agent.health, reason: info.agent.reason } }
      : {}),
    ...(info.ports ? { ports: portsOf(info) } : {}),
    ...(info.attention ? { attention: info.attention } : {}),
    ...(info.timers?.length ? { timers: info.timers.length } : {}),
  };
}

function portsOf(info: ProcessInfo): { listening: number[]; urls: string[] } {
  return { listening: info.ports?.listening ?? [], urls: [...new Set((info.ports?.sightings ?? []).map((s) => s.url))] };
}

const listProcesses = defineTool({
  name: 'list_processes',
  title: 'List processes',
  description:
    'Every process entry of the project (dev servers, terminals, agents) with its id, state, readiness or agent status, health and ports. Start here to find process ids.',
  annotations: { readOnlyHint: true },
  run: ({ kind }, _call, ctx) => ({ processes: ctx.core.listProcesses(kind).map(summarize) }),
});

const getProcessStatus = defineTool({
  name: 'get_process_status',
  title: 'Process status',
  description:
    'Full status of one entry: state and message, readiness or agent status with the reason (the rule or signal that decided it), health, ports, screen size, output offsets, attention flag and timers.',
  annotations: { readOnlyHint: true },
  run: ({ process_id }, _call, ctx) => {
    const info = ctx.core.describe(process_id);
    const entry = ctx.core.entry(process_id);
    return {
      ...info,
      reason: info.agent?.reason ?? info.readiness?.reason ?? info.message,
      screen: { cols: info.cols, rows: info.rows, title: info.title, cursor: entry.screen.getCursor() },
    };
  },
});

const spawnProcess = defineTool({
  name: 'spawn_process',
  title: 'Spawn a process',
  description:
    'Create and start a new entry: a command (argv, or shell for a command line, or preset to start another instance of a process from switchboard.json) or an interactive terminal. Returns the new entry; its id is what the other tools take.',
  run: async (args, _call, ctx) => {
    if (args.ready !== undefined) {
      throw new NotAvailableError('Per-spawn readiness settings ("ready")');
    }
    if (args.preset !== undefined) {
      if (args.argv || args.shell) throw new InvalidArgumentError('Give one of argv, shell or preset');
      const spec = specFromPreset(ctx, args.preset);
      return ctx.core.createAndStart({
        ...spec,
        kind: args.kind === 'terminal' ? 'terminal' : spec.kind,
        name: args.name ?? spec.name,
        cwd: args.working_dir ? resolve(ctx.core.projectDir, args.working_dir) : spec.cwd,
        env: { ...spec.env, ...args.env },
        cols: args.cols,
        rows: args.rows,
      });
    }
    return ctx.core.spawnProcess({
      kind: args.kind,
      argv: args.argv,
      shell: args.shell,
      name: args.name,
      cwd: args.working_dir,
      env: args.env,
      cols: args.cols,
      rows: args.rows,
    });
  },
});

/** Another instance of a switchboard.json process (not tied to the config: edits do not touch it). */
function specFromPreset(ctx: ToolContext, preset: string): ProcessSpec {
  const name = preset.replace(/^processes\./, '');
  const config = loadConfig(ctx.core.projectDir);
  const processConfig = config.processes.get(name);
  if (!processConfig) {
    const known = [...config.processes.keys()];
    throw new InvalidArgumentError(`No process "${name}" in switchboard.json${known.length ? `; it defines ${known.join(', ')}` : ' (it defines none)'}`);
  }
  const { configName: _configName, ...spec } = processSpecFromConfig(name, processConfig, ctx.core.projectDir);
  return spec;
}

const spawnAgent = defineTool({
  name: 'spawn_agent',
  title: 'Spawn an agent',
  description:
    'Start a coding agent (claude, codex, gemini, opencode, aider, cursor-agent) in its own PTY, already connected to this Switchboard. agent_instructions is typed as its first user turn once it is ready. Returns the new entry.',
  run: async (args, _call, ctx) => {
    const spawn = ctx.capabilities.spawnAgent;
    if (!spawn) throw new NotAvailableError('Agent presets (spawn_agent)');
    return spawn({
      preset: args.agent,
      name: args.name,
      cwd: args.working_dir,
      argv: args.argv,
      env: args.env,
      instructions: args.agent_instructions,
      cols: args.cols,
      rows: args.rows,
    });
  },
});

const startProcess = defineTool({
  name: 'start_process',
  title: 'Start a process',
  description: 'Start a stopped entry again (same command, cwd and env). Does nothing if it is running. Returns the entry.',
  run: ({ process_id }, _call, ctx) => ctx.core.startProcess(process_id),
});

const stopProcess = defineTool({
  name: 'stop_process',
  title: 'Stop a process',
  description: 'Stop the entry\'s whole process tree (signal, default SIGTERM, then SIGKILL after the grace period). The entry stays and can be started again. Returns the entry.',
  annotations: { destructiveHint: true },
  run: ({ process_id, signal }, _call, ctx) => ctx.core.stopProcess(process_id, signal),
});

const closeProcess = defineTool({
  name: 'close_process',
  title: 'Close a process',
  description: 'Stop the entry\'s process tree (signal, default SIGTERM) and remove the entry. Its id stops working.',
  annotations: { destructiveHint: true },
  run: async ({ process_id, signal }, _call, ctx) => {
    if (signal) await ctx.core.stopProcess(process_id, signal);
    await ctx.core.closeProcess(process_id);
    return { closed: true, process_id };
  },
});

const restartProcess = defineTool({
  name: 'restart_process',
  title: 'Restart a process',
  description:
    'Stop the process tree and start it again. With wait_for_ready (default true) waits until it is ready or failed and returns { success, state, message, duration_ms, url?, port?, logs? } (logs: last lines on failure). Sends progress notifications while waiting when given a progress token.',
  run: async ({ process_id, signal, wait_for_ready, ready_timeout }, call, ctx) => {
    const startedAt = Date.now();
    const info = await ctx.core.restartProcess(process_id, signal);
    if (wait_for_ready === false) return { restarted: true, process: summarize(info) };
    return waitForReady(ctx, call, process_id, ready_timeout ?? DEFAULT_READY_TIMEOUT_MS, startedAt);
  },
});

async function waitForReady(ctx: ToolContext, call: ToolCall, id: string, timeoutMs: number, startedAt: number): Promise<ReadinessResult & Record<string, unknown>> {
  const readiness = ctx.capabilities.readiness;
  if (readiness) {
    const result = await readiness.waitForReady(id, {
      timeoutMs,
      signal: call.signal,
      onProgress: (p) => call.progress(p.elapsed_ms, timeoutMs, `${p.state}: ${p.message}`),
    });
    return { ...result, duration_ms: Date.now() - startedAt };
  }
  // Without readiness detection only "the new run is up" can be said truthfully.
  const info = ctx.core.describe(id);
  return {
    success: info.state === 'running',
    state: info.state,
    message: `${info.message}. Readiness detection is not available yet in this build, so this only says the process is running.`,
    duration_ms: Date.now() - startedAt,
  };
}

const checkProcessReady = defineTool({
  name: 'check_process_ready',
  title: 'Is it ready?',
  description: 'Readiness of a dev server right now: { ready, state, message, url?, port? }. Does not wait (restart_process with wait_for_ready does).',
  annotations: { readOnlyHint: true },
  run: ({ process_id }, _call, ctx) => {
    if (ctx.capabilities.readiness) return ctx.capabilities.readiness.check(process_id);
    const info = ctx.core.describe(process_id);
    if (!info.readiness) throw new NotAvailableError('Readiness detection');
    const { phase, message, url, port } = info.readiness;
    return { ready: phase === 'ready' || phase === 'running', state: phase, message, url, port };
  },
});

const getProcessPorts = defineTool({
  name: 'get_process_ports',
  title: 'Ports and URLs',
  description: 'URLs the process printed (with the byte offset where each was seen) and the TCP ports its process tree listens on.',
  annotations: { readOnlyHint: true },
  run: ({ process_id }, _call, ctx) => {
    const info = ctx.core.describe(process_id);
    if (!info.ports && !info.readiness) throw new NotAvailableError('Port detection');
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
  description: 'Change the label shown in the UI and in lists. Returns the entry.',
  run: ({ process_id, name }, _call, ctx) => ctx.core.renameProcess(process_id, name),
});

const selectProcess = defineTool({
  name: 'select_process',
  title: 'Focus a process in the UI',
  description: 'Select and focus the entry\'s pane in the Switchboard window (to show a person something).',
  run: ({ process_id }, _call, ctx) => ctx.core.selectProcess(process_id),
});

export const processTools = [
  listProcesses,
  getProcessStatus,
  spawnProcess,
  spawnAgent,
  startProcess,
  stopProcess,
  closeProcess,
  restartProcess,
  checkProcessReady,
  getProcessPorts,
  renameProcess,
  selectProcess,
];
