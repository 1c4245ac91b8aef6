/** The switchboard.json readiness fields (src/shared/readyConfig.ts): errors name field and problem. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReadinessConfigSchema, compileUserPattern } from '../../../shared/readyConfig';

function problems(input: unknown): string[] {
  const parsed = ReadinessConfigSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('ReadinessConfigSchema', () => {
  it('accepts the spec example', () => {
    const fields = {
      readyPatterns: ['Server initialized'],
      errorPatterns: ['Failed to start'],
      timeout: 60_000,
      autoRestart: 'on-failure',
    };
    expect(ReadinessConfigSchema.parse(fields)).toEqual(fields);
    expect(
      ReadinessConfigSchema.parse({
        port: 8000,
        framework: 'django',
        url: 'http://127.0.0.1:8000/',
        stabilityDelay: 0,
        portTimeout: 5_000,
      }),
    ).toBeTruthy();
  });

  it('passes unknown keys through for the process schema it is merged into', () => {
    expect(ReadinessConfigSchema.safeParse({ command: 'npm', args: ['run', 'dev'] }).success).toBe(true);
  });

  it.each([
    [{ readyPatterns: ['ok', '(unclosed'] }, /^readyPatterns\.1: invalid regular expression "\(unclosed": .*Unterminated group/],
    [{ errorPatterns: ['[z-a]'] }, /^errorPatterns\.0: invalid regular expression "\[z-a\]": .*Range out of order/],
    [{ errorPatterns: [''] }, /^errorPatterns\.0: a pattern cannot be empty/],
    [{ port: 70_000 }, /^port: must be 1–65535/],
    [{ port: 30.5 }, /^port: must be a whole number/],
    [{ timeout: -1 }, /^timeout: must be at least 1 ms/],
    [{ portTimeout: -1 }, /^portTimeout: cannot be negative/],
    [{ stabilityDelay: 1.5 }, /^stabilityDelay: must be a whole number of milliseconds/],
    [{ url: 'localhost:3000' }, /^url: .*must be an http:\/\/ or https:\/\/ URL|^url: .*is not a URL/],
    [{ framework: 'rocket' }, /^framework: must be one of nextjs, vite,/],
    [{ autoRestart: 'sometimes' }, /^autoRestart: must be one of no, on-failure, always/],
  ])('%j → %s', (input, expected) => {
    expect(problems(input)).toEqual([expect.stringMatching(expected)]);
  });

  it('is a zod object the lead can extend', () => {
    const Process = ReadinessConfigSchema.extend({ command: z.string() });
    expect(Process.parse({ command: 'vite', port: 5173 })).toEqual({ command: 'vite', port: 5173 });
  });

  it('compileUserPattern understands /source/flags and plain text', () => {
    expect(compileUserPattern('/ready in \\d+ms/i').flags).toBe('i');
    expect(compileUserPattern('a/b').source).toBe('a\\/b');
    expect(() => compileUserPattern('(')).toThrow(/invalid regular expression "\("/);
  });
});
