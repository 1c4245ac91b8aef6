import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../../shared/model';
import { DEFAULT_UI_STATE } from '../../../shared/uiState';
import { arrangedIds, isInGroup, moveBefore } from './view';

const entry = (id: string, configName: string, kind: ProcessInfo['kind'] = 'command') =>
  ({ id, name: configName, configName, kind }) as ProcessInfo;

describe('view', () => {
  const processes = { a: entry('a', 'web'), b: entry('b', 'api'), c: entry('c', 'claude', 'agent') };

  it('arranges ids by the saved keys (new ids of a restart keep their place), unknown ones last', () => {
    const view = { ...DEFAULT_UI_STATE, order: ['agents.claude', 'processes.web'] };
    expect(arrangedIds(['a', 'b', 'c'], processes, view)).toEqual(['c', 'a', 'b']);
  });

  it('moves a pane before or after its drop target, as dragging left or right means', () => {
    expect(moveBefore(['x', 'y', 'z'], 'z', 'x')).toEqual(['z', 'x', 'y']);
    expect(moveBefore(['x', 'y', 'z'], 'x', 'z')).toEqual(['y', 'z', 'x']);
    expect(moveBefore(['x', 'y', 'z'], 'y', 'y')).toEqual(['x', 'y', 'z']);
  });

  it('puts servers, agents and custom members in their groups', () => {
    const view = { ...DEFAULT_UI_STATE, customGroups: { mine: ['processes.api'] } };
    expect(isInGroup(processes.a, 'servers', view)).toBe(true);
    expect(isInGroup(processes.c, 'servers', view)).toBe(false);
    expect(isInGroup(processes.c, 'agents', view)).toBe(true);
    expect(isInGroup(processes.b, 'mine', view)).toBe(true);
    expect(isInGroup(processes.a, 'mine', view)).toBe(false);
  });
});
