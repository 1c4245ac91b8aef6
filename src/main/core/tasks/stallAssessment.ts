/**
 * Is this silence a stall? Asked when the idle or turn deadline passes, before anything is killed.
 * Headless agents go silent for minutes while a tool runs, so silence alone proves nothing:
 * a tool known to run long that is still within its allowance earns an extension; anything else
 * is a stall. Rules are tried in order; the first that extends wins. Pure: the same context always
 * gives the same verdict, and the verdict says which rule decided and why.
 */
import type { TaskPhase, TaskTrigger } from '../../../shared/task';
import type { LongRunningTool } from './taskRunner';
import { describeTool, seconds, type InFlightTool } from './taskState';

/**
 * Time past a tool's own timeout before its silence counts as a stall: the agent needs a moment to
 * kill the command and report. Agents that ignore their own timeout are caught after this.
 */
export const TOOL_TIMEOUT_MARGIN_MS = 30_000;
/** Several tools in parallel earn this many extra windows: they finish one after another. */
export const PARALLEL_TOOLS_MAX_WINDOWS = 2;
/** Fallback when a `windows` tool does not say how many it may take. */
const DEFAULT_MAX_WINDOWS = 2;

export interface SilenceContext {
  trigger: Exclude<TaskTrigger, 'wall_clock'>;
  now: number;
  /** The trigger's timeout: one window of silence. */
  windowMs: number;
  /** Since the last message (idle) or the last assistant message (turn). */
  silentForMs: number;
  phase: TaskPhase;
  /** Tools in flight, including calls inside subagents. */
  tools: readonly InFlightTool[];
  /** Extensions this silence already got, by rule id. */
  extensions: ReadonlyMap<string, number>;
  longRunningTools: readonly LongRunningTool[];
  /** What the agent was doing ("running Bash (sleep 60) for 12 s"). */
  activity: string;
  /** Kind of the last activity ("text", "requesting", …). */
  lastActivityKind?: string;
}

export type Assessment =
  { verdict: 'extend'; rule: string; until: number; reason: string } | { verdict: 'stall'; rule: string; reason: string };

export function assessSilence(ctx: SilenceContext): Assessment {
  const notes: string[] = [];
  for (const rule of RULES) {
    const outcome = rule(ctx, notes);
    if (outcome) return outcome;
  }
  return { verdict: 'stall', rule: stallRule(ctx), reason: stallReason(ctx, notes) };
}

type Rule = (ctx: SilenceContext, notes: string[]) => Assessment | undefined;

/** A tool with its own timeout (Bash) may stay silent until that timeout, plus a margin, has passed. */
const ownTimeout: Rule = (ctx, notes) => {
  let best: { until: number; tool: InFlightTool; allowanceMs: number; spec: LongRunningTool } | undefined;
  for (const tool of ctx.tools) {
    const spec = specFor(ctx, tool, 'own_timeout');
    if (!spec) continue;
    if (spec.backgroundField && tool.input[spec.backgroundField] === true) continue;
    const allowanceMs = ownTimeoutOf(spec, tool.input);
    const until = tool.startedAt + allowanceMs + TOOL_TIMEOUT_MARGIN_MS;
    if (until <= ctx.now) {
      notes.push(
        `${describeTool(tool.name, tool.summary)} has run ${seconds(ctx.now - tool.startedAt)}, past its own ${seconds(allowanceMs)} timeout`,
      );
      continue;
    }
    if (!best || until > best.until) best = { until, tool, allowanceMs, spec };
  }
  if (!best) return undefined;
  return {
    verdict: 'extend',
    rule: best.spec.id,
    until: best.until,
    reason:
      `${describeTool(best.tool.name, best.tool.summary)} has run ${seconds(ctx.now - best.tool.startedAt)} of its own ${seconds(best.allowanceMs)} timeout; ` +
      `silence is expected until then (+${seconds(TOOL_TIMEOUT_MARGIN_MS)})`,
  };
};

/** A subagent (Task) is long by nature: a few more windows. */
const longByNature: Rule = (ctx, notes) => {
  for (const tool of ctx.tools) {
    const spec = specFor(ctx, tool, 'windows');
    if (!spec) continue;
    const used = ctx.extensions.get(spec.id) ?? 0;
    const max = spec.maxWindows ?? DEFAULT_MAX_WINDOWS;
    if (used >= max) {
      notes.push(`${describeTool(tool.name, tool.summary)} already had ${used} extension${used === 1 ? '' : 's'}`);
      continue;
    }
    return {
      verdict: 'extend',
      rule: spec.id,
      until: ctx.now + ctx.windowMs,
      reason: `${describeTool(tool.name, tool.summary)} is a subagent run (${seconds(ctx.now - tool.startedAt)} so far); extension ${used + 1} of ${max}`,
    };
  }
  return undefined;
};

/** Several top-level tools at once finish one after another. */
const parallelTools: Rule = (ctx, notes) => {
  const topLevel = ctx.tools.filter((t) => !t.parentToolUseId);
  if (topLevel.length < 2) return undefined;
  const used = ctx.extensions.get('parallel-tools') ?? 0;
  if (used >= PARALLEL_TOOLS_MAX_WINDOWS) {
    notes.push(`${topLevel.length} parallel tools already had ${used} extensions`);
    return undefined;
  }
  return {
    verdict: 'extend',
    rule: 'parallel-tools',
    until: ctx.now + ctx.windowMs,
    reason: `${topLevel.length} tools run in parallel (${topLevel.map((t) => t.name).join(', ')}); extension ${used + 1} of ${PARALLEL_TOOLS_MAX_WINDOWS}`,
  };
};

const RULES: readonly Rule[] = [ownTimeout, longByNature, parallelTools];

function specFor(ctx: SilenceContext, tool: InFlightTool, kind: LongRunningTool['kind']): LongRunningTool | undefined {
  return ctx.longRunningTools.find((s) => s.kind === kind && s.names.includes(tool.name));
}

function ownTimeoutOf(spec: LongRunningTool, input: Record<string, unknown>): number {
  const asked = spec.timeoutField ? input[spec.timeoutField] : undefined;
  const fallback = spec.defaultTimeoutMs ?? 0;
  const ms = typeof asked === 'number' && Number.isFinite(asked) && asked > 0 ? asked : fallback;
  return spec.maxTimeoutMs !== undefined ? Math.min(ms, spec.maxTimeoutMs) : ms;
}

function stallRule(ctx: SilenceContext): string {
  if (ctx.tools.length > 0) return 'silent-tool';
  if (ctx.trigger === 'turn') return 'unfinished-turn';
  if (ctx.phase === 'starting') return 'silent-start';
  return 'silent-stream';
}

function stallReason(ctx: SilenceContext, notes: string[]): string {
  const silence =
    ctx.trigger === 'turn' ? `no complete assistant message for ${seconds(ctx.silentForMs)}` : `no output for ${seconds(ctx.silentForMs)}`;
  const why = (() => {
    if (notes.length > 0) return notes.join('; ');
    if (ctx.tools.length > 0)
      return `${ctx.tools.map((t) => t.name).join(', ')} ${ctx.tools.length === 1 ? 'is' : 'are'} not known to run long`;
    if (ctx.trigger === 'turn') return 'the stream kept going without finishing a message';
    if (ctx.phase === 'starting') return 'the agent never got going';
    if (ctx.lastActivityKind === 'requesting' || ctx.lastActivityKind === 'api_retry') return 'the model never answered';
    return 'the model stream went silent mid-message';
  })();
  return `${silence} while ${ctx.activity}; ${why}`;
}
