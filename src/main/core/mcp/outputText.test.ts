import { describe, expect, it } from 'vitest';
import {
  completeUtf8Length,
  isValidUtf8,
  keepLastLines,
  matchSegments,
  renderStreamText,
  trimBlankLines,
  utf8SafeStart,
} from './outputText';

describe('renderStreamText', () => {
  it('applies carriage-return overwrites as a terminal would and keeps CRLF lines', () => {
    expect(renderStreamText('progress 10%\rprogress 100%\r\ndone\r\n')).toBe('progress 100%\ndone\n');
    expect(renderStreamText('abcdef\rXY')).toBe('XYcdef');
  });
});

describe('matchSegments', () => {
  it('returns each carriage-return segment so overwritten text still matches', () => {
    expect(matchSegments('ready\r⠋ building')).toEqual(['ready', '⠋ building']);
    expect(matchSegments('plain')).toEqual(['plain']);
  });
});

describe('grid trimming', () => {
  it('drops leading/trailing blank lines and collapses runs of blanks', () => {
    expect(trimBlankLines(['', '  ', 'a', '', '', '', 'b  ', '', ''])).toEqual(['a', '', 'b']);
  });
  it('keeps the newest lines within the byte budget', () => {
    expect(keepLastLines(['one', 'two', 'three'], 12)).toEqual({ lines: ['two', 'three'], truncated: true });
    expect(keepLastLines(['one'], 100)).toEqual({ lines: ['one'], truncated: false });
  });
});

describe('UTF-8 boundaries', () => {
  const euro = Buffer.from('a€b'); // € is 3 bytes
  it('never ends a read inside a character', () => {
    expect(completeUtf8Length(euro.subarray(0, 2))).toBe(1);
    expect(completeUtf8Length(euro.subarray(0, 3))).toBe(1);
    expect(completeUtf8Length(euro.subarray(0, 4))).toBe(4);
    expect(completeUtf8Length(Buffer.from('😀').subarray(0, 3))).toBe(0);
  });
  it('skips continuation bytes at the start of a read', () => {
    expect(utf8SafeStart(euro.subarray(2))).toBe(2);
    expect(utf8SafeStart(euro)).toBe(0);
  });
  it('tells valid UTF-8 from arbitrary bytes', () => {
    expect(isValidUtf8(euro)).toBe(true);
    expect(isValidUtf8(Buffer.from([0xff, 0x00]))).toBe(false);
  });
});
