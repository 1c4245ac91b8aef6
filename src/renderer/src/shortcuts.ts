/**
 * App shortcuts. They use Ctrl+Shift (Cmd+Shift on macOS) so that every plain Ctrl and Alt
 * combination stays with the shell or the agent in the pane (readline's Alt+B/F, Alt+digit
 * arguments, Ctrl+K kill-line), and they match `event.code`, the physical key, because
 * `event.key` changes with the layout and modifiers (Option+1 is "¡" on a Mac).
 */
import { useUi } from './store';

export const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
export const MOD_LABEL = IS_MAC ? 'Cmd' : 'Ctrl';

type ShortcutAction = 'palette' | 'inbox' | 'nextPane' | 'previousPane' | 'maximize' | 'jumpToPane';

export interface KeyLike {
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/** The app action a key press means, or undefined when it belongs to the page or the pane. */
export function shortcutOf(e: KeyLike, isMac: boolean, isInTerminal: boolean): { action: ShortcutAction; index?: number } | undefined {
  const isMod = isMac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  if (!isMod || e.altKey) return undefined;
  if (e.code === 'KeyK' && (e.shiftKey || isMac || !isInTerminal)) return { action: 'palette' };
  if (!e.shiftKey) return undefined;
  if (e.code === 'KeyE') return { action: 'inbox' };
  if (e.code === 'ArrowRight' || e.code === 'ArrowDown') return { action: 'nextPane' };
  if (e.code === 'ArrowLeft' || e.code === 'ArrowUp') return { action: 'previousPane' };
  if (e.code === 'Enter') return { action: 'maximize' };
  const digit = /^Digit([1-9])$/.exec(e.code);
  if (digit) return { action: 'jumpToPane', index: Number(digit[1]) - 1 };
  return undefined;
}

type TerminalKeyAction = 'find' | 'copy' | 'paste';

/**
 * Keys a terminal acts on itself, so the program in it never sees them: Ctrl+Shift+F / C / V
 * (Cmd+F / C / V, with or without Shift, on macOS). Plain Ctrl+F / C / V stay the shell's
 * (forward a character, interrupt, literal next); Alt combinations too.
 */
export function terminalKeyOf(e: KeyLike, isMac: boolean): TerminalKeyAction | undefined {
  const isMod = isMac ? e.metaKey && !e.ctrlKey : e.ctrlKey && e.shiftKey && !e.metaKey;
  if (!isMod || e.altKey) return undefined;
  if (e.code === 'KeyF') return 'find';
  if (e.code === 'KeyC') return 'copy';
  if (e.code === 'KeyV') return 'paste';
  return undefined;
}

export function installShortcuts(): () => void {
  const onKey = (event: KeyboardEvent) => {
    const isInTerminal = event.target instanceof Element && event.target.closest('.xterm') !== null;
    const shortcut = shortcutOf(event, IS_MAC, isInTerminal);
    if (!shortcut) return;
    event.preventDefault();
    event.stopPropagation();
    perform(shortcut.action, shortcut.index);
  };
  window.addEventListener('keydown', onKey, true);
  return () => window.removeEventListener('keydown', onKey, true);
}

function perform(action: ShortcutAction, index?: number): void {
  const ui = useUi.getState();
  const { order, focusedId } = ui;
  const at = Math.max(0, order.indexOf(focusedId ?? ''));
  switch (action) {
    case 'palette':
      return ui.setOverlay(ui.overlay?.kind === 'palette' ? undefined : { kind: 'palette' });
    case 'inbox':
      return ui.setOverlay(ui.overlay?.kind === 'inbox' ? undefined : { kind: 'inbox' });
    case 'nextPane':
      if (order.length > 0) ui.focus(order[(at + 1) % order.length]);
      return;
    case 'previousPane':
      if (order.length > 0) ui.focus(order[(at - 1 + order.length) % order.length]);
      return;
    case 'jumpToPane':
      if (index !== undefined && order[index]) ui.focus(order[index]);
      return;
    case 'maximize':
      if (focusedId) ui.toggleMaximize(focusedId);
      return;
  }
}
