/**
 * What a sandboxed entry starts runs in its sandbox, and `worktrees.start` servers get their own
 * entry's sandbox: every run of those entries goes through the sandbox backend (a recording one
 * here: it runs the program as is and notes what it wrapped; the real bwrap is in the live test).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCore } from '../composition';
import { makeTestRepo, type TestRepo } from '../worktrees/testing/gitRepo';
import type { SandboxBackend } from '../sandbox';
import type { SwitchboardCore } from './switchboardCore';
import type { SandboxConfig } from '../../../shared/sandbox';

const SPAWNER_SANDBOX = { network: { allow: ['registry.npmjs.org'] } };

let core: SwitchboardCore | undefined;
let repo: TestRepo | undefined;
afterEach(async () => {
  await core?.dispose();
  repo?.cleanup();
  core = repo = undefined;
});

/** A core on a git repository whose switchboard.json is `config`; `wrapped` lists each sandboxed run's argv. */
async function start(config: unknown) {
  repo = makeTestRepo({ 'README.md': 'hello\n', 'switchboard.json': JSON.stringify(config) });
  const wrapped: string[][] = [];
  const backend: SandboxBackend = {
    name: 'recording',
    unavailableReason: () => undefined,
    wrap: (_plan, argv) => {
      wrapped.push([...argv]);
      return [...argv];
    },
  };
  core = buildCore(
    { projectDir: repo.root, watchConfig: false, killGraceMs: 500 },
    { sandbox: { backend }, worktrees: { dataDir: join(repo.home, 'data'), projectKey: repo.root } },
  );
  await core.init();
  await core.grantTrust();
  return { core, wrapped };
}

describe("a sandboxed spawner's children", () => {
  it('spawn_process without sandbox, with `sandbox: false` or with a wider allowlist: the spawner’s sandbox, run through the backend', async () => {
    const { core, wrapped } = await start({});
    const spawner = await core.spawnProcess({ kind: 'command', argv: ['cat'], name: 'spawner', sandbox: SPAWNER_SANDBOX });
    const asked: Array<SandboxConfig | undefined> = [undefined, false, { network: { allow: ['*'] } }];
    for (const [index, sandbox] of asked.entries()) {
      const child = await core.spawnProcess(
        { kind: 'command', argv: ['echo', `child-${index}`], ...(sandbox !== undefined ? { sandbox } : {}) },
        { spawnedBy: spawner.id },
      );
      expect(core.entry(child.id).definition.sandbox).toEqual(SPAWNER_SANDBOX);
      expect(core.describe(child.id).sandbox?.reach).toContain('registry.npmjs.org');
      expect(core.describe(child.id).access?.spawnedBy).toBe(spawner.id);
      expect(wrapped.map((argv) => argv.slice(1))).toContainEqual([`child-${index}`]);
    }
  });

  it('a task it starts is sandboxed too', async () => {
    const { core } = await start({});
    const spawner = await core.spawnProcess({ kind: 'command', argv: ['cat'], name: 'spawner', sandbox: SPAWNER_SANDBOX });
    const task = await core.startTask({ prompt: 'hello', argv: ['echo', 'task'] }, { spawnedBy: spawner.id });
    expect(core.entry(task.taskId).definition.sandbox).toEqual(SPAWNER_SANDBOX);
    expect(core.describe(task.taskId).access?.spawnedBy).toBe(spawner.id);
  });

  it('an entry no sandboxed entry spawned keeps what it asked for', async () => {
    const { core, wrapped } = await start({});
    const plain = await core.spawnProcess({ kind: 'command', argv: ['cat'] });
    expect(core.entry(plain.id).definition.sandbox).toBeUndefined();
    expect(core.describe(plain.id).sandbox).toBeUndefined();
    expect(wrapped).toEqual([]);
  });
});

describe('worktrees.start servers', () => {
  const config = {
    processes: {
      web: { command: 'cat', env: { PORT: '${port}' }, sandbox: { network: { allow: ['example.org'] } } },
      api: { command: 'cat', env: { PORT: '${port}' } },
    },
    worktrees: { start: ['web', 'api'] },
  };

  it('run in their own entry’s sandbox; one without keeps none', async () => {
    const { core, wrapped } = await start(config);
    const { worktree } = await core.worktrees.createWorktree({ name: 'a' });
    const instances = core.listProcesses().filter((p) => p.worktree === worktree.id);
    const web = instances.find((p) => p.configName === 'web')!;
    const api = instances.find((p) => p.configName === 'api')!;
    expect(core.describe(web.id).sandbox?.reach).toContain('example.org');
    expect(core.describe(api.id).sandbox).toBeUndefined();
    expect(wrapped.map((argv) => argv.slice(1))).toEqual([[], []]); // web's `cat`, in the main checkout and in the worktree
  });

  it('made by a sandboxed agent’s call: all in its sandbox', async () => {
    const { core } = await start(config);
    const spawner = await core.spawnProcess({ kind: 'command', argv: ['cat'], name: 'spawner', sandbox: SPAWNER_SANDBOX });
    const { worktree } = await core.worktrees.createWorktree({ name: 'b' }, { spawnedBy: spawner.id });
    const instances = core.listProcesses().filter((p) => p.worktree === worktree.id);
    expect(instances.map((p) => p.configName).sort()).toEqual(['api', 'web']);
    for (const instance of instances) expect(core.entry(instance.id).definition.sandbox).toEqual(SPAWNER_SANDBOX);
  });
});
