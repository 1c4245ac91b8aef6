/**
 * How each CLI goes on after a turn that ended on a limit or an API error, as data. Once a CLI has
 * given up on a request it does not try again by itself, and none offers a key that resumes; the
 * next user turn sends the conversation again (Claude Code sends the refused prompt with it) — so
 * the way on is a user turn that asks to go on.
 */
interface ContinueTurn {
  text: string;
  /** Tool, version and how it was established. */
  source: string;
}

const CONTINUE_BY_PRESET: Readonly<Record<string, ContinueTurn>> = {
  claude: {
    text: 'continue',
    // Its usage-limit menu (/rate-limit-options) offers "Stop and wait for limit to reset" and nothing that resumes.
    source:
      'Claude Code 2.1.197, observed against the mock: after `API Error: Request rejected (429)` the composer takes a new turn, which re-sends the conversation',
  },
  codex: {
    text: 'continue',
    source: 'Codex CLI 0.169.0, observed against the mock: an error report (state=error) ends the turn; the composer takes the next',
  },
  pi: {
    text: 'continue',
    source:
      'pi 0.73.1, observed against the mock: after `Retry failed after 3 attempts: …` the editor takes a new turn, whose request carries the refused prompt before it',
  },
};

const DEFAULT_CONTINUE: ContinueTurn = { text: 'continue', source: 'every other preset: a new user turn, unverified' };

/** The user turn that makes `preset` go on after a blocked turn. */
export function continueTurnOf(preset: string): string {
  return (CONTINUE_BY_PRESET[preset] ?? DEFAULT_CONTINUE).text;
}
