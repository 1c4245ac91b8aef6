/**
 * Discovery under `serve` (docs/mcp.md): it prints `{ ui, url, token, pid }` as one JSON line when up,
 * writes the same `{ url, token, pid }` to mcp-endpoint.json (0600) in --data-dir, serves MCP with
 * that token, and removes the file when it stops.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callOk, connectClient, firstLine } from './mcpHarness';

const ROOT = resolve(__dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
/** tsx compiles serve on the fly: a few seconds on a busy machine. */
const START_TIMEOUT_MS = 45_000;

let child: ChildProcess | undefined;
let root: string | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('serve discovery', () => {
  it('prints the endpoint line, writes mcp-endpoint.json 0600, serves MCP with that token, removes the file on SIGTERM', async () => {
    root = mkdtempSync(join(tmpdir(), 'serve-mcp-'));
    const project = join(root, 'project');
    const dataDir = join(root, 'data');
    mkdirSync(project);
    child = spawn(TSX, [join(ROOT, 'src/main/serve.ts'), '--project', project, '--data-dir', dataDir, '--static-dir', root], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const printed = JSON.parse(await firstLine(child, START_TIMEOUT_MS)) as { ui: string; url: string; token: string; pid: number };
    expect(printed).toMatchObject({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/),
      token: expect.stringMatching(/^[\w-]{43}$/),
    });
    expect(printed.ui).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{43}$/);
    expect(printed.ui).not.toContain(printed.token); // the browser's secret is not the MCP app token
    const file = join(dataDir, 'mcp-endpoint.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ url: printed.url, token: printed.token, pid: printed.pid });

    const client = await connectClient(printed.url, printed.token);
    expect(await callOk(client, 'whoami')).toMatchObject({ role: 'external', project: { dir: project } });
    await client.close();

    const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(file)).toBe(false);
  }, 90_000);
});
