/**
 * Blocked agents (docs/agent-status.md, "Blocked agents"): attention once per blocked episode with
 * the CLI's reason, and the actions that fit — open its pane, retry now, continue at reset (a
 * visible timer that types the CLI's continue at the reset, then checks the agent went on and asks
 * a person again if it did not). With the agent's continue-at-reset setting on, the service arms
 * that timer itself, or a back-off probe where no reset is shown. One service for the UI, MCP and `serve`.
 */
import { DisposableStore, realClock, serviceKey, type Clock, type Disposable, type Event, type ServiceKey } from '../base';
import { InvalidArgumentError } from '../../../shared/errors';
import type { ControlEvent } from '../../../shared/api';
import type { ResolveBlockedArgs, ResolveBlockedResult, SetContinueAtResetArgs, SetContinueAtResetResult } from '../../../shared/inbox';
import type { ProcessInfo, TimerHistoryEntry, TimerSummary } from '../../../shared/model';
import { isBlockedDetail, type AgentStatusInfo, type BlockedDetail } from '../../../shared/status';
import { blockedRowOf, blockedSummary } from '../inbox';
import { APP_ACTOR, type TimerManager } from '../timers';
import { isWorking, nextEpisode, showsProgress } from './blockedEpisodes';
import { continueTurnOf } from './continueTurns';
import { isProbed, probeDelayMs, PROBE_MAX_TRIES } from './continueProbe';
import { ContinueSettings } from './continueSetting';

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
  /** The project's settings (`continueAtReset` is the default of its agents; `continueProbeFirstMs` the probe's first wait). */
  readonly settings: { readonly continueAtReset?: boolean; readonly continueProbeFirstMs?: number };
}

/** A continue this service armed: for which agent, and for a probe, which try. */
interface ArmedContinue {
  agentId: string;
  /** Armed by the setting rather than a click: turning the setting off cancels it. */
  auto: boolean;
  probe?: number;
}

export interface BlockedAgentsOptions {
  clock?: Clock;
  resetMarginMs?: number;
  continueConfirmMs?: number;
}

export class BlockedAgents implements Disposable {
  private readonly store = new DisposableStore();
  private readonly episodes = new Map<string, BlockedDetail>();
  /** Continue timers this service armed, by timer id. */
  private readonly continues = new Map<string, ArmedContinue>();
  /** Agents whose open episode the setting already armed a continue for (cancelled by hand: not again). */
  private readonly autoArmed = new Set<string>();
  /** Agents whose typed continue is being checked: only progress ends their episode meanwhile. */
  private readonly checking = new Set<string>();
  private readonly clock: Clock;
  readonly settings: ContinueSettings;

  constructor(
    private readonly host: BlockedHost,
    private readonly options: BlockedAgentsOptions = {},
  ) {
    this.clock = options.clock ?? realClock;
    this.settings = this.store.add(new ContinueSettings(() => host.settings.continueAtReset));
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
      this.cancelContinues(id, () => true);
      const text = continueTurnOf(status.preset);
      await this.host.sendUserTurn(id, text);
      return { id, action, done: `"${text}" typed into "${info.name}"` };
    }
    return this.continueAtReset(info, status);
  }

  /** The per-agent toggle (UI, MCP, `serve`): on arms the continue at once for an agent blocked now; off cancels the ones it armed. */
  setContinueAtReset(args: SetContinueAtResetArgs): SetContinueAtResetResult {
    const info = this.host.describe(args.id);
    if (info.kind !== 'agent') throw new InvalidArgumentError(`"${info.name}" is not an agent; continue at reset applies to agents.`);
    this.settings.set(args.id, args.enabled);
    const setting = this.host.describe(args.id).continueAtReset ?? { enabled: args.enabled, source: 'toggle' };
    if (!args.enabled) {
      const cancelled = this.cancelContinues(args.id, (armed) => armed.auto);
      return { id: args.id, continueAtReset: setting, done: `off${cancelled ? ` (timer ${cancelled} cancelled)` : ''}` };
    }
    const timer = this.autoContinue(this.host.describe(args.id));
    return { id: args.id, continueAtReset: setting, done: timer ? `on (timer ${timer.id})` : 'on', ...(timer && { timer }) };
  }

  dispose(): void {
    this.store.dispose();
  }

  private continueAtReset(info: ProcessInfo, status: AgentStatusInfo, auto = false): ResolveBlockedResult {
    const resetsAt = status.blocked?.resetsAt;
    if (status.detail !== 'limit' || resetsAt === undefined) {
      throw new InvalidArgumentError(`"${info.name}" shows no limit with a reset time; nothing was scheduled. Use retry_now.`);
    }
    const existing = this.continueOf(info.id);
    if (existing) throw new InvalidArgumentError(`"${info.name}" already continues at its reset (timer ${existing}).`);
    const delayMs = Math.max(0, resetsAt - this.clock.now()) + (this.options.resetMarginMs ?? RESET_MARGIN_MS);
    const timer = this.armContinue(info.id, status, delayMs, `continue at reset (${blockedSummary({ detail: 'limit', resetsAt })})`, {
      auto,
    });
    return { id: info.id, action: 'continue_at_reset', done: `continues after the reset (timer ${timer.id})`, timer };
  }

  private armContinue(
    agentId: string,
    status: AgentStatusInfo,
    delayMs: number,
    label: string,
    armed: Omit<ArmedContinue, 'agentId'>,
  ): TimerSummary {
    const { timer } = this.host.timers.setDelay(APP_ACTOR, {
      seconds: delayMs / 1000,
      body: continueTurnOf(status.preset),
      label,
      ownerId: agentId,
      whenBlocked: true,
    });
    this.continues.set(timer.id, { agentId, ...armed });
    return timer;
  }

  /** The setting at work: a blocked agent gets its continue without a click, once per episode. */
  private autoContinue(info: ProcessInfo): TimerSummary | undefined {
    const agent = info.agent;
    if (!info.continueAtReset?.enabled || !agent || agent.primary !== 'waiting' || !isBlockedDetail(agent.detail)) return undefined;
    if (this.autoArmed.has(info.id) || this.continueOf(info.id)) return undefined;
    const status = agent as AgentStatusInfo & { detail: BlockedDetail };
    if (status.detail === 'limit' && status.blocked?.resetsAt !== undefined) {
      this.autoArmed.add(info.id);
      return this.continueAtReset(info, status, true).timer;
    }
    if (!isProbed(status.detail) || status.blocked?.retriesByItself) return undefined;
    this.autoArmed.add(info.id);
    return this.armProbe(info.id, status, 1);
  }

  /**
   * Another cause within the episode (an API error read first, then the usage limit with its reset):
   * what the setting armed for the old cause is cancelled, so the new cause gets its own continue.
   */
  private forgetAutoContinue(agentId: string): void {
    this.cancelContinues(agentId, (armed) => armed.auto);
    this.autoArmed.delete(agentId);
  }

  private armProbe(agentId: string, status: AgentStatusInfo & { detail: BlockedDetail }, n: number): TimerSummary {
    const label = `continue probe ${n}/${PROBE_MAX_TRIES} (${blockedSummary(blockedRowOf(status.detail, status))})`;
    return this.armContinue(agentId, status, probeDelayMs(n, this.host.settings.continueProbeFirstMs), label, { auto: true, probe: n });
  }

  /** Cancels this agent's pending continues that `which` picks; returns the last timer id cancelled. */
  private cancelContinues(agentId: string, which: (armed: ArmedContinue) => boolean): string | undefined {
    let cancelled: string | undefined;
    for (const [timerId, armed] of [...this.continues]) {
      if (armed.agentId !== agentId || !which(armed)) continue;
      this.continues.delete(timerId);
      this.host.timers.cancel(APP_ACTOR, timerId);
      cancelled = timerId;
    }
    return cancelled;
  }

  private continueOf(agentId: string): string | undefined {
    return [...this.continues].find(([, armed]) => armed.agentId === agentId)?.[0];
  }

  private onEvent(event: ControlEvent): void {
    if (event.type === 'processRemoved') {
      this.episodes.delete(event.id);
      this.autoArmed.delete(event.id);
      this.settings.forget(event.id);
    }
    if (event.type !== 'processChanged') return;
    const { id, agent } = event.process;
    const cause = this.episodes.get(id);
    const step = nextEpisode(cause, agent);
    // A continue under check: a turn that has only begun may meet the same limit, the same episode.
    if (!step.open && this.checking.has(id) && agent && agent.primary !== 'dead' && !showsProgress(agent))
      step.open = this.episodes.get(id);
    if (step.open) this.episodes.set(id, step.open);
    else {
      this.episodes.delete(id);
      this.autoArmed.delete(id);
    }
    if (step.began && agent) this.host.requestAttention(id, attentionReason(agent), 'switchboard');
    // A continue under check arms its own next try (continueEnded).
    if (step.began && cause !== undefined && !this.checking.has(id)) this.forgetAutoContinue(id);
    if (step.open) this.autoContinue(event.process);
  }

  /**
   * A continue that was typed must show the agent going on: progress (an answer, a tool, a question),
   * or idle after a turn. Blocked again after it left the blocked state, or nothing within the window:
   * a probe with tries left arms the next one; otherwise a person hears of it again. An idle blink
   * before the turn (Codex clears its error report once typed into) is neither.
   */
  private continueEnded(ended: TimerHistoryEntry): void {
    const armed = this.continues.get(ended.id);
    if (armed === undefined) return;
    this.continues.delete(ended.id);
    if (ended.state !== 'fired') return;
    const { agentId, probe } = armed;
    let leftBlocked = false;
    let turnBegan = false;
    const checks = new DisposableStore();
    this.checking.add(agentId);
    const finish = (wentOn: boolean) => {
      checks.dispose();
      this.store.delete(checks);
      this.checking.delete(agentId);
      if (wentOn) {
        this.episodes.delete(agentId);
        this.autoArmed.delete(agentId);
        return;
      }
      const agent = this.agentOf(agentId);
      if (!agent) return;
      const stillBlocked = agent.primary === 'waiting' && isBlockedDetail(agent.detail);
      if (probe !== undefined && probe < PROBE_MAX_TRIES && stillBlocked && this.agentInfo(agentId)?.continueAtReset?.enabled) {
        this.armProbe(agentId, agent as AgentStatusInfo & { detail: BlockedDetail }, probe + 1);
        return;
      }
      const after = probe === undefined ? 'continue at reset' : `${probe} continue probe${probe === 1 ? '' : 's'}`;
      this.host.requestAttention(agentId, `${attentionReason(agent)} — still blocked after ${after}`, 'switchboard');
    };
    this.store.add(checks);
    checks.add(this.clock.setTimer(() => finish(false), this.options.continueConfirmMs ?? CONTINUE_CONFIRM_MS));
    checks.add(
      this.host.onEvent((event) => {
        if (event.type === 'processRemoved' && event.id === agentId) return finish(true);
        if (event.type !== 'processChanged' || event.process.id !== agentId || !event.process.agent) return;
        const agent = event.process.agent;
        if (showsProgress(agent) || (agent.primary === 'idle' && turnBegan)) return finish(true);
        if (isWorking(agent)) turnBegan = true;
        const blocked = agent.primary === 'waiting' && isBlockedDetail(agent.detail);
        if (!blocked) leftBlocked = true;
        else if (leftBlocked) finish(false);
      }),
    );
  }

  private agentOf(id: string): AgentStatusInfo | undefined {
    return this.agentInfo(id)?.agent;
  }

  private agentInfo(id: string): ProcessInfo | undefined {
    try {
      return this.host.describe(id);
    } catch {
      return undefined;
    }
  }
}

/** "claude: usage limit, resets 15:00" — what the CLI said is in the inbox row. */
function attentionReason(agent: AgentStatusInfo): string {
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
