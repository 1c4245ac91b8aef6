/**
 * Blocked agents (docs/agent-status.md, "Blocked agents"): attention once per blocked episode with
 * the CLI's reason, and the actions that fit — open its pane, retry now, continue at reset (a
 * visible timer that types the CLI's continue at the reset, then checks the agent went on and asks
 * a person again if it did not). One service for the UI, MCP and `serve`.
 */
import { DisposableStore, realClock, serviceKey, type Clock, type Disposable, type Event, type ServiceKey } from '../base';
import { InvalidArgumentError } from '../../../shared/errors';
import type { ControlEvent } from '../../../shared/api';
import type { ResolveBlockedArgs, ResolveBlockedResult } from '../../../shared/inbox';
import type { ProcessInfo, TimerHistoryEntry } from '../../../shared/model';
import { isBlockedDetail, type AgentStatusInfo, type BlockedDetail } from '../../../shared/status';
import { blockedRowOf, blockedSummary } from '../inbox';
import { APP_ACTOR, type TimerManager } from '../timers';
import { isWorking, nextEpisode } from './blockedEpisodes';
import { continueTurnOf } from './continueTurns';

export const BLOCKED: ServiceKey<BlockedAgents> = serviceKey<BlockedAgents>('blocked agents');

/** The reset is the service's own instant; a little later keeps a fast local clock from being early. */
export const RESET_MARGIN_MS = 5_000;
/** How long a continue has to show the agent working again before a person is asked. */
export const CONTINUE_CONFIRM_MS = 60_000;

/** What the service needs of the core (SwitchboardCore is one). */
export interface BlockedHost {
  readonly onEvent: Event<ControlEvent>;
  describe(id: string): ProcessInfo;
  selectProcess(id: string): unknown;
  sendUserTurn(id: string, text: string): Promise<void>;
  requestAttention(id: string, reason: string, requestedBy: string): unknown;
  readonly timers: TimerManager;
}

export interface BlockedAgentsOptions {
  clock?: Clock;
  resetMarginMs?: number;
  continueConfirmMs?: number;
}

export class BlockedAgents implements Disposable {
  private readonly store = new DisposableStore();
  private readonly episodes = new Map<string, BlockedDetail>();
  /** Continue-at-reset timers this service armed, by timer id → agent id. */
  private readonly continues = new Map<string, string>();
  private readonly clock: Clock;

  constructor(
    private readonly host: BlockedHost,
    private readonly options: BlockedAgentsOptions = {},
  ) {
    this.clock = options.clock ?? realClock;
    this.store.add(host.onEvent((event) => this.onEvent(event)));
  }

  /** Subscribe to the timers once they exist (the timer capability attaches after this one may). */
  followTimers(timers: TimerManager): void {
    this.store.add(timers.onDidEndTimer((ended) => this.continueEnded(ended)));
  }

  /** The inbox's action on a blocked agent; refused with a clear error when it does not fit. */
  async resolve(args: ResolveBlockedArgs): Promise<ResolveBlockedResult> {
    const { id, action } = args;
    const info = this.host.describe(id);
    if (action === 'open_pane') {
      this.host.selectProcess(id);
      return { id, action, done: `"${info.name}" selected` };
    }
    const status = blockedStatusOf(info);
    if (action === 'retry_now') {
      const text = continueTurnOf(status.preset);
      await this.host.sendUserTurn(id, text);
      return { id, action, done: `"${text}" typed into "${info.name}"` };
    }
    return this.continueAtReset(info, status);
  }

  dispose(): void {
    this.store.dispose();
  }

  private continueAtReset(info: ProcessInfo, status: AgentStatusInfo): ResolveBlockedResult {
    const resetsAt = status.blocked?.resetsAt;
    if (status.detail !== 'limit' || resetsAt === undefined) {
      throw new InvalidArgumentError(`"${info.name}" shows no limit with a reset time; nothing was scheduled. Use retry_now.`);
    }
    const existing = [...this.continues].find(([, agentId]) => agentId === info.id);
    if (existing) throw new InvalidArgumentError(`"${info.name}" already continues at its reset (timer ${existing[0]}).`);
    const delayMs = Math.max(0, resetsAt - this.clock.now()) + (this.options.resetMarginMs ?? RESET_MARGIN_MS);
    const { timer } = this.host.timers.setDelay(APP_ACTOR, {
      seconds: delayMs / 1000,
      body: continueTurnOf(status.preset),
      label: `continue at reset (${blockedSummary({ detail: 'limit', resetsAt })})`,
      ownerId: info.id,
      whenBlocked: true,
    });
    this.continues.set(timer.id, info.id);
    return { id: info.id, action: 'continue_at_reset', done: `continues after the reset (timer ${timer.id})`, timer };
  }

  private onEvent(event: ControlEvent): void {
    if (event.type === 'processRemoved') this.episodes.delete(event.id);
    if (event.type !== 'processChanged') return;
    const { id, agent } = event.process;
    const step = nextEpisode(this.episodes.get(id), agent);
    if (step.open) this.episodes.set(id, step.open);
    else this.episodes.delete(id);
    if (step.began && agent) this.host.requestAttention(id, attentionReason(agent), 'switchboard');
  }

  /** A continue that was typed must show the agent working; otherwise a person hears of it again. */
  private continueEnded(ended: TimerHistoryEntry): void {
    const agentId = this.continues.get(ended.id);
    if (agentId === undefined) return;
    this.continues.delete(ended.id);
    if (ended.state !== 'fired') return;
    let leftBlocked = false;
    const checks = new DisposableStore();
    const finish = (wentOn: boolean) => {
      checks.dispose();
      this.store.delete(checks);
      if (wentOn) return;
      const agent = this.agentOf(agentId);
      if (agent) this.host.requestAttention(agentId, `${attentionReason(agent)} — still blocked after continue at reset`, 'switchboard');
    };
    this.store.add(checks);
    checks.add(this.clock.setTimer(() => finish(false), this.options.continueConfirmMs ?? CONTINUE_CONFIRM_MS));
    checks.add(
      this.host.onEvent((event) => {
        if (event.type === 'processRemoved' && event.id === agentId) return finish(true);
        if (event.type !== 'processChanged' || event.process.id !== agentId || !event.process.agent) return;
        const agent = event.process.agent;
        if (isWorking(agent) || agent.primary === 'idle') return finish(true);
        const blocked = agent.primary === 'waiting' && isBlockedDetail(agent.detail);
        if (!blocked) leftBlocked = true;
        else if (leftBlocked) finish(false);
      }),
    );
  }

  private agentOf(id: string): AgentStatusInfo | undefined {
    try {
      return this.host.describe(id).agent;
    } catch {
      return undefined;
    }
  }
}

/** "claude: usage limit, resets 15:00" — what the CLI said is in the inbox row. */
export function attentionReason(agent: AgentStatusInfo): string {
  if (!isBlockedDetail(agent.detail)) return agent.reason;
  return `${agent.preset}: ${blockedSummary(blockedRowOf(agent.detail, agent))}`;
}

function blockedStatusOf(info: ProcessInfo): AgentStatusInfo & { detail: BlockedDetail } {
  const agent = info.agent;
  if (!agent || agent.primary !== 'waiting' || !isBlockedDetail(agent.detail)) {
    const now = agent ? `${agent.primary}${agent.detail ? ` · ${agent.detail}` : ''}` : 'not an agent';
    throw new InvalidArgumentError(`"${info.name}" is not blocked (${now}); nothing was sent.`);
  }
  return agent as AgentStatusInfo & { detail: BlockedDetail };
}
