/**
 * How each CLI goes on after a turn that ended on a limit or an API error, as data. None of the
 * preset CLIs keeps a failed turn pending: the turn is over, the conversation is kept, and the next
 * user turn sends it again with the history — so the way on is a user turn that asks to go on.
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
};

const DEFAULT_CONTINUE: ContinueTurn = { text: 'continue', source: 'every other preset: a new user turn, unverified' };

/** The user turn that makes `preset` go on after a blocked turn. */
export function continueTurnOf(preset: string): string {
  return (CONTINUE_BY_PRESET[preset] ?? DEFAULT_CONTINUE).text;
}
