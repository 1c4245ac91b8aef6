/**
 * Every worktree runs its own app: a real Vite project and a real Flask API in real `git worktree`s,
 * planned by the runtime (zero configuration for Vite and Flask), run in real PTYs and watched by
 * the real readiness tracker. Ground truth is each URL answering HTTP with its own worktree's files.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProcessConfig } from '../../src/shared/config';
import type { ProcessSpec } from '../../src/shared/model';
import { JsonPortStore, PortAllocator, planInstances, type RuntimeWorktree } from '../../src/main/core/runtime';
import { SYSTEM_PYTHON, hasPythonModule, useReadyHarness } from '../ready/readyHarness';
import { httpGet } from '../support/repoCore';

const REPO = resolve(__dirname, '../..');
const { harness, timings } = useReadyHarness('worktree runtime (ms)');
const hasFlask = hasPythonModule('flask');

/** The frontend: Vite serving index.html, proxying /api to whatever API_URL says. */
const VITE_CONFIG = `export default {
  cacheDir: process.env.VITE_CACHE_DIR,
  clearScreen: false,
  server: process.env.API_URL ? { proxy: { '/api': { target: process.env.API_URL, rewrite: (p) => p.replace(/^\\/api/, '') } } } : {},
};
`;
const FLASK_APP = `from pathlib import Path
from flask import Flask
app = Flask(__name__)

@app.route("/")
def index():
    return Path(__file__).with_name("message.txt").read_text()
`;

/** A git repository with the Vite frontend and the Flask API, and `names` worktrees of it. */
function makeProject(names: string[]): { main: RuntimeWorktree; worktrees: RuntimeWorktree[]; cacheRoot: string } {
  const root = harness().tempDir('sb-runtime-');
  const mainPath = join(root, 'app');
  mkdirSync(mainPath);
  writeFileSync(
    join(mainPath, 'package.json'),
    JSON.stringify({ private: true, scripts: { dev: 'vite' }, devDependencies: { vite: '*' } }),
  );
  writeFileSync(join(mainPath, 'vite.config.mjs'), VITE_CONFIG);
  writeFileSync(join(mainPath, 'index.html'), '<!doctype html><title>app</title><p>page from main</p>\n');
  writeFileSync(join(mainPath, 'api.py'), FLASK_APP);
  writeFileSync(join(mainPath, 'message.txt'), 'api from main');
  writeFileSync(join(mainPath, '.gitignore'), 'node_modules\n__pycache__\n');
  git(mainPath, 'init', '-q', '-b', 'main');
  git(mainPath, 'add', '.');
  git(mainPath, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'app');
  const worktrees = names.map((name) => {
    const path = join(root, 'worktrees', name);
    git(mainPath, 'worktree', 'add', '-q', '-b', name, path);
    // What `worktrees.copy`/`setup` gives a real worktree: its dependencies.
    symlinkSync(join(REPO, 'node_modules'), join(path, 'node_modules'));
    return { id: name, name, path, isMain: false };
  });
  symlinkSync(join(REPO, 'node_modules'), join(mainPath, 'node_modules'));
  return { main: { id: 'main', name: 'main', path: mainPath, isMain: true }, worktrees, cacheRoot: join(root, 'cache') };
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore' });
}

async function planFor(worktree: RuntimeWorktree, main: RuntimeWorktree, processes: Record<string, ProcessConfig>, ports: PortAllocator) {
  const plan = await planInstances({ worktree, processes: new Map(Object.entries(processes)), projectDir: main.path, ports });
  expect(plan.issues).toEqual([]);
  return plan;
}

/** Starts a planned spec the way the core does, and waits until it is ready. */
async function run(spec: ProcessSpec) {
  const server = await harness().start({
    name: `${spec.worktree}/${spec.name}`,
    argv: spec.argv,
    cwd: spec.cwd,
    env: spec.env,
    ready: spec.ready,
  });
  const result = await server.tracker.waitForReady(60_000);
  expect(result, `${spec.worktree}/${spec.name}: ${result.message}`).toMatchObject({ success: true, state: 'ready' });
  return { server, result };
}

const cacheEnv = (cacheRoot: string) => ({ VITE_CACHE_DIR: `${cacheRoot}/\${worktree}` });

describe('every worktree runs its own app', () => {
  it('Vite, zero configuration: three worktrees at once on three ports, each serving its own files', async () => {
    const { main, worktrees, cacheRoot } = makeProject(['feature-a', 'feature-b', 'feature-c']);
    writeFileSync(join(worktrees[1].path, 'index.html'), '<!doctype html><title>app</title><p>page changed in feature-b</p>\n');
    const ports = new PortAllocator();
    const processes = { web: { command: 'npm', args: ['run', 'dev'], env: cacheEnv(cacheRoot) } };
    const plans = await Promise.all(worktrees.map((w) => planFor(w, main, processes, ports)));
    const startedAt = Date.now();
    const runs = await Promise.all(plans.map((plan) => run(plan.instances.get('web')!.spec)));
    timings.push({ test: 'vite x3', allReady: Date.now() - startedAt });
    const readyPorts = runs.map((r) => r.result.port);
    expect(new Set(readyPorts).size).toBe(3);
    expect(readyPorts).toEqual(plans.map((p) => p.instances.get('web')!.port));
    for (const [i, { result }] of runs.entries()) {
      expect(result.message).toBe(`Vite ready on http://localhost:${readyPorts[i]}`);
      const page = await httpGet(`http://localhost:${readyPorts[i]}/`);
      expect(page.status).toBe(200);
      expect(page.body).toContain(i === 1 ? 'page changed in feature-b' : 'page from main');
      expect(page.body).not.toContain(i === 1 ? 'page from main' : 'changed');
    }
  });

  it.skipIf(!hasFlask)('Flask, zero configuration: two worktrees, each API answering with its own worktree’s file', async () => {
    const { main, worktrees } = makeProject(['feature-a', 'feature-b']);
    worktrees.forEach((w) => writeFileSync(join(w.path, 'message.txt'), `api from ${w.id}`));
    const ports = new PortAllocator();
    const processes = {
      api: { command: SYSTEM_PYTHON, args: ['-m', 'flask', '--app', 'api', 'run'], env: { PYTHONDONTWRITEBYTECODE: '1' } },
    };
    const plans = await Promise.all(worktrees.map((w) => planFor(w, main, processes, ports)));
    const runs = await Promise.all(plans.map((plan) => run(plan.instances.get('api')!.spec)));
    for (const [i, { result }] of runs.entries()) {
      expect(result.port).toBe(plans[i].instances.get('api')!.port);
      expect((await httpGet(`http://127.0.0.1:${result.port}/`)).body).toBe(`api from ${worktrees[i].id}`);
    }
  });

  it.skipIf(!hasFlask)('${port:api} and ${url:api} wire each frontend to its own worktree’s API', async () => {
    const { main, worktrees, cacheRoot } = makeProject(['feature-a', 'feature-b']);
    worktrees.forEach((w) => writeFileSync(join(w.path, 'message.txt'), `api from ${w.id}`));
    const ports = new PortAllocator();
    const processes: Record<string, ProcessConfig> = {
      api: { command: SYSTEM_PYTHON, args: ['-m', 'flask', '--app', 'api', 'run'], env: { PYTHONDONTWRITEBYTECODE: '1' } },
      web: { command: 'npm', args: ['run', 'dev'], env: { ...cacheEnv(cacheRoot), API_URL: '${url:api}', API_PORT: '${port:api}' } },
    };
    for (const worktree of worktrees) {
      const plan = await planFor(worktree, main, processes, ports);
      const web = plan.instances.get('web')!.spec;
      expect(web.dependsOn).toEqual({ api: 'ready' });
      expect(web.env?.API_PORT).toBe(String(plan.instances.get('api')!.port));
      await run(plan.instances.get('api')!.spec); // dependsOn: the API is ready before the frontend starts
      const { result } = await run(web);
      expect((await httpGet(`http://localhost:${result.port}/api/`)).body).toBe(`api from ${worktree.id}`);
    }
  });

  it('a port something else listens on is skipped, and after a restart each worktree keeps its ports', async () => {
    const { main, worktrees, cacheRoot } = makeProject(['feature-a', 'feature-b']);
    const store = join(harness().tempDir('sb-ports-store-'), 'ports.json');
    const processes = { web: { command: 'npm', args: ['run', 'dev'], env: cacheEnv(cacheRoot) } };
    const firstPlans = await Promise.all(
      worktrees.map((w) => planFor(w, main, processes, new PortAllocator({ store: new JsonPortStore(store) }))),
    );
    const first = firstPlans.map((p) => p.instances.get('web')!.port!);
    const firstRuns = await Promise.all(firstPlans.map((p) => run(p.instances.get('web')!.spec)));
    expect(firstRuns.map((r) => r.result.port)).toEqual(first);
    // The app goes down: its servers stop, and an unrelated program takes feature-b's port meanwhile.
    await Promise.all(firstRuns.map((r) => r.server.entry.stop()));
    const unrelated = await harness().holdPort(first[1]);
    const ports = new PortAllocator({ store: new JsonPortStore(store) });
    const again = await Promise.all(worktrees.map((w) => planFor(w, main, processes, ports)));
    const second = again.map((p) => p.instances.get('web')!.port!);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    const secondRuns = await Promise.all(again.map((p) => run(p.instances.get('web')!.spec)));
    expect(secondRuns.map((r) => r.result.port)).toEqual(second);
    expect(unrelated.listening).toBe(true);
    expect((await httpGet(`http://localhost:${second[1]}/`)).body).toContain('page from main');
  });
});
