import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProcessConfig } from '../../../shared/config';
import { PortAllocator } from './portAllocator';
import { WorktreeRuntime } from './worktreeRuntime';

const root = mkdtempSync(join(tmpdir(), 'sb-wtruntime-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const path = join(root, 'feature-a');
mkdirSync(path, { recursive: true });
writeFileSync(join(path, 'package.json'), JSON.stringify({ scripts: { dev: 'vite' } }));
const featureA = { id: 'feature-a', name: 'feature-a', path, isMain: false };
const processes = new Map<string, ProcessConfig>([
  ['web', { command: 'npm', args: ['run', 'dev'] }],
  ['worker', { command: 'node', args: ['worker.js'] }],
  ['db', { command: 'postgres', args: ['-p', '${port}'] }],
]);

describe('WorktreeRuntime', () => {
  const runtime = () => new WorktreeRuntime(join(root, 'main'), new PortAllocator({ range: { first: 26_000, last: 26_099 } }));

  it('worktrees.start: none by default, "all" but never a held entry, or the names given', async () => {
    expect((await runtime().plan(featureA, processes)).start).toEqual([]);
    expect((await runtime().plan(featureA, processes, { start: 'all' })).start).toEqual(['web', 'db']);
    expect((await runtime().plan(featureA, processes, { start: ['db'] })).start).toEqual(['db']);
  });

  it('a start name that is not a process is a config issue', async () => {
    const plan = await runtime().plan(featureA, processes, { start: ['web', 'api'] });
    expect(plan.start).toEqual(['web']);
    expect(plan.issues).toEqual([{ path: 'worktrees.start.1', message: 'names "api", which is not in "processes"' }]);
  });

  it('the agent env names the worktree and its servers, and release frees its ports', async () => {
    const ports = new PortAllocator({ range: { first: 26_100, last: 26_199 } });
    const wt = new WorktreeRuntime(join(root, 'main'), ports);
    const plan = await wt.plan(featureA, processes);
    const web = plan.instances.get('web')!.port!;
    expect(plan.agentEnv).toMatchObject({ SWITCHBOARD_WORKTREE: 'feature-a', SWITCHBOARD_URL_WEB: `http://localhost:${web}` });
    expect(plan.agentEnv.SWITCHBOARD_URL_WORKER).toBeUndefined();
    wt.release('feature-a');
    expect(ports.assigned('feature-a')).toEqual({});
  });
});
