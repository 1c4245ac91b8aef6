import { afterEach, describe, expect, it } from 'vitest';
import { Emitter } from '../base';
import type { ObservedSession, OutputChunk, RunExited, RunStarted, ScreenView } from '../sessions';
import type { AgentStatusInfo } from '../../../shared/status';
import { resolvePreset } from '../agents';
import { VirtualClock } from '../base';
import { HOOK_FRESH_MS } from './hookState';
import { RECOVERED_HOLD_MS } from './healthMachine';
import { claudeRules } from './rules/claude';
import {
  DRIFT_AFTER_MS,
  IDLE_DEBOUNCE_MS,
  RECOMPUTE_COALESCE_MS,
  STARTUP_GRACE_MS,
  STRONG_IDLE_DEBOUNCE_MS,
  STUCK_THRESHOLD_MS,
  StatusTracker,
  type StatusTrackerOptions,
} from './statusTracker';

/** docs/agent-status.md: a status update follows a real screen change within this. */
const REACTION_BUDGET_MS = 300;

const sample = (id: string) => claudeRules.rules.find((r) => r.id === id)!.sample.split('\n');
const IDLE = sample('idle-shortcuts-hint');
/** The composer without its idle hint: a weak idle signal (text typed, or a half-drawn frame). */
const IDLE_PROMPT_ONLY = sample('idle-prompt');
const THINKING = sample('thinking-after-prompt');
const RESPONDING = sample('responding');
const PERMISSION = sample('permission-prompt');
const TOOL_RUNNING = sample('tool-running');
/** The thinking screen at animation frame `i`: spinner glyph and counters move, nothing else. */
const thinkingFrame = (i: number) =>
  THINKING.map((l) => (l.startsWith('✽ Drizzling…') ? `${'·✢*✶✻✽'[i % 6]} Drizzling… (${Math.floor(i / 5)}s · ↓ 20 tokens)` : l));

class FakeScreen implements ScreenView {
  readonly cols = 120;
  readonly rows = 40;
  private lines: string[] = [];
  title = '';
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly titleChanged = new Emitter<string>();
  readonly onDidChangeTitle = this.titleChanged.event;
  readonly agentState = '';
  readonly onDidChangeAgentState = new Emitter<string>().event;
  getVisibleLines(): string[] {
    return [...this.lines];
  }
  getCursor() {
    return { x: 0, y: 0 };
  }
  show(lines: string[]): void {
    this.lines = lines;
    this.changed.fire();
  }
  setTitle(title: string): void {
    this.title = title;
    this.titleChanged.fire(title);
  }
}

class FakeSession implements ObservedSession {
  readonly id = 'p_000001';
  readonly kind = 'agent' as const;
  readonly argv = ['claude'];
  readonly cwd = '/tmp';
  runId = 0;
  pid: number | undefined;
  isRunning = false;
  readonly screen = new FakeScreen();
  readonly output = new Emitter<OutputChunk>();
  readonly onDidWriteOutput = this.output.event;
  readonly started = new Emitter<RunStarted>();
  readonly onDidStartRun = this.started.event;
  readonly exited = new Emitter<RunExited>();
  readonly onDidExitRun = this.exited.event;
  start(): void {
    this.isRunning = true;
    this.runId++;
    this.started.fire({ runId: this.runId, pid: 1, at: 0, offset: 0 });
  }
  /** Output that redraws the screen, as a PTY write followed by a parse. */
  print(lines: string[]): void {
    this.output.fire({ data: Buffer.from('x'), text: 'x', start: 0, end: 1, runId: this.runId });
    this.screen.show(lines);
  }
  exit(code = 0): void {
    this.isRunning = false;
    this.exited.fire({ runId: this.runId, exitCode: code, at: 0 });
  }
}

let tracker: StatusTracker | undefined;
afterEach(() => tracker?.dispose());

function setup(options: Omit<StatusTrackerOptions, 'clock'> = {}, preset = resolvePreset('claude')) {
  const clock = new VirtualClock(0);
  const session = new FakeSession();
  session.start();
  tracker = new StatusTracker(session, preset, { ...options, clock });
  const events: Array<AgentStatusInfo & { at: number }> = [];
  tracker.onDidChangeStatus((s) => events.push({ ...s, at: clock.now() }));
  const t = tracker;
  const state = () => `${t.status.primary}/${t.status.detail}`;
  return { clock, session, tracker: t, events, state };
}

/** Start a Claude session and bring it to idle after the start-up grace. */
function idleSession(options: Omit<StatusTrackerOptions, 'clock'> = {}) {
  const s = setup(options);
  s.session.print(IDLE);
  s.clock.advanceBy(STARTUP_GRACE_MS + RECOMPUTE_COALESCE_MS);
  expect(s.state()).toBe('idle/ready');
  return s;
}

/** An opencode session past start-up whose turn was just submitted (its busy row drawn); `screen` cuts its rule samples. */
function opencodeTurnStarted() {
  const opencode = resolvePreset('opencode');
  const screen = (id: string) => opencode.rules.rules.find((r) => r.id === id)!.sample.split('\n');
  const s = setup({}, opencode);
  s.session.print(screen('idle-hint-row'));
  s.clock.advanceBy(STARTUP_GRACE_MS + RECOMPUTE_COALESCE_MS);
  s.tracker.applyHookEvent({ event: 'UserPromptSubmit', at: s.clock.now() });
  s.session.print(screen('esc-interrupt'));
  s.clock.advanceBy(RECOMPUTE_COALESCE_MS);
  return { ...s, screen };
}

describe('StatusTracker', () => {
  it('is starting until the grace after the first output byte, then follows the screen', () => {
    const { clock, session, state } = setup();
    expect(state()).toBe('starting/null');
    clock.advanceBy(1_000); // silent spawn: still starting
    session.print(IDLE);
    clock.advanceBy(STARTUP_GRACE_MS - 100);
    expect(state()).toBe('starting/null');
    clock.advanceBy(100);
    expect(state()).toBe('idle/ready');
  });

  it('output that draws nothing (terminal queries) does not start the grace: a slow-starting CLI is not idle', () => {
    const { clock, session, state } = setup();
    session.print(['']); // e.g. ESC[c and OSC 11 queries: bytes, nothing drawn
    clock.advanceBy(STARTUP_GRACE_MS * 4);
    expect(state()).toBe('starting/null');
    session.print(IDLE);
    clock.advanceBy(STARTUP_GRACE_MS - 100);
    expect(state()).toBe('starting/null');
    clock.advanceBy(100);
    expect(state()).toBe('idle/ready');
  });

  it('opencode blank start screen read as idle: an agent CLI leaves start-up only on a screen its rules know', () => {
    const opencode = resolvePreset('opencode');
    const startScreen = opencode.rules.rules.find((r) => r.id === 'start-screen')!.sample.split('\n');
    const { clock, session, state, tracker } = setup({}, opencode);
    // opencode paints blank cells for tens of seconds, then a half-drawn frame, before its composer.
    for (let t = 0; t < 60_000; t += 1_000) {
      session.print(['', '']);
      clock.advanceBy(1_000);
    }
    expect(state()).toBe('starting/null');
    expect(tracker.status.reason).toBe('startup: no opencode screen yet');
    session.print(['  opencode 1.18.33']);
    clock.advanceBy(STARTUP_GRACE_MS * 4);
    expect(state()).toBe('starting/null');
    session.print(startScreen);
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('idle/ready');
    expect(tracker.status.reason).toMatch(/^opencode\/(start-screen|idle-hint-row)$/);
  });

  it('a blank screen (cleared before a redraw) keeps the status instead of reading as output without a rule', () => {
    const { clock, session, state, events } = idleSession();
    session.print(['']); // Gemini CLI clears the screen and redraws its whole history
    clock.advanceBy(RECOMPUTE_COALESCE_MS * 2);
    expect(state()).toBe('idle/ready');
    session.print(IDLE);
    clock.advanceBy(IDLE_DEBOUNCE_MS * 2);
    expect(events.filter((e) => e.primary !== 'idle' && e.primary !== 'starting')).toEqual([]);
  });

  it('shows a dialog at once, even during start-up (the trust question needs a person)', () => {
    const { clock, session, state } = setup();
    session.print(sample('trust-dialog'));
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('waiting/question');
  });

  it('busy applies within the reaction budget of a screen change', () => {
    const { clock, session, tracker, events } = idleSession();
    const changedAt = clock.now();
    session.print(THINKING);
    clock.advanceBy(REACTION_BUDGET_MS);
    const first = events.find((e) => e.primary === 'active')!;
    expect(first.detail).toBe('thinking');
    expect(first.at - changedAt).toBeLessThanOrEqual(REACTION_BUDGET_MS);
    expect(tracker.status.reason).toBe('claude/thinking-after-prompt');
  });

  it('idle is debounced; a short idle flicker never shows', () => {
    const { clock, session, state, events } = idleSession();
    session.print(RESPONDING);
    clock.advanceBy(100);
    session.print(IDLE_PROMPT_ONLY);
    clock.advanceBy(200);
    session.print(RESPONDING);
    clock.advanceBy(1_000);
    expect(state()).toBe('active/responding');
    expect(events.filter((e) => e.primary === 'idle')).toHaveLength(1); // only the initial idle
    session.print(IDLE_PROMPT_ONLY);
    clock.advanceBy(IDLE_DEBOUNCE_MS);
    expect(state()).toBe('active/responding');
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('idle/ready');
  });

  it('a strong idle signal (composer with its idle hint, no spinner) needs only the short debounce', () => {
    const { clock, session, state, events } = idleSession();
    session.print(RESPONDING);
    clock.advanceBy(100);
    // A flash of the strong idle screen shorter than its debounce still never shows.
    session.print(IDLE);
    clock.advanceBy(STRONG_IDLE_DEBOUNCE_MS / 2);
    session.print(RESPONDING);
    clock.advanceBy(1_000);
    expect(events.filter((e) => e.primary === 'idle')).toHaveLength(1);
    // A weak idle frame first (busy markers gone, hint not drawn yet): the strong clock starts at the hint.
    session.print(IDLE_PROMPT_ONLY);
    clock.advanceBy(STRONG_IDLE_DEBOUNCE_MS);
    session.print(IDLE);
    clock.advanceBy(STRONG_IDLE_DEBOUNCE_MS);
    expect(state()).toBe('active/responding');
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('idle/ready');
    expect(STRONG_IDLE_DEBOUNCE_MS + RECOMPUTE_COALESCE_MS).toBeLessThan(IDLE_DEBOUNCE_MS);
  });

  it('waiting applies at once and is never stuck', () => {
    const { clock, session, state, tracker } = idleSession();
    session.print(PERMISSION);
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('waiting/permission');
    clock.advanceBy(10 * STUCK_THRESHOLD_MS);
    expect(state()).toBe('waiting/permission');
    expect(tracker.status.health).toBe('ALIVE');
  });

  it('an idle agent at its prompt is never stuck', () => {
    const { clock, state, tracker } = idleSession();
    clock.advanceBy(10 * STUCK_THRESHOLD_MS);
    expect(state()).toBe('idle/ready');
    expect(tracker.status.health).toBe('ALIVE');
  });

  it('stuck: active with only spinner frames and counters moving; recovers on real progress', () => {
    const { clock, session, tracker, events } = idleSession();
    const activeAt = clock.now();
    let frame = 0;
    // The spinner keeps turning and the timer keeps counting: no meaningful change.
    while (clock.now() - activeAt < STUCK_THRESHOLD_MS + 1_000) {
      session.print(thinkingFrame(frame++));
      clock.advanceBy(200);
    }
    expect(tracker.status.primary).toBe('stuck');
    expect(tracker.status.detail).toBe('thinking');
    expect(tracker.status.health).toBe('STUCK');
    expect(tracker.status.reason).toMatch(/^no progress for 15 s while claude\/thinking-after-prompt/);
    const stuckAt = events.find((e) => e.primary === 'stuck')!.at;
    expect(stuckAt - activeAt).toBeGreaterThanOrEqual(STUCK_THRESHOLD_MS);
    expect(stuckAt - activeAt).toBeLessThan(STUCK_THRESHOLD_MS + REACTION_BUDGET_MS);

    session.print(RESPONDING); // tokens arrive
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect([tracker.status.primary, tracker.status.detail, tracker.status.health]).toEqual(['active', 'responding', 'RECOVERED']);
    clock.advanceBy(RECOVERED_HOLD_MS);
    expect(tracker.status.health).toBe('ALIVE');
  });

  it('the stuck threshold is configurable per entry', () => {
    const { clock, session, tracker } = idleSession({ stuckThresholdMs: 3_000 });
    session.print(TOOL_RUNNING);
    clock.advanceBy(3_000 + RECOMPUTE_COALESCE_MS);
    expect([tracker.status.primary, tracker.status.detail]).toEqual(['stuck', 'using_tools']);
  });

  it('is dead when the run exits (health DEAD), and starts over on a new run', () => {
    const { clock, session, tracker, state } = idleSession();
    session.exit(0);
    expect(state()).toBe('dead/null');
    expect(tracker.status.health).toBe('DEAD');
    expect(tracker.status.reason).toBe('process-exited (code 0)');
    clock.advanceBy(60_000);
    expect(state()).toBe('dead/null');
    session.start();
    expect(state()).toBe('starting/null');
    expect(tracker.status.health).toBe('ALIVE');
  });

  it('an entry that never ran is dead', () => {
    const clock = new VirtualClock(0);
    tracker = new StatusTracker(new FakeSession(), resolvePreset('claude'), { clock });
    expect([tracker.status.primary, tracker.status.health, tracker.status.reason]).toEqual(['dead', 'DEAD', 'not started']);
  });

  describe('hooks', () => {
    it('take precedence over the screen while fresh, then expire', () => {
      const { clock, tracker, state } = idleSession();
      tracker.applyHookEvent({ event: 'UserPromptSubmit', at: clock.now() });
      expect(state()).toBe('active/thinking');
      expect(tracker.status.reason).toBe('hook:UserPromptSubmit');
      tracker.applyHookEvent({ event: 'PreToolUse', at: clock.now(), toolName: 'Read' });
      expect(state()).toBe('active/using_tools');
      clock.advanceBy(HOOK_FRESH_MS + IDLE_DEBOUNCE_MS + RECOMPUTE_COALESCE_MS);
      expect(state()).toBe('idle/ready'); // the screen (still idle) decides again
    });

    it('opencode first prompt lost on a blank screen: a fresh hook decides while the screen is cleared', () => {
      const { clock, session, tracker, state } = idleSession();
      session.print(['']); // the start screen is cleared while the CLI creates the session
      clock.advanceBy(RECOMPUTE_COALESCE_MS * 2);
      tracker.applyHookEvent({ event: 'UserPromptSubmit', at: clock.now() });
      expect(state()).toBe('active/thinking');
      expect(tracker.status.reason).toBe('hook:UserPromptSubmit');
    });

    it("a retry whose next attempt never comes is stuck once its hold is over, on a busy screen that names no detail (opencode's)", () => {
      const { clock, tracker, state } = opencodeTurnStarted();
      const retryAt = clock.now() + 10_000;
      tracker.applyHookEvent({ event: 'ApiRetry', at: clock.now(), message: 'Rate limited', attempt: 1, retryAt });
      expect(state()).toBe('active/retrying');
      // The attempt was due 10 s later and never came: the busy screen stays as it is.
      clock.advanceBy(60_000);
      expect(state()).toBe('stuck/thinking');
    });

    it("opencode's turn that ended on an error: its TurnError holds the block over the idle screen drawn before the error", () => {
      const { clock, session, tracker, state, screen } = opencodeTurnStarted();
      expect(state()).toBe('active/thinking');
      // opencode 1.18.33 gave up: session.error, then idle; its TUI turns the hint row idle before
      // it draws the error block (seconds later under load).
      const message = 'The server had an error while processing your request. Sorry about that!';
      tracker.applyHookEvent({ event: 'TurnError', at: clock.now(), message, statusCode: 500, errorName: 'APIError' });
      session.print(screen('idle-hint-row'));
      clock.advanceBy(3_500);
      expect(state()).toBe('waiting/api_error');
      expect(tracker.status).toMatchObject({ reason: 'hook:TurnError', blocked: { message } });
      session.print(screen('api-error-gave-up'));
      clock.advanceBy(RECOMPUTE_COALESCE_MS);
      expect(tracker.status).toMatchObject({
        primary: 'waiting',
        detail: 'api_error',
        reason: 'opencode/api-error-gave-up',
        blocked: { message },
      });
      // A refused key is the login the screen will read.
      tracker.applyHookEvent({ event: 'UserPromptSubmit', at: clock.now() });
      session.print(screen('esc-interrupt'));
      clock.advanceBy(RECOMPUTE_COALESCE_MS);
      tracker.applyHookEvent({
        event: 'TurnError',
        at: clock.now(),
        message: 'Incorrect API key provided',
        statusCode: 401,
        errorName: 'APIError',
      });
      session.print(screen('idle-hint-row'));
      clock.advanceBy(1_000);
      expect(state()).toBe('waiting/login');
    });

    it('a finished tool whose box is still drawn does not override PostToolUse', () => {
      const { clock, session, tracker, state } = idleSession();
      tracker.applyHookEvent({ event: 'PreToolUse', at: clock.now(), toolName: 'Bash' });
      session.print(TOOL_RUNNING);
      clock.advanceBy(RECOMPUTE_COALESCE_MS);
      expect(state()).toBe('active/using_tools');
      tracker.applyHookEvent({ event: 'PostToolUse', at: clock.now(), toolName: 'Bash' });
      expect(state()).toBe('active/thinking');
    });

    it('ResponseStart is responding while the screen shows only that a turn runs', () => {
      const { clock, tracker, state } = idleSession();
      tracker.applyHookEvent({ event: 'UserPromptSubmit', at: clock.now() });
      expect(state()).toBe('active/thinking');
      tracker.applyHookEvent({ event: 'ResponseStart', at: clock.now() });
      expect(state()).toBe('active/responding');
      expect(tracker.status.reason).toBe('hook:ResponseStart');
    });

    it('Stop is idle without debounce; the screen refines a hook "thinking" into responding', () => {
      const { clock, session, tracker, state } = idleSession();
      tracker.applyHookEvent({ event: 'UserPromptSubmit', at: clock.now() });
      session.print(RESPONDING);
      clock.advanceBy(RECOMPUTE_COALESCE_MS);
      expect(state()).toBe('active/responding');
      expect(tracker.status.reason).toBe('hook:UserPromptSubmit+claude/responding');
      tracker.applyHookEvent({ event: 'Stop', at: clock.now() });
      expect(state()).toBe('idle/ready');
    });

    it('a dialog on screen wins over a fresh PreToolUse (the permission prompt follows it)', () => {
      const { clock, session, tracker, state } = idleSession();
      tracker.applyHookEvent({ event: 'PreToolUse', at: clock.now(), toolName: 'Bash' });
      session.print(PERMISSION);
      clock.advanceBy(RECOMPUTE_COALESCE_MS);
      expect(state()).toBe('waiting/permission');
      expect(tracker.status.reason).toBe('claude/permission-prompt');
    });

    it('a permission Notification (Gemini CLI: ToolPermission) is waiting before the dialog is drawn, and ends once the drawn dialog is answered', () => {
      const { clock, session, tracker, state } = idleSession();
      tracker.applyHookEvent({ event: 'PreToolUse', at: clock.now(), toolName: 'Bash' });
      session.print(THINKING);
      clock.advanceBy(RECOMPUTE_COALESCE_MS);
      tracker.applyHookEvent({ event: 'Notification', at: clock.now(), notificationType: 'ToolPermission' });
      expect(state()).toBe('waiting/permission'); // the CLI has not drawn its dialog yet
      expect(tracker.status.reason).toBe('hook:Notification');
      session.print(PERMISSION);
      clock.advanceBy(RECOMPUTE_COALESCE_MS);
      expect(state()).toBe('waiting/permission');
      expect(tracker.status.reason).toBe('claude/permission-prompt');
      session.print(TOOL_RUNNING); // approved: the tool runs, no hook for seconds
      clock.advanceBy(RECOMPUTE_COALESCE_MS);
      expect(state()).toBe('active/using_tools');
    });

    it('Notification maps by type or message; SessionEnd clears hook state', () => {
      const { clock, tracker, state } = idleSession();
      tracker.applyHookEvent({ event: 'Notification', at: clock.now(), notificationType: 'permission_prompt' });
      expect(state()).toBe('waiting/permission');
      tracker.applyHookEvent({ event: 'Notification', at: clock.now(), message: 'Claude is waiting for your input' });
      expect(state()).toBe('idle/waiting_input');
      tracker.applyHookEvent({ event: 'SessionEnd', at: clock.now(), reason: 'clear' });
      expect(state()).toBe('idle/ready');
      expect(tracker.explain().hook).toBeUndefined();
    });
  });

  it('explain() returns the last classification with every rule and a bounded preview', () => {
    const { tracker } = idleSession();
    const ex = tracker.explain();
    expect(ex.status.reason).toBe('claude/idle-shortcuts-hint');
    expect(ex.classification!.evaluated).toHaveLength(claudeRules.rules.length);
    expect(ex.classification!.evaluated.every((e) => e.preview.length <= 240)).toBe(true);
    expect(ex.classification!.evaluated.filter((e) => e.matched).map((e) => e.rule)).toEqual([
      'claude/idle-shortcuts-hint',
      'claude/idle-empty-prompt-box',
      'claude/idle-prompt',
    ]);
    expect(ex.thresholds.stuckThresholdMs).toBe(STUCK_THRESHOLD_MS);
  });

  it('a generic agent with no matching rule is active while it prints and idle when quiet', () => {
    const { clock, session, state, tracker } = setup({}, resolvePreset('my-agent'));
    expect(tracker.status.preset).toBe('generic');
    session.print(['my-agent v1', '> ']);
    clock.advanceBy(STARTUP_GRACE_MS + RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('idle/ready');
    session.print(['my-agent v1', '> do it', 'working on it']);
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('active/thinking');
    expect(tracker.status.reason).toBe('generic/fallback:recent-output');
    clock.advanceBy(3_000);
    expect(state()).toBe('idle/ready');
    expect(tracker.status.reason).toBe('generic/fallback:quiet');
  });

  describe('version drift', () => {
    /** A screen none of Claude's rules know: what a changed CLI might draw. */
    const unknownFrame = (i: number) => ['Claude Code v9', '', `  [${'#'.repeat(i % 20)}] composing reply part ${i}`, '', '  >>> ask me'];

    it('no rule matching while output keeps changing: best guess kept, confidence low with the version', () => {
      const { clock, session, tracker, events } = idleSession();
      for (let i = 0; i * 500 < DRIFT_AFTER_MS - 500; i++) {
        session.print(unknownFrame(i));
        clock.advanceBy(500);
      }
      expect(tracker.status.confidence).toBe('high');
      session.print(unknownFrame(99));
      clock.advanceBy(600);
      expect(tracker.status).toMatchObject({
        primary: 'active',
        confidence: 'low',
        confidenceReason: 'no rule matched — the CLI may have changed (version 2.1.332)',
      });
      expect(events.at(-1)?.confidence).toBe('low');
      // A known screen again: the rules understand it, confidence is back.
      session.print(IDLE);
      clock.advanceBy(RECOMPUTE_COALESCE_MS);
      expect(tracker.status.confidence).toBe('high');
      expect(tracker.status.confidenceReason).toBeUndefined();
    });

    it('an unknown screen that stays quiet is not drift (nothing says the program is alive)', () => {
      const { clock, session, tracker } = idleSession();
      session.print(unknownFrame(1));
      clock.advanceBy(3 * DRIFT_AFTER_MS);
      expect(tracker.status.primary).toBe('idle');
      expect(tracker.status.confidence).toBe('high');
    });

    it('names an unverified preset as such, and never flags the generic preset', () => {
      for (const [preset, expected] of [
        ['cursor-agent', /^no rule matched — the CLI may have changed \(version .+, unverified\)$/],
        ['my-agent', undefined],
      ] as const) {
        const { clock, session, tracker } = setup({}, resolvePreset(preset));
        expect(tracker.status.verified).toBe('unverified');
        for (let i = 0; i * 500 <= DRIFT_AFTER_MS + 1_000; i++) {
          session.print(unknownFrame(i));
          clock.advanceBy(500);
        }
        if (expected) expect(tracker.status.confidenceReason).toMatch(expected);
        else expect(tracker.status.confidence).toBe('high');
        tracker.dispose();
      }
    });
  });

  it('carries whether its preset was verified against the real CLI', () => {
    const { tracker } = setup();
    expect(tracker.status.verified).toEqual({ cliVersion: '2.1.332', date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
  });

  it('dispose cancels every timer and silences events', () => {
    const { clock, session, tracker, events } = idleSession();
    session.print(THINKING);
    const n = events.length;
    tracker.dispose();
    expect(clock.pendingTimers).toBe(0);
    session.print(IDLE);
    clock.advanceBy(60_000);
    expect(events).toHaveLength(n);
  });
});

describe('StatusTracker: blocked agents', () => {
  const NOT_LOGGED_IN = sample('not-logged-in');
  const RETRYING_WITH_RESET = THINKING.map((l) =>
    l.startsWith('✽ Drizzling…') ? '✻ Session limit reached · Retrying in 1s (10:53pm) · attempt 1/10' : l,
  );
  const RATE_LIMITED = sample('limit-reached');

  it('reported case: the prompt-submit hook is fresh, the turn ends on "Not logged in": waiting · login at once, with the CLI’s line', () => {
    const { clock, session, tracker, state } = idleSession();
    tracker.applyHookEvent({ event: 'UserPromptSubmit', at: clock.now() });
    session.print(THINKING);
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('active/thinking');
    const errorAt = clock.now();
    session.print(NOT_LOGGED_IN);
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('waiting/login');
    expect(clock.now() - errorAt).toBeLessThanOrEqual(REACTION_BUDGET_MS);
    expect(tracker.status.reason).toBe('claude/not-logged-in');
    expect(tracker.status.blocked).toEqual({ message: 'Not logged in · Please run /login' });
    // Still blocked once the hook has expired: the screen says so, not the hook.
    clock.advanceBy(HOOK_FRESH_MS + IDLE_DEBOUNCE_MS);
    expect(state()).toBe('waiting/login');
  });

  it('retrying carries the attempt and the reset; the final limit line keeps that reset; a retry is never stuck', () => {
    const { clock, session, tracker, state } = idleSession({ timeZone: 'UTC' });
    session.print(RETRYING_WITH_RESET);
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('active/retrying');
    expect(tracker.status.blocked).toMatchObject({ message: 'Session limit reached', attempt: 1, maxAttempts: 10 });
    const resetsAt = tracker.status.blocked!.resetsAt!;
    expect(new Date(resetsAt).toISOString()).toMatch(/T22:53:00/);
    clock.advanceBy(STUCK_THRESHOLD_MS * 2);
    expect(state()).toBe('active/retrying');
    session.print(RATE_LIMITED);
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('waiting/limit');
    expect(tracker.status.blocked).toEqual({ message: 'API Error: Request rejected (429) · rate limited', resetsAt });
  });

  it('a limit met during start-up (a prompt on the command line): the retry row drawn in the grace still gives the limit its reset', () => {
    const { clock, session, tracker, state } = setup({ timeZone: 'UTC' });
    session.print(RETRYING_WITH_RESET);
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('starting/null');
    session.print(RATE_LIMITED);
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('waiting/limit');
    expect(new Date(tracker.status.blocked!.resetsAt!).toISOString()).toMatch(/T22:53:00/);
  });

  it('a stale busy hook gives way once the screen drew the turn and then its end, within 300 ms, and says so', () => {
    const { clock, session, tracker, state } = idleSession();
    tracker.applyHookEvent({ event: 'UserPromptSubmit', at: clock.now() });
    // The screen has not drawn the turn yet: the hook holds against the idle screen.
    clock.advanceBy(2 * STRONG_IDLE_DEBOUNCE_MS);
    expect(state()).toBe('active/thinking');
    session.print(THINKING);
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    const endedAt = clock.now();
    session.print(IDLE); // the turn ended; no Stop hook came
    clock.advanceBy(REACTION_BUDGET_MS);
    expect(state()).toBe('idle/ready');
    expect(tracker.status.reason).toBe('claude/idle-shortcuts-hint (over stale hook:UserPromptSubmit)');
    expect(tracker.status.since - endedAt).toBeLessThanOrEqual(REACTION_BUDGET_MS);
  });
});

describe('StatusTracker: retries reported by the CLI, not drawn', () => {
  /** Claude's samples stand in for any CLI's screens: a spinner that only animates, then text. */
  function retriedRequest() {
    const s = idleSession();
    s.tracker.applyHookEvent({ event: 'UserPromptSubmit', at: s.clock.now() });
    s.tracker.applyHookEvent({ event: 'ModelRequest', at: s.clock.now() });
    s.session.print(thinkingFrame(0));
    s.clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(s.state()).toBe('active/thinking');
    return s;
  }

  it('a model request repeated with nothing between is a retry: active · retrying with the attempt, and never stuck while the spinner only animates', () => {
    const { clock, session, tracker, state } = retriedRequest();
    clock.advanceBy(5_000); // the CLI waits out its back-off, drawing only animation
    tracker.applyHookEvent({ event: 'ModelRequest', at: clock.now() });
    expect(state()).toBe('active/retrying');
    expect(tracker.status.reason).toBe('hook:ModelRequest');
    expect(tracker.status.blocked).toEqual({ message: 'the model request is being retried', attempt: 2 });
    for (let i = 1; i <= 12; i++) {
      clock.advanceBy(2_500); // 30 s of spinner frames: past the hook's freshness and the stuck threshold
      session.print(thinkingFrame(i));
      if (i === 6) tracker.applyHookEvent({ event: 'ModelRequest', at: clock.now() });
    }
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('active/retrying');
    expect(tracker.status.blocked?.attempt).toBe(3);
  });

  it('a retry that never comes back is stuck once its hold is over; an answer on screen ends the retry at once', () => {
    const { clock, session, tracker, state } = retriedRequest();
    tracker.applyHookEvent({ event: 'ModelRequest', at: clock.now() });
    expect(state()).toBe('active/retrying');
    for (let i = 1; i <= 16; i++) {
      clock.advanceBy(2_500); // 40 s of animation: no attempt came, nothing new drawn
      session.print(thinkingFrame(i));
    }
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('stuck/thinking');

    tracker.applyHookEvent({ event: 'ModelRequest', at: clock.now() });
    expect(state()).toBe('active/retrying');
    session.print(RESPONDING);
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('active/responding');
    // The answer was drawn: the next request (after a tool, say) is a new one, not a retry.
    tracker.applyHookEvent({ event: 'ModelRequest', at: clock.now() });
    session.print(thinkingFrame(20));
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('active/thinking');
  });

  it("a CLI's own retry report carries its message and attempt, and holds until its next attempt is due", () => {
    const { clock, session, tracker, state } = retriedRequest();
    const retryAt = clock.now() + 40_000;
    tracker.applyHookEvent({ event: 'ApiRetry', at: clock.now(), message: 'Rate limited', attempt: 1, retryAt });
    expect(state()).toBe('active/retrying');
    expect(tracker.status.blocked).toEqual({ message: 'Rate limited', attempt: 1 });
    for (let i = 1; clock.now() < retryAt; i++) {
      clock.advanceBy(2_500);
      session.print(thinkingFrame(i));
    }
    expect(state()).toBe('active/retrying');
    clock.advanceBy(HOOK_FRESH_MS + RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('stuck/thinking');
  });

  it('a retry is over once the screen shows the turn given up: the next turn starts thinking, not retrying', () => {
    const { clock, session, tracker, state } = retriedRequest();
    tracker.applyHookEvent({ event: 'ApiRetry', at: clock.now(), message: 'Rate limited' });
    session.print(thinkingFrame(1));
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('active/retrying');
    session.print(sample('api-error-gave-up'));
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('waiting/api_error');
    // The next prompt is drawn running before its own hook comes (Copilot CLI: 0.2-0.4 s later).
    session.print(thinkingFrame(2));
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('active/thinking');
    expect(tracker.status.blocked).toBeUndefined();
  });
});

describe('unknown dialogs and the arbitration between hooks and the screen', () => {
  /** Claude Code as a newer version meets it: the permission dialog is one its rules never saw. */
  function withoutPermissionRule() {
    const claude = resolvePreset('claude');
    return { ...claude, rules: { ...claude.rules, rules: claude.rules.rules.filter((r) => r.id !== 'permission-prompt') } };
  }

  function idleWithout() {
    const s = setup({}, withoutPermissionRule());
    s.session.screen.setTitle('✳ Claude Code');
    s.session.print(IDLE);
    s.clock.advanceBy(STARTUP_GRACE_MS + RECOMPUTE_COALESCE_MS);
    expect(s.state()).toBe('idle/ready');
    return s;
  }

  it('a dialog no rule knows is waiting at once with low confidence, under an idle window title', () => {
    const { clock, session, tracker, state, events } = idleWithout();
    session.print(PERMISSION);
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('waiting/question');
    expect(tracker.status).toMatchObject({
      reason: 'claude/unrecognised-dialog',
      confidence: 'low',
      confidenceReason: expect.stringMatching(/^unrecognised dialog — no claude rule knows this screen \(rules of version 2\.1\.332\)$/),
    });
    expect(events.at(-1)?.primary).toBe('waiting');
    session.print(IDLE); // answered: the composer is back
    clock.advanceBy(STRONG_IDLE_DEBOUNCE_MS + RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('idle/ready');
    expect(tracker.status.confidence).toBe('high');
  });

  it('a fresh non-waiting hook does not hide an unknown dialog; a Stop hook does not either', () => {
    for (const event of ['PreToolUse', 'Stop'] as const) {
      const { clock, session, tracker, state } = idleWithout();
      tracker.applyHookEvent({ event, at: clock.now(), toolName: 'Bash' });
      session.print(PERMISSION);
      clock.advanceBy(RECOMPUTE_COALESCE_MS);
      expect(state(), event).toBe('waiting/question');
      tracker.dispose();
    }
  });

  it('a waiting hook is not overruled by a screen that matches nothing, however long it lasts', () => {
    const { clock, session, tracker, state } = idleWithout();
    tracker.applyHookEvent({ event: 'Notification', at: clock.now(), notificationType: 'permission_prompt' });
    session.print(['  Auto mode could not reach its classifier.', '', '  (a screen no rule and no dialog cue knows)']);
    clock.advanceBy(HOOK_FRESH_MS * 3);
    expect(state()).toBe('waiting/permission');
    expect(tracker.status.reason).toBe('hook:Notification');
    // The screen shows what it knows again (the turn runs after the answer): the screen decides.
    session.print(THINKING);
    clock.advanceBy(RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('active/thinking');
    expect(tracker.status.reason).toBe('claude/thinking-after-prompt');
  });

  it('once expired, a waiting hook gives way to a screen a rule recognises (the other way round)', () => {
    const { clock, tracker, state } = idleWithout();
    tracker.applyHookEvent({ event: 'Notification', at: clock.now(), notificationType: 'permission_prompt' });
    expect(state()).toBe('waiting/permission'); // fresh: the hook decides over the idle composer
    clock.advanceBy(HOOK_FRESH_MS + IDLE_DEBOUNCE_MS + RECOMPUTE_COALESCE_MS);
    expect(state()).toBe('idle/ready');
    expect(tracker.status.reason).toBe('claude/idle-shortcuts-hint');
  });
});

describe('version awareness', () => {
  it('carries the running CLI version next to the verified one', () => {
    const { tracker, events } = idleSession();
    expect(tracker.status).toMatchObject({ verifiedVersion: '2.1.332' });
    expect(tracker.status.cliVersion).toBeUndefined();
    tracker.setCliVersion('2.1.400');
    expect(tracker.status).toMatchObject({ cliVersion: '2.1.400', verifiedVersion: '2.1.332' });
    expect(events.at(-1)?.cliVersion).toBe('2.1.400');
    const n = events.length;
    tracker.setCliVersion('2.1.400');
    expect(events).toHaveLength(n);
  });

  it('an unverified preset has no verified version', () => {
    const { tracker } = setup({}, resolvePreset('cursor-agent'));
    expect(tracker.status.verifiedVersion).toBeUndefined();
  });
});
