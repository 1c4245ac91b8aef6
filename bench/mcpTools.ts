/**
 * What tools/list costs a connected client's context, per tool profile (docs/mcp.md "Tool
 * profiles"): bytes of the list result and an estimate of tokens (characters / 4, a rough rule
 * for English and JSON, not a tokenizer), each as a ratio against the full list in the same run.
 * Over real loopback HTTP with the SDK's own client.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildCore } from '../src/main/core/composition';
import { McpService } from '../src/main/core/mcp';
import type { BenchRow } from './report';

const SECTION = 'mcp-tools';
const CHARS_PER_TOKEN = 4;
/** The budget for an agent's list. */
const AGENT_GOAL_TOKENS = 4_000;

async function listText(url: URL, token: string): Promise<string> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  try {
    return JSON.stringify(await client.listTools());
  } finally {
    await client.close();
  }
}

export async function benchMcpTools(): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'bench-mcp-tools-'));
  const core = buildCore({ projectDir: root, watchConfig: false });
  const mcp = await McpService.start({ core, dataDir: join(root, 'data') });
  try {
    const agent = await core.spawnProcess({ kind: 'command', shell: 'sleep 600', name: 'bench-agent-token' });
    const agentToken = mcp.identity.tokenFor(agent.id);
    const withProfile = (profile: string) => new URL(`${mcp.url}?tools=${profile}`);
    const full = await listText(new URL(mcp.url), mcp.token);
    const profiles: Array<[string, string]> = [
      ['full (app token)', full],
      ['agent (process token, no scopes)', await listText(new URL(mcp.url), agentToken)],
      ['agent (app token, every tool)', await listText(withProfile('agent'), mcp.token)],
      ['full (process token, opted in)', await listText(withProfile('full'), agentToken)],
    ];
    return profiles.flatMap(([name, text]): BenchRow[] => {
      const tokens = text.length / CHARS_PER_TOKEN;
      const fullTokens = full.length / CHARS_PER_TOKEN;
      const isAgent = name.startsWith('agent');
      return [
        {
          section: SECTION,
          name: `${name}: bytes`,
          value: Buffer.byteLength(text),
          unit: 'B',
          baseline: Buffer.byteLength(full),
          ratio: Buffer.byteLength(text) / Buffer.byteLength(full),
          goal: isAgent ? '≤ 16384 B' : undefined,
        },
        {
          section: SECTION,
          name: `${name}: tokens (chars/4)`,
          value: tokens,
          unit: 'tok',
          baseline: fullTokens,
          ratio: tokens / fullTokens,
          goal: isAgent ? `≤ ${AGENT_GOAL_TOKENS} tok` : undefined,
        },
      ];
    });
  } finally {
    await mcp.dispose();
    await core.dispose();
    rmSync(root, { recursive: true, force: true });
  }
}
