/**
 * Long waits never hold up other calls (same session or others), send progress, honour
 * cancellation; scratchpad writers racing on one revision: exactly one wins each round.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { waitForEvent } from '../../src/main/core/base';
import type { ToolCallRecord } from '../../src/main/core/mcp';
import { callOk, connectClient, startSwitchboard, type Switchboard } from './mcpHarness';

const RECORDER = resolve(__dirname, 'fixtures/inputRecorder.cjs');
const CLIENTS = 16;

let sb: Switchboard;
beforeAll(async () => {
  sb = await startSwitchboard();
});
afterAll(async () => {
  await sb?.close();
});

async function recorder(client: Client): Promise<string> {
  const p = await callOk<{ id: string }>(client, 'spawn_process', { kind: 'command', argv: ['node', RECORDER] });
  const ready = await callOk(client, 'wait_for_pattern', { process_id: p.id, pattern: '^READY$', from: 'start', timeout_seconds: 20 });
  expect(ready.matched).toBe(true);
  return p.id;
}

/** Resolves with the first progress notification of a call (the sign its wait is in place). */
function firstProgress(): { onprogress: (p: Progress) => void; seen: Promise<Progress>; all: Progress[] } {
  const all: Progress[] = [];
  let resolveSeen!: (p: Progress) => void;
  const seen = new Promise<Progress>((r) => (resolveSeen = r));
  return {
    all,
    seen,
    onprogress: (p) => {
      all.push(p);
      resolveSeen(p);
    },
  };
}

describe('concurrency', () => {
  it(`${CLIENTS} clients at once while one waits in wait_for_pattern (with progress), then the wait matches`, async () => {
    const waiter = await connectClient(sb.url, sb.token, 'waiter');
    const id = await recorder(waiter);
    const progress = firstProgress();
    let settled = false;
    const waiting = waiter
      .callTool({ name: 'wait_for_pattern', arguments: { process_id: id, pattern: 'GOT "GO-(\\d+)"', timeout_seconds: 120 } }, undefined, {
        onprogress: progress.onprogress,
        resetTimeoutOnProgress: true,
      })
      .finally(() => (settled = true));
    const first = await progress.seen;
    expect(first.total).toBe(120);
    expect(first.message).toMatch(/Waiting for/);

    const startedAt = Date.now();
    const results = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, i) => {
        const client = await connectClient(sb.url, sb.token, `client-${i}`);
        try {
          const me = await callOk(client, 'whoami');
          const list = await callOk<{ processes: Array<{ id: string }> }>(client, 'list_processes');
          const status = await callOk(client, 'get_process_status', { process_id: id });
          const note = await callOk(client, 'scratchpad_append', { name: 'concurrency-log', content: `client ${i}\n` });
          const screen = await callOk<{ text: string }>(client, 'get_process_output', { process_id: id });
          return { me, found: list.processes.some((p) => p.id === id), status, note, screen };
        } finally {
          await client.close();
        }
      }),
    );
    const elapsed = Date.now() - startedAt;
    // Same session as the pending wait: answered too.
    expect(await callOk(waiter, 'whoami')).toMatchObject({ role: 'external' });
    expect(settled).toBe(false);
    for (const r of results) {
      expect(r.me).toMatchObject({ role: 'external' });
      expect(r.found).toBe(true);
      expect(r.screen.text).toContain('READY');
    }
    const log = await callOk<{ content: string; revision: number }>(waiter, 'scratchpad_read', { name: 'concurrency-log' });
    expect(log.content.trim().split('\n').sort()).toEqual(Array.from({ length: CLIENTS }, (_, i) => `client ${i}`).sort());
    expect(log.revision).toBe(CLIENTS);

    await callOk(waiter, 'send_input', { process_id: id, kind: 'text', text: 'GO-42' });
    const result = (await waiting) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ matched: true, groups: ['GOT "GO-42"', '42'] });
    const values = progress.all.map((p) => p.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(elapsed).toBeLessThan(60_000); // informational bound; nothing waited on the pending call
    await waiter.close();
  });

  it('cancelling a wait ends it on the server at once', async () => {
    const client = await connectClient(sb.url, sb.token, 'canceller');
    const id = await recorder(client);
    const progress = firstProgress();
    const abort = new AbortController();
    const ended = waitForEvent<ToolCallRecord>(
      sb.handle.mcp.service.onDidCallTool,
      (r) => r.tool === 'wait_for_pattern' && r.durationMs > 500,
      30_000,
    );
    const call = client.callTool(
      { name: 'wait_for_pattern', arguments: { process_id: id, pattern: 'never', timeout_seconds: 600 } },
      undefined,
      {
        onprogress: progress.onprogress,
        signal: abort.signal,
      },
    );
    await progress.seen;
    const cancelledAt = Date.now();
    abort.abort('test cancels');
    await expect(call).rejects.toThrow();
    const record = await ended;
    expect(record.at + record.durationMs - cancelledAt).toBeLessThan(5_000);
    expect(await callOk(client, 'whoami')).toMatchObject({ role: 'external' });
    await client.close();
  });

  it('restart_process with wait_for_ready reports progress until the server is ready', async () => {
    const client = await connectClient(sb.url, sb.token, 'restarter');
    // The fixture server takes 2.5 s to come up: long enough for progress ticks (the tracker reports every second).
    const p = await callOk<{ id: string }>(client, 'spawn_process', {
      kind: 'command',
      shell: 'sleep 2.5; echo "booted, accepting requests"; sleep 60',
      ready: { readyPatterns: ['accepting requests'], stabilityDelay: 0 },
    });
    const progress = firstProgress();
    const result = (await client.callTool({ name: 'restart_process', arguments: { process_id: p.id, ready_timeout: 30_000 } }, undefined, {
      onprogress: progress.onprogress,
    })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ success: true, state: 'ready' });
    expect(progress.all.length).toBeGreaterThanOrEqual(1);
    expect(progress.all.every((p) => p.total === 30_000)).toBe(true);
    expect(
      progress.all.some((p) => /^starting: /.test(p.message ?? '')),
      JSON.stringify(progress.all),
    ).toBe(true);
    await callOk(client, 'close_process', { process_id: p.id });
    await client.close();
  });
});

describe('scratchpad writers racing on one revision', () => {
  it('exactly one wins each round; losers get the current revision; nothing is lost', async () => {
    const writers = await Promise.all(Array.from({ length: 8 }, (_, i) => connectClient(sb.url, sb.token, `writer-${i}`)));
    try {
      await callOk(writers[0], 'scratchpad_write', { name: 'race', content: 'start', expected_revision: 0 });
      for (let round = 0; round < 10; round++) {
        const reads = await Promise.all(writers.map((w) => callOk<{ revision: number }>(w, 'scratchpad_read', { name: 'race' })));
        const revision = reads[0].revision;
        expect(reads.every((r) => r.revision === revision)).toBe(true);
        const attempts = (await Promise.all(
          writers.map((w, i) =>
            w.callTool({
              name: 'scratchpad_write',
              arguments: { name: 'race', content: `round ${round} by ${i}`, expected_revision: revision },
            }),
          ),
        )) as CallToolResult[];
        const winners = attempts.flatMap((a, i) => (a.isError ? [] : [i]));
        expect(winners, `round ${round}`).toHaveLength(1);
        for (const loser of attempts.filter((a) => a.isError)) {
          expect(loser.structuredContent).toMatchObject({
            error: { code: 'stale_revision', expected_revision: revision, current_revision: revision + 1 },
          });
        }
        expect(await callOk(writers[0], 'scratchpad_read', { name: 'race' })).toMatchObject({
          revision: revision + 1,
          content: `round ${round} by ${winners[0]}`,
        });
      }
      await Promise.all(
        writers.flatMap((w, i) =>
          Array.from({ length: 5 }, (_, j) => callOk(w, 'scratchpad_append', { name: 'appends', content: `${i}.${j}\n` })),
        ),
      );
      const appended = await callOk<{ content: string; revision: number }>(writers[0], 'scratchpad_read', { name: 'appends' });
      expect(appended.revision).toBe(40);
      expect(appended.content.trim().split('\n').sort()).toEqual(
        writers.flatMap((_, i) => Array.from({ length: 5 }, (_, j) => `${i}.${j}`)).sort(),
      );
    } finally {
      await Promise.all(writers.map((w) => w.close()));
    }
  });
});
