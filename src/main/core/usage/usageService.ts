/** The project's usage: one agent's record (get_usage with an id) or the sums over its agents. */
import { Emitter, serviceKey, type Event, type ServiceKey } from '../base';
import type { DecorationKey, ProcessEntry } from '../sessions';
import type { ProcessInfo } from '../../../shared/model';
import { InvalidArgumentError } from '../../../shared/errors';
import { EMPTY_TOKENS, type CostSource, type ProcessUsage, type ProjectUsage } from '../../../shared/usage';
import { AGENT_USAGE, spendKeyOf, type AgentUsage } from './agentUsage';
import { addTokens } from './usageAccumulator';
import { roundUsd } from './pricing';
import { statusLineText, windowsOfStatusLine } from './claudeStatusLine';
import type { Counted, UsageHistory } from './usageHistory';

/** New spending of one agent run, as the history counted it (a file read again adds nothing). */
export interface UsageGain extends Counted {
  id: string;
  runId: number;
}

export interface UsageHost {
  listProcesses(): ProcessInfo[];
  describe(id: string): ProcessInfo;
  decorationOf(id: string, key: DecorationKey<AgentUsage>): AgentUsage | undefined;
}

export class UsageService {
  private readonly gainEmitter = new Emitter<UsageGain>();
  /** An agent spent more (what budgets count). */
  readonly onDidGain: Event<UsageGain> = this.gainEmitter.event;

  constructor(
    private readonly host: UsageHost,
    private readonly history: UsageHistory,
  ) {}

  /** One agent's usage, read fresh from its CLI's records. */
  ofProcess(id: string): ProcessUsage {
    const info = this.host.describe(id);
    const usage = this.host.decorationOf(id, AGENT_USAGE);
    if (!usage) {
      const why = info.kind === 'agent' ? 'its CLI keeps no usage records Switchboard reads' : 'it is not an agent';
      throw new InvalidArgumentError(`No usage for ${id} "${info.name}": ${why} (docs/usage.md)`);
    }
    return { process_id: id, name: info.name, preset: usage.presetId, worktree: info.worktree ?? 'main', ...usage.refresh(), budget: null };
  }

  /**
   * Claude Code's status-line input, posted by the status-line command of agent `id`: its usage
   * windows join the agent's record. Returns the line the command prints.
   */
  statusLine(id: string, input: unknown): string {
    const windows = windowsOfStatusLine(input);
    const usage = this.host.decorationOf(id, AGENT_USAGE);
    if (windows && usage) usage.reportWindows(windows);
    return statusLineText(input, usage?.record.windows ?? windows ?? []);
  }

  /** A usage record the agent's own plugin posted; ignored for an entry whose CLI's usage is not posted. */
  post(id: string, record: unknown): void {
    this.host.decorationOf(id, AGENT_USAGE)?.post(record);
  }

  /** The project's totals of today (local date), over every worktree, kept across restarts. */
  today(): Counted {
    return this.history.dayTotal();
  }

  /** What one agent spent today (local date), kept across restarts. */
  agentToday(entry: Pick<ProcessEntry, 'id' | 'definition'>): Counted {
    return this.history.agentDayTotal(spendKeyOf(entry));
  }

  gained(entry: { id: string; runId: number }, gains: Counted[]): void {
    const sum = { ...EMPTY_TOKENS, cost_usd: 0 };
    for (const g of gains) {
      addTokens(sum, g);
      sum.cost_usd = roundUsd(sum.cost_usd + g.cost_usd);
    }
    this.gainEmitter.fire({ id: entry.id, runId: entry.runId, ...sum });
  }

  dispose(): void {
    this.gainEmitter.dispose();
  }

  /** Sums over every agent with usage records. */
  ofProject(): ProjectUsage {
    const agents = this.host
      .listProcesses()
      .filter((p) => p.kind === 'agent' && this.host.decorationOf(p.id, AGENT_USAGE))
      .map((p) => this.ofProcess(p.id));
    const tokens = { ...EMPTY_TOKENS };
    for (const a of agents) addTokens(tokens, a);
    return {
      ...tokens,
      ...projectCost(agents),
      context_used: null,
      context_window: null,
      windows: agents.flatMap((a) => a.windows.map((w) => ({ ...w, name: `${a.name}: ${w.name}` }))),
      budget: null,
      agents,
      days: this.history.rows(),
    };
  }
}

function projectCost(agents: ProcessUsage[]): { cost_usd: number | null; cost_source: CostSource } {
  const priced = agents.filter((a) => a.cost_usd !== null);
  if (priced.length === 0) return { cost_usd: agents.length ? null : 0, cost_source: agents.length ? 'unpriced' : 'cli' };
  const cost_usd = roundUsd(priced.reduce((sum, a) => sum + (a.cost_usd ?? 0), 0));
  return { cost_usd, cost_source: priced.every((a) => a.cost_source === 'cli') ? 'cli' : 'estimated' };
}

export const USAGE: ServiceKey<UsageService> = serviceKey('usage');
