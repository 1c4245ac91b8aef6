/**
 * Entries and scrollback across a clean restart of the real core (createCore on the same data
 * dir): an MCP-spawned entry comes back with its id, name, argv and cwd, a closed one does not,
 * secrets in its env are not written to disk, and its previous output is readable through MCP
 * `run: "previous"` and shown in its screen above the `restored` line; a flood stores no more than
 * the configured bound.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createCore, type CoreHandle } from '../../src/main/core/composition';
import { callError, callOk, connectClient } from '../mcp/mcpHarness';
import { waitForExit, waitForOutput } from '../support/wait';

interface Proc {
  id: string;
  name: string;
  argv: string[];
  cwd: string;
  state: string;
  restoredAt?: number;
  attention?: { reason: string; requestedBy: string };
}

const SAVED_BOUND_BYTES = 256 * 1024;

let root: string;
let projectDir: string;
let dataDir: string;
const open: Array<{ handle: CoreHandle; client: Client }> = [];

afterEach(async () => {
  for (const { handle, client } of open.splice(0)) {
    await client.close().catch(() => undefined);
    await handle.dispose();
  }
  rmSync(root, { recursive: true, force: true });
});

function setUp(settings: Record<string, unknown> = {}): void {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'continuity-entries-')));
  projectDir = join(root, 'project');
  dataDir = join(root, 'data');
  mkdirSync(join(projectDir, 'sub'), { recursive: true });
  writeFileSync(join(projectDir, 'switchboard.json'), JSON.stringify({ settings }));
}

async function launch(): Promise<{ handle: CoreHandle; client: Client }> {
  const handle = await createCore({ projectDir, dataDir, watchConfig: false, killGraceMs: 1_000 });
  const client = await connectClient(handle.mcp.url, handle.mcp.token);
  const app = { handle, client };
  open.push(app);
  return app;
}

async function quit(app: { handle: CoreHandle; client: Client }): Promise<void> {
  open.splice(open.indexOf(app), 1);
  await app.client.close();
  await app.handle.dispose();
}

function savedFiles(): string[] {
  const dir = join(dataDir, 'continuity');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((p) => join(dir, p))
    .filter((p) => statSync(p).isFile());
}

describe('entries spawned at run time', () => {
  it('come back with the same id, name, argv and cwd; closed ones do not; env secrets (by name or URL user info) stay off disk', async () => {
    setUp();
    const first = await launch();
    const kept = await callOk<Proc>(first.client, 'spawn_process', {
      kind: 'command',
      argv: ['sh', '-c', 'echo kept-output; sleep 600'],
      name: 'kept',
      working_dir: 'sub',
      env: { PLAIN_SETTING: 'visible', API_TOKEN: 's3cret-value', DATABASE_URL: 'postgres://app:db-s3cret@db/app' },
    });
    const closed = await callOk<Proc>(first.client, 'spawn_process', { kind: 'command', argv: ['sleep', '600'], name: 'closed' });
    await waitForOutput(first.handle.core.entry(kept.id), /kept-output/);
    await callOk(first.client, 'close_process', { process_id: closed.id });
    await quit(first);
    const onDisk = savedFiles()
      .map((p) => readFileSync(p, 'utf8'))
      .join('\n');
    expect(onDisk).toContain('PLAIN_SETTING');
    expect(onDisk).not.toContain('s3cret-value');
    expect(onDisk).not.toContain('db-s3cret');

    const second = await launch();
    const { processes } = await callOk<{ processes: Proc[] }>(second.client, 'list_processes');
    expect(processes.map((p) => p.name)).toEqual(['kept']);
    const back = await callOk<Proc>(second.client, 'get_process_status', { process_id: kept.id });
    expect(back).toMatchObject({ id: kept.id, name: 'kept', argv: kept.argv, cwd: join(projectDir, 'sub'), state: 'stopped' });
    expect(back.restoredAt).toBeGreaterThan(0);
    // It says which secret values it came back without (their names, never the values).
    expect(back.attention).toMatchObject({ requestedBy: 'switchboard', reason: expect.stringContaining(': API_TOKEN, DATABASE_URL.') });
    expect(JSON.stringify(back)).not.toContain('s3cret');
    const previous = await callOk<{ text: string }>(second.client, 'get_process_output', { process_id: kept.id, run: 'previous' });
    expect(previous.text).toContain('kept-output');
    expect((await callError(second.client, 'get_process_output', { process_id: closed.id, run: 'previous' })).text).toMatch(
      /Unknown process/i,
    );
    // Started again, it is the same entry with the same command.
    await callOk(second.client, 'start_process', { process_id: kept.id });
    await waitForOutput(second.handle.core.entry(kept.id), /kept-output/);
  }, 60_000);
});

describe('access across a restart', () => {
  it('scopes a person granted and who spawned whom come back with the entries (an agent still owns what it spawned)', async () => {
    setUp();
    const first = await launch();
    const core = first.handle.core;
    const parent = await core.spawnProcess({ kind: 'command', argv: ['sleep', '600'], name: 'parent' });
    const child = await core.spawnProcess({ kind: 'command', argv: ['sleep', '600'], name: 'child' }, { spawnedBy: parent.id });
    core.grantScopes(parent.id, ['entries:read-all']);
    expect(core.describe(child.id).access).toEqual({ scopes: [], spawnedBy: parent.id });
    await quit(first);

    const second = await launch();
    expect(second.handle.core.describe(parent.id).access).toEqual({ scopes: ['entries:read-all'] });
    expect(second.handle.core.describe(child.id).access).toEqual({ scopes: [], spawnedBy: parent.id });
    expect(second.handle.core.access.owns(parent.id, child.id)).toBe(true);
  }, 60_000);
});

describe('scrollback', () => {
  it('keeps 5000 lines across a restart: MCP run "previous" and the screen above the restored line', async () => {
    setUp({ scrollbackLines: 10_000 });
    const first = await launch();
    const p = await callOk<Proc>(first.client, 'spawn_process', {
      kind: 'command',
      shell: 'seq -f "line-%g" 1 5000; sleep 600',
      name: 'lines',
    });
    await waitForOutput(first.handle.core.entry(p.id), /line-5000\r?\n/, 30_000);
    await quit(first);

    const second = await launch();
    const previous = await callOk<{ text: string }>(second.client, 'get_process_output', {
      process_id: p.id,
      run: 'previous',
      max_bytes: 1_000_000,
    });
    const lines = previous.text.split('\n').filter((l) => /^line-\d+$/.test(l));
    expect(lines).toHaveLength(5000);
    expect(lines[0]).toBe('line-1');
    expect(lines[4999]).toBe('line-5000');
    const screen = second.handle.core.entry(p.id).screen;
    await screen.flush();
    const all = await screen.getAllLines();
    const marker = all.findIndex((l) => l.startsWith('── restored '));
    expect(marker).toBeGreaterThan(0);
    expect(all.slice(0, marker).filter((l) => /^line-\d+$/.test(l))).toHaveLength(5000);
  }, 90_000);

  it('a 100 MB flood before the restart stores no more than the configured bound', async () => {
    setUp({ savedScrollbackBytes: SAVED_BOUND_BYTES, scrollbackLines: 100_000 });
    const first = await launch();
    const p = await callOk<Proc>(first.client, 'spawn_process', {
      kind: 'command',
      shell: "head -c 104857600 /dev/zero | tr '\\0' x | fold -w 199; echo flood-done",
      name: 'flood',
    });
    const entry = first.handle.core.entry(p.id);
    await waitForExit(entry, 120_000);
    await quit(first);
    const screens = savedFiles().filter((f) => f.endsWith('.screen'));
    expect(screens).toHaveLength(1);
    expect(statSync(screens[0]).size).toBeLessThanOrEqual(SAVED_BOUND_BYTES);

    const second = await launch();
    const previous = await callOk<{ text: string }>(second.client, 'get_process_output', {
      process_id: p.id,
      run: 'previous',
      max_bytes: 1_000_000,
    });
    expect(previous.text).toContain('flood-done');
  }, 180_000);
});
