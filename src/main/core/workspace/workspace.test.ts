import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readEndpointFile } from '../mcp';
import { createHostWorkspace, type HostWorkspace } from './hostWorkspace';
import { projectDiscoveryDir } from './endpointDiscovery';
import { projectIdOf } from './workspace';

let base: string;
let dataDir: string;
let host: HostWorkspace;

/** A project whose one entry is a long-running command (trusted when opened with grantTrust). */
function project(name: string): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'switchboard.json'), JSON.stringify({ processes: { [`${name}-sleeper`]: { command: 'sleep', args: ['300'] } } }));
  return dir;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'sb-workspace-')));
  dataDir = join(base, 'data');
  host = createHostWorkspace({ dataDir, roots: [base], killGraceMs: 1_000 });
});
afterEach(async () => {
  await host.dispose();
});

describe('Workspace', () => {
  it('opens one core per folder; opening an open folder (any path to it) focuses it instead', async () => {
    const { workspace } = host;
    const a = await workspace.open(project('alpha'));
    const b = await workspace.open(project('beta'));
    expect(workspace.activeId).toBe(b.id);
    symlinkSync(a.dir, join(base, 'alpha-link'));
    const again = await Promise.all([workspace.open(join(base, 'alpha-link')), workspace.open(`${base}/beta/../alpha`)]);
    expect(again.map((p) => p.handle)).toEqual([a.handle, a.handle]);
    expect(workspace.list().map((p) => p.id)).toEqual([a.id, b.id]);
    expect(workspace.activeId).toBe(a.id);
    expect(a.id).toBe(projectIdOf(join(base, 'alpha-link')));
  });

  it('keeps entries and MCP endpoints per project, and publishes each endpoint plus the active one', async () => {
    const { workspace } = host;
    const a = await workspace.open(project('alpha'));
    const b = await workspace.open(project('beta'));
    expect(a.handle.core.listProcesses().map((p) => p.name)).toEqual(['alpha-sleeper']);
    expect(b.handle.core.listProcesses().map((p) => p.name)).toEqual(['beta-sleeper']);
    expect(a.handle.mcp.url).not.toBe(b.handle.mcp.url);
    expect(a.handle.mcp.token).not.toBe(b.handle.mcp.token);
    expect(readEndpointFile(projectDiscoveryDir(dataDir, a.id))?.url).toBe(a.handle.mcp.url);
    expect(readEndpointFile(projectDiscoveryDir(dataDir, b.id))?.url).toBe(b.handle.mcp.url);
    expect(readEndpointFile(dataDir)?.url).toBe(b.handle.mcp.url);
    workspace.focus(a.id);
    expect(readEndpointFile(dataDir)?.url).toBe(a.handle.mcp.url);
  });

  it('closing a project stops only its trees, remembers what ran, and activates another', async () => {
    const { workspace, recent } = host;
    const a = await workspace.open(project('alpha'), { grantTrust: true });
    const b = await workspace.open(project('beta'), { grantTrust: true });
    const pidOf = (p: typeof a) => p.handle.core.listProcesses()[0]?.pid;
    await expect.poll(() => pidOf(a) !== undefined && pidOf(b) !== undefined).toBe(true);
    const [alphaPid, betaPid] = [pidOf(a)!, pidOf(b)!];
    await workspace.close(a.id);
    expect(isAlive(alphaPid)).toBe(false);
    expect(isAlive(betaPid)).toBe(true);
    expect(workspace.list().map((p) => p.id)).toEqual([b.id]);
    expect(workspace.activeId).toBe(b.id);
    expect(readEndpointFile(projectDiscoveryDir(dataDir, a.id))).toBeUndefined();
    expect(recent.list().find((r) => r.dir === a.dir)?.lastRun).toEqual(['alpha-sleeper']);
    const state = workspace.state();
    expect(state.recent.find((r) => r.dir === a.dir)).toMatchObject({ lastRun: ['alpha-sleeper'], needsAttention: 0 });
    expect(state.recent.find((r) => r.dir === b.dir)).toMatchObject({ openId: b.id, lastRun: ['beta-sleeper'] });
  });

  it('counts entries that need a person across every project', async () => {
    const { workspace } = host;
    const a = await workspace.open(project('alpha'), { grantTrust: true });
    const b = await workspace.open(project('beta'), { grantTrust: true });
    const changes: number[] = [];
    workspace.onChanged((state) => changes.push(state.projects.reduce((n, p) => n + p.needsAttention, 0)));
    a.handle.core.requestAttention(a.handle.core.listProcesses()[0].id, 'look', 'test');
    b.handle.core.requestAttention(b.handle.core.listProcesses()[0].id, 'look', 'test');
    expect(workspace.needsAttentionCount()).toBe(2);
    await expect.poll(() => changes.at(-1)).toBe(2); // entry changes are coalesced, then announced once the count moved
  });

  it('refuses a typed folder outside the roots and an unknown project id, clearly', async () => {
    const { workspace } = host;
    await expect(workspace.openTyped('/etc')).rejects.toThrow(/is outside the folders Switchboard may open here/);
    expect(() => workspace.get('pj_nope')).toThrow('No open project has the id "pj_nope"');
    expect(() => workspace.activeProject()).toThrow('No project is open: open a folder first.');
    await expect(workspace.chooseAndOpen()).rejects.toThrow(/type the folder path in the path field/);
    expect(workspace.list()).toEqual([]);
  });

  it('dispose stops every project', async () => {
    const a = await host.workspace.open(project('alpha'), { grantTrust: true });
    await expect.poll(() => a.handle.core.listProcesses()[0]?.pid).toBeGreaterThan(0);
    const pid = a.handle.core.listProcesses()[0].pid!;
    await host.dispose();
    expect(isAlive(pid)).toBe(false);
    expect(host.workspace.list()).toEqual([]);
    expect(readEndpointFile(dataDir)).toBeUndefined();
  });
});
