/**
 * The timer tools over real MCP HTTP (the SDK's Client) and the UI's timer commands, against a
 * real core. Owners here are `cat` commands (what is typed comes back as output); the agent
 * behaviour is in claudeTimers.e2e.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { waitForEvent } from '../../src/main/core/base';
import { dispatchSharedCommand, parseCommandArgs } from '../../src/main/core/bridge';
import { legacyWaitLine } from '../../src/main/core/timers';
import type { CommandName } from '../../src/shared/api';
import { callError, callOk, connectClient, startSwitchboard, type Switchboard } from '../mcp/mcpHarness';
import { waitForOutput } from '../support/wait';

const TIMER_TOOLS = [
  'timer_set',
  'timer_fire_when_idle_any',
  'timer_fire_when_idle_all',
  'timer_cancel',
  'timer_pause',
  'timer_resume',
  'timer_list',
  'timer_wait',
];

let sb: Switchboard;
let external: Client;
const clients: Client[] = [];

beforeAll(async () => {
  sb = await startSwitchboard({ config: { processes: { alpha: { command: 'cat' }, beta: { command: 'cat' } } } });
  external = await connectClient(sb.url, sb.token);
});

afterAll(async () => {
  for (const c of [external, ...clients]) await c?.close();
  await sb?.close();
});

function idOf(name: string): string {
  return sb.handle.core.listProcesses().find((p) => p.name === name)!.id;
}

/** A client that calls as the entry (its own token, as its processes get in SWITCHBOARD_MCP_TOKEN). */
async function asProcess(name: string): Promise<Client> {
  const client = await connectClient(sb.url, sb.handle.mcp.service.identity.tokenFor(idOf(name)), name);
  clients.push(client);
  return client;
}

async function command<C extends CommandName>(cmd: C, args: unknown): Promise<unknown> {
  return dispatchSharedCommand(sb.handle.core, cmd, parseCommandArgs(cmd, args));
}

describe('timer tools', () => {
  it('are in the catalog under the names of docs/mcp.md, with their parameters', async () => {
    const { tools } = await external.listTools();
    for (const name of TIMER_TOOLS) expect(tools.map((t) => t.name)).toContain(name);
    const idleAll = tools.find((t) => t.name === 'timer_fire_when_idle_all')!;
    expect(Object.keys(idleAll.inputSchema.properties ?? {})).toEqual(['watched', 'body', 'max_wait_seconds', 'label', 'owner_process_id']);
    expect(tools.find((t) => t.name === 'timer_list')!.annotations?.readOnlyHint).toBe(true);
  });

  it('timer_set by a process: it owns the timer, the body is typed into it, others cannot see or cancel it', async () => {
    const alpha = await asProcess('alpha');
    const beta = await asProcess('beta');
    const set = await callOk<Record<string, unknown>>(alpha, 'timer_set', { seconds: 600, body: 'not yet', label: 'later' });
    expect(set).toMatchObject({
      kind: 'delay',
      state: 'pending',
      owner_process_id: idOf('alpha'),
      label: 'later',
      remaining_ms: expect.any(Number),
      already_idle: [],
      waiting_on: [],
    });
    expect(set.message).toMatch(/fires in 600 s; the body then goes to you/);
    expect((await callOk<{ timers: unknown[] }>(beta, 'timer_list')).timers).toEqual([]);
    expect((await callError(beta, 'timer_cancel', { timer_id: set.timer_id })).text).toMatch(/No timer ".*" that you can manage/);
    expect((await callOk<{ timers: Array<{ timer_id: string }> }>(alpha, 'timer_list')).timers.map((t) => t.timer_id)).toEqual([
      set.timer_id,
    ]);

    const paused = await callOk<{ state: string; remaining_ms: number }>(alpha, 'timer_pause', { timer_id: set.timer_id });
    expect(paused.state).toBe('paused');
    const resumed = await callOk<{ state: string; remaining_ms: number }>(alpha, 'timer_resume', { timer_id: set.timer_id });
    expect(resumed.state).toBe('pending');
    expect(Math.abs(resumed.remaining_ms - paused.remaining_ms)).toBeLessThanOrEqual(100);
    expect(await callOk(alpha, 'timer_cancel', { timer_id: set.timer_id })).toMatchObject({
      state: 'cancelled',
      reason: `cancelled by ${idOf('alpha')}`,
    });

    const delivered = waitForOutput(sb.handle.core.entry(idOf('alpha')), /ring-ring/, 10_000);
    // The timer ends once its body was submitted: Enter follows the program's echo of the text.
    const ended = waitForEvent(
      sb.handle.timers.onDidEndTimer,
      (entry) => entry.bodyPreview === 'ring-ring' && entry.state === 'fired',
      10_000,
    );
    await callOk(alpha, 'timer_set', { seconds: 0.2, body: 'ring-ring' });
    await delivered;
    await ended;
    const list = await callOk<{ timers: unknown[]; history: Array<Record<string, unknown>> }>(alpha, 'timer_list');
    expect(list.timers).toEqual([]);
    expect(list.history.map((h) => [h.state, h.reason])).toEqual([
      ['fired', 'delay'],
      ['cancelled', `cancelled by ${idOf('alpha')}`],
    ]);
  });

  it('external callers name the owner, or are told to; they see every timer', async () => {
    expect((await callError(external, 'timer_set', { seconds: 5, body: 'x' })).text).toMatch(/pass owner_process_id/);
    const set = await callOk<{ timer_id: string }>(external, 'timer_set', {
      seconds: 600,
      body: 'for beta',
      owner_process_id: idOf('beta'),
    });
    const beta = await asProcess('beta');
    expect((await callOk<{ timers: Array<{ timer_id: string }> }>(beta, 'timer_list')).timers.map((t) => t.timer_id)).toEqual([
      set.timer_id,
    ]);
    expect((await callOk<{ timers: Array<{ timer_id: string }> }>(external, 'timer_list')).timers.map((t) => t.timer_id)).toContain(
      set.timer_id,
    );
    await callOk(external, 'timer_cancel', { timer_id: set.timer_id });
  });

  it('idle timers watch agents only; bad arguments are tool errors that say why', async () => {
    const text = (
      await callError(external, 'timer_fire_when_idle_all', { watched: [idOf('beta')], body: 'x', owner_process_id: idOf('alpha') })
    ).text;
    expect(text).toMatch(/beta \(p_[0-9a-f]+\) is a command entry; idle timers watch agents/);
    expect(
      (await callError(external, 'timer_fire_when_idle_any', { watched: ['p_000000'], body: 'x', owner_process_id: idOf('alpha') })).text,
    ).toMatch(/Unknown process id "p_000000"/);
    expect((await callError(external, 'timer_set', { seconds: -1, body: 'x', owner_process_id: idOf('alpha') })).text).toMatch(/seconds/);
    expect((await callError(external, 'timer_pause', { timer_id: 't_nope' })).text).toMatch(/No timer "t_nope"/);
  });

  it('timer_wait types its fixed line into the caller', async () => {
    const alpha = await asProcess('alpha');
    const delivered = waitForOutput(sb.handle.core.entry(idOf('alpha')), /timer_wait: 0\.1 s elapsed \(nap\)/, 10_000);
    const ended = waitForEvent(sb.handle.timers.onDidEndTimer, (entry) => entry.state === 'fired', 10_000);
    const set = await callOk<{ kind: string }>(alpha, 'timer_wait', { seconds: 0.1, label: 'nap' });
    expect(set.kind).toBe('delay');
    await delivered;
    await ended; // submitted (Enter after the echo), not only typed
    expect(legacyWaitLine(0.1, 'nap')).toBe('[switchboard] timer_wait: 0.1 s elapsed (nap).');
    expect((await callError(external, 'timer_wait', { seconds: 1 })).text).toMatch(/Use timer_set with owner_process_id/);
  });
});

describe('UI timer commands', () => {
  it('list, pause, resume, fire now and cancel call the same manager', async () => {
    const alphaId = idOf('alpha');
    const { timer } = sb.handle.timers.setDelay({ kind: 'external' }, { seconds: 600, body: 'fire-now-body', ownerId: alphaId });
    const listed = (await command('listTimers', { ownerId: alphaId })) as { timers: Array<{ id: string }> };
    expect(listed.timers.map((t) => t.id)).toEqual([timer.id]);
    expect(await command('pauseTimer', { timerId: timer.id })).toMatchObject({ state: 'paused' });
    expect(await command('resumeTimer', { timerId: timer.id })).toMatchObject({ state: 'pending' });
    const ended = waitForEvent(sb.handle.timers.onDidEndTimer, (h) => h.id === timer.id, 10_000);
    const output = waitForOutput(sb.handle.core.entry(alphaId), /fire-now-body/, 10_000);
    await command('fireTimerNow', { timerId: timer.id });
    await output;
    expect(await ended).toMatchObject({ state: 'fired', reason: 'fire_now' });
    const another = sb.handle.timers.setDelay({ kind: 'external' }, { seconds: 600, body: 'x', ownerId: alphaId }).timer;
    expect(await command('cancelTimer', { timerId: another.id })).toMatchObject({ state: 'cancelled' });
    await expect(command('pauseTimer', {})).rejects.toThrow(/Invalid arguments for pauseTimer: timerId/);
  });
});
