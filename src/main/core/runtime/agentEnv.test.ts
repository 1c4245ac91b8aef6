import { describe, expect, it } from 'vitest';
import type { ProcessSpec } from '../../../shared/model';
import { agentEnvFor } from './agentEnv';
import type { Instance } from './instancePlan';

const spec = (name: string, oneShot = false): ProcessSpec => ({ name, kind: 'command', argv: ['x'], cwd: '/w', ready: { oneShot } });

describe('agentEnvFor', () => {
  it('names the worktree and each of its servers’ URLs; held entries and jobs have none', () => {
    const instances = new Map<string, Instance>([
      ['web', { spec: spec('web'), port: 20_001 }],
      ['admin-api', { spec: spec('admin-api'), port: 20_002 }],
      ['worker', { spec: spec('worker'), port: 20_003, held: 'no known dev server' }],
      ['migrate', { spec: spec('migrate', true), port: 20_004 }],
    ]);
    expect(agentEnvFor({ id: 'feature-a', name: 'feature-a', path: '/w', isMain: false }, { instances, issues: [] })).toEqual({
      SWITCHBOARD_WORKTREE: 'feature-a',
      SWITCHBOARD_URL_WEB: 'http://localhost:20001',
      SWITCHBOARD_URL_ADMIN_API: 'http://localhost:20002',
    });
  });
});
