/**
 * Blocked agents on a virtual clock: attention once per blocked episode with the CLI's reason; the
 * actions (open pane, retry now, continue at reset) with clear refusals; a continue at reset as a
 * real TimerManager timer — listed, pausable, delivered while the agent is blocked, then checked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Emitter, VirtualClock } from '../base';
import type { ControlEvent } from '../../../shared/api';
import type { ProcessInfo } from '../../../shared/model';
import type { AgentDetail, AgentPrimary, AgentStatusInfo, BlockedInfo } from '../../../shared/status';
import { FakeTimerHost } from '../timers/testing/fakeTimerHost';
import { APP_ACTOR, TimerManager } from '../timers';
import { BlockedAgents, CONTINUE_CONFIRM_MS, RESET_MARGIN_MS, type BlockedHost } from './blockedAgents';
import { nextEpisode } from './blockedEpisodes';
import { PROBE_MAX_TRIES, probeDelayMs } from './continueProbe';
import { ContinueSettings } from './continueSetting';
import { SettingsSchema } from '../../../shared/config';

const ID = 'p_c1a0de';
const RESET_IN_MS = 3 * 60_000;

/** A core as the service sees it: one Claude agent whose status the test sets. */
class FakeCore implements BlockedHost {
  readonly events = new Emitter<ControlEvent>();
  readonly onEvent = this.events.event;
  readonly attention: string[] = [];
  readonly typed: string[] = [];
  selected: string | undefined;
  agent: AgentStatusInfo;
  /** The project's settings section and the agent's switchboard.json `continueAtReset`. */
  readonly settings: { continueAtReset?: boolean; continueProbeFirstMs?: number } = {};
  entryContinueAtReset: boolean | undefined;
  continueSettings: ContinueSettings | undefined;

  constructor(
    readonly timers: TimerManager,
    private readonly clock: VirtualClock,
    private readonly timerHost: FakeTimerHost,
  ) {
    this.agent = status('idle', 'ready');
    timerHost.addWorkedAgent(ID);
  }

  describe(id: string): ProcessInfo {
    if (id !== ID) throw new Error(`Unknown process id "${id}"`);
    const continueAtReset = this.continueSettings?.of(id, this.entryContinueAtReset);
    return { id, name: 'claude', kind: 'agent', agent: this.agent, ...(continueAtReset && { continueAtReset }) } as ProcessInfo;
  }
  selectProcess(id: string) {
    this.selected = id;
  }
  async sendUserTurn(_id: string, text: string) {
    this.typed.push(text);
  }
  requestAttention(_id: string, reason: string) {
    this.attention.push(reason);
  }

  set(primary: AgentPrimary, detail: AgentDetail, blocked?: BlockedInfo): void {
    this.agent = status(primary, detail, blocked, this.clock.now());
    const isBlocked = primary === 'waiting' && detail !== 'permission' && detail !== 'question';
    if (isBlocked) this.timerHost.setBlocked(ID, `${detail}: ${blocked?.message ?? ''}`);
    else {
      this.timerHost.setBlocked(ID, undefined);
      this.timerHost.setStatus(ID, primary);
    }
    this.events.fire({ type: 'processChanged', process: this.describe(ID) });
  }
}

function status(primary: AgentPrimary, detail: AgentDetail, blocked?: BlockedInfo, since = 0): AgentStatusInfo {
  return { preset: 'claude', primary, detail, reason: `rule ${primary}/${detail}`, since, ...(blocked && { blocked }) } as AgentStatusInfo;
}

let clock: VirtualClock;
const disposables: Array<{ dispose(): void }> = [];
afterEach(() => {
  while (disposables.length) disposables.pop()!.dispose();
  expect(clock.pendingTimers).toBe(0);
});

function setup() {
  clock = new VirtualClock(Date.UTC(2026, 10, 27, 14, 0));
  const timerHost = new FakeTimerHost(clock);
  const timers = new TimerManager({ host: timerHost, clock });
  const core = new FakeCore(timers, clock, timerHost);
  const blocked = new BlockedAgents(core, { clock });
  core.continueSettings = blocked.settings;
  blocked.followTimers(timers);
  disposables.push(timers, blocked);
  return { core, blocked, timers, timerHost };
}

async function advance(ms: number): Promise<void> {
  clock.advanceBy(ms);
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

/** The reset as the inbox shows it, in this machine's zone. */
const hhmm = (ms: number) => new Date(ms).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false });
const limitReason = (resetsAt: number) => `claude: usage limit, resets ${hhmm(resetsAt)}`;
const limit = (): BlockedInfo => ({ message: 'API Error: Request rejected (429) · rate limited', resetsAt: clock.now() + RESET_IN_MS });

describe('attention once per blocked episode', () => {
  it('names the CLI and its reason, and stays quiet while the CLI retries and fails on the same cause', () => {
    const { core } = setup();
    core.set('active', 'thinking');
    core.set('active', 'retrying', { message: 'Session limit reached', attempt: 1, maxAttempts: 1 });
    const first = limit();
    core.set('waiting', 'limit', first);
    expect(core.attention).toEqual([limitReason(first.resetsAt!)]);
    // A retry by hand that hits the same limit: the same episode.
    core.set('active', 'retrying', { message: 'Session limit reached' });
    core.set('waiting', 'limit', limit());
    core.set('idle', 'ready');
    core.set('waiting', 'limit', limit());
    expect(core.attention).toHaveLength(1);
    // Another cause is news; real work ends the episode, so the next block is news again.
    core.set('waiting', 'login', { message: 'Invalid API key · Fix external API key' });
    core.set('active', 'responding');
    core.set('waiting', 'login', { message: 'Invalid API key · Fix external API key' });
    expect(core.attention).toEqual([limitReason(first.resetsAt!), 'claude: not signed in', 'claude: not signed in']);
  });

  it('the episode table: retrying and idle keep it, work and a permission prompt end it, dead forgets it', () => {
    const s = (p: AgentPrimary, d: AgentDetail) => status(p, d);
    expect(nextEpisode(undefined, s('waiting', 'limit'))).toEqual({ open: 'limit', began: true });
    expect(nextEpisode('limit', s('active', 'retrying'))).toEqual({ open: 'limit', began: false });
    expect(nextEpisode('limit', s('idle', 'ready'))).toEqual({ open: 'limit', began: false });
    expect(nextEpisode('limit', s('stuck', 'retrying'))).toEqual({ open: 'limit', began: false });
    expect(nextEpisode('limit', s('active', 'thinking'))).toEqual({ open: undefined, began: false });
    expect(nextEpisode('limit', s('waiting', 'permission'))).toEqual({ open: undefined, began: false });
    expect(nextEpisode('limit', s('dead', null))).toEqual({ open: undefined, began: false });
    expect(nextEpisode('limit', s('waiting', 'network'))).toEqual({ open: 'network', began: true });
  });
});

describe('actions on a blocked agent', () => {
  it('open_pane selects it; retry_now types the CLI’s continue; neither fits an agent that is not blocked', async () => {
    const { core, blocked } = setup();
    await expect(blocked.resolve({ id: ID, action: 'retry_now' })).rejects.toThrow(
      /"claude" is not blocked \(idle · ready\); nothing was sent/,
    );
    expect(core.typed).toEqual([]);
    core.set('waiting', 'api_error', { message: 'API Error: 529 Overloaded' });
    await expect(blocked.resolve({ id: ID, action: 'open_pane' })).resolves.toMatchObject({ done: '"claude" selected' });
    expect(core.selected).toBe(ID);
    await expect(blocked.resolve({ id: ID, action: 'retry_now' })).resolves.toMatchObject({ done: '"continue" typed into "claude"' });
    expect(core.typed).toEqual(['continue']);
    await expect(blocked.resolve({ id: ID, action: 'continue_at_reset' })).rejects.toThrow(
      /no limit with a reset time; nothing was scheduled/,
    );
  });

  it('continue at reset: a visible timer, pausable, typed at the reset while blocked; the agent working again asks nobody', async () => {
    const { core, blocked, timers, timerHost } = setup();
    const first = limit();
    core.set('waiting', 'limit', first);
    const result = await blocked.resolve({ id: ID, action: 'continue_at_reset' });
    const dueIn = RESET_IN_MS + RESET_MARGIN_MS;
    expect(result.timer).toMatchObject({
      kind: 'delay',
      ownerId: ID,
      whenBlocked: true,
      firesAt: clock.now() + dueIn,
      bodyPreview: 'continue',
    });
    expect(timers.list(APP_ACTOR).timers.map((t) => t.label)).toEqual([`continue at reset (usage limit, resets ${hhmm(first.resetsAt!)})`]);
    await expect(blocked.resolve({ id: ID, action: 'continue_at_reset' })).rejects.toThrow(/already continues at its reset/);
    // Pause holds it past the reset; resume counts the rest.
    timers.pause(APP_ACTOR, result.timer!.id);
    await advance(dueIn);
    expect(timerHost.delivered).toEqual([]);
    timers.resume(APP_ACTOR, result.timer!.id);
    await advance(dueIn - 1);
    expect(timerHost.delivered).toEqual([]);
    await advance(1);
    // Delivered although the agent is not idle: it is blocked, its composer under the error line.
    expect(timerHost.delivered).toEqual([{ id: ID, text: 'continue', at: clock.now() }]);
    core.set('active', 'responding');
    await advance(CONTINUE_CONFIRM_MS);
    expect(core.attention).toEqual([limitReason(first.resetsAt!)]);
  });

  it('a continue that meets the limit again raises attention at once; one never answered, after the confirm window', async () => {
    const { core, blocked, timerHost } = setup();
    const first = limit();
    core.set('waiting', 'limit', first);
    await blocked.resolve({ id: ID, action: 'continue_at_reset' });
    await advance(RESET_IN_MS + RESET_MARGIN_MS);
    expect(timerHost.delivered).toHaveLength(1);
    core.set('waiting', 'limit', limit()); // the screen has not moved yet: not a verdict
    core.set('active', 'retrying', { message: 'Session limit reached' });
    expect(core.attention).toHaveLength(1);
    const again = limit();
    core.set('waiting', 'limit', again);
    expect(core.attention).toEqual([
      limitReason(first.resetsAt!),
      `${limitReason(again.resetsAt!)} — still blocked after continue at reset`,
    ]);
    // A second continue the CLI never answers: asked again when the window ends.
    await blocked.resolve({ id: ID, action: 'continue_at_reset' });
    await advance(RESET_IN_MS + RESET_MARGIN_MS);
    expect(timerHost.delivered).toHaveLength(2);
    await advance(CONTINUE_CONFIRM_MS - 1);
    expect(core.attention).toHaveLength(2);
    await advance(1);
    expect(core.attention).toHaveLength(3);
  });

  it('a continue that comes due while the agent is not blocked waits, and is cancelled by hand like any timer', async () => {
    const { core, blocked, timers, timerHost } = setup();
    core.set('waiting', 'limit', limit());
    const { timer } = await blocked.resolve({ id: ID, action: 'continue_at_reset' });
    core.set('active', 'thinking'); // someone typed in the pane meanwhile
    core.set('idle', 'ready');
    await advance(RESET_IN_MS + RESET_MARGIN_MS);
    expect(timerHost.delivered).toEqual([]);
    expect(timers.cancel(APP_ACTOR, timer!.id)).toMatchObject({ state: 'cancelled' });
  });
});

describe('continue at reset as a setting', () => {
  it('the toggle wins over the agent entry, the entry over the project, and off is the default', () => {
    const project: { continueAtReset?: boolean } = {};
    const settings = new ContinueSettings(() => project.continueAtReset);
    expect(settings.of(ID, undefined)).toEqual({ enabled: false, source: 'default' });
    project.continueAtReset = true;
    expect(settings.of(ID, undefined)).toEqual({ enabled: true, source: 'project' });
    expect(settings.of(ID, false)).toEqual({ enabled: false, source: 'agent' });
    settings.set(ID, true);
    expect(settings.of(ID, false)).toEqual({ enabled: true, source: 'toggle' });
    settings.forget(ID);
    expect(settings.of(ID, false)).toEqual({ enabled: false, source: 'agent' });
    settings.dispose();
  });

  it('on in the project: a limit with a reset gets its continue without a click; cancelled by hand, not again in that episode', async () => {
    const { core, timers, timerHost } = setup();
    core.settings.continueAtReset = true;
    const first = limit();
    core.set('waiting', 'limit', first);
    const [armed] = timers.list(APP_ACTOR).timers;
    expect(armed).toMatchObject({ ownerId: ID, whenBlocked: true, firesAt: first.resetsAt! + RESET_MARGIN_MS, bodyPreview: 'continue' });
    expect(armed.label).toBe(`continue at reset (usage limit, resets ${hhmm(first.resetsAt!)})`);
    timers.cancel(APP_ACTOR, armed.id);
    core.set('active', 'retrying', { message: 'Session limit reached' });
    core.set('waiting', 'limit', limit());
    expect(timers.list(APP_ACTOR).timers).toEqual([]);
    // Real work ends the episode; the next limit is armed again, typed at its reset, and checked.
    core.set('active', 'thinking');
    const second = limit();
    core.set('waiting', 'limit', second);
    expect(timers.list(APP_ACTOR).timers).toHaveLength(1);
    await advance(RESET_IN_MS + RESET_MARGIN_MS);
    expect(timerHost.delivered).toEqual([{ id: ID, text: 'continue', at: clock.now() }]);
    core.set('active', 'responding');
    await advance(CONTINUE_CONFIRM_MS);
    expect(core.attention).toEqual([limitReason(first.resetsAt!), limitReason(second.resetsAt!)]);
  });

  it('another cause within the episode replaces what the setting armed: a probe for an API error gives way to the continue at the reset', () => {
    const { core, timers } = setup();
    core.settings.continueAtReset = true;
    core.set('waiting', 'api_error', { message: 'API Error: 529 Overloaded' });
    expect(timers.list(APP_ACTOR).timers.map((t) => t.label)).toEqual([
      `continue probe 1/${PROBE_MAX_TRIES} (API error, retries given up)`,
    ]);
    const reset = limit();
    core.set('waiting', 'limit', reset);
    expect(timers.list(APP_ACTOR).timers.map((t) => t.label)).toEqual([`continue at reset (usage limit, resets ${hhmm(reset.resetsAt!)})`]);
    // Cancelled by hand: the same cause again arms nothing.
    timers.cancel(APP_ACTOR, timers.list(APP_ACTOR).timers[0].id);
    core.set('waiting', 'limit', limit());
    expect(timers.list(APP_ACTOR).timers).toEqual([]);
  });

  it("a cause that changes while a typed continue is checked leaves one next try, the check's own", async () => {
    const { core, timers } = setup();
    core.settings.continueAtReset = true;
    core.set('waiting', 'api_error', { message: 'API Error: 529 Overloaded' });
    await advance(probeDelayMs(1));
    core.set('active', 'thinking');
    core.set('waiting', 'limit', { message: 'API Error: Request rejected (429) · rate limited' });
    expect(timers.list(APP_ACTOR).timers.map((t) => t.label)).toEqual([`continue probe 2/${PROBE_MAX_TRIES} (usage limit)`]);
  });

  it("the agent's own entry says off over the project's on; the toggle turns it on (armed at once) and off (cancelled)", async () => {
    const { core, blocked, timers } = setup();
    core.settings.continueAtReset = true;
    core.entryContinueAtReset = false;
    core.set('waiting', 'limit', limit());
    expect(timers.list(APP_ACTOR).timers).toEqual([]);
    const on = blocked.setContinueAtReset({ id: ID, enabled: true });
    expect(on.continueAtReset).toEqual({ enabled: true, source: 'toggle' });
    expect(on.done).toBe(`on (timer ${on.timer!.id})`);
    expect(timers.list(APP_ACTOR).timers.map((t) => t.id)).toEqual([on.timer!.id]);
    const off = blocked.setContinueAtReset({ id: ID, enabled: false });
    expect(off).toMatchObject({ continueAtReset: { enabled: false, source: 'toggle' }, done: `off (timer ${on.timer!.id} cancelled)` });
    expect(timers.list(APP_ACTOR).timers).toEqual([]);
    expect(() => blocked.setContinueAtReset({ id: 'p_nope', enabled: true })).toThrow(/Unknown process id/);
  });
});

describe('the back-off probe where no reset is shown', () => {
  const noReset = (): BlockedInfo => ({ message: 'API Error: Request rejected (429) · rate limited' });

  it('doubles from 1 min to a 30 min cap, six tries, each typed and checked; then a person is asked once', async () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => probeDelayMs(n) / 60_000)).toEqual([1, 2, 4, 8, 16, 30, 30]);
    const { core, timers, timerHost } = setup();
    core.settings.continueAtReset = true;
    core.set('waiting', 'limit', noReset());
    expect(core.attention).toEqual(['claude: usage limit']);
    for (let n = 1; n <= PROBE_MAX_TRIES; n++) {
      const [probe] = timers.list(APP_ACTOR).timers;
      expect(probe).toMatchObject({
        label: `continue probe ${n}/${PROBE_MAX_TRIES} (usage limit)`,
        firesAt: clock.now() + probeDelayMs(n),
      });
      await advance(probeDelayMs(n));
      expect(timerHost.delivered).toHaveLength(n);
      // The CLI retries the turn and meets the limit again: the verdict, at once.
      core.set('active', 'retrying', { message: 'rate limited' });
      core.set('waiting', 'limit', noReset());
    }
    expect(timers.list(APP_ACTOR).timers).toEqual([]);
    expect(core.attention).toEqual(['claude: usage limit', `claude: usage limit — still blocked after ${PROBE_MAX_TRIES} continue probes`]);
  });

  it("the project's first wait (settings.continueProbeFirstMs) starts the doubling; the schema refuses less than 5 s", async () => {
    expect(SettingsSchema.safeParse({ continueProbeFirstMs: 4_999 }).error?.issues[0].message).toBe('must be at least 5000 (5 s)');
    const { core, timers, timerHost } = setup();
    core.settings.continueAtReset = true;
    core.settings.continueProbeFirstMs = 5_000;
    core.set('waiting', 'limit', noReset());
    expect(timers.list(APP_ACTOR).timers[0]).toMatchObject({ firesAt: clock.now() + 5_000 });
    await advance(5_000);
    expect(timerHost.delivered).toHaveLength(1);
    core.set('active', 'retrying', { message: 'rate limited' });
    core.set('waiting', 'limit', noReset());
    expect(timers.list(APP_ACTOR).timers[0]).toMatchObject({
      label: `continue probe 2/${PROBE_MAX_TRIES} (usage limit)`,
      firesAt: clock.now() + 10_000,
    });
    expect([1, 2, 3, 10].map((n) => probeDelayMs(n, 5_000) / 1000)).toEqual([5, 10, 20, 1800]);
  });

  it('a continue whose turn only begins (an idle blink as it is typed, a Working row) and meets the limit again is no success; one answered is', async () => {
    const { core, timers, timerHost } = setup();
    core.settings.continueAtReset = true;
    core.set('waiting', 'limit', noReset());
    await advance(probeDelayMs(1));
    expect(timerHost.delivered).toHaveLength(1);
    // Codex: its error report cleared as the continue is typed, its Working row, the refusal again.
    core.set('idle', 'ready');
    core.set('active', 'thinking');
    core.set('waiting', 'limit', noReset());
    expect(timers.list(APP_ACTOR).timers.map((t) => t.label)).toEqual([`continue probe 2/${PROBE_MAX_TRIES} (usage limit)`]);
    expect(core.attention).toEqual(['claude: usage limit']);
    await advance(probeDelayMs(2));
    core.set('idle', 'ready');
    core.set('active', 'thinking');
    core.set('idle', 'ready'); // a short answer, over before it was seen streaming
    await advance(CONTINUE_CONFIRM_MS + probeDelayMs(3));
    expect(timerHost.delivered).toHaveLength(2);
    expect(timers.list(APP_ACTOR).timers).toEqual([]);
    // The work ended the episode: the next limit is news.
    core.set('waiting', 'limit', noReset());
    expect(core.attention).toEqual(['claude: usage limit', 'claude: usage limit']);
    timers.cancel(APP_ACTOR, timers.list(APP_ACTOR).timers[0].id);
  });

  it('a probe the CLI never answers counts as failed after the confirm window; the agent going on stops the probing', async () => {
    const { core, timers, timerHost } = setup();
    core.settings.continueAtReset = true;
    core.set('waiting', 'api_error', { message: 'API Error: 529 Overloaded' });
    await advance(probeDelayMs(1));
    expect(timerHost.delivered).toHaveLength(1);
    expect(timers.list(APP_ACTOR).timers).toEqual([]);
    await advance(CONTINUE_CONFIRM_MS);
    const [second] = timers.list(APP_ACTOR).timers;
    expect(second).toMatchObject({
      label: `continue probe 2/${PROBE_MAX_TRIES} (API error, retries given up)`,
      firesAt: clock.now() + probeDelayMs(2),
    });
    await advance(probeDelayMs(2));
    core.set('active', 'responding');
    await advance(CONTINUE_CONFIRM_MS + probeDelayMs(3));
    expect(timerHost.delivered).toHaveLength(2);
    expect(timers.list(APP_ACTOR).timers).toEqual([]);
    expect(core.attention).toHaveLength(1);
  });

  it('stops when a person acts (retry now, or cancelling the probe), and never probes a refused sign-in', async () => {
    const { core, blocked, timers, timerHost } = setup();
    core.settings.continueAtReset = true;
    core.set('waiting', 'network', { message: 'Unable to connect to API' });
    expect(timers.list(APP_ACTOR).timers).toHaveLength(1);
    await blocked.resolve({ id: ID, action: 'retry_now' });
    expect(timers.list(APP_ACTOR).timers).toEqual([]);
    core.set('active', 'responding');
    core.set('waiting', 'network', { message: 'Unable to connect to API' });
    const [probe] = timers.list(APP_ACTOR).timers;
    timers.cancel(APP_ACTOR, probe.id);
    await advance(PROBE_MAX_TRIES * probeDelayMs(PROBE_MAX_TRIES));
    expect(timerHost.delivered).toEqual([]);
    core.set('active', 'responding');
    core.set('waiting', 'login', { message: 'Not logged in · Please run /login' });
    expect(timers.list(APP_ACTOR).timers).toEqual([]);
  });

  it('never probes a CLI that keeps retrying by itself: a person is told, nothing is typed', async () => {
    const { core, timers, timerHost } = setup();
    core.settings.continueAtReset = true;
    core.set('waiting', 'network', { message: 'Connection failed: error sending request', retriesByItself: true });
    expect(core.attention).toEqual(['claude: API unreachable']);
    expect(timers.list(APP_ACTOR).timers).toEqual([]);
    await advance(PROBE_MAX_TRIES * probeDelayMs(PROBE_MAX_TRIES));
    expect(timerHost.delivered).toEqual([]);
  });
});
