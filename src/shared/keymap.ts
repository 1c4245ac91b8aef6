/**
 * Every key chord the app acts on, one table per platform: the menu (main process), the
 * renderer's shortcut handler, the terminal panes, the command palette's hints and docs/ui.md all
 * read it, so a chord is bound in one place only.
 *
 * Off macOS the application menu's accelerators fire before the page sees the key (GTK and Windows
 * handle them in the window), so no chord a program in a terminal uses (`isTerminalChord`) may be a
 * registered menu accelerator there: the app's own actions use Ctrl+Shift, as GNOME Terminal and
 * Konsole do, and are handled in the renderer where the key arrives. macOS keeps its Cmd chords
 * (Ctrl stays the terminal's there anyway).
 *
 * Chords are written in Electron's accelerator syntax, so the menu uses them as they are; the
 * renderer matches them against `KeyboardEvent.code`, the physical key, because `event.key`
 * changes with the layout and the modifiers (Option+1 is "¡" on a Mac, Shift+1 is "!").
 */

export type KeymapPlatform = 'darwin' | 'linux' | 'win32';

/** Who acts on a chord. */
export type KeyHandler =
  /** The native application menu (main process): the only registered accelerators. */
  | 'menu'
  /** The renderer's window-wide handler, before the focused pane sees the key. */
  | 'window'
  /** The focused terminal pane; the program in it never sees the key. */
  | 'terminal'
  /** Chromium's own editing in the app's text fields (find, palette, forms). */
  | 'text';

export type KeyCommand =
  | 'palette'
  | 'inbox'
  | 'nextPane'
  | 'previousPane'
  | 'jumpToPane'
  | 'maximize'
  | 'zoomIn'
  | 'zoomOut'
  | 'zoomReset'
  | 'toggleSidebar'
  | 'find'
  | 'copy'
  | 'paste'
  | 'selectAll'
  | 'openFolder'
  | 'settings'
  | 'closeWindow'
  | 'minimize'
  | 'quit'
  | 'fullScreen'
  | 'reload'
  | 'devTools'
  | 'textUndo'
  | 'textRedo'
  | 'textCut'
  | 'textCopy'
  | 'textPaste'
  | 'textSelectAll';

export interface KeyBinding {
  command: KeyCommand;
  handler: KeyHandler;
  /** The first is the one labels show. */
  chords: readonly string[];
  /** Only while the keyboard focus is outside every terminal (plain Ctrl+K is kill-line in one). */
  outsideTerminal?: true;
}

/** What each command does, as docs/ui.md and the menu say it. */
export const KEY_COMMAND_LABELS: Record<KeyCommand, string> = {
  palette: 'command palette',
  inbox: 'attention inbox',
  nextPane: 'next pane',
  previousPane: 'previous pane',
  jumpToPane: 'go to pane 1 … 9',
  maximize: 'maximise / restore the focused pane',
  zoomIn: 'terminal text larger',
  zoomOut: 'terminal text smaller',
  zoomReset: 'terminal text at its default size',
  toggleSidebar: 'show / hide the sidebar',
  find: 'find in the terminal',
  copy: 'copy the terminal selection',
  paste: 'paste into the terminal',
  selectAll: "select the terminal's whole buffer",
  openFolder: 'open a folder',
  settings: 'settings',
  closeWindow: 'close the window',
  minimize: 'minimise the window',
  quit: 'quit',
  fullScreen: 'full screen',
  reload: 'reload the window (development builds)',
  devTools: 'developer tools (development builds)',
  textUndo: 'undo in a text field',
  textRedo: 'redo in a text field',
  textCut: 'cut in a text field',
  textCopy: 'copy in a text field',
  textPaste: 'paste in a text field',
  textSelectAll: 'select all in a text field',
};

const PANE_DIGITS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];

/**
 * Linux and Windows: the terminal emulators' chords (GNOME Terminal, Konsole, Windows Terminal:
 * Ctrl+Shift+C / V / F / A, Ctrl+Shift+W, Ctrl+Shift+Q). Zoom out has none: Ctrl+- is the
 * terminal's and Ctrl+Shift+- types Ctrl+_ (readline's undo); the View menu and the palette have it.
 */
const TERMINAL_EMULATOR_KEYMAP: readonly KeyBinding[] = [
  { command: 'palette', handler: 'window', chords: ['Ctrl+Shift+K'] },
  { command: 'palette', handler: 'window', chords: ['Ctrl+K'], outsideTerminal: true },
  { command: 'inbox', handler: 'window', chords: ['Ctrl+Shift+E'] },
  { command: 'nextPane', handler: 'window', chords: ['Ctrl+Shift+Right', 'Ctrl+Shift+Down'] },
  { command: 'previousPane', handler: 'window', chords: ['Ctrl+Shift+Left', 'Ctrl+Shift+Up'] },
  { command: 'jumpToPane', handler: 'window', chords: PANE_DIGITS.map((d) => `Ctrl+Shift+${d}`) },
  { command: 'maximize', handler: 'window', chords: ['Ctrl+Shift+Enter'] },
  { command: 'zoomIn', handler: 'window', chords: ['Ctrl+Shift+='] },
  { command: 'zoomOut', handler: 'window', chords: [] },
  { command: 'zoomReset', handler: 'window', chords: ['Ctrl+Shift+0'] },
  { command: 'toggleSidebar', handler: 'window', chords: ['Ctrl+Shift+B'] },
  { command: 'find', handler: 'terminal', chords: ['Ctrl+Shift+F'] },
  { command: 'copy', handler: 'terminal', chords: ['Ctrl+Shift+C'] },
  { command: 'paste', handler: 'terminal', chords: ['Ctrl+Shift+V'] },
  { command: 'selectAll', handler: 'terminal', chords: ['Ctrl+Shift+A'] },
  { command: 'openFolder', handler: 'menu', chords: ['Ctrl+Shift+O'] },
  { command: 'settings', handler: 'menu', chords: ['Ctrl+,'] },
  { command: 'closeWindow', handler: 'menu', chords: ['Ctrl+Shift+W'] },
  { command: 'minimize', handler: 'menu', chords: [] },
  { command: 'quit', handler: 'menu', chords: ['Ctrl+Shift+Q'] },
  { command: 'fullScreen', handler: 'menu', chords: ['F11'] },
  { command: 'reload', handler: 'menu', chords: ['Ctrl+Shift+R'] },
  { command: 'devTools', handler: 'menu', chords: ['Ctrl+Shift+I'] },
  { command: 'textUndo', handler: 'text', chords: ['Ctrl+Z'] },
  { command: 'textRedo', handler: 'text', chords: ['Ctrl+Shift+Z'] },
  { command: 'textCut', handler: 'text', chords: ['Ctrl+X'] },
  { command: 'textCopy', handler: 'text', chords: ['Ctrl+C'] },
  { command: 'textPaste', handler: 'text', chords: ['Ctrl+V'] },
  { command: 'textSelectAll', handler: 'text', chords: ['Ctrl+A'] },
];

/**
 * macOS: Cmd chords, the platform's own; the menu's Edit roles carry Cmd+Z / X / C / V to text
 * fields. Zoom and the sidebar stay menu accelerators as on every Mac app. The page sees a Cmd
 * chord before the menu does, so the terminal's copy, paste and select-all act first in a pane.
 */
const MAC_KEYMAP: readonly KeyBinding[] = [
  { command: 'palette', handler: 'window', chords: ['Cmd+K', 'Cmd+Shift+K'] },
  { command: 'inbox', handler: 'window', chords: ['Cmd+Shift+E'] },
  { command: 'nextPane', handler: 'window', chords: ['Cmd+Shift+Right', 'Cmd+Shift+Down'] },
  { command: 'previousPane', handler: 'window', chords: ['Cmd+Shift+Left', 'Cmd+Shift+Up'] },
  { command: 'jumpToPane', handler: 'window', chords: PANE_DIGITS.map((d) => `Cmd+Shift+${d}`) },
  { command: 'maximize', handler: 'window', chords: ['Cmd+Shift+Enter'] },
  { command: 'zoomIn', handler: 'menu', chords: ['Cmd+='] },
  { command: 'zoomOut', handler: 'menu', chords: ['Cmd+-'] },
  { command: 'zoomReset', handler: 'menu', chords: ['Cmd+0'] },
  { command: 'toggleSidebar', handler: 'menu', chords: ['Cmd+Shift+B'] },
  { command: 'find', handler: 'terminal', chords: ['Cmd+F', 'Cmd+Shift+F'] },
  { command: 'copy', handler: 'terminal', chords: ['Cmd+C', 'Cmd+Shift+C'] },
  { command: 'paste', handler: 'terminal', chords: ['Cmd+V', 'Cmd+Shift+V'] },
  { command: 'selectAll', handler: 'terminal', chords: ['Cmd+A'] },
  { command: 'openFolder', handler: 'menu', chords: ['Cmd+O'] },
  { command: 'settings', handler: 'menu', chords: ['Cmd+,'] },
  { command: 'closeWindow', handler: 'menu', chords: ['Cmd+W'] },
  { command: 'minimize', handler: 'menu', chords: ['Cmd+M'] },
  { command: 'quit', handler: 'menu', chords: ['Cmd+Q'] },
  { command: 'fullScreen', handler: 'menu', chords: ['Ctrl+Cmd+F'] },
  { command: 'reload', handler: 'menu', chords: ['Cmd+R'] },
  { command: 'devTools', handler: 'menu', chords: ['Alt+Cmd+I'] },
  { command: 'textUndo', handler: 'text', chords: ['Cmd+Z'] },
  { command: 'textRedo', handler: 'text', chords: ['Cmd+Shift+Z'] },
  { command: 'textCut', handler: 'text', chords: ['Cmd+X'] },
  { command: 'textCopy', handler: 'text', chords: ['Cmd+C'] },
  { command: 'textPaste', handler: 'text', chords: ['Cmd+V'] },
  { command: 'textSelectAll', handler: 'text', chords: ['Cmd+A'] },
];

export const KEYMAPS: Record<KeymapPlatform, readonly KeyBinding[]> = {
  darwin: MAC_KEYMAP,
  linux: TERMINAL_EMULATOR_KEYMAP,
  win32: TERMINAL_EMULATOR_KEYMAP,
};

/** Node's `process.platform` or the browser's `navigator.platform` ("MacIntel", "Win32", "Linux x86_64"). */
export function keymapPlatformOf(platform: string): KeymapPlatform {
  if (/^(darwin|Mac|iPhone|iPad)/.test(platform)) return 'darwin';
  if (/^win/i.test(platform)) return 'win32';
  return 'linux';
}

/** The chord a label shows for a command (the first binding's first chord), if it has one. */
export function chordOf(platform: KeymapPlatform, command: KeyCommand): string | undefined {
  return KEYMAPS[platform].find((b) => b.command === command && b.chords.length > 0)?.chords[0];
}

export function bindingOf(platform: KeymapPlatform, command: KeyCommand): KeyBinding {
  const binding = KEYMAPS[platform].find((b) => b.command === command);
  if (!binding) throw new Error(`no key binding for ${command} on ${platform}`);
  return binding;
}

export interface ParsedChord {
  ctrl: boolean;
  meta: boolean;
  alt: boolean;
  shift: boolean;
  /** The accelerator's key as written: "C", "=", "Right", "F11". */
  key: string;
}

const MODIFIERS: Record<string, keyof Omit<ParsedChord, 'key'> | 'cmdOrCtrl'> = {
  ctrl: 'ctrl',
  control: 'ctrl',
  cmd: 'meta',
  command: 'meta',
  super: 'meta',
  meta: 'meta',
  alt: 'alt',
  option: 'alt',
  altgr: 'alt',
  shift: 'shift',
  cmdorctrl: 'cmdOrCtrl',
  commandorcontrol: 'cmdOrCtrl',
};

/** An Electron accelerator as modifiers and key; CmdOrCtrl resolves for the platform. */
export function parseChord(accelerator: string, platform: KeymapPlatform): ParsedChord {
  const parts = accelerator.split(/\+(?!$)/);
  const chord: ParsedChord = { ctrl: false, meta: false, alt: false, shift: false, key: parts[parts.length - 1] };
  for (const part of parts.slice(0, -1)) {
    const modifier = MODIFIERS[part.toLowerCase()];
    if (!modifier) throw new Error(`unknown modifier "${part}" in ${accelerator}`);
    if (modifier === 'cmdOrCtrl') chord[platform === 'darwin' ? 'meta' : 'ctrl'] = true;
    else chord[modifier] = true;
  }
  return chord;
}

/** Keys a terminal program reads with Ctrl or Alt held: readline, emacs, vim, tmux prefixes. */
const TERMINAL_KEYS = /^([A-Za-z0-9]|-|_|=|\[|\]|\\)$/;

/**
 * A chord a program in a terminal uses: Ctrl or Alt with a letter, digit or `- _ = [ ] \`.
 * Ctrl+Shift+letter is the terminal emulator's own space (xterm sends nothing for it), but
 * Ctrl+Shift+- types Ctrl+_ (0x1f, readline's undo), so it counts.
 */
export function isTerminalChord(accelerator: string, platform: KeymapPlatform): boolean {
  const { ctrl, alt, shift, key } = parseChord(accelerator, platform);
  if (!TERMINAL_KEYS.test(key)) return false;
  if (alt) return true;
  return ctrl && (!shift || key === '-' || key === '_');
}

/** `KeyboardEvent.code` of an accelerator's key. */
const KEY_CODES: Record<string, string> = {
  '=': 'Equal',
  '-': 'Minus',
  ',': 'Comma',
  Enter: 'Enter',
  Right: 'ArrowRight',
  Left: 'ArrowLeft',
  Up: 'ArrowUp',
  Down: 'ArrowDown',
};

export function keyCodeOf(key: string): string {
  if (/^[A-Z]$/.test(key)) return `Key${key}`;
  if (/^[0-9]$/.test(key)) return `Digit${key}`;
  if (/^F([1-9]|1[0-9]|2[0-4])$/.test(key)) return key;
  const code = KEY_CODES[key];
  if (!code) throw new Error(`no KeyboardEvent.code for the accelerator key "${key}"`);
  return code;
}

const LABEL_KEYS: Record<string, string> = { Right: '→', Left: '←', Up: '↑', Down: '↓' };

/** "Ctrl+Shift+→"; nine chords that differ only in their last digit read "Ctrl+Shift+1 … 9". */
export function chordsLabel(chords: readonly string[]): string {
  const stem = chords[0]?.slice(0, -1);
  if (chords.length === 9 && chords.every((c, i) => c === `${stem}${i + 1}`)) return `${stem}1 … 9`;
  return chords.map((c) => c.replace(/\b(Right|Left|Up|Down)$/, (k) => LABEL_KEYS[k])).join(' / ');
}

/** The chords a command has on a platform, for a label or a hint ("Ctrl+Shift+K / Ctrl+K outside a terminal"). */
export function commandChordsLabel(platform: KeymapPlatform, command: KeyCommand): string {
  return KEYMAPS[platform]
    .filter((b) => b.command === command && b.chords.length > 0)
    .map((b) => `${chordsLabel(b.chords)}${b.outsideTerminal ? ' outside a terminal' : ''}`)
    .join(' / ');
}
