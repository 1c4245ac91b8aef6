/**
 * Worktrees through the real MCP endpoint of a real core (createCore), on a real git repository
 * the test makes: two worktrees, a process writing a file in one (a real PTY), the diff showing
 * exactly that, the merge landing it, removal refused and then forced (the saved branch holds the
 * work), and a restart bringing back the worktrees and the entry.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CoreHandle } from '../../src/main/core/composition';
import { makeTestRepo, type TestRepo } from '../../src/main/core/worktrees/testing/gitRepo';
import { waitForFileText } from '../support/wait';
import { callError, callOk, connectClient } from '../mcp/mcpHarness';
import { startRepoCore } from '../support/repoCore';

let repo: TestRepo;
let handle: CoreHandle | undefined;
let client: Client | undefined;

async function start(config?: unknown): Promise<Client> {
  if (config) writeFileSync(join(repo.root, 'switchboard.json'), JSON.stringify(config));
  handle = await startRepoCore(repo);
  client = await connectClient(handle.mcp.url, handle.mcp.token);
  return client;
}

async function stop(): Promise<void> {
  await client?.close();
  await handle?.dispose();
  client = undefined;
  handle = undefined;
}

beforeEach(() => {
  repo = makeTestRepo({ 'README.md': 'hello\n', '.gitignore': 'switchboard.json\n' });
});
afterEach(async () => {
  await stop();
  repo.cleanup();
});

describe('worktrees over MCP', () => {
  it('creates two, runs work in one, diffs, merges, refuses and forces removal, and survives a restart', async () => {
    const mcp = await start();
    const a = await callOk<{ id: string; path: string; branch: string }>(mcp, 'create_worktree', { name: 'a' });
    const b = await callOk<{ id: string; path: string; branch: string }>(mcp, 'create_worktree', {});
    expect(a).toMatchObject({
      id: 'a',
      branch: 'switchboard/a',
      path: expect.stringMatching(/\/data\/worktrees\/repo-[0-9a-f]{8}\/a$/) as string,
    });
    expect(b.id).toBe('wt-1');

    const writer = await callOk<{ id: string; cwd: string; worktree: string }>(mcp, 'spawn_process', {
      kind: 'command',
      shell: 'printf "made in a\\n" > result.txt; exec sleep 600',
      worktree: 'a',
    });
    expect(writer).toMatchObject({ cwd: a.path, worktree: 'a' });
    await waitForFileText(join(a.path, 'result.txt'), 'made in a\n', 10_000);

    const diff = await callOk<{ files: Array<{ path: string; added: number; removed: number; isUncommitted: boolean; patch: string }> }>(
      mcp,
      'worktree_diff',
      { worktree: 'a' },
    );
    expect(diff.files.map(({ path, added, removed, isUncommitted }) => ({ path, added, removed, isUncommitted }))).toEqual([
      { path: 'result.txt', added: 1, removed: 0, isUncommitted: true },
    ]);
    expect(diff.files[0].patch).toContain('+made in a');
    expect((await callOk<{ files: unknown[] }>(mcp, 'worktree_diff', { worktree: 'wt-1' })).files).toEqual([]);

    const { worktrees } = await callOk<{ worktrees: Array<{ id: string; changedFiles: number; ahead: number }> }>(mcp, 'list_worktrees');
    expect(worktrees.map((w) => [w.id, w.changedFiles])).toEqual([
      ['main', 0],
      ['a', 1],
      ['wt-1', 0],
    ]);

    const refused = await callError(mcp, 'merge_worktree', { worktree: 'a' });
    expect(refused.text).toMatch(/uncommitted changes/);
    await handle!.core.worktrees.manager.commit('a', 'result from a');
    const merged = await callOk<{ base: string; commit: string }>(mcp, 'merge_worktree', { worktree: 'a', strategy: 'ff' });
    expect(merged.base).toBe('main');
    expect(readFileSync(join(repo.root, 'result.txt'), 'utf8')).toBe('made in a\n');

    writeFileSync(join(b.path, 'draft.txt'), 'unsaved draft\n');
    const dirty = await callError(mcp, 'remove_worktree', { worktree: 'wt-1' });
    expect(dirty.text).toMatch(/uncommitted file\(s\) \(draft\.txt\)/);
    expect(readFileSync(join(b.path, 'draft.txt'), 'utf8')).toBe('unsaved draft\n');

    await stop();
    const again = await start();
    const back = await callOk<{ worktrees: Array<{ id: string }> }>(again, 'list_worktrees');
    expect(back.worktrees.map((w) => w.id)).toEqual(['main', 'a', 'wt-1']);
    const restored = handle!.core.listProcesses().find((p) => p.worktree === 'a');
    expect(restored).toMatchObject({ worktree: 'a', cwd: a.path });

    const forced = await callOk<{ savedTo: string }>(again, 'remove_worktree', { worktree: 'wt-1', force: true });
    expect(repo.git('show', `${forced.savedTo}:draft.txt`)).toBe('unsaved draft\n');
    expect((await callOk<{ worktrees: Array<{ id: string }> }>(again, 'list_worktrees')).worktrees.map((w) => w.id)).toEqual(['main', 'a']);
  });

  it('keeps an agent from its instructions when set-up fails, and says why', async () => {
    // Trusted at startup (serve --trust): the set-up runs.
    await start({ worktrees: { setup: ['echo preparing', 'exit 3'] } });
    const core = handle!.core;
    const result = await core.worktrees.startAgentInWorktree({
      name: 'x',
      preset: 'generic',
      argv: ['cat'],
      agentName: 'worker',
      instructions: 'do the work',
    });
    expect(result.instructionsDelivered).toBe(false);
    expect(result.setup.ok).toBe(false);
    expect(result.setup.message).toMatch(/Set-up command "exit 3" in worktree "x" failed \(exit code 3\)/);
    expect(result.setup.entries.map((id) => core.describe(id).state)).toEqual(['completed', 'error']);
    expect(core.describe(result.agent.id)).toMatchObject({
      worktree: 'x',
      cwd: result.worktree.path,
      attention: { reason: expect.stringMatching(/exit code 3/) as string },
    });
  });

  it('asks again about a changed worktrees section, with what the file has now, and drops the request once it sets nothing', async () => {
    await start({ worktrees: { setup: ['echo one'] } });
    const core = handle!.core;
    const pendingWorktrees = () => core.trustState().pending.find((request) => request.key === 'worktrees');
    expect(pendingWorktrees()).toBeUndefined();

    writeFileSync(join(repo.root, 'switchboard.json'), JSON.stringify({ worktrees: { setup: ['echo two'] } }));
    await core.reloadConfig();
    expect(pendingWorktrees()).toMatchObject({
      change: 'changed',
      argv: ['/bin/sh', '-c', 'echo two'],
      worktrees: { setup: ['echo two'] },
    });
    await core.reloadConfig();
    expect(pendingWorktrees()?.argv).toEqual(['/bin/sh', '-c', 'echo two']);

    writeFileSync(join(repo.root, 'switchboard.json'), JSON.stringify({ worktrees: { setup: ['echo two'], dir: '../elsewhere' } }));
    await core.reloadConfig();
    expect(pendingWorktrees()?.worktrees).toEqual({ dir: join(repo.home, 'elsewhere'), dirEscapes: false, copy: [], setup: ['echo two'] });

    writeFileSync(join(repo.root, 'switchboard.json'), JSON.stringify({}));
    await core.reloadConfig();
    expect(pendingWorktrees()).toBeUndefined();
  });
});
