import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../../shared/model';
import { groupByState } from './entryGroups';

const agent = (name: string, primary: string, state: ProcessInfo['state'] = 'running') =>
  ({ id: name, name, kind: 'agent', state, message: '', agent: { primary, reason: '', since: 0 } }) as unknown as ProcessInfo;
const server = (name: string, state: ProcessInfo['state'], message = '') =>
  ({ id: name, name, kind: 'command', state, message }) as unknown as ProcessInfo;

describe('groupByState', () => {
  it('puts what needs a person first, then failures, work in progress, the ready and the stopped; empty groups are left out', () => {
    const groups = groupByState([
      server('web', 'ready'),
      agent('busy', 'active'),
      agent('asks', 'waiting'),
      server('api', 'error', 'Exited with code 1'),
      server('db', 'stopped'),
      agent('idle', 'idle'),
      agent('stuck', 'stuck'),
    ]);
    expect(groups.map((g) => [g.label, g.entries.map((e) => e.name)])).toEqual([
      ['Needs you', ['asks', 'stuck']],
      ['Failed', ['api']],
      ['Working', ['busy']],
      ['Ready or idle', ['web', 'idle']],
      ['Stopped', ['db']],
    ]);
    expect(groupByState([server('web', 'starting')]).map((g) => g.id)).toEqual(['working']);
  });
});
