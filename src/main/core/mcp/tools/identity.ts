/** Orientation tools: who am I, what can I call, what is going on in the project. */
import { z } from 'zod';
import { McpToolInput, type McpToolName } from '../../../../shared/mcp';
import type { Caller } from '../identity';
import { defineTool, type AnyToolDefinition, type ToolContext } from '../toolContext';
import { asSeenBy, summarize } from './processes';
import { callerWorktree, scopedList } from '../callerWorktree';
import { MCP_SCOPES } from '../../../../shared/trust';

const APP_RIGHTS = 'The app token: every right on every entry (all scopes).';
const PROCESS_RIGHTS =
  'Without a scope you may list every entry and read its status, spawn processes and agents, and read, type into and control your own entry and the entries you spawned (and theirs). ' +
  "Another entry's content (output, title, command line, a task's prompt and result, timer bodies, session ids) is withheld without the read right. " +
  'Scopes extend that: entries:read-all (read any output and content, resume any session), entries:input-all (type into any entry, message any agent), entries:control-all (start, resume, stop, restart, rename, close any entry, cancel any task), tasks:bypass-permissions (start_task with permission_mode "bypassPermissions"), worktrees:manage-all (merge or remove worktrees you did not create). ' +
  'Only a person grants scopes (switchboard.json "mcp": {"scopes": [...]} on your entry, or the Switchboard UI).';

function whoamiOf(ctx: ToolContext, caller: Caller) {
  const project = { name: ctx.core.snapshot().project.name, dir: ctx.core.projectDir };
  if (caller.kind === 'external') {
    return { process_id: null, name: null, kind: null, role: 'external', project, scopes: [...MCP_SCOPES], rights: APP_RIGHTS };
  }
  const entry = ctx.core.findEntry(caller.processId);
  const spawnedBy = ctx.core.access.spawnerOf(caller.processId);
  return {
    process_id: caller.processId,
    name: entry?.name ?? null,
    kind: entry?.kind ?? null,
    role: entry?.kind === 'agent' ? 'agent' : 'process',
    ...(entry?.definition.preset ? { preset: entry.definition.preset } : {}),
    ...(entry?.definition.worktree ? { worktree: entry.definition.worktree, cwd: entry.definition.cwd } : {}),
    ...(spawnedBy ? { spawned_by: spawnedBy } : {}),
    project,
    scopes: entry ? ctx.core.scopesOf(caller.processId) : [],
    rights: PROCESS_RIGHTS,
  };
}

const whoami = defineTool({
  name: 'whoami',
  title: 'Who am I',
  summary: 'Your process id, name, role, scopes and rights.',
  description:
    'Your identity in Switchboard: your process id and name when Switchboard started you (role "agent" or "process"), or role "external"; the project; your scopes and what they let you do; and the tools you can call.',
  annotations: { readOnlyHint: true },
  requires: { open: "the caller's own identity and scopes" },
  run: (_args, call, ctx) => ({ ...whoamiOf(ctx, call.caller), tools: ctx.tools.map((t) => t.name as string) }),
});

const getProjectStatus = defineTool({
  name: 'get_project_status',
  title: 'Project overview',
  summary: 'Whole picture: project, you, every process with status, timers, scratchpads.',
  description:
    "One call for the whole picture: the project, you, every process with its state and status (your own worktree's first), timers and scratchpads.",
  annotations: { readOnlyHint: true },
  requires: { open: "status of every entry; a timer's body preview only for entries the caller may read" },
  run: async ({ worktree }, call, ctx) => {
    const processes = scopedList(ctx.core.listProcesses(), worktree, callerWorktree(ctx, call)).map((p) => asSeenBy(ctx, call, p));
    const timers = processes.flatMap((p) => (p.timers ?? []).map((t) => ({ ...t, process_id: p.id })));
    return {
      project: { name: ctx.core.snapshot().project.name, dir: ctx.core.projectDir, config_issues: ctx.core.issues },
      trust: ctx.core.trustState(),
      caller: whoamiOf(ctx, call.caller),
      processes: processes.map(summarize),
      timers,
      scratchpads: await ctx.scratchpads.list(),
    };
  },
});

const trustProject = defineTool({
  name: 'trust_project',
  title: "Trust the project's config",
  summary: 'App token only: trust the switchboard.json entries that wait for it.',
  description:
    "Only for the app token (a person's client), never for a process Switchboard started: trust the switchboard.json entries that wait for it (get_project_status trust.pending shows each command, env and cwd), so they may run and auto-start. Returns the trust state.",
  requires: {
    appOnly:
      'Only a person can trust the project: a process Switchboard started cannot grant trust with its own token. Ask for it with request_human_attention; the Switchboard UI shows the prompt.',
  },
  run: ({ entries }, _call, ctx) => ctx.core.grantTrust(entries),
});

const TOPICS: Record<string, string> = {
  overview: [
    "Switchboard runs the project's dev servers, terminals and coding agents in PTYs and lets you drive them.",
    'Start with get_project_status or list_processes to get process ids (p_xxxxxx); most tools take process_id.',
    'Servers: spawn_process, restart_process (waits until ready), check_process_ready, get_process_ports.',
    'Reading: get_process_output (screen or stream), search_output, wait_for_pattern.',
    'Writing: send_input (text, paste, keys), send_message (to another agent), request_human_attention; list_waiting + answer_prompt answer agents waiting for permission; resolve_blocked acts on a blocked one; set_continue_at_reset lets one continue by itself at its limit.',
    'Coordination: scratchpad_* (shared notes with revisions).',
    'Timers: timer_set, timer_fire_when_idle_any/_all, timer_list.',
    'Topics: offsets, patterns, identity, scratchpads, timers, keys. help with a tool name explains its parameters.',
  ].join('\n'),
  offsets: [
    'Output is kept per process as bytes with offsets that only grow (across restarts too).',
    'get_process_output mode "stream" and get_process_raw_output return next_offset: pass it as since_offset to read on without repeats.',
    'run_start_offset is where the current run began; has_more says more output is already there; bytes_lost says old output was dropped from the buffer.',
  ].join('\n'),
  patterns: [
    'Patterns are JavaScript regular expressions matched against each line of ANSI-stripped output (and each carriage-return segment of it).',
    'Write "/source/flags" to pass flags, e.g. "/error/i". An invalid regex is reported with its text.',
  ].join('\n'),
  identity: [
    'Processes started by Switchboard get SWITCHBOARD_MCP_URL and their own SWITCHBOARD_MCP_TOKEN; calls with that token are yours (whoami).',
    'Other clients use the app token from mcp-endpoint.json in the app\'s data directory (or the "Connect an agent" panel) and are "external".',
    'A process token is new at each run of its entry (the previous one stops working) and carries scopes: whoami lists them and what they allow; a refused call names the scope it needs.',
    'Commands and terminals get a token only when switchboard.json gives their entry "mcp": {"scopes": [...]}.',
  ].join('\n'),
  scratchpads: [
    'Scratchpads are shared notes per project. scratchpad_read returns a revision; write with expected_revision to change it only if nobody else did.',
    'A stale expected_revision fails with the current revision and writes nothing: read again, merge, retry. expected_revision 0 creates only if absent. Appends never conflict.',
  ].join('\n'),
  timers: [
    'timer_set delivers a body to a process as a fresh user turn after a delay; timer_fire_when_idle_any / _all when watched agents go idle.',
    "The owner is you, or owner_process_id when you are not a process started by Switchboard. timer_list shows your timers; pause keeps a delay timer's remaining time.",
  ].join('\n'),
  keys: [
    'send_input kind "key": Enter, Escape, Tab, BTab, Backspace, Delete, Insert, Space, Up, Down, Left, Right, Home, End, PageUp, PageDown, F1–F12.',
    'Modifiers: C-<key> for Ctrl (C-c interrupts, C-d ends input), M-<key> for Alt.',
  ].join('\n'),
};

function describeParameters(name: McpToolName): string[] {
  const shape = McpToolInput[name] as Record<string, z.ZodType>;
  return Object.entries(shape).map(([param, schema]) => {
    const optional = schema.safeParse(undefined).success;
    return `  ${param}${optional ? '?' : ''}: ${schema.description ?? ''}`.trimEnd();
  });
}

function toolHelp(tool: AnyToolDefinition): string {
  const params = describeParameters(tool.name as McpToolName);
  return [`${tool.name} — ${tool.title}`, tool.description, params.length ? 'Parameters:' : 'No parameters.', ...params].join('\n');
}

const help = defineTool({
  name: 'help',
  title: 'Help',
  summary: 'Detail on any tool (topic = its name) or subject; omit topic for an overview.',
  description:
    "Human help: an overview, a tool's parameters (topic = tool name), or a topic: offsets, patterns, identity, scratchpads, timers, keys.",
  annotations: { readOnlyHint: true },
  requires: { open: "the tools' own documentation" },
  run: ({ topic }, _call, ctx) => {
    const key = (topic ?? 'overview').trim();
    const tool = ctx.tools.find((t) => t.name === key);
    if (tool) return { topic: key, text: toolHelp(tool) };
    const text = TOPICS[key.toLowerCase()];
    if (text) {
      const tools = key.toLowerCase() === 'overview' ? `\n\nTools:\n${ctx.tools.map((t) => `  ${t.name} — ${t.title}`).join('\n')}` : '';
      return { topic: key, text: text + tools };
    }
    return {
      topic: key,
      text: `No help topic "${key}". Topics: ${Object.keys(TOPICS).join(', ')}. Tools: ${ctx.tools.map((t) => t.name as string).join(', ')}.`,
    };
  },
});

export const identityTools = [whoami, help, getProjectStatus, trustProject];
