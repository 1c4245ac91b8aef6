/** The keymap as the Markdown table docs/ui.md carries between its keymap markers (checked by keymapDocs.test.ts). */
import { KEY_COMMAND_LABELS, KEYMAPS, commandChordsLabel, type KeyCommand, type KeyHandler } from './keymap';

export const KEYMAP_DOC_START = '<!-- keymap: generated from src/shared/keymap.ts by keymapMarkdown() -->';
export const KEYMAP_DOC_END = '<!-- /keymap -->';

const HANDLER_WORDS: Record<KeyHandler, string> = {
  menu: 'menu',
  window: 'window',
  terminal: 'focused terminal',
  text: 'text field',
};

function actsIn(command: KeyCommand): string {
  const handlerOn = (platform: 'linux' | 'darwin') => KEYMAPS[platform].find((b) => b.command === command)?.handler;
  const [linux, mac] = [handlerOn('linux'), handlerOn('darwin')];
  if (!linux || !mac || linux === mac) return HANDLER_WORDS[(linux ?? mac)!];
  return `${HANDLER_WORDS[linux]} (macOS: ${HANDLER_WORDS[mac]})`;
}

export function keymapMarkdown(): string {
  const commands = [...new Set([...KEYMAPS.linux, ...KEYMAPS.darwin].map((b) => b.command))];
  const rows = commands.map(
    (command) =>
      `| ${KEY_COMMAND_LABELS[command]} | ${commandChordsLabel('linux', command) || '—'} | ${commandChordsLabel('darwin', command) || '—'} | ${actsIn(command)} |`,
  );
  return ['| does | Linux / Windows | macOS | acts in |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
