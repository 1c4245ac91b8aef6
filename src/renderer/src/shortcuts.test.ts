/** App shortcuts match the physical key (event.code) with Ctrl/Cmd+Shift; Alt combinations stay with the shell. */
import { describe, expect, it } from 'vitest';
import { shortcutOf, type KeyLike } from './shortcuts';

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
