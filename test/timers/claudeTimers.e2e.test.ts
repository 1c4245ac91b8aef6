/**
 * Timers end to end with the REAL Claude Code (2.1.197) against the mock Messages API: agents
 * spawned by Switchboard through the core (spawnAgent with the harness's argv and env, MCP wired
 * in by the preset), timers set through MCP by an agent itself or by an external client, bodies
 * delivered by typing into the agent's PTY. Ground truth is the mock's timeline: a delivered
 * body is the text of the next user message it receives. Every wait is on an event, with a
 * timeout whose message shows the agent's status and screen.
 *
 * One lead and one worker serve the first group (starting an agent costs seconds on two cores);
 * each test leaves both idle with no timers. The worker is made busy with a turn that hangs
 * until the test releases it.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createCore, type CoreHandle } from '../../src/main/core/composition';
import { waitForEvent } from '../../src/main/core/base';
import { APP_ACTOR, isShowingPrompt, type Idleness } from '../../src/main/core/timers';
import { CLAUDE_BIN, DEFAULT_ALLOWED_TOOLS, createClaudeHarness, type ClaudeHarness } from '../fixtures/anthropic/claudeHarness';
import { startMockAnthropic, type AnthropicTurn, type MockAnthropic } from '../fixtures/anthropic/mockAnthropic';
import { callOk, connectClient } from '../mcp/mcpHarness';
import { waitForFileText, screenTail } from '../support/wait';

/** A real CLI on a busy 2-core machine: starting and answering can take many seconds. */
const AGENT_WAIT_MS = 60_000;
const TEST_TIMEOUT_MS = 180_000;
/** The contract (docs/timers.md) checked here: pause/resume keeps the remaining time to within 100 ms. */
const PAUSE_TOLERANCE_MS = 100;
/** The agent may call the timer tools without a permission prompt (the preset pre-approves only read-only tools). */
const TIMER_TOOL_RULES = ['mcp__switchboard__timer_set', 'mcp__switchboard__timer_list'];

interface Agent {
  id: string;
  name: string;
  mock: MockAnthropic;
  harness: ClaudeHarness;
}

interface World {
  root: string;
  projectDir: string;
  dataDir: string;
  handle: CoreHandle;
  external: Client;
  /** Wall-clock time each agent last became idle in the timer sense. */
  idleSince: Map<string, number>;
}

async function startWorld(config?: unknown, dirs?: { root: string; projectDir: string; dataDir: string }): Promise<World> {
  const root = dirs?.root ?? realpathSync(mkdtempSync(join(tmpdir(), 'switchboard-timers-e2e-')));
  const projectDir = dirs?.projectDir ?? join(root, 'project');
  const dataDir = dirs?.dataDir ?? join(root, 'data');
  mkdirSync(projectDir, { recursive: true });
  mkdirSync(dataDir, { recursive: true });
  if (config) writeFileSync(join(projectDir, 'switchboard.json'), JSON.stringify(config));
  const handle = await createCore({ projectDir, dataDir, watchConfig: false, killGraceMs: 1_500, grantTrust: true });
  const external = await connectClient(handle.mcp.url, handle.mcp.token, 'timers-e2e');
  const idleSince = new Map<string, number>();
  handle.timers.idleness.onDidChange((change) => {
    if (change.idleness === 'idle') idleSince.set(change.id, Date.now());
  });
  return { root, projectDir, dataDir, handle, external, idleSince };
}

async function stopWorld(world: World | undefined): Promise<void> {
  if (!world) return;
  await world.external.close().catch(() => undefined);
  await world.handle.dispose();
}

async function startClaude(world: World, name: string, options: { turns?: AnthropicTurn[]; instructions?: string } = {}): Promise<Agent> {
  const mock = await startMockAnthropic({ turns: options.turns ?? [] });
  const harness = await createClaudeHarness({ baseUrl: mock.url, allow: [...DEFAULT_ALLOWED_TOOLS, ...TIMER_TOOL_RULES] });
  const info = await world.handle.core.spawnAgent({
    preset: 'claude',
    name,
    argv: harness.argv,
    env: harness.env,
    cwd: harness.cwd,
    ...(options.instructions ? { instructions: options.instructions } : {}),
  });
  return { id: info.id, name, mock, harness };
}

async function stopClaude(world: World | undefined, agent: Agent | undefined): Promise<void> {
  if (!agent) return;
  if (world?.handle.core.findEntry(agent.id)) await world.handle.core.closeProcess(agent.id);
  await agent.mock.close();
  await agent.harness.cleanup();
}

function describeAgent(world: World, agent: Agent): string {
  const core = world.handle.core;
  if (!core.findEntry(agent.id)) return `${agent.name}: closed`;
  const status = core.describe(agent.id).agent;
  const screen = screenTail(core.entry(agent.id));
  return `${agent.name} (${agent.id}) status ${status?.primary}/${status?.detail} (${status?.reason}), idleness ${world.handle.timers.idleness.idlenessOf(agent.id)}\n${screen}`;
}

/** Resolves once the timer manager sees the agent in `state` (now or later). */
function waitForIdleness(world: World, agent: Agent, state: Idleness, timeoutMs = AGENT_WAIT_MS): Promise<void> {
  const idleness = world.handle.timers.idleness;
  if (idleness.idlenessOf(agent.id) === state) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${agent.name} to be ${state}:\n${describeAgent(world, agent)}`));
    }, timeoutMs);
    const sub = idleness.onDidChange((change) => {
      if (change.id !== agent.id || change.idleness !== state) return;
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
}

/** Resolves when `check()` holds, re-checked on the agent's status and screen changes. */
function waitUntil(world: World, agent: Agent, check: () => boolean, label: string, timeoutMs = AGENT_WAIT_MS): Promise<void> {
  if (check()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const subs = [
      world.handle.timers.idleness.onDidChange(() => recheck()),
      world.handle.core.entry(agent.id).screen.onDidChange(() => recheck()),
    ];
    const timer = setTimeout(() => {
      subs.forEach((s) => s.dispose());
      reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${label}:\n${describeAgent(world, agent)}`));
    }, timeoutMs);
    function recheck(): void {
      if (!check()) return;
      clearTimeout(timer);
      subs.forEach((s) => s.dispose());
      resolve();
    }
  });
}

/**
 * A turn is over once the agent turned idle after the model's answer ended (a stale idle from
 * before the turn does not count) and its screen shows the prompt again, so the next keystrokes
 * start a fresh prompt, as a person would wait to type.
 */
async function waitForTurnEnd(world: World, agent: Agent, requestId: string): Promise<void> {
  const end = await agent.mock.waitFor('stream_end', (e) => e.requestId === requestId, {
    timeoutMs: AGENT_WAIT_MS,
    context: () => describeAgent(world, agent),
  });
  const isOver = () =>
    world.handle.timers.idleness.idlenessOf(agent.id) === 'idle' &&
    (world.idleSince.get(agent.id) ?? 0) >= end.at &&
    isShowingPrompt(world.handle.core, agent.id);
  await waitUntil(world, agent, isOver, `${agent.name} to finish its turn (${requestId})`);
}

/** The agent's next main request after `mark`: what the model was asked next. */
function nextUserMessage(world: World, agent: Agent, after: number) {
  return agent.mock.waitFor('request', (e) => e.kind === 'main', {
    after,
    timeoutMs: AGENT_WAIT_MS,
    context: () => describeAgent(world, agent),
  });
}

/** Gives the agent a turn that hangs until `finishTurn`: it is busy meanwhile. */
async function startLongTurn(world: World, agent: Agent): Promise<void> {
  const mark = agent.mock.mark();
  agent.mock.enqueue([{ text: 'Working on it.' }, { hang: true }]);
  await world.handle.core.sendUserTurn(agent.id, 'Work on the long task now.');
  await agent.mock.waitFor('hang_start', undefined, { after: mark, timeoutMs: AGENT_WAIT_MS, context: () => describeAgent(world, agent) });
  await waitForIdleness(world, agent, 'busy');
}

/** Ends the hanging turn; resolves when the turn is over. Returns the stream_end's wall-clock time. */
async function finishTurn(world: World, agent: Agent): Promise<number> {
  const mark = agent.mock.mark();
  expect(agent.mock.release()).toBe(1);
  const end = await agent.mock.waitFor('stream_end', (e) => e.kind === 'main', { after: mark, timeoutMs: AGENT_WAIT_MS });
  await waitForTurnEnd(world, agent, end.requestId);
  return end.at;
}

/** Waits until the agent's turn for `request` is over and returns the request's user text. */
async function answered(world: World, agent: Agent, request: { requestId: string; userText: string | null }): Promise<string | null> {
  await waitForTurnEnd(world, agent, request.requestId);
  return request.userText;
}

describe('timers with real Claude Code agents', () => {
  let world: World;
  let lead: Agent;
  let worker: Agent;

  beforeAll(async () => {
    world = await startWorld();
    // Instructions at spawn: each agent takes its first turn, so it is idle in the timer sense after.
    [lead, worker] = await Promise.all([
      startClaude(world, 'lead', { instructions: 'You lead. Say hello.' }),
      startClaude(world, 'worker', { instructions: 'You work. Say hello.' }),
    ]);
    for (const agent of [lead, worker]) {
      const first = await agent.mock.waitFor('request', (e) => e.kind === 'main', {
        timeoutMs: AGENT_WAIT_MS,
        context: () => describeAgent(world, agent),
      });
      await waitForTurnEnd(world, agent, first.requestId);
    }
  }, TEST_TIMEOUT_MS);

  afterAll(async () => {
    await stopClaude(world, lead);
    await stopClaude(world, worker);
    await stopWorld(world);
    if (world) rmSync(world.root, { recursive: true, force: true });
  }, TEST_TIMEOUT_MS);

  afterEach(async () => {
    // A failed test may leave timers or a hanging turn behind: the next test starts clean.
    for (const t of world.handle.timers.list(APP_ACTOR).timers) world.handle.timers.cancel(APP_ACTOR, t.id);
    for (const agent of [lead, worker]) {
      if (agent && agent.mock.release() > 0) await waitForIdleness(world, agent, 'idle');
    }
  }, TEST_TIMEOUT_MS);

  it(
    'timer_set called by the agent itself: the body is the next user message its model receives',
    async () => {
      const body = 'TIMER-SELF: time to check the build.';
      const mark = lead.mock.mark();
      lead.mock.enqueue(
        [{ toolUse: { name: 'mcp__switchboard__timer_set', input: { seconds: 1, body, label: 'build check' } } }],
        [{ text: 'Timer set for one second.' }],
        [{ text: 'Checking the build now.' }],
      );
      await world.handle.core.sendUserTurn(lead.id, 'Remind yourself in one second to check the build.');
      const result = await lead.mock.waitFor('tool_result', undefined, {
        after: mark,
        timeoutMs: AGENT_WAIT_MS,
        context: () => describeAgent(world, lead),
      });
      expect(result.isError, result.content).toBe(false);
      const set = JSON.parse(result.content) as Record<string, unknown>;
      expect(set).toMatchObject({ kind: 'delay', owner_process_id: lead.id, label: 'build check', created_by: lead.id });
      const afterTool = lead.mock.mark();
      await lead.mock.waitFor('stream_end', (e) => e.kind === 'main', { after: afterTool, timeoutMs: AGENT_WAIT_MS });
      const next = await nextUserMessage(world, lead, afterTool);
      expect(await answered(world, lead, next)).toBe(body);
      const { history } = await callOk<{ history: Array<Record<string, unknown>> }>(world.external, 'timer_list');
      expect(history[0]).toMatchObject({ timer_id: set.timer_id, state: 'fired', reason: 'delay', owner_process_id: lead.id });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a busy owner gets its body only once it is idle again',
    async () => {
      const body = 'TIMER-BUSY: your reminder.';
      await startLongTurn(world, lead);
      const fired = new Promise<void>((resolve) => {
        const sub = world.handle.timers.onDidFireTimer((e) => {
          if (e.timer.bodyPreview !== body) return;
          sub.dispose();
          resolve();
        });
      });
      const set = await callOk<{ timer_id: string }>(world.external, 'timer_set', { seconds: 0.5, body, owner_process_id: lead.id });
      await fired;
      expect(world.handle.timers.summariesFor(lead.id)).toMatchObject([{ id: set.timer_id, state: 'due' }]);
      // Not typed into the busy agent: its output holds no trace of the body.
      const entry = world.handle.core.entry(lead.id);
      expect(entry.ring.read(entry.runOffset).data.toString('utf8')).not.toContain(body);
      const mark = lead.mock.mark();
      const endedAt = await finishTurn(world, lead);
      const next = await nextUserMessage(world, lead, mark);
      expect(next.userText).toBe(body);
      expect(next.at).toBeGreaterThanOrEqual(endedAt);
      await waitForTurnEnd(world, lead, next.requestId);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'idle-any fires on a watched agent going idle, not for one that was already idle',
    async () => {
      const body = 'TIMER-ANY: someone finished.';
      await startLongTurn(world, worker);
      const armed = await callOk<Record<string, unknown>>(world.external, 'timer_fire_when_idle_any', {
        watched: [lead.id, worker.id],
        body,
        owner_process_id: lead.id,
      });
      expect(armed).toMatchObject({ state: 'pending', already_idle: [lead.id], waiting_on: [lead.id, worker.id] });
      // The lead is idle all along: that alone never fires it.
      expect(world.handle.timers.summariesFor(lead.id)).toMatchObject([{ id: armed.timer_id, state: 'pending' }]);
      const mark = lead.mock.mark();
      const workerDoneAt = await finishTurn(world, worker);
      const next = await nextUserMessage(world, lead, mark);
      expect(next.userText).toBe(body);
      expect(next.at).toBeGreaterThanOrEqual(workerDoneAt);
      await waitForTurnEnd(world, lead, next.requestId);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'idle-all stays pending while one agent works, fires when it finishes, and fires at once when all are idle',
    async () => {
      const whenDone = 'TIMER-ALL: everyone is idle.\nReview what the worker did, then report.'; // two lines: a bracketed paste
      const atOnce = 'TIMER-ALL-NOW: all were idle already.';
      await startLongTurn(world, worker);
      const armed = await callOk<Record<string, unknown>>(world.external, 'timer_fire_when_idle_all', {
        watched: [lead.id, worker.id],
        body: whenDone,
        owner_process_id: lead.id,
      });
      expect(armed).toMatchObject({ state: 'pending', already_idle: [lead.id], waiting_on: [worker.id] });
      const listed = await callOk<{ timers: Array<Record<string, unknown>> }>(world.external, 'timer_list');
      expect(listed.timers).toMatchObject([{ timer_id: armed.timer_id, state: 'pending', waiting_on: [worker.id] }]);
      let mark = lead.mock.mark();
      const workerDoneAt = await finishTurn(world, worker);
      let next = await nextUserMessage(world, lead, mark);
      expect(next.userText).toBe(whenDone);
      expect(next.at).toBeGreaterThanOrEqual(workerDoneAt);
      await waitForTurnEnd(world, lead, next.requestId);

      mark = lead.mock.mark();
      const immediate = await callOk<Record<string, unknown>>(world.external, 'timer_fire_when_idle_all', {
        watched: [lead.id, worker.id],
        body: atOnce,
        owner_process_id: lead.id,
      });
      expect(immediate).toMatchObject({ state: 'due', already_idle: [lead.id, worker.id], waiting_on: [] });
      next = await nextUserMessage(world, lead, mark);
      expect(next.userText).toBe(atOnce);
      await waitForTurnEnd(world, lead, next.requestId);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'max_wait_seconds fires the body while the watched agent is still working',
    async () => {
      const body = 'TIMER-MAXWAIT: the worker is taking long.';
      await startLongTurn(world, worker);
      const mark = lead.mock.mark();
      const armed = await callOk<Record<string, unknown>>(world.external, 'timer_fire_when_idle_all', {
        watched: [worker.id],
        body,
        max_wait_seconds: 1.5,
        owner_process_id: lead.id,
      });
      expect(armed).toMatchObject({ state: 'pending', waiting_on: [worker.id], remaining_ms: 1_500 });
      const next = await nextUserMessage(world, lead, mark);
      expect(next.userText).toBe(body);
      expect(world.handle.timers.idleness.idlenessOf(worker.id)).toBe('busy');
      expect(world.handle.timers.list(APP_ACTOR).history[0]).toMatchObject({ id: armed.timer_id, state: 'fired', reason: 'max_wait' });
      await waitForTurnEnd(world, lead, next.requestId);
      await finishTurn(world, worker);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'pause keeps the remaining time (within 100 ms) while the lead works; resume counts it down',
    async () => {
      const body = '? TIMER-PAUSED: resumed reminder (a leading ? typed as a key would open the shortcuts help).';
      const set = await callOk<{ timer_id: string; remaining_ms: number }>(world.external, 'timer_set', {
        seconds: 3,
        body,
        owner_process_id: lead.id,
      });
      const paused = await callOk<{ state: string; remaining_ms: number }>(world.external, 'timer_pause', { timer_id: set.timer_id });
      expect(paused.state).toBe('paused');
      // Time passes while paused: the lead does a whole turn (longer than the 3 s timer would run).
      await startLongTurn(world, lead);
      const stillPaused = await callOk<{ timers: Array<{ state: string; remaining_ms: number }> }>(world.external, 'timer_list');
      expect(stillPaused.timers).toMatchObject([{ state: 'paused', remaining_ms: paused.remaining_ms }]);
      await finishTurn(world, lead);
      const mark = lead.mock.mark();
      const resumedAt = Date.now();
      const resumed = await callOk<{ state: string; remaining_ms: number }>(world.external, 'timer_resume', { timer_id: set.timer_id });
      expect(resumed.state).toBe('pending');
      expect(Math.abs(resumed.remaining_ms - paused.remaining_ms)).toBeLessThanOrEqual(PAUSE_TOLERANCE_MS);
      const next = await nextUserMessage(world, lead, mark);
      expect(next.userText).toBe(body);
      expect(next.at - resumedAt).toBeGreaterThanOrEqual(paused.remaining_ms - PAUSE_TOLERANCE_MS);
      await waitForTurnEnd(world, lead, next.requestId);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a freshly spawned agent is not "already idle" until it has taken its first instructions',
    async () => {
      const anyBody = 'TIMER-FRESH-ANY: the newcomer finished its first task.';
      const allBody = 'TIMER-FRESH-ALL: the newcomer is idle.';
      let newcomer: Agent | undefined;
      try {
        newcomer = await startClaude(world, 'newcomer', {
          instructions: 'Start on your first task.',
          turns: [[{ text: 'On it.' }, { hang: true }]],
        });
        const watched = [newcomer.id];
        const any = await callOk<Record<string, unknown>>(world.external, 'timer_fire_when_idle_any', {
          watched,
          body: anyBody,
          owner_process_id: lead.id,
        });
        const all = await callOk<Record<string, unknown>>(world.external, 'timer_fire_when_idle_all', {
          watched,
          body: allBody,
          owner_process_id: lead.id,
        });
        expect(any).toMatchObject({ state: 'pending', already_idle: [], waiting_on: watched });
        expect(all).toMatchObject({ state: 'pending', already_idle: [], waiting_on: watched });
        // Its first prompt appears, the instructions are typed, its first turn runs: nothing fires yet.
        await newcomer.mock.waitFor('hang_start', undefined, { timeoutMs: AGENT_WAIT_MS, context: () => describeAgent(world, newcomer!) });
        await waitForIdleness(world, newcomer, 'busy');
        expect(world.handle.timers.summariesFor(lead.id).map((t) => t.state)).toEqual(['pending', 'pending']);
        const mark = lead.mock.mark();
        const doneAt = await finishTurn(world, newcomer);
        const first = await nextUserMessage(world, lead, mark);
        expect(first.at).toBeGreaterThanOrEqual(doneAt);
        expect(await answered(world, lead, first)).toBe(anyBody);
        const second = await nextUserMessage(world, lead, first.seq + 1);
        expect(await answered(world, lead, second)).toBe(allBody);
      } finally {
        await stopClaude(world, newcomer);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a cancelled timer never delivers',
    async () => {
      const cancelled = 'TIMER-CANCELLED: must never arrive.';
      const later = 'TIMER-LATER: arrives after the cancelled one was due.';
      const mark = lead.mock.mark();
      const set = await callOk<{ timer_id: string }>(world.external, 'timer_set', {
        seconds: 0.5,
        body: cancelled,
        owner_process_id: lead.id,
      });
      expect(await callOk(world.external, 'timer_cancel', { timer_id: set.timer_id })).toMatchObject({ state: 'cancelled' });
      await callOk(world.external, 'timer_set', { seconds: 1.5, body: later, owner_process_id: lead.id });
      const next = await nextUserMessage(world, lead, mark);
      expect(next.userText).toBe(later);
      expect(lead.mock.requests.some((r) => r.userText === cancelled)).toBe(false);
      await waitForTurnEnd(world, lead, next.requestId);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('timers across a restart of the core', () => {
  let first: World | undefined;
  let second: World | undefined;
  let mock: MockAnthropic | undefined;
  let harness: ClaudeHarness | undefined;

  afterEach(async () => {
    await stopWorld(first).catch(() => undefined);
    await stopWorld(second);
    await mock?.close();
    await harness?.cleanup();
    if (first) rmSync(first.root, { recursive: true, force: true });
    first = second = mock = harness = undefined;
  }, TEST_TIMEOUT_MS);

  const leadOf = (w: World): Agent => {
    const info = w.handle.core.listProcesses().find((p) => p.configName === 'lead')!;
    return { id: info.id, name: 'lead', mock: mock!, harness: harness! };
  };

  it(
    'a pending delay timer comes back with its remaining time and reaches the restarted agent',
    async () => {
      mock = await startMockAnthropic();
      harness = await createClaudeHarness({ baseUrl: mock.url });
      const config = { agents: { lead: { preset: 'claude', command: CLAUDE_BIN, cwd: harness.cwd, env: harness.env, autoStart: true } } };
      first = await startWorld(config);
      const oldLead = leadOf(first);
      await waitForIdleness(first, oldLead, 'idle'); // never instructed: idle once the fresh grace has passed
      const body = 'TIMER-RESTART: still here after the restart.';
      const set = await callOk<{ timer_id: string }>(first.external, 'timer_set', {
        seconds: 8,
        body,
        label: 'survivor',
        owner_process_id: oldLead.id,
      });
      const beforeStop = first.handle.timers.list(APP_ACTOR).timers[0].remainingMs!;
      await stopWorld(first);

      second = await startWorld(config, first);
      const newLead = leadOf(second);
      expect(newLead.id).toBe(oldLead.id); // the entry keeps its id, and with it its MCP identity, across restarts
      const [restored] = second.handle.timers.list(APP_ACTOR).timers;
      expect(restored).toMatchObject({ id: set.timer_id, label: 'survivor', state: 'pending', ownerId: newLead.id });
      // The clock stood still while the app was down: no more than the time left at shutdown.
      expect(restored.remainingMs).toBeLessThanOrEqual(beforeStop);
      expect(restored.remainingMs).toBeGreaterThan(beforeStop - 5_000);
      const mark = mock.mark();
      const next = await nextUserMessage(second, newLead, mark);
      expect(next.userText).toBe(body);
      expect(second.handle.timers.list(APP_ACTOR).history[0]).toMatchObject({ id: set.timer_id, state: 'fired', ownerId: newLead.id });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a pending delay timer is held while its owner waits for Resume, then counts down and reaches the resumed conversation',
    async () => {
      mock = await startMockAnthropic({ turns: [[{ text: 'Hello from the lead.' }]] });
      harness = await createClaudeHarness({ baseUrl: mock.url });
      // No autoStart and the default `resume: "manual"`: after the restart the agent waits for a person.
      const config = { agents: { lead: { preset: 'claude', command: CLAUDE_BIN, cwd: harness.cwd, env: harness.env } } };
      first = await startWorld(config);
      const lead = leadOf(first);
      await first.handle.core.startProcess(lead.id);
      await callOk(first.external, 'timer_set', { seconds: 0, body: 'You lead. Say hello.', owner_process_id: lead.id });
      const hello = await nextUserMessage(first, lead, 0);
      await waitForTurnEnd(first, lead, hello.requestId);
      // What a person would see before quitting: the answer is in Claude Code's own session transcript.
      const sessionId = first.handle.core.describe(lead.id)?.session?.id;
      expect(sessionId).toBeDefined();
      await waitForFileText(harness.transcriptPath(sessionId!), 'Hello from the lead.', TEST_TIMEOUT_MS / 2);

      const body = 'TIMER-RESUMED: still here after Resume.';
      const set = await callOk<{ timer_id: string }>(first.external, 'timer_set', { seconds: 8, body, owner_process_id: lead.id });
      const beforeStop = first.handle.timers.list(APP_ACTOR).timers[0].remainingMs!;
      await stopWorld(first);

      second = await startWorld(config, first);
      expect(second.handle.core.describe(lead.id)).toMatchObject({ state: 'stopped', session: { resumable: true } });
      const [held] = second.handle.timers.list(APP_ACTOR).timers;
      expect(held).toMatchObject({ id: set.timer_id, state: 'pending', ownerId: lead.id, heldForOwner: true });
      expect(held.firesAt).toBeUndefined();
      expect(held.remainingMs).toBeLessThanOrEqual(beforeStop);
      expect(held.remainingMs).toBeGreaterThan(beforeStop - 5_000);

      const resumedAt = Date.now();
      const mark = mock.mark();
      const isHeld = () => second!.handle.timers.list(APP_ACTOR).timers[0]?.heldForOwner === true;
      await callOk(second.external, 'resume_process', { process_id: lead.id });
      // The timer hears of the running owner through the core's coalesced change events, a frame later.
      if (isHeld()) await waitForEvent(second.handle.timers.onDidChangeTimers, (ownerId) => ownerId === lead.id && !isHeld(), 10_000);
      // The time left counts from the resumed run on, not from the app's launch.
      const [counting] = second.handle.timers.list(APP_ACTOR).timers;
      expect(counting.heldForOwner).toBeUndefined();
      expect(counting.firesAt).toBeGreaterThanOrEqual(resumedAt + held.remainingMs!);
      const next = await nextUserMessage(second, lead, mark);
      expect(next.userText).toBe(body);
      const history = JSON.stringify(mock.requests.find((r) => r.requestId === next.requestId)!.body.messages);
      for (const earlier of ['You lead. Say hello.', 'Hello from the lead.']) expect(history).toContain(earlier);
      expect(second.handle.timers.list(APP_ACTOR).history[0]).toMatchObject({ id: set.timer_id, state: 'fired', ownerId: lead.id });
    },
    TEST_TIMEOUT_MS,
  );
});
