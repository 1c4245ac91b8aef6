/**
 * Named keys for `send_input`: each name (and Ctrl/Alt combination) as the byte sequence an xterm
 * sends. Typing text as a user turn — paste, echo wait, Enter — lives in sessions/userTurn.ts.
 */
import { InvalidArgumentError } from '../../../shared/errors';
import { NAMED_KEYS } from '../../../shared/mcp';

const KEY_SEQUENCES: Record<(typeof NAMED_KEYS)[number], string> = {
  Enter: '\r',
  Escape: '\x1b',
  Tab: '\t',
  BTab: '\x1b[Z',
  Backspace: '\x7f',
  Delete: '\x1b[3~',
  Insert: '\x1b[2~',
  Space: ' ',
  Up: '\x1b[A',
  Down: '\x1b[B',
  Right: '\x1b[C',
  Left: '\x1b[D',
  Home: '\x1b[H',
  End: '\x1b[F',
  PageUp: '\x1b[5~',
  PageDown: '\x1b[6~',
  F1: '\x1bOP',
  F2: '\x1bOQ',
  F3: '\x1bOR',
  F4: '\x1bOS',
  F5: '\x1b[15~',
  F6: '\x1b[17~',
  F7: '\x1b[18~',
  F8: '\x1b[19~',
  F9: '\x1b[20~',
  F10: '\x1b[21~',
  F11: '\x1b[23~',
  F12: '\x1b[24~',
};

const LOWER_KEYS = new Map(Object.entries(KEY_SEQUENCES).map(([name, seq]) => [name.toLowerCase(), seq]));
const ALIASES: Record<string, string> = {
  return: 'enter',
  esc: 'escape',
  bspace: 'backspace',
  del: 'delete',
  pgup: 'pageup',
  pgdn: 'pagedown',
  ppage: 'pageup',
  npage: 'pagedown',
};

/**
 * Bytes for a key name: "Enter", "Up", "C-c" (Ctrl), "M-x" (Alt, sent as ESC prefix), "C-M-a".
 * Names are case-insensitive; unknown names throw with the list of known ones.
 */
export function keySequence(name: string): string {
  const trimmed = name.trim();
  const modifiers = /^((?:[CM]-)+)(.+)$/i.exec(trimmed);
  if (modifiers && modifiers[2].length > 0) {
    const mods = modifiers[1].toUpperCase();
    let seq = baseKey(modifiers[2], name);
    if (mods.includes('C-')) seq = ctrl(seq, name);
    if (mods.includes('M-')) seq = `\x1b${seq}`;
    return seq;
  }
  return baseKey(trimmed, name);
}

function baseKey(key: string, original: string): string {
  if (key.length === 1) return key;
  const lower = key.toLowerCase();
  const seq = LOWER_KEYS.get(ALIASES[lower] ?? lower);
  if (seq === undefined) {
    throw new InvalidArgumentError(`Unknown key "${original}". Use one of ${NAMED_KEYS.join(', ')}, C-<letter> (e.g. C-c), or M-<key>`);
  }
  return seq;
}

/** Ctrl+key: letters and @[\]^_ map to C0 controls, Ctrl+? to DEL. */
function ctrl(seq: string, original: string): string {
  if (seq.length !== 1) throw new InvalidArgumentError(`Ctrl can only combine with a single character, not "${original}"`);
  const c = seq.toUpperCase();
  if (c === '?') return '\x7f';
  const code = c.charCodeAt(0);
  if (code >= 0x40 && code <= 0x5f) return String.fromCharCode(code - 0x40);
  if (c === ' ' || c === '2') return '\x00';
  throw new InvalidArgumentError(`Ctrl cannot combine with "${seq}" (key "${original}")`);
}
