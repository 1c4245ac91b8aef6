import { describe, expect, it } from 'vitest';
import { keySequence } from './terminalInput';
import { NAMED_KEYS } from '../../../shared/mcp';

describe('keySequence', () => {
  it.each([
    ['Enter', '\r'],
    ['enter', '\r'],
    ['Escape', '\x1b'],
    ['Esc', '\x1b'],
    ['Tab', '\t'],
    ['BTab', '\x1b[Z'],
    ['Backspace', '\x7f'],
    ['Up', '\x1b[A'],
    ['Down', '\x1b[B'],
    ['Right', '\x1b[C'],
    ['Left', '\x1b[D'],
    ['PageDown', '\x1b[6~'],
    ['F1', '\x1bOP'],
    ['F12', '\x1b[24~'],
    ['C-c', '\x03'],
    ['C-d', '\x04'],
    ['C-[', '\x1b'],
    ['c-a', '\x01'],
    ['M-b', '\x1bb'],
    ['M-Enter', '\x1b\r'],
    ['C-M-a', '\x1b\x01'],
    ['x', 'x'],
  ])('%s', (name, bytes) => {
    expect(keySequence(name)).toBe(bytes);
  });

  it('knows every documented key name', () => {
    for (const name of NAMED_KEYS) expect(keySequence(name).length).toBeGreaterThan(0);
  });

  it('names the known keys when a name is unknown', () => {
    expect(() => keySequence('Hyper')).toThrow(/Unknown key "Hyper".*Enter, Escape/);
    expect(() => keySequence('C-Up')).toThrow(/Ctrl can only combine with a single character/);
  });
});
