/**
 * Agent status on the REAL Codex TUI (0.169.0), spawned by Switchboard through the core with the
 * codex preset (argv from the offline harness), no pane attached — so the headless screen must
 * answer Codex's terminal queries itself. Ground truth comes from the mock Responses API's
 * timeline: idle at its composer, active while a turn streams, idle again after the stream ends,
 * dead after `/quit`. Then through `serve` and its MCP endpoint: an external client spawns Codex
 * and sends it a message; the model's call of Switchboard's whoami (Codex offers each MCP server's
 * tools as one namespace, `mcp__switchboard`) goes through the preset's wiring and returns the
 * agent's own entry.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCore } from '../../src/main/core/composition';
import { createCodexHarness } from '../fixtures/openai/codexHarness';
import { startMockResponses } from '../fixtures/openai/mockResponses';
import { statusWaiter } from './agentStatusWaiter';
import { cleanupsAfterEach, spawnUnderServe } from './liveAgent';
import { waitForAgentStatus } from './serveAgent';
import { callOk } from '../mcp/mcpHarness';

/** A real CLI on a busy 2-core machine can take seconds to start. */
const WAIT_MS = 45_000;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('StatusTracker on the real Codex TUI', () => {
  it('idle at its composer, active while a turn streams, idle after it', async () => {
    const answer = 'Codex answers the Switchboard status test.';
    const mock = await startMockResponses({ turns: [[{ text: answer, firstTokenDelayMs: 1_500, chunkDelayMs: 60 }]] });
    cleanups.push(() => mock.close());
    const harness = await createCodexHarness({ baseUrl: mock.url });
    cleanups.push(() => harness.cleanup());
    const core = buildCore({ projectDir: mkdtempSync(join(tmpdir(), 'sb-codex-')), watchConfig: false, killGraceMs: 1_000 });
    await core.init();
    cleanups.push(() => core.dispose());

    const info = await core.spawnAgent({ preset: 'codex', name: 'codex', argv: harness.argv, env: harness.env, cwd: harness.cwd });
    const tracker = core.statusTrackerOf(info.id);
    const status = statusWaiter(core, info.id, 'Codex', WAIT_MS);

    await status((s) => s.primary === 'idle', 'idle');
    expect(tracker.status.reason).toMatch(/^codex\//);

    await core.sendUserTurn(info.id, 'Say hello to Switchboard');
    await mock.waitFor('request', (e) => e.kind === 'main', { timeoutMs: WAIT_MS });
    const active = await status((s) => s.primary === 'active', 'active');
    expect(active.health).toBe('ALIVE');

    await mock.waitFor('stream_end', undefined, { timeoutMs: WAIT_MS });
    await status((s) => s.primary === 'idle', 'idle again');
    expect(core.entry(info.id).screen.getVisibleLines().join('\n')).toContain('Codex answers the Switchboard');

    await core.sendUserTurn(info.id, '/quit');
    await status((s) => s.primary === 'dead', 'dead after /quit');
  });
});

const cleanup = cleanupsAfterEach();

describe('the real Codex through serve and its MCP endpoint', () => {
  it('spawn_agent, send_message: the model calls whoami over the preset wiring and gets its own entry', async () => {
    const mock = await startMockResponses({});
    cleanup(() => mock.close());
    const harness = await createCodexHarness({ baseUrl: mock.url });
    cleanup(() => harness.cleanup());
    const { client, id } = await spawnUnderServe(cleanup, { agent: 'codex', name: 'codex-under-test', launch: harness, waitMs: WAIT_MS });
    await waitForAgentStatus(client, id, WAIT_MS);

    mock.enqueue([{ functionCall: { name: 'whoami', namespace: 'mcp__switchboard', arguments: {} } }], [{ text: 'Done.' }]);
    await callOk(client, 'send_message', { target_process_id: id, message: 'Who are you in this project?' });
    const request = await mock.waitFor('request', (e) => e.kind === 'main', { timeoutMs: WAIT_MS });
    expect(request.userText).toContain('Who are you in this project?');
    const call = await mock.waitFor('function_call', (e) => e.name === 'whoami', { timeoutMs: WAIT_MS });
    const result = await mock.waitFor('tool_output', (e) => e.callId === call.callId, { timeoutMs: WAIT_MS });
    expect(result.output).toContain(`"process_id":"${id}"`);
    expect(result.output).toContain('"name":"codex-under-test"');
    expect(result.output).toContain('"preset":"codex"');
  }, 180_000);
});
