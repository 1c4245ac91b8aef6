/**
 * A real Switchboard core (createCore: real PTYs, the real MCP endpoint on loopback HTTP) in a
 * throw-away project and data directory, and SDK clients connected to it over HTTP.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createCore, type CoreHandle } from '../../src/main/core/composition';

export interface Switchboard {
  handle: CoreHandle;
  url: string;
  token: string;
  projectDir: string;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * `trust` (default true) trusts the project's switchboard.json at startup, as `serve --trust`
 * does; trust tests pass false and a `dataDir` to see the prompt side.
 */
export async function startSwitchboard(
  options: { config?: unknown; projectDir?: string; dataDir?: string; trust?: boolean } = {},
): Promise<Switchboard> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'switchboard-mcp-')));
  const projectDir = options.projectDir ?? join(root, 'project');
  const dataDir = options.dataDir ?? join(root, 'data');
  mkdirSync(projectDir, { recursive: true });
  mkdirSync(dataDir, { recursive: true });
  if (options.config) writeFileSync(join(projectDir, 'switchboard.json'), JSON.stringify(options.config));
  const handle = await createCore({ projectDir, dataDir, watchConfig: false, killGraceMs: 1_000, grantTrust: options.trust !== false });
  return {
    handle,
    url: handle.mcp.url,
    token: handle.mcp.token,
    projectDir,
    dataDir,
    async close() {
      await handle.dispose();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export async function connectClient(url: string, token: string, name = 'switchboard-test'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return client;
}

/** Calls a tool and returns its structured result, failing with the tool's text on isError. */
export async function callOk<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

/** Calls a tool that must fail as a tool error; returns its text. */
export async function callError(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; structured: Record<string, unknown> | undefined }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (!result.isError) throw new Error(`${name} should have failed but returned ${JSON.stringify(result.structuredContent)}`);
  return { text: (result.content[0] as { text: string }).text, structured: result.structuredContent };
}

/** The first stdout line of a `serve` child (its endpoint JSON); rejects if it exits or stays silent. */
export function firstLine(proc: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolveLine, reject) => {
    const timer = setTimeout(() => reject(new Error('serve printed nothing')), timeoutMs);
    const lines = createInterface({ input: proc.stdout! });
    lines.once('line', (line) => {
      clearTimeout(timer);
      lines.close();
      resolveLine(line);
    });
    proc.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
}
