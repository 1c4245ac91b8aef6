/**
 * A new worktree runs its own app, through the real core (createCore: worktrees, runtime, trust,
 * readiness) on a real git repository with a real Vite server: `worktrees.start: ["web"]` starts
 * one `web` per worktree on its own port, each answering HTTP with its own worktree's files; an
 * agent in the worktree is told its URL; removing the worktree releases its ports; an untrusted
 * main-checkout entry starts nowhere.
 */
import { symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoreHandle } from '../../src/main/core/composition';
import { makeTestRepo, type TestRepo } from '../../src/main/core/worktrees/testing/gitRepo';
import { waitForOutput } from '../support/wait';
import { httpText, startRepoCore } from '../support/repoCore';

const REPO = resolve(__dirname, '../..');
/** Vite's own default port: where the main checkout's zero-configuration `web` listens. */
const VITE_DEFAULT_PORT = 5173;

let repo: TestRepo;
let handle: CoreHandle | undefined;

beforeEach(() => {
  repo = makeTestRepo({
    'package.json': JSON.stringify({ private: true, scripts: { dev: 'vite' }, devDependencies: { vite: '*' } }),
    // Each worktree's dependency cache in its own folder (node_modules is one shared link).
    'vite.config.mjs': 'export default { cacheDir: process.env.VITE_CACHE_DIR, clearScreen: false };\n',
    'index.html': '<!doctype html><title>app</title><p>page from main</p>\n',
    '.gitignore': 'node_modules\nswitchboard.json\n',
  });
  repo.git('checkout', '--quiet', '-b', 'other');
  repo.write('index.html', '<!doctype html><title>app</title><p>page from other</p>\n');
  repo.commitAll('other page');
  repo.git('checkout', '--quiet', 'main');
  symlinkSync(join(REPO, 'node_modules'), join(repo.root, 'node_modules'));
  const config = {
    // Zero configuration: no ${port}; the main checkout's web stays stopped (5173 may be someone else's).
    processes: {
      web: { command: 'npm', args: ['run', 'dev'], env: { VITE_CACHE_DIR: join(repo.home, 'cache', '${worktree}') }, autoStart: false },
    },
    worktrees: { copy: ['node_modules'], start: ['web'] },
  };
  writeFileSync(join(repo.root, 'switchboard.json'), JSON.stringify(config));
});

afterEach(async () => {
  await handle?.dispose();
  handle = undefined;
  repo.cleanup();
});

async function start(grantTrust: boolean): Promise<CoreHandle> {
  handle = await startRepoCore(repo, { grantTrust });
  return handle;
}

describe('a new worktree runs its own app', () => {
  it('two worktrees: two ready `web` entries on their own ports, each serving its own files; the agent knows its URL; removal releases the ports', async () => {
    const { core } = await start(true);
    const a = await core.worktrees.createWorktree({ name: 'a' });
    const b = await core.worktrees.createWorktree({ name: 'b', base: 'other' });
    expect(a.setup.ok && b.setup.ok).toBe(true);
    expect(a.instances?.notStarted).toEqual([]);
    const webs = [a, b].map((created) => {
      expect(created.instances?.started.map((p) => [p.name, p.worktree])).toEqual([['web', created.worktree.id]]);
      return created.instances!.started[0];
    });
    const results = await Promise.all(webs.map((web) => core.waitForReady(web.id, 60_000)));
    const ports = results.map((result) => result.port!);
    expect(results.map((r) => r.state)).toEqual(['ready', 'ready']);
    expect(new Set([...ports, VITE_DEFAULT_PORT]).size).toBe(3);
    expect(ports).toEqual([core.ports.assigned('a').web, core.ports.assigned('b').web]);
    expect(webs.map((web) => core.describe(web.id).cwd)).toEqual([a.worktree.path, b.worktree.path]);
    // The main checkout's web is still its own entry, untouched.
    const mainWeb = core.listProcesses().find((p) => p.configName === 'web' && !p.worktree);
    expect(mainWeb).toMatchObject({ state: 'stopped', cwd: repo.root });

    expect(await httpText(`http://localhost:${ports[0]}/`)).toContain('page from main');
    expect(await httpText(`http://localhost:${ports[1]}/`)).toContain('page from other');
    writeFileSync(join(a.worktree.path, 'index.html'), '<!doctype html><title>app</title><p>page changed in a</p>\n');
    expect(await httpText(`http://localhost:${ports[0]}/`)).toContain('page changed in a');
    expect(await httpText(`http://localhost:${ports[1]}/`)).not.toContain('changed');

    const agent = await core.spawnAgent({
      preset: 'generic',
      argv: ['sh', '-c', 'echo "in=$SWITCHBOARD_WORKTREE url=$SWITCHBOARD_URL_WEB"; exec cat'],
      worktree: 'a',
    });
    await waitForOutput(core.entry(agent.id), new RegExp(`in=a url=http://localhost:${ports[0]}\\b`), 10_000, 0);

    for (const p of core.listProcesses().filter((p) => p.worktree === 'a')) await core.stopProcess(p.id);
    await core.worktrees.manager.remove('a', true);
    expect(core.ports.assigned('a')).toEqual({});
    expect(core.ports.assigned('b')).toEqual({ web: ports[1] });
  });

  it('does not start an instance whose main-checkout entry waits for trust, and says why', async () => {
    const { core } = await start(false);
    expect(core.trustState().pending.map((p) => p.key)).toEqual(['processes.web', 'worktrees']);
    // The worktrees section (its copies) is trusted, the main checkout's web is not.
    await core.grantTrust(['worktrees']);
    const created = await core.worktrees.createWorktree({ name: 'a' });
    expect(created.instances).toEqual({
      started: [],
      notStarted: [{ name: 'web', reason: '"processes.web" waits for trust in the main checkout' }],
    });
    expect(core.listProcesses().filter((p) => p.worktree === 'a')).toEqual([]);
  });
});
