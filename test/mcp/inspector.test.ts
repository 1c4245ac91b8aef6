/**
 * An independent client: the MCP Inspector CLI (@modelcontextprotocol/inspector 2.12, CLI mode)
 * lists the tools and calls them over Streamable HTTP with the bearer header.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSwitchboard, type Switchboard } from './mcpHarness';

const INSPECTOR_CLI = resolve(__dirname, '../../node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js');
const CLI_TIMEOUT_MS = 60_000;

let sb: Switchboard;
let home: string;

beforeAll(async () => {
  sb = await startSwitchboard();
  home = mkdtempSync(join(tmpdir(), 'inspector-home-'));
});
afterAll(async () => {
  await sb?.close();
  rmSync(home, { recursive: true, force: true });
});

function inspector(token: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise) => {
    execFile(
      process.execPath,
      [INSPECTOR_CLI, sb.url, '--transport', 'http', '--header', `Authorization: Bearer ${token}`, ...args],
      // A throw-away HOME and catalog: the CLI must not read or write the developer's.
      { env: { PATH: process.env.PATH ?? '', HOME: home, MCP_CATALOG_PATH: join(home, 'catalog.json') }, timeout: CLI_TIMEOUT_MS },
      (error, stdout, stderr) => resolvePromise({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('MCP Inspector CLI as the client', () => {
  it('lists the tools', async () => {
    const { code, stdout, stderr } = await inspector(sb.token, '--method', 'tools/list');
    expect(code, stderr).toBe(0);
    const names = (JSON.parse(stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['whoami', 'list_processes', 'spawn_process', 'wait_for_pattern', 'scratchpad_write']));
  });

  it('calls tools: spawn_process with an array argument, then get_process_status on the new entry', async () => {
    const spawned = await inspector(
      sb.token,
      '--method',
      'tools/call',
      '--tool-name',
      'spawn_process',
      '--tool-arg',
      'kind=command',
      'argv=["sh","-c","echo from-inspector; sleep 60"]',
      'name=inspected',
    );
    expect(spawned.code, spawned.stderr).toBe(0);
    const entry = (JSON.parse(spawned.stdout) as { structuredContent: { id: string; name: string } }).structuredContent;
    expect(entry.name).toBe('inspected');
    expect(sb.handle.core.describe(entry.id).name).toBe('inspected');
    const status = await inspector(
      sb.token,
      '--method',
      'tools/call',
      '--tool-name',
      'get_process_status',
      '--tool-arg',
      `process_id=${entry.id}`,
    );
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).structuredContent).toMatchObject({ id: entry.id, kind: 'command' });
    await sb.handle.core.closeProcess(entry.id);
  });

  it('is refused with a wrong token (the 401 sends it looking for OAuth, which we do not offer)', async () => {
    const { code, stdout, stderr } = await inspector('wrong-token', '--stored-auth-only', '--method', 'tools/list');
    expect(code).not.toBe(0);
    expect(`${stdout}${stderr}`).toMatch(/auth_required|401|Unauthorized/i);
    expect(stdout).not.toMatch(/"tools"/);
  });
});
