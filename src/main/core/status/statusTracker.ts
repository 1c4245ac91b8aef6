/**
 * The status of one agent entry (docs/agent-status.md), kept current from its session: the screen is
 * classified on every change (coalesced), hooks override it while fresh, busy and waiting apply at
 * once, idle is debounced, start-up has a grace period, `stuck` follows a stall in meaningful
 * progress, and the exit of the run is `dead`. Time comes from an injected Clock, so recordings
 * replay at their original timing on a virtual clock.
 */
import { DisposableBase, Emitter, toDisposable, type Disposable, type Event } from '../base';
import type { ObservedSession, OutputChunk, RunExited, RunStarted } from '../sessions';
import { isBlockedDetail } from '../../../shared/status';
import type { AgentDetail, AgentHookEvent, AgentPrimary, AgentStatusInfo, BlockedInfo, PresetVerification } from '../../../shared/status';
import { readBlockedReport } from './blockedReport';
import {
  classify,
  FALLBACK_ACTIVITY_WINDOW_MS,
  FALLBACK_RECENT_OUTPUT,
  UNRECOGNISED_DIALOG,
  isScreenRecognised,
  type Classification,
} from './classifier';
import { realClock, type Clock } from '../base';
import { HealthMachine, RECOVERED_HOLD_MS } from './healthMachine';
import {
  HOOK_FRESH_MS,
  hookAlone,
  hookImplication,
  hookReport,
  mergeHookWithScreen,
  nextHookState,
  retryHoldEndsAt,
  type HookState,
  type MergedState,
} from './hookState';
import { ProgressDetector } from './progress';
import type { RuleSet } from './ruleSchema';

export interface StatusThresholds {
  /** Active with no meaningful screen change for this long → stuck. */
  stuckThresholdMs: number;
  /** Idle must be seen this long before a busy/waiting status gives way to it. */
  idleDebounceMs: number;
  /** ...or this long when the screen shows a strong idle signal (a rule marked strongIdle). */
  strongIdleDebounceMs: number;
  /** `starting` lasts this long after the run's first output byte. */
  startupGraceMs: number;
}

/** docs/agent-status.md: the stuck threshold defaults to 15 s. */
export const STUCK_THRESHOLD_MS = 15_000;
/** Claude Code drops its busy markers a few ms before the idle screen is complete and sometimes
 *  shows the prompt between tool calls; half a second rides over both and stays well inside the
 *  1.5 s a person (and the recordings' tolerance windows) allow after a turn ends. */
export const IDLE_DEBOUNCE_MS = 500;
/** A strong idle screen (the composer with its idle hint, no spinner, no busy hint) is what the
 *  CLI draws once the turn is over, not a half-drawn frame; a few frames of confirmation keep a
 *  one-frame flash from showing while the transition lands well inside 300 ms of the real event
 *  (the CLI itself renders 30–170 ms after it). */
export const STRONG_IDLE_DEBOUNCE_MS = 100;
/** The recordings' ground truth calls the first 2.5 s after the first output byte start-up. */
export const STARTUP_GRACE_MS = 2_500;
/** No rule matching for this long while the program keeps printing means the screens are ones the
 *  rules do not know: the CLI probably changed. Long enough that a screen between two known ones
 *  (a redraw, a scrolled answer) never trips it. */
export const DRIFT_AFTER_MS = 10_000;
/** A run of the generic preset that prints nothing leaves `starting` after this long anyway (then
 *  the activity fallback decides). An agent preset leaves it only on its CLI's own evidence. */
const STARTUP_SILENT_MAX_MS = 30_000;
/** Screen changes are coalesced this long before classifying: a redraw arrives as several parsed
 *  writes within a few ms; 25 ms keeps the reaction far inside docs/agent-status.md's 300 ms. */
export const RECOMPUTE_COALESCE_MS = 25;

export const DEFAULT_STATUS_THRESHOLDS: StatusThresholds = {
  stuckThresholdMs: STUCK_THRESHOLD_MS,
  idleDebounceMs: IDLE_DEBOUNCE_MS,
  strongIdleDebounceMs: STRONG_IDLE_DEBOUNCE_MS,
  startupGraceMs: STARTUP_GRACE_MS,
};

/** What the tracker needs from a preset (core/agents' AgentPreset satisfies it). */
export interface DetectionProfile {
  id: string;
  rules: RuleSet;
  thresholds: StatusThresholds;
  /** Proven against the real CLI (version, date) or not. */
  verified: PresetVerification;
}

export interface StatusTrackerOptions extends Partial<StatusThresholds> {
  clock?: Clock;
  hookFreshMs?: number;
  /** The agent's time zone (its TZ), in which its CLI prints a limit's reset time. Default: this machine's. */
  timeZone?: string;
}

interface StatusExplanation {
  status: AgentStatusInfo;
  /** The last screen classification, every rule with matched + region preview. */
  classification: Classification | undefined;
  /** The last hook state and whether it still decides. */
  hook: (HookState & { isFresh: boolean }) | undefined;
  timing: {
    runStartedAt?: number;
    firstOutputAt?: number;
    lastOutputAt?: number;
    lastProgressAt?: number;
    graceEndsAt?: number;
    idleCandidateSince?: number;
    strongIdleSince?: number;
    unmatchedSince?: number;
  };
  thresholds: StatusThresholds;
}

interface Shown {
  primary: AgentPrimary;
  detail: AgentDetail;
  reason: string;
  /** Blocked or retrying: what the CLI said. */
  blocked?: BlockedInfo;
}

export class StatusTracker extends DisposableBase {
  private readonly clock: Clock;
  private readonly thresholds: StatusThresholds;
  private readonly hookFreshMs: number;
  private readonly timeZone: string | undefined;
  private readonly rules: RuleSet;
  private readonly health: HealthMachine;
  private readonly progress: ProgressDetector;

  private readonly statusChanged = this.register(new Emitter<AgentStatusInfo>());
  readonly onDidChangeStatus: Event<AgentStatusInfo> = this.statusChanged.event;
  private readonly hookReceived = this.register(new Emitter<AgentHookEvent>());
  /** Every hook of a running run, as received: what else it carries (the CLI's session file) is for others to read. */
  readonly onDidReceiveHook: Event<AgentHookEvent> = this.hookReceived.event;

  private isRunning: boolean;
  private runId: number;
  private exitReason: string;
  private runStartedAt: number | undefined;
  private firstOutputAt: number | undefined;
  private lastOutputAt: number | undefined;
  private lastProgressAt: number | undefined;
  private idleCandidateSince: number | undefined;
  private strongIdleSince: number | undefined;
  /** Since when no rule has matched (undefined: the last screen matched one). */
  private unmatchedSince: number | undefined;
  private isDrifting = false;
  /**
   * The CLI has drawn a screen its rules know in this run. Until then an agent preset is
   * `starting`: silence on a blank or half-drawn screen is not a prompt, and a turn typed there
   * is lost (opencode draws blank cells for many seconds before its composer). A hook does not
   * end start-up either: only a drawn prompt can take a turn.
   */
  private hasOwnEvidence = false;
  private hook: HookState | undefined;
  /** A reset time the CLI showed while retrying this turn: its final "limit" line may not repeat it. */
  private lastResetAt: number | undefined;
  /** The busy hook the screen's proven turn end overrode (shown in the idle reason). */
  private staleHook: string | undefined;
  /** What the running CLI says its version is (setCliVersion). */
  private cliVersion: string | undefined;
  private lastClassification: Classification | undefined;
  private shown: Shown;
  private shownSince: number;
  private info: AgentStatusInfo;

  private recomputeTimer: Disposable | undefined;
  private deadlineTimer: Disposable | undefined;

  constructor(
    private readonly session: ObservedSession,
    private readonly preset: DetectionProfile,
    overrides: StatusTrackerOptions = {},
  ) {
    super();
    const { clock, hookFreshMs, timeZone, ...thresholds } = overrides;
    this.timeZone = timeZone;
    this.clock = clock ?? realClock;
    this.thresholds = { ...DEFAULT_STATUS_THRESHOLDS, ...preset.thresholds, ...definedOnly(thresholds) };
    this.hookFreshMs = hookFreshMs ?? HOOK_FRESH_MS;
    this.rules = preset.rules;
    this.progress = new ProgressDetector(preset.rules.progressNormalizers);
    const now = this.clock.now();
    this.health = new HealthMachine(now);
    this.isRunning = session.isRunning;
    this.runId = session.runId;
    this.exitReason = 'not started';
    if (this.isRunning) {
      // Attached to a run already under way: start-up is measured from now.
      this.runStartedAt = now;
      if (session.screen.getVisibleLines().some((l) => l.trim() !== '')) this.firstOutputAt = now;
    } else {
      this.health.apply('exited', now);
    }
    this.shown = this.isRunning
      ? { primary: 'starting', detail: null, reason: 'startup-grace' }
      : { primary: 'dead', detail: null, reason: this.exitReason };
    this.shownSince = now;
    this.info = this.buildInfo();

    this.register(session.screen.onDidChange(() => this.scheduleRecompute()));
    this.register(session.screen.onDidChangeTitle(() => this.scheduleRecompute()));
    this.register(session.screen.onDidChangeAgentState(() => this.scheduleRecompute()));
    this.register(session.onDidWriteOutput((chunk) => this.handleOutput(chunk)));
    this.register(session.onDidStartRun((e) => this.handleRunStarted(e)));
    this.register(session.onDidExitRun((e) => this.handleRunExited(e)));
    this.register(
      toDisposable(() => {
        this.recomputeTimer?.dispose();
        this.deadlineTimer?.dispose();
      }),
    );
    if (this.isRunning) this.evaluate();
  }

  get status(): AgentStatusInfo {
    return this.info;
  }

  explain(): StatusExplanation {
    const now = this.clock.now();
    return {
      status: this.info,
      classification: this.lastClassification,
      hook: this.hook ? { ...this.hook, isFresh: now - this.hook.at < this.hookFreshMs } : undefined,
      timing: {
        runStartedAt: this.runStartedAt,
        firstOutputAt: this.firstOutputAt,
        lastOutputAt: this.lastOutputAt,
        lastProgressAt: this.lastProgressAt,
        graceEndsAt: this.isRunning ? this.graceEndsAt() : undefined,
        idleCandidateSince: this.idleCandidateSince,
        strongIdleSince: this.strongIdleSince,
        unmatchedSince: this.unmatchedSince,
      },
      thresholds: { ...this.thresholds },
    };
  }

  /** A structured hook from the agent (Claude Code hooks, routed by the MCP side). */
  applyHookEvent(event: AgentHookEvent): void {
    if (this.isDisposed || !this.isRunning) return;
    this.hookReceived.fire(event);
    const implied = hookImplication(event);
    if (implied === undefined) return;
    this.staleHook = undefined;
    if (implied === 'clear') {
      this.hook = undefined;
    } else {
      this.hook = nextHookState(event, implied, this.hook);
      // A hook is a progress event (a prompt, a tool call, a result).
      this.lastProgressAt = Math.max(this.lastProgressAt ?? 0, event.at);
    }
    this.evaluate();
  }

  /** The version the launched CLI reports: carried in the status next to the verified one. */
  setCliVersion(version: string | undefined): void {
    if (this.isDisposed || version === this.cliVersion) return;
    this.cliVersion = version;
    this.info = this.buildInfo();
    this.statusChanged.fire(this.info);
  }

  /** Classify now instead of after the coalescing delay. */
  refresh(): void {
    this.recomputeTimer?.dispose();
    this.recomputeTimer = undefined;
    this.evaluate();
  }

  private handleOutput(chunk: OutputChunk): void {
    if (!this.isRunning || chunk.runId !== this.runId) return;
    const now = this.clock.now();
    this.lastOutputAt = now;
    // Start-up grace runs from the first VISIBLE output (set in evaluate): a CLI that only queries
    // the terminal and then initialises for seconds (Qwen Code) is still starting, not quiet/idle.
    if (this.firstOutputAt === undefined) this.scheduleRecompute();
  }

  private handleRunStarted(e: RunStarted): void {
    const now = this.clock.now();
    this.isRunning = true;
    this.runId = e.runId;
    this.runStartedAt = now;
    this.firstOutputAt = undefined;
    this.lastOutputAt = undefined;
    this.progress.reset();
    this.lastProgressAt = undefined;
    this.clearIdleCandidate();
    this.unmatchedSince = undefined;
    this.isDrifting = false;
    this.hasOwnEvidence = false;
    this.hook = undefined;
    this.lastResetAt = undefined;
    this.staleHook = undefined;
    this.lastClassification = undefined;
    this.health.reset(now);
    this.evaluate();
  }

  private handleRunExited(e: RunExited): void {
    if (e.runId !== this.runId) return;
    this.isRunning = false;
    this.exitReason = e.signal ? `process-exited (signal ${e.signal})` : `process-exited (code ${e.exitCode})`;
    this.hook = undefined;
    this.clearIdleCandidate();
    this.evaluate();
  }

  private scheduleRecompute(): void {
    if (this.isDisposed || this.recomputeTimer) return;
    this.recomputeTimer = this.clock.setTimer(() => {
      this.recomputeTimer = undefined;
      this.evaluate();
    }, RECOMPUTE_COALESCE_MS);
  }

  private graceEndsAt(): number {
    if (this.firstOutputAt !== undefined) return this.firstOutputAt + this.thresholds.startupGraceMs;
    return (this.runStartedAt ?? this.clock.now()) + STARTUP_SILENT_MAX_MS;
  }

  private evaluate(): void {
    if (this.isDisposed) return;
    const now = this.clock.now();
    if (!this.isRunning) {
      this.health.apply('exited', now);
      this.deadlineTimer?.dispose();
      this.deadlineTimer = undefined;
      this.show({ primary: 'dead', detail: null, reason: this.exitReason }, now);
      return;
    }

    const screen = this.session.screen;
    const lines = screen.getVisibleLines();
    const isBlank = lines.every((l) => l.trim() === '');
    if (this.firstOutputAt === undefined && !isBlank) this.firstOutputAt = this.lastOutputAt ?? now;
    // A blank screen after the first text is a clear before a redraw (Gemini CLI clears and
    // redraws its whole history): it says nothing about the agent, so what is shown stays —
    // unless the CLI's own fresh hook says otherwise (opencode blanks its start screen for
    // seconds while it creates the session of the first prompt).
    if (isBlank && this.firstOutputAt !== undefined) {
      if (this.hook !== undefined && now - this.hook.at < this.hookFreshMs) this.showHookAlone(now);
      return;
    }
    if (isBlank && this.needsOwnEvidence()) {
      // Nothing drawn yet: an agent CLI is starting however long it takes.
      this.show(this.startingStatus(now), now);
      return;
    }
    const cls = classify({ getVisibleLines: () => lines, cols: screen.cols }, screen.title, {
      rules: this.rules,
      now,
      lastOutputAt: this.lastOutputAt,
      agentState: screen.agentState,
    });
    this.lastClassification = cls;
    if (cls.fallback === undefined) this.hasOwnEvidence = true;
    if (this.progress.observe(lines)) this.lastProgressAt = now;
    this.trackDrift(cls, now);

    let candidate: MergedState = { primary: cls.primary, detail: cls.detail, reason: cls.reason, isStrongIdle: cls.isStrongIdle };
    this.retireAnsweredPromptHook(cls);
    this.retireEndedTurnHook(cls);
    if (this.hook?.event === 'ModelRequest' && (cls.detail === 'responding' || cls.detail === 'using_tools')) {
      this.hook.isAnswerDrawn = true;
    }
    if (this.staleHook && cls.primary === 'idle') candidate = { ...candidate, reason: `${cls.reason} (over stale hook:${this.staleHook})` };
    const isHookInForce = this.isHookInForce(cls, now);
    if (isHookInForce) candidate = mergeHookWithScreen(this.hook!, candidate);
    if (candidate.primary === 'active' && candidate.detail === null) {
      // Busy, detail unknown: keep the detail of the busy state we are in; a new turn thinks first.
      // A retry is not kept: only its own evidence (a rule, a hook in force) says the CLI still
      // retries, and a retry whose next attempt never came is a stalled turn that may go stuck.
      const wasBusy = this.shown.primary === 'active' || this.shown.primary === 'stuck';
      const kept = wasBusy && this.shown.detail !== 'retrying' ? this.shown.detail : null;
      candidate = { ...candidate, detail: kept || 'thinking' };
    }

    const target = this.applyTiming(candidate, now);
    if (target.primary === 'starting') this.noteResetWhileStarting(cls, lines, now);
    this.show(target === this.shown ? target : { ...target, blocked: this.blockedReport(target, cls, lines, now) }, now);
    this.scheduleDeadline(now, cls, isHookInForce);
  }

  /**
   * The arbitration rule (docs/agent-status.md, "Structured signals first"): a hook decides while
   * fresh, and a waiting hook keeps deciding after that for as long as no screen rule recognises
   * the screen — an unknown screen is no evidence that the question went away.
   */
  private isHookInForce(cls: Classification, now: number): boolean {
    if (this.hook === undefined) return false;
    if (now - this.hook.at < this.hookFreshMs) return true;
    if (this.hook.primary === 'waiting') return !isScreenRecognised(cls);
    // A retry holds while the screen shows only the turn still busy (see retryHoldEndsAt).
    const isSpinnerOnly = cls.primary === 'active' && (cls.detail === null || cls.detail === 'thinking');
    return isSpinnerOnly && now < (retryHoldEndsAt(this.hook, this.hookFreshMs) ?? 0);
  }

  /**
   * What the CLI said, for a blocked or retrying status: read by the rule that recognised the
   * screen. A reset time seen while retrying is kept for the turn's final limit line.
   */
  private blockedReport(target: Shown, cls: Classification, lines: readonly string[], now: number): BlockedInfo | undefined {
    if (target.primary === 'idle') this.lastResetAt = undefined;
    if (!isBlockedDetail(target.detail) && target.detail !== 'retrying') return undefined;
    const rule = this.rules.rules.find((r) => r.key === cls.reason && r.implies.detail === target.detail);
    if (!rule) return hookReport(this.hook, target.detail) ?? (this.shown.detail === target.detail ? this.shown.blocked : undefined);
    const report = readBlockedReport(rule, this.snapshotOf(lines), now, this.timeZone);
    if (report?.resetsAt !== undefined) this.lastResetAt = report.resetsAt;
    if (report && target.detail === 'limit' && report.resetsAt === undefined && this.lastResetAt !== undefined) {
      return { ...report, resetsAt: this.lastResetAt };
    }
    return report;
  }

  /**
   * A turn can meet its limit while the CLI is still `starting` (a prompt given on its command
   * line): the retry row's reset is kept for the limit line all the same.
   */
  private noteResetWhileStarting(cls: Classification, lines: readonly string[], now: number): void {
    if (cls.detail !== 'retrying') return;
    const rule = this.rules.rules.find((r) => r.key === cls.reason && r.implies.detail === 'retrying');
    const resetsAt = rule && readBlockedReport(rule, this.snapshotOf(lines), now, this.timeZone)?.resetsAt;
    if (resetsAt !== undefined) this.lastResetAt = resetsAt;
  }

  private snapshotOf(lines: readonly string[]) {
    const { title, cols, agentState } = this.session.screen;
    return { lines, title, cols, agentState };
  }

  /** The fresh hook decides alone while the screen says nothing. */
  private showHookAlone(now: number): void {
    this.show(this.applyTiming(hookAlone(this.hook!), now), now);
    this.scheduleDeadline(now, undefined, true);
  }

  /**
   * A permission hook (Notification) fires before the CLI draws its dialog, so it decides while the
   * screen lags; once the screen has shown the dialog and no longer does, it was answered and the
   * hook has nothing more to say (the next hook may be seconds away, after the tool ran).
   */
  private retireAnsweredPromptHook(cls: Classification): void {
    if (this.hook?.primary !== 'waiting') return;
    if (cls.primary === 'waiting') this.hook.isPromptDrawn = true;
    else if (this.hook.isPromptDrawn) this.hook = undefined;
  }

  /**
   * One source of truth (docs/agent-status.md, "Hooks against the screen"): a busy hook holds
   * against an idle screen that has not yet drawn the turn (the CLI renders after the hook), but
   * once the screen has shown the turn running and then its proven end (a strong idle screen),
   * the turn is over whatever the hook said: a lost or never-sent Stop (Claude Code sends none
   * when a turn ends on an error) cannot keep a finished agent busy. The idle status's reason
   * names the hook it overrode until the screen shows something else. A retry drawn as the turn
   * running is over too once the screen shows the turn blocked (the CLI gave it up): else it
   * would come back as the next turn starts, before that turn's own hook (Copilot CLI's
   * errorOccurred, then its give-up row).
   */
  private retireEndedTurnHook(cls: Classification): void {
    if (cls.primary !== 'idle') this.staleHook = undefined;
    if (this.hook?.primary !== 'active') return;
    if (cls.primary === 'active') this.hook.isBusyDrawn = true;
    if (cls.primary === 'active' || cls.primary === 'waiting') this.hook.isTurnDrawn = true;
    const isGivenUp = this.hook.retry !== undefined && this.hook.isBusyDrawn === true && isBlockedDetail(cls.detail);
    if (isGivenUp) {
      this.hook = undefined;
      return;
    }
    if (!this.hook.isTurnDrawn || cls.primary !== 'idle' || !cls.isStrongIdle) return;
    this.staleHook = this.hook.event;
    this.hook = undefined;
  }

  /**
   * Version drift: no rule matched for DRIFT_AFTER_MS while output kept coming. The status stays
   * the fallback's best guess, marked low-confidence until a rule matches again.
   */
  private trackDrift(cls: Classification, now: number): void {
    if (cls.fallback === undefined || this.preset.id === 'generic') {
      this.unmatchedSince = undefined;
      this.isDrifting = false;
      return;
    }
    this.unmatchedSince ??= now;
    const isAlive = this.lastOutputAt !== undefined && now - this.lastOutputAt < FALLBACK_ACTIVITY_WINDOW_MS;
    if (isAlive && now - this.unmatchedSince >= DRIFT_AFTER_MS) this.isDrifting = true;
  }

  private rulesVersion(): string {
    const verified = this.preset.verified;
    return verified === 'unverified' ? `${this.rules.version}, unverified` : verified.cliVersion;
  }

  /** Why the shown status is a guess, or undefined when a rule or hook vouches for it. */
  private lowConfidenceReason(): string | undefined {
    if (!this.isRunning) return undefined;
    if (this.shown.reason === `${this.rules.agent}/${UNRECOGNISED_DIALOG}`) {
      return `unrecognised dialog — no ${this.rules.agent} rule knows this screen (rules of version ${this.rulesVersion()})`;
    }
    if (this.isDrifting) return `no rule matched — the CLI may have changed (version ${this.rulesVersion()})`;
    return undefined;
  }

  /**
   * Agent presets need their CLI's own evidence to leave start-up; the generic preset (whose rules
   * match little by design) and a CLI whose screens drifted away from its rules go by activity.
   */
  private needsOwnEvidence(): boolean {
    return this.preset.id !== 'generic' && !this.hasOwnEvidence && !this.isDrifting;
  }

  private startingStatus(now: number): Shown {
    const reason = now < this.graceEndsAt() || !this.needsOwnEvidence() ? 'startup-grace' : `startup: no ${this.rules.agent} screen yet`;
    return { primary: 'starting', detail: null, reason };
  }

  /** Start-up grace, idle debounce, stuck and the health transitions. */
  private applyTiming(candidate: MergedState, now: number): Shown {
    if ((now < this.graceEndsAt() || this.needsOwnEvidence()) && candidate.primary !== 'waiting') {
      // A dialog needs a person even during start-up (the trust question): it shows at once.
      this.clearIdleCandidate();
      return this.startingStatus(now);
    }

    let target: Shown = { primary: candidate.primary, detail: candidate.detail, reason: candidate.reason };
    const shownBusy = this.shown.primary !== 'idle' && this.shown.primary !== 'starting';
    if (candidate.primary === 'idle' && shownBusy && !candidate.isFromHook) {
      this.idleCandidateSince ??= now;
      // The strong signal is timed from its own first frame: the weak frames before it may be the
      // half-drawn screen between busy and idle.
      this.strongIdleSince = candidate.isStrongIdle ? (this.strongIdleSince ?? now) : undefined;
      if (!this.isIdleSettled(now)) target = this.shown;
    } else {
      this.clearIdleCandidate();
    }

    if (target.primary === 'active' && this.shown.primary !== 'active' && this.shown.primary !== 'stuck') {
      // Entering a busy state is progress in itself.
      this.lastProgressAt = now;
    }
    // A CLI retrying a failed request waits on purpose (its back-off, a rate limit): not stuck.
    const isBusy = (target.primary === 'active' || target.primary === 'stuck') && target.detail !== 'retrying';
    const stalledFor = now - (this.lastProgressAt ?? now);
    if (isBusy && stalledFor >= this.thresholds.stuckThresholdMs) {
      this.health.apply('progressStalled', now);
      const base = target.primary === 'stuck' ? this.shownBusyReason() : target.reason;
      target = {
        primary: 'stuck',
        detail: target.detail,
        reason: `no progress for ${Math.round(this.thresholds.stuckThresholdMs / 1000)} s while ${base}`,
      };
    } else {
      if (target.primary === 'stuck') target = { ...target, primary: 'active' };
      this.health.apply('progressResumed', now);
      if (this.health.state === 'RECOVERED' && now - this.health.since >= RECOVERED_HOLD_MS) {
        this.health.apply('recoveryConfirmed', now);
      }
    }
    return target;
  }

  private isIdleSettled(now: number): boolean {
    const strongFor = this.strongIdleSince === undefined ? -1 : now - this.strongIdleSince;
    return strongFor >= this.thresholds.strongIdleDebounceMs || now - this.idleCandidateSince! >= this.thresholds.idleDebounceMs;
  }

  private clearIdleCandidate(): void {
    this.idleCandidateSince = undefined;
    this.strongIdleSince = undefined;
  }

  private shownBusyReason(): string {
    const m = /while (.*)$/.exec(this.shown.reason);
    return m ? m[1] : this.shown.reason;
  }

  private scheduleDeadline(now: number, cls: Classification | undefined, isHookFresh: boolean): void {
    const deadlines: number[] = [];
    const graceEnd = this.graceEndsAt();
    if (now < graceEnd) deadlines.push(graceEnd);
    if (this.idleCandidateSince !== undefined) deadlines.push(this.idleCandidateSince + this.thresholds.idleDebounceMs);
    if (this.strongIdleSince !== undefined) deadlines.push(this.strongIdleSince + this.thresholds.strongIdleDebounceMs);
    if (this.unmatchedSince !== undefined && !this.isDrifting) deadlines.push(this.unmatchedSince + DRIFT_AFTER_MS);
    if (this.shown.primary === 'active' && this.lastProgressAt !== undefined) {
      deadlines.push(this.lastProgressAt + this.thresholds.stuckThresholdMs);
    }
    if (isHookFresh) deadlines.push(this.hook!.at + this.hookFreshMs);
    if (this.hook?.retry) deadlines.push(retryHoldEndsAt(this.hook, this.hookFreshMs)!);
    if (this.health.state === 'RECOVERED') deadlines.push(this.health.since + RECOVERED_HOLD_MS);
    if (cls?.fallback === FALLBACK_RECENT_OUTPUT && this.lastOutputAt !== undefined) {
      deadlines.push(this.lastOutputAt + FALLBACK_ACTIVITY_WINDOW_MS);
    }
    this.deadlineTimer?.dispose();
    this.deadlineTimer = undefined;
    const next = Math.min(...deadlines.filter((d) => d > now));
    if (!Number.isFinite(next)) return;
    this.deadlineTimer = this.clock.setTimer(() => {
      this.deadlineTimer = undefined;
      this.evaluate();
    }, next - now);
  }

  private show(next: Shown, now: number): void {
    const prev = this.info;
    const isNewState = next.primary !== this.shown.primary || next.detail !== this.shown.detail;
    if (isNewState) this.shownSince = now;
    this.shown = { primary: next.primary, detail: next.detail, reason: next.reason, ...(next.blocked && { blocked: next.blocked }) };
    const info = this.buildInfo();
    if (
      info.primary === prev.primary &&
      info.detail === prev.detail &&
      info.health === prev.health &&
      info.reason === prev.reason &&
      info.confidence === prev.confidence &&
      sameBlocked(info.blocked, prev.blocked) &&
      info !== prev
    ) {
      // Nothing a listener cares about changed; keep timestamps current without an event.
      this.info = info;
      return;
    }
    this.info = info;
    this.statusChanged.fire(info);
  }

  private confidence(): Pick<AgentStatusInfo, 'confidence' | 'confidenceReason'> {
    const reason = this.lowConfidenceReason();
    return reason === undefined ? { confidence: 'high' } : { confidence: 'low', confidenceReason: reason };
  }

  private buildInfo(): AgentStatusInfo {
    return {
      preset: this.preset.id,
      verified: this.preset.verified,
      ...(this.cliVersion !== undefined ? { cliVersion: this.cliVersion } : {}),
      ...(this.preset.verified !== 'unverified' ? { verifiedVersion: this.preset.verified.cliVersion } : {}),
      ...this.confidence(),
      primary: this.shown.primary,
      detail: this.shown.detail,
      health: this.health.state,
      reason: this.shown.reason,
      since: this.shownSince,
      lastProgressAt: this.lastProgressAt,
      lastHookAt: this.hook?.at,
      ...(this.shown.blocked && { blocked: this.shown.blocked }),
    };
  }
}

function sameBlocked(a: BlockedInfo | undefined, b: BlockedInfo | undefined): boolean {
  return (
    a?.message === b?.message &&
    a?.resetsAt === b?.resetsAt &&
    a?.attempt === b?.attempt &&
    a?.maxAttempts === b?.maxAttempts &&
    a?.retriesByItself === b?.retriesByItself
  );
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
