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
    expect(shortcutOf(key('Digit1', { metaKey: true, shiftKey: true }), 'darwin', true)).toEqual({ action: 'jumpToPane', index: 0 });
    expect(shortcutOf(key('Digit1', { altKey: true }), 'darwin', true)).toBeUndefined();
  });

  it('leaves every Alt combination and plain Ctrl+Arrow to the program in the pane', () => {
    for (const code of ['ArrowRight', 'ArrowLeft', 'Digit3', 'Enter', 'KeyB', 'KeyF']) {
      expect(shortcutOf(key(code, { altKey: true }), 'linux', true)).toBeUndefined();
      expect(shortcutOf(key(code, { ctrlKey: true, altKey: true, shiftKey: true }), 'linux', true)).toBeUndefined();
    }
    expect(shortcutOf(key('ArrowRight', { ctrlKey: true }), 'linux', true)).toBeUndefined();
  });

  it('Ctrl+K is kill-line inside a terminal on Linux; Ctrl+Shift+K opens the palette everywhere', () => {
    expect(shortcutOf(key('KeyK', { ctrlKey: true }), 'linux', true)).toBeUndefined();
    expect(shortcutOf(key('KeyK', { ctrlKey: true }), 'linux', false)).toEqual({ action: 'palette' });
    expect(shortcutOf(key('KeyK', { ctrlKey: true, shiftKey: true }), 'linux', true)).toEqual({ action: 'palette' });
    expect(shortcutOf(key('KeyK', { metaKey: true }), 'darwin', true)).toEqual({ action: 'palette' });
  });

  it('maps the other Ctrl+Shift keys', () => {
    const ctrlShift = (code: string) => shortcutOf(key(code, { ctrlKey: true, shiftKey: true }), 'linux', true);
    expect(ctrlShift('KeyE')).toEqual({ action: 'inbox' });
    expect(ctrlShift('ArrowDown')).toEqual({ action: 'nextPane' });
    expect(ctrlShift('ArrowUp')).toEqual({ action: 'previousPane' });
    expect(ctrlShift('Enter')).toEqual({ action: 'maximize' });
    expect(ctrlShift('KeyC')).toBeUndefined(); // terminal copy stays with the terminal
  });
});

describe('terminalKeyOf', () => {
  it('Ctrl+Shift+F / C / V find, copy and paste in a terminal; plain Ctrl+F / C / V stay with the shell', () => {
    expect(terminalKeyOf(key('KeyF', { ctrlKey: true, shiftKey: true }), 'linux')).toBe('find');
    expect(terminalKeyOf(key('KeyC', { ctrlKey: true, shiftKey: true }), 'linux')).toBe('copy');
    expect(terminalKeyOf(key('KeyV', { ctrlKey: true, shiftKey: true }), 'linux')).toBe('paste');
    for (const code of ['KeyF', 'KeyC', 'KeyV']) expect(terminalKeyOf(key(code, { ctrlKey: true }), 'linux')).toBeUndefined();
  });

  it('matches the physical key and leaves Alt combinations alone', () => {
    expect(terminalKeyOf(key('KeyF', { ctrlKey: true, shiftKey: true, altKey: true }), 'linux')).toBeUndefined();
    expect(terminalKeyOf(key('KeyF', { metaKey: true }), 'darwin')).toBe('find');
    expect(terminalKeyOf(key('KeyF', { metaKey: true, altKey: true }), 'darwin')).toBeUndefined();
    expect(terminalKeyOf(key('KeyF', { ctrlKey: true }), 'darwin')).toBeUndefined(); // Ctrl+F is readline's on a Mac too
  });

  it('does not take a key that an app shortcut uses', () => {
    for (const code of ['KeyK', 'KeyE', 'Enter', 'ArrowRight', 'Digit1']) {
      expect(terminalKeyOf(key(code, { ctrlKey: true, shiftKey: true }), 'linux')).toBeUndefined();
    }
    for (const code of ['KeyF', 'KeyC', 'KeyV']) {
      expect(shortcutOf(key(code, { ctrlKey: true, shiftKey: true }), 'linux', true)).toBeUndefined();
    }
  });
});

describe('the terminal keeps its keys on Linux and Windows', () => {
  it('plain Ctrl+C / Z / A / O / V / X / W / Q in a pane are neither an app shortcut nor a terminal key', () => {
    for (const platform of ['linux', 'win32'] as const) {
      for (const code of ['KeyC', 'KeyZ', 'KeyA', 'KeyO', 'KeyV', 'KeyX', 'KeyW', 'KeyQ', 'Equal', 'Minus', 'Digit0']) {
        expect(shortcutOf(key(code, { ctrlKey: true }), platform, true), code).toBeUndefined();
        expect(terminalKeyOf(key(code, { ctrlKey: true }), platform), code).toBeUndefined();
      }
      // Ctrl+Shift+- types Ctrl+_ (readline's undo): no zoom out there.
      expect(shortcutOf(key('Minus', { ctrlKey: true, shiftKey: true }), platform, true)).toBeUndefined();
    }
  });

  it('the app acts on the terminal emulators’ Ctrl+Shift chords instead', () => {
    const ctrlShift = (code: string) => key(code, { ctrlKey: true, shiftKey: true });
    expect(terminalKeyOf(ctrlShift('KeyA'), 'linux')).toBe('selectAll');
    expect(shortcutOf(ctrlShift('Equal'), 'linux', true)).toEqual({ action: 'zoomIn' });
    expect(shortcutOf(ctrlShift('Digit0'), 'win32', true)).toEqual({ action: 'zoomReset' });
    expect(shortcutOf(ctrlShift('KeyB'), 'linux', true)).toEqual({ action: 'toggleSidebar' });
    expect(shortcutOf(ctrlShift('Digit9'), 'linux', true)).toEqual({ action: 'jumpToPane', index: 8 });
  });

  it('macOS keeps Cmd chords, and its menu (not the window) zooms', () => {
    expect(terminalKeyOf(key('KeyA', { metaKey: true }), 'darwin')).toBe('selectAll');
    expect(terminalKeyOf(key('KeyA', { ctrlKey: true }), 'darwin')).toBeUndefined();
    expect(shortcutOf(key('Equal', { metaKey: true }), 'darwin', true)).toBeUndefined();
  });
});
