import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProcessConfig } from '../../../shared/config';
import { planInstances, type RuntimeWorktree } from './instancePlan';
import { PortAllocator } from './portAllocator';

const root = mkdtempSync(join(tmpdir(), 'sb-plan-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const main: RuntimeWorktree = { id: 'main', name: 'main', path: join(root, 'app'), isMain: true };
const featureA: RuntimeWorktree = { id: 'feature-a', name: 'feature-a', path: join(root, 'wt', 'feature-a'), isMain: false };
for (const dir of [main.path, featureA.path]) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { dev: 'vite' }, devDependencies: { vite: '7' } }));
}

function plan(
  worktree: RuntimeWorktree,
  processes: Record<string, ProcessConfig>,
  ports = new PortAllocator({ range: { first: 25_000, last: 25_999 } }),
) {
  return planInstances({ worktree, processes: new Map(Object.entries(processes)), projectDir: main.path, ports });
}

describe('planInstances', () => {
  it('main checkout: a fixed port stays, a zero-config server runs as written', async () => {
    const { instances, issues } = await plan(main, {
      web: { command: 'npm', args: ['run', 'dev'] },
      api: { command: 'node', args: ['api.js'], port: 3000 },
    });
    expect(issues).toEqual([]);
    expect(instances.get('web')).toMatchObject({ port: 5173, spec: { argv: ['npm', 'run', 'dev'], cwd: main.path } });
    expect(instances.get('web')!.spec.worktree).toBeUndefined();
    expect(instances.get('api')).toMatchObject({ port: 3000, spec: { argv: ['node', 'api.js'], ready: { port: 3000 } } });
  });

  it('another worktree: the zero-config server is told a port of its own; a fixed port moves', async () => {
    const { instances } = await plan(featureA, {
      web: { command: 'npm', args: ['run', 'dev'] },
      api: { command: 'node', args: ['api.js', '--listen', '${port}'], port: 3000 },
    });
    const web = instances.get('web')!;
    expect(web.port).toBeGreaterThanOrEqual(25_000);
    expect(web.spec).toMatchObject({
      argv: ['npm', 'run', 'dev', '--', '--port', String(web.port), '--strictPort'],
      cwd: featureA.path,
      worktree: 'feature-a',
      env: { SWITCHBOARD_WORKTREE: 'feature-a' },
      ready: { port: web.port },
    });
    const api = instances.get('api')!;
    expect(api.port).not.toBe(3000);
    expect(api.spec.argv).toEqual(['node', 'api.js', '--listen', String(api.port)]);
    expect(api.spec.ready?.port).toBe(api.port);
  });

  it('${port:api} and ${url:api} point at the same worktree’s api, and the dependent waits for it', async () => {
    const { instances } = await plan(featureA, {
      api: { command: 'node', args: ['api.js', '${port}'] },
      web: { command: 'npm', args: ['run', 'dev'], env: { API_PORT: '${port:api}', API_URL: '${url:api}/v1', DB: 'app_${worktree}' } },
    });
    const apiPort = instances.get('api')!.port!;
    expect(instances.get('web')!.spec.env).toMatchObject({
      API_PORT: String(apiPort),
      API_URL: `http://localhost:${apiPort}/v1`,
      DB: 'app_feature-a',
    });
    expect(instances.get('web')!.spec.dependsOn).toEqual({ api: 'ready' });
  });

  it('an entry with nothing saying how to pass a port is held with one clear line', async () => {
    const { instances } = await plan(featureA, {
      worker: { command: 'node', args: ['worker.js'] },
      lint: { command: 'eslint .', oneShot: true },
    });
    expect(instances.get('worker')!.held).toMatch(/^no known dev server in this command: put \$\{port\} in its args or env/);
    expect(instances.get('lint')!.held).toBeUndefined();
  });

  it('unknown references are config errors with their field path, and only that entry is left out', async () => {
    const { instances, issues } = await plan(featureA, {
      web: { command: 'vite', args: ['--port', '${prot}'] },
      app: { command: 'node', args: ['app.js'], env: { API: '${url:db}' } },
      ok: { command: 'node', args: ['ok.js', '${port}'] },
    });
    expect(issues).toEqual([
      {
        path: 'processes.web.args.1',
        message: 'has an unknown reference ${prot} (known: ${port}, ${port:NAME}, ${url:NAME}, ${worktree})',
      },
      { path: 'processes.app.env.API', message: 'refers to ${url:db}, but there is no process named "db"' },
    ]);
    expect([...instances.keys()]).toEqual(['ok']);
  });

  it('main checkout: ${port:api} to an entry with no known port is an error naming the fix', async () => {
    const { instances, issues } = await plan(main, {
      api: { command: 'node', args: ['api.js'] },
      web: { command: 'vite', env: { API: '${port:api}' } },
    });
    expect(issues).toEqual([
      { path: 'processes.web', message: 'refers to "api", which has no port: give it "port" or ${port} in its args' },
    ]);
    expect([...instances.keys()]).toEqual(['api']);
    const toDefault = await plan(main, {
      web: { command: 'vite' },
      e2e: { command: 'node', args: ['e2e.js'], env: { BASE: '${url:web}' } },
    });
    expect(toDefault.instances.get('e2e')!.spec.env).toEqual({ BASE: 'http://localhost:5173' });
  });

  it('worktrees never get the main checkout’s ports, and each its own', async () => {
    const ports = new PortAllocator({ range: { first: 3000, last: 3003 } });
    const processes = { api: { command: 'node', args: ['api.js', '${port}'], port: 3000 } };
    const a = await plan(featureA, processes, ports);
    const b = await plan({ ...featureA, id: 'feature-b', name: 'feature-b' }, processes, ports);
    const ports2 = [a.instances.get('api')!.port, b.instances.get('api')!.port];
    expect(ports2).not.toContain(3000);
    expect(new Set(ports2).size).toBe(2);
  });
});
