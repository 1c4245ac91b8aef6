/**
 * MCP endpoint: sequential tools/call rate of get_process_status against an echo tool
 * registered on the same server (goal ≥ 0.9: the tool's own work is small next to the transport),
 * and p50/p99 latency with 32 concurrent clients, with the echo tool under the same load as the
 * baseline. Everything over real loopback HTTP with the SDK's own client.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildCore } from '../src/main/core/composition';
import { McpService, type AnyToolDefinition } from '../src/main/core/mcp';
import { percentile, type BenchRow } from './report';

const SECTION = 'mcp';
/** Calls per measured block; blocks of the two tools alternate so drift hits both alike. */
const BLOCK_CALLS = 250;
const BLOCKS = 8;
const WARMUP_CALLS = 200;
const CONCURRENT_CLIENTS = 32;
const CALLS_PER_CLIENT = 20;
/** Load rounds alternate echo and get_process_status so neither gets the warmer machine. */
const LOAD_ROUNDS = 3;

/** The baseline: a tool that only echoes its argument, on the same server and transport. */
const ECHO_TOOL: AnyToolDefinition = {
  name: 'echo',
  title: 'Echo',
  summary: 'Returns its argument.',
  description: 'Returns its argument (benchmark baseline).',
  inputShape: { text: z.string() },
  requires: { open: 'echoes its argument' },
  run: (args: { text: string }) => ({ text: args.text }),
};

async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

export async function benchMcp(): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'bench-mcp-'));
  const core = buildCore({ projectDir: root, watchConfig: false });
  const mcp = await McpService.start({ core, dataDir: join(root, 'data'), extraTools: [ECHO_TOOL] });
  const clients: Client[] = [];
  try {
    const target = await core.spawnProcess({ kind: 'command', shell: 'echo bench target; sleep 600', name: 'bench-target' });
    const statusCall = { name: 'get_process_status', arguments: { process_id: target.id } };
    const echoCall = { name: 'echo', arguments: { text: 'hello' } };

    // A fresh client per block pair: the SDK client adds an abort listener per request to one
    // long-lived signal (undici frees them late), which would warn past 1500 calls on one client.
    const warm = await connect(mcp.url, mcp.token);
    clients.push(warm);
    for (let i = 0; i < WARMUP_CALLS; i++) {
      await warm.callTool(statusCall);
      await warm.callTool(echoCall);
    }
    const elapsed = { status: 0, echo: 0 };
    for (let block = 0; block < BLOCKS; block++) {
      const client = await connect(mcp.url, mcp.token);
      clients.push(client);
      const order = block % 2 === 0 ? (['status', 'echo'] as const) : (['echo', 'status'] as const);
      for (const key of order) {
        const call = key === 'status' ? statusCall : echoCall;
        const start = performance.now();
        for (let i = 0; i < BLOCK_CALLS; i++) await client.callTool(call);
        elapsed[key] += performance.now() - start;
      }
    }
    const calls = BLOCK_CALLS * BLOCKS;
    const statusRate = (calls / elapsed.status) * 1000;
    const echoRate = (calls / elapsed.echo) * 1000;

    const loadClients = await Promise.all(Array.from({ length: CONCURRENT_CLIENTS }, () => connect(mcp.url, mcp.token)));
    clients.push(...loadClients);
    const underLoad = async (call: typeof statusCall | typeof echoCall, into: number[]): Promise<void> => {
      await Promise.all(
        loadClients.map(async (c) => {
          for (let i = 0; i < CALLS_PER_CLIENT; i++) {
            const start = performance.now();
            await c.callTool(call);
            into.push(performance.now() - start);
          }
        }),
      );
    };
    await underLoad(echoCall, []); // warm-up of the 32 sessions
    const echoLatencies: number[] = [];
    const statusLatencies: number[] = [];
    for (let round = 0; round < LOAD_ROUNDS; round++) {
      await underLoad(echoCall, echoLatencies);
      await underLoad(statusCall, statusLatencies);
    }
    const latencyRow = (q: number) => {
      const value = percentile(statusLatencies, q);
      const baseline = percentile(echoLatencies, q);
      return {
        section: SECTION,
        name: `p${q} latency, ${CONCURRENT_CLIENTS} clients`,
        value,
        unit: 'ms',
        baseline,
        ratio: value / baseline,
      };
    };

    return [
      {
        section: SECTION,
        name: 'sequential get_process_status',
        value: statusRate,
        unit: 'calls/s',
        baseline: echoRate,
        ratio: statusRate / echoRate,
        goal: '≥ 0.9',
      },
      latencyRow(50),
      latencyRow(99),
    ];
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await mcp.dispose();
    await core.dispose();
    rmSync(root, { recursive: true, force: true });
  }
}

if (require.main === module) {
  void benchMcp().then((rows) => {
    for (const row of rows) console.log(JSON.stringify(row));
    process.exit(0);
  });
}
