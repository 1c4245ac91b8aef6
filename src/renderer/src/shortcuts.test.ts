/** App shortcuts match the physical key (event.code) with Ctrl/Cmd+Shift; Alt combinations stay with the shell. */
import { describe, expect, it } from 'vitest';
import { shortcutOf, terminalKeyOf, type KeyLike } from './shortcuts';

const key = (code: string, mods: Partial<KeyLike> = {}): KeyLike => ({
  code,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe('shortcutOf', () => {
  it('macOS Cmd+Shift+1 jumps to pane 1 although event.key would read "!" (and Option+1 "¡")', () => {
    expect(shortcutOf(key('Digit1', { metaKey: true, shiftKey: true }), true, true)).toEqual({ action: 'jumpToPane', index: 0 });
    expect(shortcutOf(key('Digit1', { altKey: true }), true, true)).toBeUndefined();
  });

  it('leaves every Alt combination and plain Ctrl+Arrow to the program in the pane', () => {
    for (const code of ['ArrowRight', 'ArrowLeft', 'Digit3', 'Enter', 'KeyB', 'KeyF']) {
      expect(shortcutOf(key(code, { altKey: true }), false, true)).toBeUndefined();
      expect(shortcutOf(key(code, { ctrlKey: true, altKey: true, shiftKey: true }), false, true)).toBeUndefined();
    }
    expect(shortcutOf(key('ArrowRight', { ctrlKey: true }), false, true)).toBeUndefined();
  });

  it('Ctrl+K is kill-line inside a terminal on Linux; Ctrl+Shift+K opens the palette everywhere', () => {
    expect(shortcutOf(key('KeyK', { ctrlKey: true }), false, true)).toBeUndefined();
    expect(shortcutOf(key('KeyK', { ctrlKey: true }), false, false)).toEqual({ action: 'palette' });
    expect(shortcutOf(key('KeyK', { ctrlKey: true, shiftKey: true }), false, true)).toEqual({ action: 'palette' });
    expect(shortcutOf(key('KeyK', { metaKey: true }), true, true)).toEqual({ action: 'palette' });
  });

  it('maps the other Ctrl+Shift keys', () => {
    const ctrlShift = (code: string) => shortcutOf(key(code, { ctrlKey: true, shiftKey: true }), false, true);
    expect(ctrlShift('KeyE')).toEqual({ action: 'inbox' });
    expect(ctrlShift('ArrowDown')).toEqual({ action: 'nextPane' });
    expect(ctrlShift('ArrowUp')).toEqual({ action: 'previousPane' });
    expect(ctrlShift('Enter')).toEqual({ action: 'maximize' });
    expect(ctrlShift('KeyC')).toBeUndefined(); // terminal copy stays with the terminal
  });
});

describe('terminalKeyOf', () => {
  it('Ctrl+Shift+F / C / V find, copy and paste in a terminal; plain Ctrl+F / C / V stay with the shell', () => {
    expect(terminalKeyOf(key('KeyF', { ctrlKey: true, shiftKey: true }), false)).toBe('find');
    expect(terminalKeyOf(key('KeyC', { ctrlKey: true, shiftKey: true }), false)).toBe('copy');
    expect(terminalKeyOf(key('KeyV', { ctrlKey: true, shiftKey: true }), false)).toBe('paste');
    for (const code of ['KeyF', 'KeyC', 'KeyV']) expect(terminalKeyOf(key(code, { ctrlKey: true }), false)).toBeUndefined();
  });

  it('matches the physical key and leaves Alt combinations alone', () => {
    expect(terminalKeyOf(key('KeyF', { ctrlKey: true, shiftKey: true, altKey: true }), false)).toBeUndefined();
    expect(terminalKeyOf(key('KeyF', { metaKey: true }), true)).toBe('find');
    expect(terminalKeyOf(key('KeyF', { metaKey: true, altKey: true }), true)).toBeUndefined();
    expect(terminalKeyOf(key('KeyF', { ctrlKey: true }), true)).toBeUndefined(); // Ctrl+F is readline's on a Mac too
  });

  it('does not take a key that an app shortcut uses', () => {
    for (const code of ['KeyK', 'KeyE', 'Enter', 'ArrowRight', 'Digit1']) {
      expect(terminalKeyOf(key(code, { ctrlKey: true, shiftKey: true }), false)).toBeUndefined();
    }
    for (const code of ['KeyF', 'KeyC', 'KeyV']) {
      expect(shortcutOf(key(code, { ctrlKey: true, shiftKey: true }), false, true)).toBeUndefined();
    }
  });
});
