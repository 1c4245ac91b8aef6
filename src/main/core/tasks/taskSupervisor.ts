/**
 * Watches one task entry run by run: its output through the NDJSON reader and the runner's decoder
 * into the phase machine, the watchdog's deadlines into stall assessments, and every way a run can
 * end into exactly one terminal phase. Whatever ends the run — stall, wall clock, cancel, a result
 * without an exit — ends the whole process tree through the session layer (SIGTERM, then SIGKILL).
 */
import { DisposableBase, DisposableStore, Emitter, type Event } from '../base';
import { realClock, type Clock } from '../base';
import type { ObservedSession } from '../sessions';
import { DEFAULT_TASK_TIMEOUTS, type TaskDecision, type TaskInfo, type TaskTimeouts, type TaskTrigger } from '../../../shared/task';
import { NdjsonReader, type NdjsonItem } from './ndjsonReader';
import { TaskStateMachine, seconds, type EndPhase } from './taskState';
import { TaskWatchdog, type WatchdogExpiry } from './taskWatchdog';
import { assessSilence, type Assessment } from './stallAssessment';
import type { ResolvedTask, TaskRunner } from './taskRunner';
import { runnerFor } from './runners';
import {
  DEFAULT_SECOND_OPINION_MODEL,
  SECOND_OPINION_MAX_EXTENSIONS,
  SECOND_OPINION_TIMEOUT_MS,
  anthropicSecondOpinion,
  opinionCredentials,
  type SecondOpinionProvider,
} from './secondOpinion';

/**
 * After its result the agent should exit at once; Claude Code can hang on MCP server shutdown
 * (and a wrapper may linger). Past this the tree is ended so nothing outlives the task.
 */
export const RESULT_EXIT_GRACE_MS = 10_000;
/** Decisions kept per run (a long run with many extensions must not grow without bound). */
const MAX_DECISIONS = 100;

/** What the supervisor needs of a session: observe it, and end its tree. ProcessEntry is one. */
export interface TaskSession extends ObservedSession {
  readonly name: string;
  /** The current run was asked to stop (by anyone: us, Stop, Restart, Close). */
  readonly wasStopRequested: boolean;
  /** Ends the run's whole tree: SIGTERM, SIGKILL after the grace period; resolves once it exited. */
  stop(): Promise<void>;
}

/** Everything a task run needs, resolved. */
export interface TaskConfig extends ResolvedTask {
  timeouts: TaskTimeouts;
  secondOpinion?: { enabled: boolean; model?: string };
  /** The task's own environment (the second opinion reads its API settings from here). */
  env: Record<string, string>;
}

export interface TaskSupervisorOptions {
  clock?: Clock;
  /** Builds the second-opinion provider for a task that opted in. Default: Anthropic Messages API with the task's env. */
  secondOpinionFor?: (config: TaskConfig) => SecondOpinionProvider | undefined;
  resultExitGraceMs?: number;
  /** Floor of the first idle and turn deadlines (see FIRST_MESSAGE_DEADLINE_FLOOR_MS). */
  firstMessageDeadlineFloorMs?: number;
}

/** Per-run state; replaced when the entry starts again. */
interface Run {
  id: number;
  machine: TaskStateMachine;
  reader: NdjsonReader;
  watchdog: TaskWatchdog;
  store: DisposableStore;
  decisions: TaskDecision[];
  /** Extensions granted since the last message, by rule id. */
  extensions: Map<string, number>;
  secondOpinionExtensions: number;
  stallWarning?: string;
  /** Bumped by every message: an assessment that awaited a second opinion is stale if it changed. */
  epoch: number;
  isKilling: boolean;
  /** Settles once the tree this run is ending is gone (a killed run ends only then). */
  treeGone?: Promise<void>;
  endedAt?: number;
}

export class TaskSupervisor extends DisposableBase {
  private config: TaskConfig;
  private runner: TaskRunner;
  private run: Run | undefined;
  /** A spawn failure: there is no run to report on, only the reason. */
  private startError: string | undefined;
  private readonly clock: Clock;

  private readonly changedEmitter = this.register(new Emitter<void>());
  readonly onDidChange: Event<void> = this.changedEmitter.event;
  private readonly endedEmitter = this.register(new Emitter<TaskInfo>());
  /** The run reached a terminal phase and its process tree is gone. */
  readonly onDidEnd: Event<TaskInfo> = this.endedEmitter.event;
  private readonly decidedEmitter = this.register(new Emitter<TaskDecision>());
  /** Every decision, as it is taken (for logs). */
  readonly onDidDecide: Event<TaskDecision> = this.decidedEmitter.event;

  constructor(
    private readonly session: TaskSession,
    config: TaskConfig | undefined,
    private readonly options: TaskSupervisorOptions = {},
  ) {
    super();
    this.clock = options.clock ?? realClock;
    this.config = config ?? unconfigured(session);
    this.runner = runnerFor(this.config.agent);
    this.register(session.onDidStartRun((run) => this.beginRun(run.runId)));
    this.register(session.onDidWriteOutput((chunk) => this.accept(chunk.runId, chunk.text)));
    this.register(session.onDidExitRun((exit) => this.handleExit(exit.runId, exit.exitCode, exit.signal)));
    this.register({ dispose: () => this.run?.store.dispose() });
  }

  /** Sets what the next run does (before it starts). */
  configure(config: TaskConfig): void {
    this.config = config;
    this.runner = runnerFor(config.agent);
    this.startError = undefined;
    this.changedEmitter.fire();
  }

  get taskConfig(): Readonly<TaskConfig> {
    return this.config;
  }

  /** The entry could not be spawned (command not found, bad cwd): the task failed before it ran. */
  failToStart(message: string): void {
    this.startError = message;
    this.changedEmitter.fire();
    this.endedEmitter.fire(this.info);
  }

  get isEnded(): boolean {
    if (this.startError !== undefined) return true;
    return this.run?.endedAt !== undefined;
  }

  /**
   * Cancels the run: the phase becomes `cancelled` and the whole tree is ended; resolves once it is
   * gone. A run that already ended is left as it was; one that reported a result but lingers is
   * ended without changing its outcome.
   */
  async cancel(reason = 'cancelled by request'): Promise<void> {
    const run = this.run;
    if (!run || run.endedAt !== undefined) return;
    if (run.machine.end('cancelled', reason, this.clock.now())) {
      this.decide(run, { kind: 'cancelled', reason });
      run.watchdog.stop();
    }
    await this.killTree(run, reason);
  }

  get info(): TaskInfo {
    const c = this.config;
    const base = {
      agent: c.agent,
      prompt: c.prompt,
      cwd: c.cwd,
      ...(c.maxTurns !== undefined ? { maxTurns: c.maxTurns } : {}),
      ...(c.maxBudgetUsd !== undefined ? { maxBudgetUsd: c.maxBudgetUsd } : {}),
      ...(c.allowedTools ? { allowedTools: c.allowedTools } : {}),
      ...(c.permissionMode ? { permissionMode: c.permissionMode } : {}),
      ...(c.resumeSessionId ? { resumeSessionId: c.resumeSessionId } : {}),
      timeouts: c.timeouts,
      isSecondOpinionEnabled: c.secondOpinion?.enabled === true,
    };
    const run = this.run;
    if (this.startError !== undefined) {
      return { ...base, ...emptyRun(), phase: 'failed', message: `Failed: ${this.startError}`, error: this.startError, isEnded: true };
    }
    if (!run) return { ...base, ...emptyRun(), phase: 'starting', message: 'Not started', isEnded: false };
    const m = run.machine;
    const isLive = run.endedAt === undefined && !m.isTerminal;
    return {
      ...base,
      phase: m.phase,
      message: m.describePhase(),
      startedAt: m.startedAt,
      ...(run.endedAt !== undefined ? { endedAt: run.endedAt } : {}),
      isEnded: run.endedAt !== undefined,
      ...(m.sessionId ? { sessionId: m.sessionId } : {}),
      ...(m.model ? { model: m.model } : {}),
      turns: m.turns,
      ...(m.costUsd !== undefined ? { costUsd: m.costUsd } : {}),
      ...(m.usage ? { usage: m.usage } : {}),
      currentTools: m.currentTools.map(({ input: _input, ...call }) => call),
      recentTools: m.recentTools,
      toolCallCount: m.toolCallCount,
      text: m.text,
      ...(m.lastActivity ? { lastActivity: m.lastActivity } : {}),
      ...(run.stallWarning && isLive ? { stallWarning: run.stallWarning } : {}),
      decisions: run.decisions,
      ...(m.result ? { result: m.result } : {}),
      ...(m.error ? { error: m.error } : {}),
      noiseLineCount: m.noiseLineCount,
      noiseTail: m.noiseTail,
      ...(isLive
        ? {
            deadlines: {
              idleAt: run.watchdog.deadlineOf('idle'),
              turnAt: run.watchdog.deadlineOf('turn'),
              wallClockAt: run.watchdog.deadlineOf('wall_clock'),
            },
          }
        : {}),
    };
  }

  private beginRun(runId: number): void {
    this.run?.store.dispose();
    this.startError = undefined;
    const store = new DisposableStore();
    const watchdog = store.add(new TaskWatchdog(this.clock, this.config.timeouts, this.options.firstMessageDeadlineFloorMs));
    const run: Run = {
      id: runId,
      machine: new TaskStateMachine((name, input) => this.runner.summarizeTool(name, input), this.clock.now()),
      reader: new NdjsonReader(),
      watchdog,
      store,
      decisions: [],
      extensions: new Map(),
      secondOpinionExtensions: 0,
      epoch: 0,
      isKilling: false,
    };
    this.run = run;
    store.add(watchdog.onDidExpire((expiry) => this.handleExpiry(run, expiry)));
    watchdog.start();
    this.changedEmitter.fire();
  }

  private accept(runId: number, text: string): void {
    const run = this.run;
    if (!run || run.id !== runId || run.endedAt !== undefined) return;
    const items = run.reader.push(text);
    if (items.length === 0) return;
    this.handleItems(run, items);
  }

  private handleItems(run: Run, items: NdjsonItem[]): void {
    for (const item of items) {
      if (item.kind === 'noise') {
        run.machine.noteNoise(item.line);
        continue;
      }
      const wasTerminal = run.machine.isTerminal;
      if (wasTerminal) continue; // the run's outcome is decided; the rest is the tree going down
      const now = this.clock.now();
      for (const event of this.runner.decode(item.value)) {
        run.machine.apply(event, now);
        if (event.type === 'assistant') run.watchdog.noteAssistantMessage();
      }
      run.watchdog.noteMessage();
      run.extensions.clear();
      run.stallWarning = undefined;
      run.epoch += 1;
      if (run.machine.isTerminal) this.handleResult(run);
    }
    this.changedEmitter.fire();
  }

  /** The agent reported its result: the outcome is known; the process should now exit by itself. */
  private handleResult(run: Run): void {
    run.watchdog.stop();
    const m = run.machine;
    if (m.phase === 'done') this.decide(run, { kind: 'finished', reason: m.describePhase() });
    else this.decide(run, { kind: 'failed', reason: `the agent reported ${m.error ?? 'an error'}` });
    const grace = this.options.resultExitGraceMs ?? RESULT_EXIT_GRACE_MS;
    const timer = this.clock.setTimer(() => {
      if (run.endedAt !== undefined || this.run !== run) return;
      void this.killTree(run, `the agent reported its result but did not exit within ${seconds(grace)}`);
    }, grace);
    run.store.add(timer);
  }

  private handleExpiry(run: Run, expiry: WatchdogExpiry): void {
    if (this.run !== run || run.machine.isTerminal || run.isKilling) return;
    const now = this.clock.now();
    if (expiry.trigger === 'wall_clock') {
      const reason = `wall-clock limit of ${seconds(this.config.timeouts.wallClockMs)} reached while ${run.machine.describeActivity(now)}`;
      this.endRun(run, 'failed', reason, { kind: 'timed_out', trigger: 'wall_clock', reason });
      return;
    }
    const trigger = expiry.trigger;
    const windowMs = trigger === 'idle' ? this.config.timeouts.idleMs : this.config.timeouts.turnMs;
    const m = run.machine;
    const assessment = assessSilence({
      trigger,
      now,
      windowMs,
      silentForMs: now - (trigger === 'idle' ? m.lastMessageAt : m.lastAssistantAt),
      phase: m.phase,
      tools: m.currentTools,
      extensions: run.extensions,
      longRunningTools: this.runner.longRunningTools,
      activity: m.describeActivity(now),
      lastActivityKind: m.lastActivity?.kind,
    });
    if (assessment.verdict === 'extend') return this.extend(run, trigger, assessment.rule, assessment.until, assessment.reason);
    const provider = this.secondOpinionProvider(run);
    if (provider) return void this.askSecondOpinion(run, trigger, windowMs, assessment, provider);
    this.stall(run, trigger, assessment.rule, assessment.reason);
  }

  private extend(run: Run, trigger: Exclude<TaskTrigger, 'wall_clock'>, rule: string, until: number, reason: string): void {
    run.extensions.set(rule, (run.extensions.get(rule) ?? 0) + 1);
    run.watchdog.extend(trigger, until);
    const silence = trigger === 'idle' ? 'Silent' : 'No complete message';
    const now = this.clock.now();
    // Relative, not a clock time: the viewer's time zone is not known here.
    run.stallWarning = `${silence} for ${seconds(now - (trigger === 'idle' ? run.machine.lastMessageAt : run.machine.lastAssistantAt))}: ${reason}. Waiting up to ${seconds(until - now)} more.`;
    this.decide(run, { kind: 'extended', trigger, rule, reason, until });
    this.changedEmitter.fire();
  }

  private stall(run: Run, trigger: Exclude<TaskTrigger, 'wall_clock'>, rule: string, reason: string): void {
    this.endRun(run, 'stalled', reason, { kind: 'stalled', trigger, rule, reason });
  }

  private secondOpinionProvider(run: Run): SecondOpinionProvider | undefined {
    if (this.config.secondOpinion?.enabled !== true) return undefined;
    if (run.secondOpinionExtensions >= SECOND_OPINION_MAX_EXTENSIONS) return undefined;
    return (this.options.secondOpinionFor ?? defaultSecondOpinion)(this.config);
  }

  private async askSecondOpinion(
    run: Run,
    trigger: Exclude<TaskTrigger, 'wall_clock'>,
    windowMs: number,
    assessment: Extract<Assessment, { verdict: 'stall' }>,
    provider: SecondOpinionProvider,
  ): Promise<void> {
    const epoch = run.epoch;
    const model = this.config.secondOpinion?.model ?? DEFAULT_SECOND_OPINION_MODEL;
    this.decide(run, {
      kind: 'second_opinion',
      trigger,
      rule: assessment.rule,
      reason: `asking ${model}: the rules say ${assessment.reason}`,
    });
    run.stallWarning = `Possible stall, asking ${model} for a second opinion: ${assessment.reason}`;
    this.changedEmitter.fire();
    const abort = new AbortController();
    const timer = run.store.add(this.clock.setTimer(() => abort.abort(), SECOND_OPINION_TIMEOUT_MS));
    const m = run.machine;
    const now = this.clock.now();
    let verdict: { verdict: 'extend' | 'stall'; reason: string } | Error;
    try {
      verdict = await provider(
        {
          taskPrompt: this.config.prompt,
          trigger,
          silentForMs: now - (trigger === 'idle' ? m.lastMessageAt : m.lastAssistantAt),
          activity: m.describeActivity(now),
          ruleReason: assessment.reason,
          tools: m.currentTools.map((t) => ({ name: t.name, summary: t.summary, runningMs: now - t.startedAt })),
          recentText: m.text,
        },
        abort.signal,
      );
    } catch (err) {
      verdict = err instanceof Error ? err : new Error(String(err));
    } finally {
      run.store.delete(timer);
    }
    // The agent spoke, the run ended or a newer run began while we asked: the question is moot.
    if (this.isDisposed || this.run !== run || run.epoch !== epoch || run.machine.isTerminal || run.isKilling) return;
    if (verdict instanceof Error) {
      this.decide(run, { kind: 'second_opinion', trigger, reason: `no second opinion (${verdict.message}); acting on the rules` });
      return this.stall(run, trigger, assessment.rule, assessment.reason);
    }
    if (verdict.verdict === 'extend') {
      run.secondOpinionExtensions += 1;
      return this.extend(run, trigger, 'second-opinion', this.clock.now() + windowMs, `${model} advises waiting: ${verdict.reason}`);
    }
    this.stall(run, trigger, assessment.rule, `${assessment.reason}; ${model} agrees: ${verdict.reason}`);
  }

  /** Decides the outcome, then ends the tree. */
  private endRun(run: Run, phase: EndPhase, reason: string, decision: Omit<TaskDecision, 'at'>): void {
    if (!run.machine.end(phase, reason, this.clock.now())) return;
    run.watchdog.stop();
    this.decide(run, decision);
    this.changedEmitter.fire();
    void this.killTree(run, reason);
  }

  private killTree(run: Run, reason: string): Promise<void> {
    if (run.treeGone) return run.treeGone;
    if (run.endedAt !== undefined || !this.session.isRunning || this.session.runId !== run.id) return Promise.resolve();
    run.isKilling = true;
    this.decide(run, { kind: 'killed', reason: `ending the process tree (SIGTERM, then SIGKILL): ${reason}` });
    this.changedEmitter.fire();
    run.treeGone = this.session.stop().catch((err: unknown) => {
      // Not expected (stop only signals and waits); recorded so the UI shows why a tree may linger.
      this.decide(run, { kind: 'killed', reason: `ending the process tree failed: ${err instanceof Error ? err.message : String(err)}` });
      this.changedEmitter.fire();
    });
    return run.treeGone;
  }

  private handleExit(runId: number, exitCode: number, signal: number | undefined): void {
    const run = this.run;
    if (!run || run.id !== runId || run.endedAt !== undefined) return;
    const rest = run.reader.flush();
    if (rest.length > 0) this.handleItems(run, rest);
    run.watchdog.stop();
    const now = this.clock.now();
    if (!run.machine.isTerminal) {
      if (this.session.wasStopRequested) {
        const reason = 'the process was stopped from outside the task (Stop, Restart or Close)';
        run.machine.end('cancelled', reason, now);
        this.decide(run, { kind: 'cancelled', reason });
      } else {
        const how = signal ? `was killed by signal ${signal}` : `exited with code ${exitCode}`;
        const lastNoise = run.machine.noiseTail.at(-1);
        const reason = `${this.runner.displayName} ${how} before reporting a result${lastNoise ? ` (last output: ${lastNoise})` : ''}`;
        run.machine.end('failed', reason, now);
        this.decide(run, { kind: 'failed', reason });
      }
    }
    run.store.dispose(); // watchdog, exit-grace and opinion timers
    // The agent's own process can exit before the tools it started: a killed run has ended only
    // once its whole tree is gone, so whoever waits for the end finds nothing left running.
    if (run.treeGone) void run.treeGone.then(() => this.markEnded(run));
    else this.markEnded(run);
  }

  private markEnded(run: Run): void {
    run.endedAt = this.clock.now();
    if (this.run !== run) return;
    this.changedEmitter.fire();
    this.endedEmitter.fire(this.info);
  }

  private decide(run: Run, decision: Omit<TaskDecision, 'at'>): void {
    const full: TaskDecision = { at: this.clock.now(), ...decision };
    run.decisions = [...run.decisions.slice(-(MAX_DECISIONS - 1)), full];
    this.decidedEmitter.fire(full);
  }
}

function emptyRun() {
  return { turns: 0, currentTools: [], recentTools: [], toolCallCount: 0, text: '', decisions: [], noiseLineCount: 0, noiseTail: [] };
}

/** A task entry started without a request (should not happen): watch it with defaults. */
function unconfigured(session: TaskSession): TaskConfig {
  return { agent: 'claude', prompt: '', cwd: session.cwd, timeouts: { ...DEFAULT_TASK_TIMEOUTS }, env: {} };
}

function defaultSecondOpinion(config: TaskConfig): SecondOpinionProvider {
  return anthropicSecondOpinion({ ...opinionCredentials(config.env, process.env), model: config.secondOpinion?.model });
}
