/**
 * Budgets (docs/usage.md, "Budgets"): whether an agent is at its cap — its own (set at run time,
 * else its switchboard.json entry) or the project's (the sum of its agents) — and the turn gate
 * every delivery Switchboard itself makes to an agent passes. At the cap a delivery is held, a
 * person is asked once, and only a person lets one through ("go on once") or raises the cap.
 */
import { DisposableStore, Emitter, serviceKey, type Disposable, type Event, type ServiceKey } from '../base';
import type { ProcessEntry, TurnGate } from '../sessions';
import type { Counted, UsageGain } from '../usage';
import { InvalidArgumentError } from '../../../shared/errors';
import type { ControlEvent } from '../../../shared/api';
import type {
  BudgetCommandResult,
  BudgetConfig,
  BudgetGoOnceArgs,
  BudgetSource,
  BudgetState,
  DeliveryHold,
  SetBudgetArgs,
} from '../../../shared/budget';
import { amountIn, BudgetLedger, capOf, describeCap, describeSpend, spendOf, unitOf, type Spend } from './budgetLedger';

/** What the service needs of the core (SwitchboardCore is one, with the usage service's gains). */
export interface BudgetHost {
  readonly onEvent: Event<ControlEvent>;
  readonly projectBudget: BudgetConfig | undefined;
  findEntry(id: string): ProcessEntry | undefined;
  entries(): ProcessEntry[];
  requestAttention(id: string, reason: string, requestedBy: string): unknown;
  writeInput(id: string, data: string): unknown;
}

/** Where the usage figures come from (the usage capability's service). */
interface BudgetUsage {
  readonly onDidGain: Event<UsageGain>;
  /** The project's spending today, kept across restarts. */
  today(): Counted;
  /** One agent's spending today, kept across restarts. */
  agentToday(entry: ProcessEntry): Counted;
}

/** The key every CLI Switchboard drives takes as "stop this turn" (Claude Code, Codex, Gemini CLI, Qwen Code, opencode, pi: Escape). */
const INTERRUPT_KEY = '\x1b';

interface Applied {
  config: BudgetConfig;
  scope: 'agent' | 'project';
  source: BudgetSource;
}

export class BudgetService implements TurnGate, Disposable {
  private readonly store = new DisposableStore();
  private readonly ledger = new BudgetLedger();
  private readonly changed = this.store.add(new Emitter<string>());
  readonly onDidChange: Event<string> = this.changed.event;
  /** Caps set at run time (UI, `serve`); null removes the agent's own cap for this app run. */
  private readonly runtime = new Map<string, BudgetConfig | null>();
  private projectRuntime: BudgetConfig | null | undefined;
  /** Agents a person was told are at their cap (told again only after they were under it). */
  private readonly reached = new Set<string>();
  /** Agents with a "go on once" not used yet. */
  private readonly passes = new Set<string>();
  private readonly held = new Map<string, number>();
  private dayTurn: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: BudgetHost,
    private readonly usage: BudgetUsage | undefined,
    private readonly now: () => number = Date.now,
  ) {
    if (usage) this.store.add(usage.onDidGain((gain) => this.gained(gain)));
    this.store.add(
      host.onEvent((event) => {
        if (event.type === 'processRemoved') this.removed(event.id);
        else if (event.type === 'configChanged') this.recheck(this.agentIds());
      }),
    );
  }

  /** The agent's budget and how much of it is spent; undefined without one (or for other kinds). */
  stateOf(id: string): BudgetState | undefined {
    const entry = this.host.findEntry(id);
    if (!entry || entry.kind !== 'agent') return undefined;
    const states = this.appliedTo(entry).map((applied) => this.evaluate(entry, applied));
    return states.find((s) => s.reached) ?? states[0];
  }

  /** The project's cap over all its agents; null without one. */
  projectState(): BudgetState | null {
    const applied = this.projectApplied();
    return applied ? this.evaluateProject(applied) : null;
  }

  admit(id: string, what: string): DeliveryHold | undefined {
    const hold = this.holdOf(id, what);
    if (!hold || !this.passes.has(id)) return hold;
    this.passes.delete(id);
    this.changed.fire(id);
    return undefined;
  }

  holdOf(id: string, what = 'the delivery'): DeliveryHold | undefined {
    const state = this.stateOf(id);
    if (!state?.reached) return undefined;
    const name = this.host.findEntry(id)?.name ?? id;
    return {
      reason: 'budget',
      message:
        `"${name}" is at its ${state.scope === 'project' ? "project's " : ''}budget (${this.spendText(state)}): ${what} was not sent. ` +
        'A person lets one delivery through ("Go on once") or raises the cap in Switchboard; until then nothing is sent to it.',
    };
  }

  waiting(id: string, delta: 1 | -1): void {
    const count = Math.max(0, (this.held.get(id) ?? 0) + delta);
    if (count) this.held.set(id, count);
    else this.held.delete(id);
    this.changed.fire(id);
  }

  /** A person lets exactly one held (or the next) delivery through. */
  goOnce(args: BudgetGoOnceArgs): BudgetCommandResult {
    const entry = this.agentEntry(args.id);
    const state = this.stateOf(entry.id);
    if (!state?.reached) throw new InvalidArgumentError(`"${entry.name}" is not at a budget; nothing is held.`);
    this.passes.add(entry.id);
    this.changed.fire(entry.id);
    return { id: entry.id, budget: this.stateOf(entry.id) ?? null, done: 'the next delivery goes through, then it holds again' };
  }

  /** Sets (or removes) the agent's cap — or the project's, when `scope` is project — for this app run. */
  setBudget(args: SetBudgetArgs): BudgetCommandResult {
    const entry = this.agentEntry(args.id);
    if (args.scope === 'project') this.projectRuntime = args.budget;
    else this.runtime.set(entry.id, args.budget);
    this.recheck(args.scope === 'project' ? this.agentIds() : [entry.id]);
    const state = this.stateOf(entry.id) ?? null;
    const done = args.budget ? `cap set to ${describeCap(args.budget)}` : 'cap removed';
    return { id: entry.id, budget: state, done };
  }

  dispose(): void {
    clearTimeout(this.dayTurn);
    this.store.dispose();
  }

  private gained(gain: UsageGain): void {
    this.ledger.add(gain.id, gain.runId, spendOf(gain));
    this.recheck(this.projectApplied() ? this.agentIds() : [gain.id]);
  }

  /** Tells a person once when an agent reaches its cap (and interrupts it if asked); a cap left behind (raised) can be told again. */
  private recheck(ids: string[]): void {
    for (const id of ids) {
      const state = this.stateOf(id);
      if (state?.reached && !this.reached.has(id)) {
        this.reached.add(id);
        this.atCap(id, state);
      } else if (!state?.reached && this.reached.delete(id)) this.passes.delete(id);
      this.changed.fire(id);
    }
    this.scheduleDayTurn();
  }

  /** A day cap starts over at local midnight: checked again then, so what it holds goes without waiting for new spending. */
  private scheduleDayTurn(): void {
    if (this.dayTurn || ![...this.reached].some((id) => this.stateOf(id)?.period === 'day')) return;
    this.dayTurn = setTimeout(() => {
      this.dayTurn = undefined;
      this.recheck(this.agentIds());
    }, msToNextLocalDay(this.now()));
    this.dayTurn.unref?.();
  }

  private atCap(id: string, state: BudgetState): void {
    const entry = this.host.findEntry(id);
    if (!entry) return;
    const whose = state.scope === 'project' ? "the project's budget" : 'its budget';
    this.host.requestAttention(
      id,
      `${entry.name}: ${whose} is reached (${this.spendText(state)}); Switchboard sends it nothing more until you go on once or raise the cap`,
      'budget',
    );
    if (this.appliedTo(entry).some((a) => a.config.interrupt) && entry.isRunning) this.host.writeInput(id, INTERRUPT_KEY);
  }

  private spendText(state: BudgetState): string {
    const config: BudgetConfig = { period: state.period, ...(state.unit === 'usd' ? { usd: state.cap } : { tokens: state.cap }) };
    return describeSpend(config, state.spent);
  }

  private appliedTo(entry: ProcessEntry): Applied[] {
    const applied: Applied[] = [];
    const own = this.runtime.has(entry.id) ? this.runtime.get(entry.id) : entry.definition.budget;
    if (own) applied.push({ config: own, scope: 'agent', source: this.runtime.has(entry.id) ? 'runtime' : 'agent' });
    const project = this.projectApplied();
    if (project) applied.push(project);
    return applied;
  }

  private projectApplied(): Applied | undefined {
    const config = this.projectRuntime === undefined ? this.host.projectBudget : this.projectRuntime;
    if (!config) return undefined;
    return { config, scope: 'project', source: this.projectRuntime === undefined ? 'project' : 'runtime' };
  }

  private evaluate(entry: ProcessEntry, applied: Applied): BudgetState {
    if (applied.scope === 'project')
      return { ...this.evaluateProject(applied), held: this.held.get(entry.id) ?? 0, goOnce: this.passes.has(entry.id) };
    const zero = { usd: 0, tokens: 0 };
    const spent =
      applied.config.period === 'run'
        ? this.ledger.spentInRun(entry.id, entry.runId)
        : this.usage
          ? spendOf(this.usage.agentToday(entry))
          : zero;
    return { ...stateFor(applied, spent), held: this.held.get(entry.id) ?? 0, goOnce: this.passes.has(entry.id) };
  }

  private evaluateProject(applied: Applied): BudgetState {
    let spent: Spend;
    if (applied.config.period === 'day') {
      spent = this.usage ? spendOf(this.usage.today()) : { usd: 0, tokens: 0 };
    } else {
      spent = { usd: 0, tokens: 0 };
      for (const e of this.host.entries()) {
        if (e.kind !== 'agent') continue;
        const s = this.ledger.spentInRun(e.id, e.runId);
        spent.usd += s.usd;
        spent.tokens += s.tokens;
      }
    }
    const held = [...this.held.values()].reduce((a, b) => a + b, 0);
    return { ...stateFor(applied, spent), held, goOnce: false };
  }

  private agentIds(): string[] {
    return this.host
      .entries()
      .filter((e) => e.kind === 'agent')
      .map((e) => e.id);
  }

  private agentEntry(id: string): ProcessEntry {
    const entry = this.host.findEntry(id);
    if (!entry) throw new InvalidArgumentError(`Unknown process id "${id}".`);
    if (entry.kind !== 'agent') throw new InvalidArgumentError(`"${entry.name}" is not an agent; budgets apply to agents.`);
    return entry;
  }

  private removed(id: string): void {
    this.ledger.forget(id);
    this.runtime.delete(id);
    this.reached.delete(id);
    this.passes.delete(id);
    this.held.delete(id);
    this.changed.fire(id);
  }
}

/** Just past the next local midnight (the Date constructor keeps a daylight-saving day's length right). */
function msToNextLocalDay(now: number): number {
  const d = new Date(now);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime() - now + 1_000;
}

function stateFor(applied: Applied, spend: Spend): Omit<BudgetState, 'held' | 'goOnce'> {
  const unit = unitOf(applied.config);
  const cap = capOf(applied.config);
  const spent = amountIn(unit, spend);
  return {
    cap,
    unit,
    period: applied.config.period,
    scope: applied.scope,
    source: applied.source,
    spent,
    remaining: Math.max(0, Math.round((cap - spent) * 1e6) / 1e6),
    reached: spent >= cap,
  };
}

export const BUDGET: ServiceKey<BudgetService> = serviceKey<BudgetService>('budget');
