/**
 * Patterns that come from outside the code — a caller of `search_output` / `wait_for_pattern`, a
 * project's `readyPatterns` / `errorPatterns` — run on RE2 (re2js, pure JS), whose matching time
 * is linear in the text: `(a+)+$` cannot freeze the process the way a backtracking engine does.
 * RE2 has no lookaround and no backreferences; such a pattern is refused with a message that says so.
 */
import { RE2JS } from 're2js';

/** What matching code needs from a pattern; a built-in RegExp and a UserPattern both fit. */
export interface LinePattern {
  readonly source: string;
  exec(text: string): RegExpExecArray | null;
  test(text: string): boolean;
  /** `/source/flags`, for messages. */
  toString(): string;
}

/** Longest pattern we accept: a guard against pasting a whole log as a pattern. */
export const MAX_USER_PATTERN_CHARS = 500;
/** Longest line (in UTF-16 units) a user pattern is tested against; longer lines are cut. */
export const MAX_USER_PATTERN_LINE_CHARS = 64 * 1024;

const FLAG_BITS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL, u: 0 };

export class UserPattern implements LinePattern {
  private constructor(
    readonly source: string,
    readonly flags: string,
    private readonly re2: RE2JS,
  ) {}

  /** Throws a SyntaxError naming the pattern and what RE2 could not run. */
  static compile(pattern: string): UserPattern {
    const slashed = /^\/(.+)\/([a-z]*)$/s.exec(pattern);
    const source = slashed ? slashed[1] : pattern;
    const flags = slashed ? slashed[2] : '';
    const unsupported = [...flags].filter((flag) => !(flag in FLAG_BITS));
    if (unsupported.length > 0)
      throw new SyntaxError(
        `invalid regular expression ${JSON.stringify(pattern)}: flag "${unsupported.join('')}" is not supported (use i, m, s, u)`,
      );
    let canonicalSource: string;
    try {
      canonicalSource = new RegExp(source, flags).source; // JavaScript's own syntax errors read best
    } catch (err) {
      const reason = err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : String(err);
      throw new SyntaxError(`invalid regular expression ${JSON.stringify(pattern)}: ${reason}`, { cause: err });
    }
    let re2: RE2JS;
    try {
      re2 = RE2JS.compile(
        RE2JS.translateRegExp(source),
        [...flags].reduce((bits, flag) => bits | FLAG_BITS[flag], 0),
      );
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new SyntaxError(
        `regular expression ${JSON.stringify(pattern)} cannot run on the linear-time engine (RE2: no lookahead, lookbehind or backreferences): ${reason}`,
        { cause: err },
      );
    }
    return new UserPattern(canonicalSource, flags, re2);
  }

  exec(text: string): RegExpExecArray | null {
    return this.re2.exec(cap(text)) as RegExpExecArray | null;
  }

  test(text: string): boolean {
    return this.re2.test(cap(text));
  }

  toString(): string {
    return `/${this.source}/${this.flags}`;
  }
}

function cap(text: string): string {
  return text.length > MAX_USER_PATTERN_LINE_CHARS ? text.slice(0, MAX_USER_PATTERN_LINE_CHARS) : text;
}

/**
 * A user pattern is a regular expression source ("Server initialized", "listening on port \\d+"),
 * or `/source/flags` to pass flags ("/ready/i"). Plain text works as-is.
 */
export function compileUserPattern(pattern: string): UserPattern {
  return UserPattern.compile(pattern);
}
