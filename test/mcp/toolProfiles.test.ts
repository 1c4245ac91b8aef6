/**
 * Tool profiles over real MCP HTTP (docs/mcp.md "Tool profiles"): what tools/list costs an agent's
 * context, which tools its scopes leave out, the opt-in "full" list, and help answering for every
 * tool. Calls do not depend on the profile; the tool tests exercise them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { CORE_TOOLS } from '../../src/main/core/mcp';
import { MCP_TOOL_PROFILE_HEADER } from '../../src/shared/mcp';
import { callError, callOk, connectClient, startSwitchboard, type Switchboard } from './mcpHarness';

/** The budget for one agent's tools/list: 16 kB, about 4k tokens. */
const AGENT_LIST_MAX_BYTES = 16 * 1024;

let sb: Switchboard;
const clients: Client[] = [];

beforeAll(async () => {
  sb = await startSwitchboard({
    config: { processes: { plain: { command: 'cat' }, reader: { command: 'cat', mcp: { scopes: ['entries:read-all'] } } } },
  });
});

afterAll(async () => {
  for (const c of clients) await c.close();
  await sb?.close();
});

function tokenOf(name: string): string {
  const id = sb.handle.core.listProcesses().find((p) => p.name === name)!.id;
  return sb.handle.mcp.service.identity.tokenFor(id);
}

async function client(token: string, options: { query?: string; header?: string } = {}): Promise<Client> {
  const url = new URL(sb.url);
  if (options.query) url.searchParams.set('tools', options.query);
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (options.header) headers[MCP_TOOL_PROFILE_HEADER] = options.header;
  const c = new Client({ name: 'profile-test', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  clients.push(c);
  return c;
}

async function list(c: Client): Promise<{ tools: Tool[]; bytes: number }> {
  const result = await c.listTools();
  return { tools: result.tools, bytes: Buffer.byteLength(JSON.stringify(result)) };
}

const names = (tools: Tool[]) => tools.map((t) => t.name);
const ALL = CORE_TOOLS.map((t) => t.name as string);

describe('the agent profile (a process token by default)', () => {
  it(`fits in ${AGENT_LIST_MAX_BYTES} bytes: one-line descriptions, schemas without prose, the same argument names`, async () => {
    const agent = await list(await client(tokenOf('plain')));
    const full = await list(await client(sb.token));
    expect(agent.bytes).toBeLessThanOrEqual(AGENT_LIST_MAX_BYTES);
    expect(full.bytes).toBeGreaterThan(2 * agent.bytes);
    for (const tool of agent.tools) {
      const whole = full.tools.find((t) => t.name === tool.name)!;
      expect(tool.description, tool.name).toBe(CORE_TOOLS.find((t) => t.name === tool.name)!.summary);
      expect(tool.description!.length, tool.name).toBeLessThan(100);
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toMatch(/"description"/);
      expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).toEqual(Object.keys(whole.inputSchema.properties ?? {}));
      expect(tool.inputSchema.required ?? [], tool.name).toEqual(whole.inputSchema.required ?? []);
      expect(tool.annotations, tool.name).toEqual(whole.annotations);
    }
    const sendInput = agent.tools.find((t) => t.name === 'send_input')!;
    expect(sendInput.inputSchema.properties?.kind).toEqual({ type: 'string', enum: ['text', 'paste', 'key'] });
  });

  it("leaves out the tools the token's scopes forbid, and still refuses them by name when called", async () => {
    const plain = await client(tokenOf('plain'));
    const plainTools = names((await list(plain)).tools);
    expect(plainTools).not.toContain('list_waiting');
    expect(plainTools).not.toContain('trust_project');
    expect(plainTools).toEqual(ALL.filter((n) => n !== 'list_waiting' && n !== 'trust_project'));
    expect((await callError(plain, 'list_waiting')).text).toMatch(/Missing scope "entries:read-all"/);
    expect((await callError(plain, 'trust_project')).text).toMatch(/Only a person can trust the project/);

    const readerTools = names((await list(await client(tokenOf('reader')))).tools);
    expect(readerTools).toContain('list_waiting');
    expect(readerTools).not.toContain('trust_project');
  });

  it('help answers for every tool with its whole description and every parameter', async () => {
    const plain = await client(tokenOf('plain'));
    const full = (await list(await client(sb.token))).tools;
    for (const tool of CORE_TOOLS) {
      const { text } = await callOk<{ text: string }>(plain, 'help', { topic: tool.name as string });
      expect(text, tool.name as string).toContain(tool.description);
      const params = Object.keys(full.find((t) => t.name === tool.name)!.inputSchema.properties ?? {});
      for (const param of params) expect(text, `${tool.name as string}.${param}`).toMatch(new RegExp(`^  ${param}\\??:`, 'm'));
    }
  });
});

describe('opting in to the full list', () => {
  it('a process token asks with ?tools=full or the header and gets exactly what the app token gets', async () => {
    const app = await list(await client(sb.token));
    expect(names(app.tools)).toEqual(ALL);
    for (const asked of [{ query: 'full' }, { header: 'full' }]) {
      const got = await list(await client(tokenOf('plain'), asked));
      expect(got.tools).toEqual(app.tools);
    }
  });

  it('the app token can ask for the agent profile: every tool, lean', async () => {
    const lean = await list(await client(sb.token, { header: 'agent' }));
    expect(names(lean.tools)).toEqual(ALL);
    expect(lean.bytes).toBeLessThanOrEqual(AGENT_LIST_MAX_BYTES);
  });

  it('an unknown profile is refused at initialize with a 400 that names the choices', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const response = await fetch(`${sb.url}?tools=everything`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${sb.token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /Unknown tool profile "everything": use agent or full/,
    );
    clients.push(await connectClient(sb.url, sb.token)); // still serving
  });
});
