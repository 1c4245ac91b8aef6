/**
 * Usage records an agent's own plugin posts to the hook receiver (opencode's step-finish parts,
 * docs/usage.md): they reach that entry's usage with the entry's run token, are counted once per
 * step, and are ignored for an entry whose CLI's usage is read from its files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USAGE_STEP_HOOK } from '../../src/shared/usage';
import { usageOf } from '../../src/main/core/usage';
import { startSwitchboard, type Switchboard } from './mcpHarness';
import { rawRequest } from './httpClient';

let sb: Switchboard;
beforeAll(async () => {
  sb = await startSwitchboard();
});
afterAll(() => sb.close());

const step = (id: string, input: number, cost: number) => ({
  id,
  sessionID: 'ses_1',
  model: 'switchboard-mock',
  tokens: { total: input + 20, input, output: 12, reasoning: 8, cache: { read: 300, write: 40 } },
  cost,
});

async function post(processId: string, body: unknown): Promise<number> {
  const hooks = sb.url.replace(/\/mcp$/, '/hooks');
  const headers = { Authorization: `Bearer ${sb.handle.mcp.service.identity.tokenFor(processId)}` };
  return (await rawRequest(hooks, { headers, body: JSON.stringify(body) })).status;
}

describe('usage posted to the hook receiver', () => {
  it("adds an opencode agent's steps once each, with opencode's own cost; a file-read agent's posts change nothing", async () => {
    const core = sb.handle.core;
    const opencode = await core.spawnAgent({ preset: 'opencode', name: 'oc', argv: ['sleep', '60'] });
    const claude = await core.spawnAgent({ preset: 'claude', name: 'cc', argv: ['sleep', '60'] });

    for (const body of [
      { hook_event_name: USAGE_STEP_HOOK, step: step('prt_1', 1000, 0.01) },
      { hook_event_name: USAGE_STEP_HOOK, step: step('prt_1', 1000, 0.01) },
      { hook_event_name: USAGE_STEP_HOOK, step: step('prt_2', 2000, 0.02) },
      { hook_event_name: USAGE_STEP_HOOK, step: 'not a step' },
      { hook_event_name: USAGE_STEP_HOOK },
    ])
      expect(await post(opencode.id, body)).toBe(200);
    expect(await post(claude.id, { hook_event_name: USAGE_STEP_HOOK, step: step('prt_3', 5000, 1) })).toBe(200);

    const usage = usageOf(core);
    expect(usage.ofProcess(opencode.id)).toMatchObject({
      input_tokens: 3000,
      output_tokens: 40,
      cache_read_tokens: 600,
      cache_write_tokens: 80,
      cost_usd: 0.03,
      cost_source: 'cli',
      context_used: 2000 + 20 + 300 + 40,
      model: 'switchboard-mock',
      source: 'opencode steps',
    });
    expect(usage.ofProcess(claude.id)).toMatchObject({ input_tokens: 0, cost_usd: 0, source: null });
    expect(usage.today()).toEqual({
      input_tokens: 3000,
      output_tokens: 40,
      cache_read_tokens: 600,
      cache_write_tokens: 80,
      cost_usd: 0.03,
    });
    await core.closeProcess(opencode.id);
    await core.closeProcess(claude.id);
  });
});
