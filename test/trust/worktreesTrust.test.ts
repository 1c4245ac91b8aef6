/**
 * The `worktrees` section (dir, copy, setup) is trusted like any entry: `serve --trust` (createCore
 * grantTrust) and the app token's trust_project cover it, on a fresh data folder, so set-up runs
 * and the worktree's `worktrees.start` servers start; and a folder with nothing to trust asks
 * about the folder itself before any git runs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type CoreHandle } from '../../src/main/core/composition';
import { makeTestRepo, type TestRepo } from '../../src/main/core/worktrees/testing/gitRepo';
import type { ProjectTrustState } from '../../src/shared/trust';
import { callOk, connectClient } from '../mcp/mcpHarness';
import { waitForOutput } from '../support/wait';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const CONFIG = {
  // `${port}`: each worktree's instance gets its own port, so it may start there.
  processes: { web: { command: 'sh', args: ['-c', 'echo "web in $PWD on $0"; exec sleep 600', '${port}'], autoStart: false } },
  worktrees: { setup: ['true'], start: ['web'] },
};

function repoWith(config?: unknown): TestRepo {
  const repo = makeTestRepo({ 'README.md': 'hello\n', '.gitignore': 'switchboard.json\n' });
  if (config !== undefined) writeFileSync(join(repo.root, 'switchboard.json'), JSON.stringify(config));
  cleanups.push(() => repo.cleanup());
  return repo;
}

/** A fresh data folder each time: nothing trusted before. */
async function open(repo: TestRepo, grantTrust: boolean): Promise<CoreHandle> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-wtrust-'));
  const handle = await createCore({ projectDir: repo.root, dataDir, watchConfig: false, killGraceMs: 500, grantTrust });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  cleanups.push(() => handle.dispose());
  return handle;
}

async function app(handle: CoreHandle) {
  const client = await connectClient(handle.mcp.url, handle.mcp.token);
  cleanups.push(() => client.close());
  return client;
}

async function expectSetUpAndServed(handle: CoreHandle, client: Awaited<ReturnType<typeof app>>): Promise<void> {
  const created = await callOk<{ path: string; setup: { ok: boolean } }>(client, 'create_worktree', { name: 'a' });
  expect(created.setup).toMatchObject({ ok: true });
  const web = handle.core.listProcesses().find((p) => p.worktree === 'a' && p.configName === 'web');
  expect(web).toBeDefined();
  await waitForOutput(handle.core.entry(web!.id), new RegExp(`web in ${created.path}`));
}

describe('trust of the worktrees section', () => {
  it('serve --trust trusts worktrees.setup with the rest: set-up runs and worktrees.start starts the server', async () => {
    const handle = await open(repoWith(CONFIG), true);
    expect(handle.core.trustState()).toMatchObject({ trusted: true, folderTrusted: true, pending: [] });
    await expectSetUpAndServed(handle, await app(handle));
  });

  it('without --trust, trust_project lists the worktrees section from the start and trusts it', async () => {
    const handle = await open(repoWith(CONFIG), false);
    const client = await app(handle);
    const status = await callOk<{ trust: ProjectTrustState }>(client, 'get_project_status');
    expect(status.trust.pending.map((r) => [r.key, r.kind])).toEqual([
      ['processes.web', 'command'],
      ['worktrees', 'worktrees'],
    ]);
    expect(status.trust.pending[1]).toMatchObject({ worktrees: { copy: [], setup: ['true'] }, argv: ['/bin/sh', '-c', 'true'] });
    const after = await callOk<ProjectTrustState>(client, 'trust_project');
    expect(after).toMatchObject({ trusted: true, folderTrusted: true, pending: [] });
    await expectSetUpAndServed(handle, client);
  });

  it('a folder with no switchboard.json asks about the folder itself; no git runs and no worktree shows until then', async () => {
    const handle = await open(repoWith(undefined), false);
    const client = await app(handle);
    const status = await callOk<{ trust: ProjectTrustState }>(client, 'get_project_status');
    expect(status.trust).toMatchObject({ trusted: false, folderTrusted: false, firstOpen: true });
    expect(status.trust.pending.map((r) => [r.key, r.kind])).toEqual([['folder', 'folder']]);
    const before = await callOk<{ worktrees: unknown[]; untrusted?: string }>(client, 'list_worktrees');
    expect(before).toEqual({ worktrees: [], untrusted: expect.stringMatching(/trust this project/) as string });

    await callOk(client, 'trust_project', { entries: ['folder'] });
    const after = await callOk<{ worktrees: Array<{ id: string; branch: string }>; untrusted?: string }>(client, 'list_worktrees');
    expect(after.untrusted).toBeUndefined();
    expect(after.worktrees.map((w) => [w.id, w.branch])).toEqual([['main', 'main']]);
  });
});
