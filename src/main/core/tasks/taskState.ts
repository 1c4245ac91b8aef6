/**
 * The phase machine of one task run: folds the runner's stream events into phase, tools in
 * flight, streamed text, turns, cost and usage, and keeps the last activity so a stall can say
 * what the agent was doing when it went silent.
 *
 *   starting → generating ⇄ tool_executing → … → done | failed | stalled | cancelled
 *
 * `generating` covers "asked the model" through "streaming its answer"; `tool_executing` holds
 * while any tool call is in flight (from its content_block_start to its tool_result). Terminal
 * phases are final for the run; later events are ignored.
 */
import {
  isTerminalTaskPhase,
  type TaskActivity,
  type TaskPhase,
  type TaskResult,
  type TaskToolCall,
  type TaskUsage,
} from '../../../shared/task';
import type { TaskStreamEvent } from './taskEvents';

/** Streamed text kept for the UI and get_task: the tail a person reads, not the transcript. */
export const TEXT_TAIL_CHARS = 4_000;
/** Finished tool calls kept for inspection. */
const RECENT_TOOLS = 20;
/** Non-JSON lines kept: stderr merges into the PTY, so a crash's reason is usually here. */
const NOISE_TAIL_LINES = 10;
/** Characters of text quoted in an activity description. */
const QUOTE_CHARS = 80;

export interface InFlightTool extends TaskToolCall {
  input: Record<string, unknown>;
}

export type EndPhase = 'failed' | 'stalled' | 'cancelled';

export class TaskStateMachine {
  private currentPhase: TaskPhase = 'starting';
  private readonly inFlight = new Map<string, InFlightTool>();
  private readonly turnIds = new Set<string>();
  private textTail = '';
  private recent: TaskToolCall[] = [];
  private noise: string[] = [];

  sessionId: string | undefined;
  model: string | undefined;
  toolCallCount = 0;
  turns = 0;
  costUsd: number | undefined;
  usage: TaskUsage | undefined;
  result: TaskResult | undefined;
  error: string | undefined;
  lastActivity: TaskActivity | undefined;
  noiseLineCount = 0;
  /** When the run's last stream message arrived (any kind), and its last assistant message. */
  lastMessageAt: number;
  lastAssistantAt: number;

  constructor(
    private readonly summarizeTool: (name: string, input: Record<string, unknown>) => string,
    readonly startedAt: number,
  ) {
    this.lastMessageAt = startedAt;
    this.lastAssistantAt = startedAt;
  }

  get phase(): TaskPhase {
    return this.currentPhase;
  }

  get isTerminal(): boolean {
    return isTerminalTaskPhase(this.currentPhase);
  }

  get text(): string {
    return this.textTail;
  }

  /** Tools in flight, oldest first. */
  get currentTools(): InFlightTool[] {
    return [...this.inFlight.values()];
  }

  get recentTools(): TaskToolCall[] {
    return this.recent;
  }

  get noiseTail(): string[] {
    return this.noise;
  }

  apply(event: TaskStreamEvent, now: number): void {
    if (this.isTerminal) return;
    this.lastMessageAt = now;
    switch (event.type) {
      case 'init':
        this.sessionId = event.sessionId ?? this.sessionId;
        this.model = event.model ?? this.model;
        this.note(
          now,
          'init',
          `${event.version ? `Claude Code ${event.version}` : 'agent'} started${event.model ? ` (${event.model})` : ''}`,
        );
        return;
      case 'requesting':
        this.note(now, 'requesting', event.parentToolUseId ? 'subagent asked the model' : 'asked the model');
        return this.settlePhase();
      case 'message_start':
        if (!event.parentToolUseId && this.textTail !== '' && !this.textTail.endsWith('\n')) this.appendText('\n\n');
        this.note(now, 'message_start', 'model started answering');
        return this.settlePhase();
      case 'thinking':
        this.note(now, 'thinking', 'thinking');
        return this.settlePhase();
      case 'text':
        if (!event.parentToolUseId) this.appendText(event.text);
        this.note(now, 'text', `writing "${quoteTail(event.parentToolUseId ? event.text : this.textTail)}"`);
        return this.settlePhase();
      case 'tool_start':
        this.startTool(event.id, event.name, {}, now, event.parentToolUseId);
        this.note(now, 'tool_use', `calling ${event.name}`);
        return this.settlePhase();
      case 'assistant':
        this.lastAssistantAt = now;
        if (!event.parentToolUseId && event.messageId && !this.turnIds.has(event.messageId)) {
          this.turnIds.add(event.messageId);
          this.turns = Math.max(this.turns, this.turnIds.size);
        }
        for (const use of event.toolUses) this.startTool(use.id, use.name, use.input, now, event.parentToolUseId);
        if (event.toolUses.length > 0) {
          const calls = event.toolUses.map((u) => describeTool(u.name, this.summarizeTool(u.name, u.input))).join(', ');
          this.note(now, 'tool_use', `called ${calls}`);
        } else {
          this.note(now, 'assistant', event.text ? `said "${quoteTail(event.text)}"` : 'assistant message');
        }
        return this.settlePhase();
      case 'message_end':
        // Alive, but "finished its message" says less than the text or tool call just before it.
        return this.settlePhase();
      case 'tool_result': {
        const tool = this.inFlight.get(event.toolUseId);
        this.inFlight.delete(event.toolUseId);
        const name = tool?.name ?? 'tool';
        if (tool) this.remember({ ...withoutInput(tool), endedAt: now, isError: event.isError });
        this.note(
          now,
          'tool_result',
          `${name} ${event.isError ? 'failed' : 'finished'}${event.preview ? `: ${quoteHead(event.preview)}` : ''}`,
        );
        return this.settlePhase();
      }
      case 'retry':
        this.note(
          now,
          'api_retry',
          `model request failed${event.errorStatus ? ` (${event.errorStatus}${event.error ? ` ${event.error}` : ''})` : ''}; retry ${event.attempt ?? '?'}/${event.maxRetries ?? '?'}`,
        );
        return this.settlePhase();
      case 'activity':
        this.note(now, event.kind, event.description);
        return;
      case 'heartbeat':
        return; // alive (lastMessageAt above); the last meaningful activity stays what it was
      case 'result':
        return this.finish(event, now);
    }
  }

  /** A line of output that was not a message (stderr, a wrapper's chatter). Not activity. */
  noteNoise(line: string): void {
    this.noiseLineCount += 1;
    this.noise = [...this.noise.slice(-(NOISE_TAIL_LINES - 1)), line];
  }

  /** Ends the run from outside the stream (stall, timeout, cancel, crash). False if it had already ended. */
  end(phase: EndPhase, error: string, now: number): boolean {
    if (this.isTerminal) return false;
    this.currentPhase = phase;
    this.error = error;
    for (const tool of this.inFlight.values()) this.remember({ ...withoutInput(tool), endedAt: now, isError: true });
    this.inFlight.clear();
    return true;
  }

  /** What the agent was doing, for stall reports: "running Bash (sleep 60) for 12 s". */
  describeActivity(now: number): string {
    const tools = this.currentTools;
    if (tools.length > 0) {
      return tools.map((t) => `running ${describeTool(t.name, t.summary)} for ${seconds(now - t.startedAt)}`).join(', ');
    }
    const last = this.lastActivity;
    if (!last) return `starting up (no message from the agent in ${seconds(now - this.startedAt)})`;
    return `${this.currentPhase === 'starting' ? 'starting up' : 'generating'}; last activity ${seconds(now - last.at)} ago: ${last.description}`;
  }

  /** One sentence for the current phase. */
  describePhase(): string {
    switch (this.currentPhase) {
      case 'starting':
        return 'Starting';
      case 'generating':
        return this.lastActivity?.kind === 'api_retry' ? `Retrying: ${this.lastActivity.description}` : 'Generating';
      case 'tool_executing': {
        const tools = this.currentTools;
        const first = tools[0];
        return `Running ${describeTool(first.name, first.summary)}${tools.length > 1 ? ` and ${tools.length - 1} more` : ''}`;
      }
      case 'done':
        return `Finished in ${this.turns} turn${this.turns === 1 ? '' : 's'}${this.costUsd !== undefined ? `, $${this.costUsd.toFixed(4)}` : ''}`;
      case 'failed':
        return `Failed: ${this.error ?? 'unknown error'}`;
      case 'stalled':
        return `Stalled: ${this.error ?? 'no progress'}`;
      case 'cancelled':
        return `Cancelled: ${this.error ?? 'by request'}`;
    }
  }

  private finish(event: Extract<TaskStreamEvent, { type: 'result' }>, now: number): void {
    const { result } = event;
    this.result = result;
    this.sessionId = event.sessionId ?? this.sessionId;
    this.costUsd = result.costUsd ?? this.costUsd;
    this.usage = event.usage ?? this.usage;
    if (result.numTurns !== undefined) this.turns = result.numTurns;
    for (const tool of this.inFlight.values()) this.remember({ ...withoutInput(tool), endedAt: now });
    this.inFlight.clear();
    if (result.isError) {
      this.currentPhase = 'failed';
      this.error = resultError(result);
      this.note(now, 'result', `agent reported ${result.subtype}`);
    } else {
      this.currentPhase = 'done';
      this.note(now, 'result', 'agent reported success');
    }
  }

  private startTool(id: string, name: string, input: Record<string, unknown>, now: number, parentToolUseId: string | undefined): void {
    const existing = this.inFlight.get(id);
    if (existing) {
      // The complete input arrives with the assistant message after the block started streaming.
      if (Object.keys(input).length > 0) {
        existing.input = input;
        existing.summary = this.summarizeTool(name, input);
      }
      return;
    }
    if (this.recent.some((t) => t.id === id)) return; // already finished (a late repeat)
    this.toolCallCount += 1;
    this.inFlight.set(id, {
      id,
      name,
      input,
      summary: this.summarizeTool(name, input),
      startedAt: now,
      ...(parentToolUseId ? { parentToolUseId } : {}),
    });
  }

  private settlePhase(): void {
    this.currentPhase = this.inFlight.size > 0 ? 'tool_executing' : 'generating';
  }

  private appendText(text: string): void {
    const next = this.textTail + text;
    this.textTail = next.length > TEXT_TAIL_CHARS ? next.slice(next.length - TEXT_TAIL_CHARS) : next;
  }

  private note(at: number, kind: string, description: string): void {
    this.lastActivity = { at, kind, description };
  }

  private remember(call: TaskToolCall): void {
    this.recent = [...this.recent.filter((t) => t.id !== call.id).slice(-(RECENT_TOOLS - 1)), call];
  }
}

/** "error_max_turns: Reached maximum number of turns (1)"; an API failure reported as a success-typed error keeps its text. */
function resultError(result: TaskResult): string {
  const detail = result.errors?.join('; ') ?? result.text;
  return detail ? `${result.subtype}: ${detail}` : result.subtype;
}

export function describeTool(name: string, summary: string): string {
  return summary ? `${name} (${summary})` : name;
}

function withoutInput(tool: InFlightTool): TaskToolCall {
  const { input: _input, ...call } = tool;
  return call;
}

function quoteTail(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > QUOTE_CHARS ? `…${flat.slice(flat.length - QUOTE_CHARS + 1)}` : flat;
}

function quoteHead(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS - 1)}…` : flat;
}

export function seconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}
