/** The keymap: one table per platform, no terminal chord taken off macOS, no chord bound twice where the focus is. */
import { describe, expect, it } from 'vitest';
import {
  KEY_COMMAND_LABELS,
  KEYMAPS,
  chordsLabel,
  isTerminalChord,
  keyCodeOf,
  keymapPlatformOf,
  parseChord,
  type KeyBinding,
  type KeyCommand,
  type KeymapPlatform,
} from './keymap';

const PLATFORMS: KeymapPlatform[] = ['darwin', 'linux', 'win32'];

/** "ctrl shift KeyK": a chord's identity whatever order its modifiers were written in. */
function identity(accelerator: string, platform: KeymapPlatform): string {
  const c = parseChord(accelerator, platform);
  return [c.ctrl && 'ctrl', c.meta && 'meta', c.alt && 'alt', c.shift && 'shift', keyCodeOf(c.key)].filter(Boolean).join(' ');
}

/** Bindings live while the focus is in a terminal, or in a text field (the menu's and the window's in both). */
function liveBindings(platform: KeymapPlatform, focus: 'terminal' | 'text'): KeyBinding[] {
  return KEYMAPS[platform].filter(
    (b) => b.handler === 'menu' || b.handler === focus || (b.handler === 'window' && !(b.outsideTerminal && focus === 'terminal')),
  );
}

describe('isTerminalChord', () => {
  it('counts Ctrl or Alt with a letter, digit or - _ = [ ] \\ — and Ctrl+Shift+- (Ctrl+_)', () => {
    for (const chord of [
      'Ctrl+C',
      'Ctrl+Z',
      'Ctrl+O',
      'CmdOrCtrl+W',
      'Control+Y',
      'Ctrl+0',
      'Ctrl+=',
      'Ctrl+-',
      'Ctrl+[',
      'Ctrl+\\',
      'Alt+B',
      'Alt+Shift+F',
      'Ctrl+Alt+1',
      'Ctrl+Shift+-',
      'Ctrl+_',
    ]) {
      expect(isTerminalChord(chord, 'linux'), chord).toBe(true);
    }
  });

  it('leaves the terminal emulators’ Ctrl+Shift chords, function keys and Cmd chords out', () => {
    for (const chord of [
      'Ctrl+Shift+C',
      'Ctrl+Shift+Q',
      'Ctrl+Shift+=',
      'Ctrl+Shift+0',
      'Ctrl+,',
      'F11',
      'Ctrl+Shift+Right',
      'CommandOrControl+Plus',
    ]) {
      expect(isTerminalChord(chord, 'linux'), chord).toBe(false);
    }
    expect(isTerminalChord('CmdOrCtrl+C', 'darwin')).toBe(false);
    expect(isTerminalChord('CmdOrCtrl+C', 'win32')).toBe(true);
  });
});

describe('KEYMAPS', () => {
  it('binds every command on every platform and every chord names a key the renderer can match', () => {
    for (const platform of PLATFORMS) {
      const commands = new Set(KEYMAPS[platform].map((b) => b.command));
      expect([...commands].sort()).toEqual((Object.keys(KEY_COMMAND_LABELS) as KeyCommand[]).sort());
      for (const chord of KEYMAPS[platform].flatMap((b) => b.chords)) expect(() => identity(chord, platform), chord).not.toThrow();
    }
  });

  it('Linux and Windows share one table (docs/ui.md has one column for both)', () => {
    expect(KEYMAPS.win32).toBe(KEYMAPS.linux);
  });

  it('off macOS only text fields (and Ctrl+K outside a terminal) use a chord in the terminal’s set', () => {
    for (const platform of ['linux', 'win32'] as const) {
      const taken = KEYMAPS[platform]
        .filter((b) => b.handler !== 'text' && !b.outsideTerminal)
        .flatMap((b) => b.chords.filter((c) => isTerminalChord(c, platform)).map((c) => `${b.command} ${c}`));
      expect(taken).toEqual([]);
    }
  });

  it('never binds a chord twice where the focus is (terminal or text field)', () => {
    for (const platform of PLATFORMS) {
      for (const focus of ['terminal', 'text'] as const) {
        const owners = new Map<string, string[]>();
        for (const b of liveBindings(platform, focus)) {
          for (const chord of b.chords)
            owners.set(identity(chord, platform), [...(owners.get(identity(chord, platform)) ?? []), b.command]);
        }
        const twice = [...owners].filter(([, commands]) => commands.length > 1);
        expect(twice, `${platform}, focus in a ${focus}`).toEqual([]);
      }
    }
  });

  it('uses Cmd chords on macOS and Ctrl+Shift chords for the app’s own actions elsewhere', () => {
    const appBindings = (platform: KeymapPlatform) => KEYMAPS[platform].filter((b) => b.handler !== 'text' && b.command !== 'fullScreen');
    for (const chord of appBindings('darwin').flatMap((b) => b.chords)) expect(parseChord(chord, 'darwin').meta, chord).toBe(true);
    const linuxChords = appBindings('linux').flatMap((b) => b.chords.filter(() => !b.outsideTerminal));
    for (const chord of linuxChords.filter((c) => c !== 'Ctrl+,')) expect(chord, chord).toMatch(/^Ctrl\+Shift\+/);
  });
});

describe('keymapPlatformOf', () => {
  it('reads Node’s process.platform and the browser’s navigator.platform', () => {
    expect(['darwin', 'MacIntel', 'iPad'].map(keymapPlatformOf)).toEqual(['darwin', 'darwin', 'darwin']);
    expect(['win32', 'Win32'].map(keymapPlatformOf)).toEqual(['win32', 'win32']);
    expect(['linux', 'Linux x86_64', 'freebsd', ''].map(keymapPlatformOf)).toEqual(['linux', 'linux', 'linux', 'linux']);
  });
});

describe('chordsLabel', () => {
  it('shows arrows as arrows and a run of pane digits as a range', () => {
    expect(chordsLabel(['Ctrl+Shift+Right', 'Ctrl+Shift+Down'])).toBe('Ctrl+Shift+→ / Ctrl+Shift+↓');
    expect(chordsLabel(['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((d) => `Cmd+Shift+${d}`))).toBe('Cmd+Shift+1 … 9');
  });
});
