/**
 * The MCP capability as the rest of the app sees it: the loopback endpoint, the identities, the
 * environment each spawned process gets, the tool list, and the hook receiver. createCore starts
 * one; the Electron shell and `serve` publish its url and token.
 */
import { Emitter, type Event } from '../base';
import type { ProcessEntry } from '../sessions';
import { ScratchpadStore } from '../scratchpads';
import { postUsageRecord, usageOf } from '../usage';
import { AGENT_HOOK_EVENTS, AGENT_HOOK_EVENT_ALIASES, AgentHookEventSchema, type AgentHookEvent } from '../../../shared/status';
import { MCP_STATUS_LINE_PATH, MCP_TOKEN_ENV, MCP_URL_ENV, McpToolInput } from '../../../shared/mcp';
import { USAGE_STEP_HOOK } from '../../../shared/usage';
import { HOOKS_PATH, McpHttpEndpoint } from './httpEndpoint';
import { IdentityRegistry, type Caller } from './identity';
import { createSessionServer, type ToolCallRecord } from './sessionServer';
import type { AnyToolDefinition, ToolContext, ToolCore } from './toolContext';
import { WaitLimiter } from './waitLimit';
import { identityTools } from './tools/identity';
import { processTools } from './tools/processes';
import { outputTools } from './tools/output';
import { inputTools } from './tools/input';
import { scratchpadTools } from './tools/scratchpads';
import { timerTools } from './tools/timers';
import { taskTools } from './tools/tasks';
import { worktreeTools } from './tools/worktrees';
import { usageTools } from './tools/usage';

/** Where Claude Code HTTP hooks post (agent presets put it into the agent's settings). */
const HOOKS_URL_ENV = 'SWITCHBOARD_HOOKS_URL';

export const CORE_TOOLS: readonly AnyToolDefinition[] = [
  ...identityTools,
  ...processTools,
  ...outputTools,
  ...inputTools,
  ...scratchpadTools,
  ...timerTools,
  ...taskTools,
  ...worktreeTools,
  ...usageTools,
];

interface McpServiceOptions {
  core: ToolCore;
  /** The app's data directory (scratchpads live under it). */
  dataDir: string;
  /** Loopback port; 0 (default) picks a free one. */
  port?: number;
  identity?: IdentityRegistry;
  /** Extra tools outside docs/mcp.md (benchmarks), each with its own inputShape. */
  extraTools?: readonly AnyToolDefinition[];
  maxBodyBytes?: number;
}

export class McpService {
  private readonly calledEmitter = new Emitter<ToolCallRecord>();
  /** Every finished tools/call, with who called it (tests, activity views). */
  readonly onDidCallTool: Event<ToolCallRecord> = this.calledEmitter.event;
  private readonly removal: { dispose(): void };
  private disposed = false;

  private constructor(
    readonly identity: IdentityRegistry,
    readonly endpoint: McpHttpEndpoint,
    readonly context: ToolContext,
  ) {
    // A closed entry's token dies with it: leftover children cannot act in its name.
    this.removal = context.core.onEvent((event) => {
      if (event.type !== 'processRemoved') return;
      identity.revoke(event.id);
      void endpoint.closeSessionsOf({ kind: 'process', processId: event.id });
    });
  }

  static async start(options: McpServiceOptions): Promise<McpService> {
    const identity = options.identity ?? new IdentityRegistry();
    const tools = [...CORE_TOOLS, ...(options.extraTools ?? [])];
    const names = new Set(tools.map((t) => t.name as string));
    if (names.size !== tools.length) throw new Error('Two tools share a name');
    for (const tool of tools) {
      if (!tool.inputShape && !(tool.name in McpToolInput)) throw new Error(`Tool ${tool.name} has no input schema in src/shared/mcp.ts`);
      // The type requires it; a tool built around the type (a cast, plain JS) is refused here.
      if (typeof tool.requires !== 'object' || tool.requires === null) throw new Error(`Tool ${tool.name} declares no right (requires)`);
    }
    const context: ToolContext = {
      core: options.core,
      identity,
      scratchpads: ScratchpadStore.forProject(options.dataDir, options.core.projectDir),
      patternWaits: new WaitLimiter(),
      tools,
    };
    // eslint-disable-next-line prefer-const -- the endpoint's callbacks close over the service built after it
    let service: McpService | undefined;
    const endpoint = await McpHttpEndpoint.start({
      identity,
      port: options.port,
      maxBodyBytes: options.maxBodyBytes,
      isKnownTool: (name) => names.has(name),
      createSessionServer: (session) => createSessionServer(context, session, (record) => service?.calledEmitter.fire(record)),
      routes: {
        [HOOKS_PATH]: (body, caller) => receiveHook(context, body, caller),
        [MCP_STATUS_LINE_PATH]: (body, caller) => receiveStatusLine(context, body, caller),
      },
    });
    service = new McpService(identity, endpoint, context);
    return service;
  }

  get url(): string {
    return this.endpoint.url;
  }

  /** The app token (UI, discovery file, clients started elsewhere). */
  get token(): string {
    return this.identity.appToken;
  }

  get hooksUrl(): string {
    return `${this.endpoint.origin}${HOOKS_PATH}`;
  }

  /** Where an entry reaches the endpoint, with its own token (agent presets wire it into their CLI). */
  endpointFor(processId: string): { url: string; token: string } | undefined {
    if (this.disposed) return undefined;
    return { url: this.url, token: this.identity.tokenFor(processId) };
  }

  /**
   * Environment for each run of an entry: where to call, and a token issued for this run (the
   * previous run's token dies). Commands and terminals get nothing unless their config asks for
   * a token ("mcp": {"scopes": [...]}): a dev server runs third-party code.
   */
  envForRun(entry: Pick<ProcessEntry, 'id' | 'kind' | 'definition'>): Record<string, string> {
    if (this.disposed) return {};
    if (!getsToken(entry)) {
      this.identity.revoke(entry.id);
      return {};
    }
    return { [MCP_URL_ENV]: this.url, [MCP_TOKEN_ENV]: this.identity.issue(entry.id), [HOOKS_URL_ENV]: this.hooksUrl };
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.removal.dispose();
    await this.endpoint.close();
    this.calledEmitter.dispose();
  }
}

/** Agents and tasks always get a token; commands and terminals only when their config asks for one. */
function getsToken(entry: Pick<ProcessEntry, 'kind' | 'definition'>): boolean {
  return entry.kind === 'agent' || entry.kind === 'task' || entry.definition.mcp !== undefined;
}

/**
 * A Claude Code HTTP hook (its hook input JSON: hook_event_name, tool_name, notification_type,
 * message, reason, transcript_path) or an AgentHookEvent, from a process Switchboard started; or
 * a usage step its plugin posts (docs/usage.md), handed to the usage reader. Events we do not
 * track are accepted and ignored, so the agent never reports a failing hook.
 */
function receiveHook(ctx: ToolContext, body: unknown, caller: Caller): Record<string, never> {
  if (caller.kind !== 'process') throw new Error('Hooks are accepted only with a process token (SWITCHBOARD_MCP_TOKEN)');
  if (isUsageStep(body)) {
    postUsageRecord(ctx.core, caller.processId, body.step);
    return {};
  }
  const event = hookEventOf(body);
  if (!event) return {};
  const entry = ctx.core.findEntry(caller.processId);
  // Hooks from a non-agent entry (a user ran claude in a terminal pane) have no tracker: ignored.
  if (entry?.kind === 'agent') ctx.core.statusTrackerOf(caller.processId).applyHookEvent(event);
  return {};
}

/** Claude Code's status-line input from an agent's status-line command: its usage windows; answers the line to print. */
function receiveStatusLine(ctx: ToolContext, body: unknown, caller: Caller): string {
  if (caller.kind !== 'process') throw new Error('The status line is accepted only with a process token (SWITCHBOARD_MCP_TOKEN)');
  return usageOf(ctx.core).statusLine(caller.processId, body);
}

function isUsageStep(body: unknown): body is { step: unknown } {
  return typeof body === 'object' && body !== null && (body as Record<string, unknown>).hook_event_name === USAGE_STEP_HOOK;
}

function hookEventOf(body: unknown): AgentHookEvent | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const given = typeof b.hook_event_name === 'string' ? b.hook_event_name : b.event;
  const name = typeof given === 'string' ? (AGENT_HOOK_EVENT_ALIASES[given] ?? given) : undefined;
  if (name === undefined || !(AGENT_HOOK_EVENTS as readonly string[]).includes(name)) return undefined;
  const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : undefined);
  return AgentHookEventSchema.parse({
    event: name,
    at: typeof b.at === 'number' && Number.isFinite(b.at) && b.at >= 0 ? b.at : Date.now(),
    toolName: text(b.tool_name ?? b.toolName, 200),
    notificationType: text(b.notification_type ?? b.notificationType, 100),
    message: text(b.message ?? errorMessageOf(b.error), 2_000),
    reason: text(b.reason, 100),
    attempt: count(b.attempt),
    maxAttempts: count(b.max_attempts ?? b.maxAttempts),
    retryAt: typeof b.retry_at === 'number' && Number.isFinite(b.retry_at) && b.retry_at >= 0 ? b.retry_at : undefined,
    statusCode: httpStatus(b.status_code),
    errorName: text(b.error_name, 100),
    transcriptPath: typeof b.transcript_path === 'string' && b.transcript_path.length <= 4_096 ? b.transcript_path || undefined : undefined,
  });
}

/**
 * The message of an `error` object a CLI's hook input carries (Copilot CLI's errorOccurred:
 * `{message}`, whose message is the provider's JSON error body when the API answered), or undefined.
 */
function errorMessageOf(error: unknown): string | undefined {
  const message = (error as { message?: unknown } | null | undefined)?.message;
  if (typeof message !== 'string') return undefined;
  try {
    const body = JSON.parse(message) as { message?: unknown } | null;
    return typeof body?.message === 'string' ? body.message : message;
  } catch {
    // Not a provider's JSON body: Copilot's own words.
    return message;
  }
}

/** An HTTP status as the agent sent it, or undefined (a bad value is a lost detail, not an error). */
function httpStatus(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599 ? value : undefined;
}

/** A positive whole count as the agent sent it, or undefined (a bad value is a lost detail, not an error). */
function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 10_000 ? value : undefined;
}
