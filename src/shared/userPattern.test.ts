import { describe, expect, it } from 'vitest';
import { compileUserPattern, MAX_USER_PATTERN_LINE_CHARS } from './userPattern';

describe('user patterns run on RE2', () => {
  it('(a+)+$ against a long line answers at once (a backtracking engine takes exponential time)', () => {
    const pattern = compileUserPattern('(a+)+$');
    const line = `${'a'.repeat(40_000)}b`;
    const startedAt = performance.now();
    expect(pattern.test(line)).toBe(false);
    expect(pattern.exec(line)).toBeNull();
    // Generous bound for a loaded machine; the backtracking engine does not finish in minutes.
    expect(performance.now() - startedAt).toBeLessThan(5_000);
  });

  it('keeps JavaScript syntax: flags, named groups, classes', () => {
    const m = compileUserPattern('/listening on (?<host>[\\w.]+):(\\d+)/i').exec('LISTENING ON localhost:3000');
    expect(m?.[0]).toBe('LISTENING ON localhost:3000');
    expect(m?.groups?.host).toBe('localhost');
    expect(m?.[2]).toBe('3000');
    expect(compileUserPattern('Server initialized').test('[info] Server initialized in 30ms')).toBe(true);
    expect(String(compileUserPattern('/ready/i'))).toBe('/ready/i');
  });

  it('refuses what RE2 cannot run, and bad syntax, with a message naming the pattern', () => {
    expect(() => compileUserPattern('(?<=x)y')).toThrow(/"\(\?<=x\)y" cannot run on the linear-time engine/);
    expect(() => compileUserPattern('(a)\\1')).toThrow(/linear-time engine/);
    expect(() => compileUserPattern('(')).toThrow(/invalid regular expression "\("/);
    expect(() => compileUserPattern('/x/g')).toThrow(/flag "g" is not supported/);
  });

  it('tests only the first MAX_USER_PATTERN_LINE_CHARS of a line', () => {
    const pattern = compileUserPattern('needle');
    expect(pattern.test(`${'x'.repeat(MAX_USER_PATTERN_LINE_CHARS)}needle`)).toBe(false);
    expect(pattern.test(`${'x'.repeat(MAX_USER_PATTERN_LINE_CHARS - 6)}needle`)).toBe(true);
  });
});
