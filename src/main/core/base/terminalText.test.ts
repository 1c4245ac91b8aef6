import { describe, expect, it } from 'vitest';
import { stripAnsi, stripAnsiKeepingCarriageReturns } from './terminalText';

describe('stripAnsi', () => {
  it.each([
    ['colors', '\x1b[1;32mready\x1b[0m in 300ms', 'ready in 300ms'],
    ['nested colours', '\x1b[31m\x1b[1m⨯\x1b[22m\x1b[39m Failed to start server', '⨯ Failed to start server'],
    ['truecolor', '\x1b[38;2;173;127;168m▲ Next.js 16.4.6\x1b[39m', '▲ Next.js 16.4.6'],
    ['OSC title with BEL', '\x1b]0;vite\x07Local: http://localhost:5173', 'Local: http://localhost:5173'],
    ['OSC hyperlink with ST', '\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\', 'link'],
    ['cursor moves and modes', '\x1b[2K\x1b[1G\x1b[?25lspinner\x1b[?2004h', 'spinner'],
    ['cursor shown', '\x1b[?25hvisible', 'visible'],
    ['charset and keypad escapes', '\x1b(B\x1b=text\x1b>', 'text'],
    ['save, restore and keyboard-protocol escapes', '\x1b[?1006l\x1b(B\x0f\x1b[<u\x1b7\x1b[r\x1b8{"ok":1}', '{"ok":1}'],
    ['a sequence cut at the end', 'done\x1b[3', 'done'],
    ['C0 controls but tabs and newlines', 'a\x07b\tc\nd\x08', 'ab\tc\nd'],
    ['carriage returns', 'line\r\n', 'line\n'],
    ['tab', 'tab\tkept', 'tab\tkept'],
  ])('%s', (_name, input, expected) => {
    expect(stripAnsi(input)).toBe(expected);
  });
});

describe('stripAnsiKeepingCarriageReturns', () => {
  it('removes the same sequences but keeps carriage returns for overwrites', () => {
    expect(stripAnsiKeepingCarriageReturns('\x1b[32m10%\x1b[0m\r100%\r\n')).toBe('10%\r100%\r\n');
    expect(stripAnsiKeepingCarriageReturns('a\x07b\x1b[3')).toBe('ab');
  });
});
