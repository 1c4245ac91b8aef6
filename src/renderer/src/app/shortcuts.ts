/**
 * The renderer's side of the keymap (src/shared/keymap.ts): window-wide shortcuts and the keys a
 * terminal pane acts on itself. Chords match `event.code`, the physical key, with exactly the
 * modifiers the table names, so every other Ctrl and Alt combination stays with the program in
 * the pane.
 */
import {
  KEYMAPS,
  chordOf,
  chordsLabel,
  keyCodeOf,
  keymapPlatformOf,
  parseChord,
  type KeyBinding,
  type KeyCommand,
  type KeymapPlatform,
} from '../../../shared/keymap';

export const PLATFORM: KeymapPlatform = keymapPlatformOf(typeof navigator === 'undefined' ? '' : navigator.platform);

/** The chord this platform uses for a command ("Ctrl+Shift+E"), or undefined when it has none. */
export function chordHint(command: KeyCommand): string | undefined {
  const chord = chordOf(PLATFORM, command);
  return chord && chordsLabel([chord]);
}

/** "Find (Ctrl+Shift+F)": a control's title with its chord, if any. */
export function withChord(label: string, command: KeyCommand): string {
  const hint = chordHint(command);
  return hint ? `${label} (${hint})` : label;
}

export type ShortcutAction =
  'palette' | 'inbox' | 'nextPane' | 'previousPane' | 'maximize' | 'jumpToPane' | 'zoomIn' | 'zoomOut' | 'zoomReset' | 'toggleSidebar';

export interface KeyLike {
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/** The chord of the binding that `e` presses, if any. */
function pressedChord(e: KeyLike, binding: KeyBinding, platform: KeymapPlatform): string | undefined {
  return binding.chords.find((accelerator) => {
    const chord = parseChord(accelerator, platform);
    return (
      chord.ctrl === e.ctrlKey &&
      chord.meta === e.metaKey &&
      chord.alt === e.altKey &&
      chord.shift === e.shiftKey &&
      keyCodeOf(chord.key) === e.code
    );
  });
}

/** The app action a key press means, or undefined when it belongs to the page or the pane. */
export function shortcutOf(
  e: KeyLike,
  platform: KeymapPlatform,
  isInTerminal: boolean,
): { action: ShortcutAction; index?: number } | undefined {
  for (const binding of KEYMAPS[platform]) {
    if (binding.handler !== 'window' || (binding.outsideTerminal && isInTerminal)) continue;
    const chord = pressedChord(e, binding, platform);
    if (!chord) continue;
    const action = binding.command as ShortcutAction;
    return action === 'jumpToPane' ? { action, index: binding.chords.indexOf(chord) } : { action };
  }
  return undefined;
}

type TerminalKeyAction = 'find' | 'copy' | 'paste' | 'selectAll';

/** Keys a terminal acts on itself, so the program in it never sees them (Ctrl+Shift+F / C / V / A off macOS). */
export function terminalKeyOf(e: KeyLike, platform: KeymapPlatform): TerminalKeyAction | undefined {
  const binding = KEYMAPS[platform].find((b) => b.handler === 'terminal' && pressedChord(e, b, platform));
  return binding?.command as TerminalKeyAction | undefined;
}
