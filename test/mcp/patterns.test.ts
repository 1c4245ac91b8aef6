/**
 * Untrusted patterns cannot freeze the app: `(a+)+$` from a caller (search_output,
 * wait_for_pattern) or from switchboard.json (readyPatterns) against a long line of a real PTY,
 * while the core keeps answering; and a caller cannot hold unbounded waits open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callOk, connectClient, startSwitchboard, type Switchboard } from './mcpHarness';
import { MAX_PATTERN_WAITS_PER_CALLER } from '../../src/main/core/mcp/waitLimit';

/** A line a backtracking engine needs exponential time for with (a+)+$, then READY. */
const EVIL_LINE_SCRIPT = "head -c 30000 /dev/zero | tr '\\0' a; echo b; echo READY; exec sleep 600";
const EVIL = '(a+)+$';

let sb: Switchboard;
let client: Client;
beforeAll(async () => {
  sb = await startSwitchboard({
    config: {
      processes: { evil: { command: 'sh', args: ['-c', EVIL_LINE_SCRIPT], readyPatterns: [EVIL, 'READY'], errorPatterns: [EVIL] } },
    },
  });
  client = await connectClient(sb.url, sb.token);
});
afterAll(async () => {
  await client?.close();
  await sb?.close();
});

const evilId = () => sb.handle.core.listProcesses().find((p) => p.name === 'evil')!.id;

describe('caller and config patterns on a long line', () => {
  it('readyPatterns with (a+)+$ do not freeze readiness: the entry still becomes ready on READY', async () => {
    await expect.poll(() => sb.handle.core.describe(evilId()).state, { timeout: 30_000 }).toBe('ready');
  });

  it('search_output and wait_for_pattern with (a+)+$ answer, and whoami answers while they run', async () => {
    const id = evilId();
    const search = callOk<{ total_matches: number }>(client, 'search_output', { process_id: id, pattern: EVIL });
    const wait = callOk<{ matched: boolean; reason: string }>(client, 'wait_for_pattern', {
      process_id: id,
      pattern: EVIL,
      from: 'start',
      timeout_seconds: 2,
    });
    const other = await connectClient(sb.url, sb.token);
    expect(await callOk(other, 'whoami')).toMatchObject({ role: 'external' });
    await other.close();
    expect((await search).total_matches).toBe(0);
    expect(await wait).toMatchObject({ matched: false, reason: 'timeout' });
    expect(await callOk(client, 'search_output', { process_id: id, pattern: 'a+b$' })).toMatchObject({ total_matches: 1 });
  });

  it('a pattern RE2 cannot run is a bad_pattern error that says why', async () => {
    const result = (await client.callTool({
      name: 'search_output',
      arguments: { process_id: evilId(), pattern: '(?<=a)b' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/linear-time engine/);
  });
});

describe('open waits per caller', () => {
  it(`refuses wait number ${MAX_PATTERN_WAITS_PER_CALLER + 1} of one token with too_many_waits; the slots free when waits end`, async () => {
    const id = evilId();
    const waits = Array.from({ length: MAX_PATTERN_WAITS_PER_CALLER }, () =>
      client.callTool({ name: 'wait_for_pattern', arguments: { process_id: id, pattern: 'never-printed', timeout_seconds: 3 } }),
    );
    await expect.poll(() => sb.handle.mcp.service.context.patternWaits.countFor('external')).toBe(MAX_PATTERN_WAITS_PER_CALLER);
    const refused = (await client.callTool({
      name: 'wait_for_pattern',
      arguments: { process_id: id, pattern: 'x', timeout_seconds: 1 },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect((refused.content[0] as { text: string }).text).toMatch(/Too many pattern waits/);
    await Promise.all(waits);
    expect(sb.handle.mcp.service.context.patternWaits.countFor('external')).toBe(0);
    expect(await callOk(client, 'wait_for_pattern', { process_id: id, pattern: 'READY', from: 'start', timeout_seconds: 2 })).toMatchObject(
      { matched: true },
    );
  });
});
