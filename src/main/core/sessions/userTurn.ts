/**
 * Typing into a program the way a person does — the one path for every "user turn" Switchboard
 * sends: instructions for a fresh agent, send_message, timer bodies (docs/timers.md).
 */
import type { ProcessEntry } from './processEntry';

/**
 * Longest wait for the program to echo typed text before Enter is sent anyway: a program that
 * echoes nothing (a password prompt) or a slow one on a loaded machine. Enter sent before the
 * echo can land inside the paste and the turn is never submitted.
 */
const SUBMIT_ECHO_WAIT_MS = 3_000;
/** A long or multi-line paste may be shown abbreviated ("[Pasted text #1 +20 lines]"): its echo counts as done once output has been quiet this long. */
export const ECHO_QUIET_MS = 100;
/**
 * Pause between the echo of the text and its Enter when nothing more is known about the program
 * (agent presets carry their own, docs/agent-status.md "Submitting a turn"). TUIs that cannot
 * tell a paste from typing take an Enter right behind other input for part of a paste and insert
 * a newline instead of submitting. No person presses Enter faster than this after seeing the text.
 */
export const DEFAULT_SUBMIT_AFTER_ECHO_MS = 500;
/** Characters of the text's last line looked for on screen; short enough to fit a prompt line. */
const ECHO_PROBE_CHARS = 24;

/**
 * The text as a bracketed paste when the program enabled it (ESC[?2004h), plain otherwise.
 * Paste delimiters inside the text are removed, so pasted content cannot end the paste early.
 */
export async function pasteSequence(entry: ProcessEntry, text: string): Promise<string> {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/\x1b\[20[01]~/g, '');
  // The mode as of everything the program printed so far: its screen is parsed on a worker.
  entry.flushOutput();
  await entry.screen.flush();
  return entry.screen.isBracketedPasteMode ? `\x1b[200~${clean}\x1b[201~` : clean;
}

/**
 * Resolves once the program has echoed `text`: its last characters appear on screen once more than
 * before the write; for text a program may abbreviate (multi-line, longer than a line), once output
 * that followed the write has gone quiet. Gives up after `maxMs` or when the run ends.
 * Call it before writing the text.
 */
export function waitForEcho(entry: ProcessEntry, text: string, maxMs = SUBMIT_ECHO_WAIT_MS): Promise<void> {
  const probe = echoProbe(text, entry.screen.cols);
  const countBefore = probe ? occurrences(entry, probe) : 0;
  return new Promise((resolve) => {
    let quietTimer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(deadline);
      clearTimeout(quietTimer);
      screen.dispose();
      output.dispose();
      exit.dispose();
      resolve();
    };
    const deadline = setTimeout(done, maxMs);
    const screen = entry.screen.onDidChange(() => {
      if (probe && occurrences(entry, probe) > countBefore) done();
    });
    const output = entry.onDidWriteOutput(() => {
      if (probe) return;
      clearTimeout(quietTimer);
      quietTimer = setTimeout(done, ECHO_QUIET_MS);
    });
    const exit = entry.onDidExitRun(done);
  });
}

/**
 * Resolves true once the entry's screen rows (joined with newlines) pass `test` (at once if they
 * already do), false after `maxMs` or when the run ends.
 */
export function waitForScreen(entry: ProcessEntry, test: (rows: string) => boolean, maxMs: number): Promise<boolean> {
  const passes = () => test(entry.screen.getVisibleLines().join('\n'));
  if (passes()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (result: boolean) => {
      clearTimeout(deadline);
      screen.dispose();
      exit.dispose();
      resolve(result);
    };
    const deadline = setTimeout(() => done(false), maxMs);
    const screen = entry.screen.onDidChange(() => {
      if (passes()) done(true);
    });
    const exit = entry.onDidExitRun(() => done(false));
  });
}

/** The pause after the echo before Enter; ends early if the run ends. */
export function settleAfterEcho(entry: ProcessEntry, submitAfterEchoMs = DEFAULT_SUBMIT_AFTER_ECHO_MS): Promise<void> {
  if (!entry.isRunning) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      exit.dispose();
      resolve();
    };
    const timer = setTimeout(done, submitAfterEchoMs);
    const exit = entry.onDidExitRun(done);
  });
}

/** Whether the screen still shows typed `text` (its last characters); true for text a program may abbreviate. */
export function isTextOnScreen(entry: ProcessEntry, text: string): boolean {
  const probe = echoProbe(text, entry.screen.cols);
  return probe === undefined || occurrences(entry, probe) > 0;
}

/** What an echo of `text` shows on screen, or undefined when a program may abbreviate it. */
function echoProbe(text: string, cols: number): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.includes('\n') || trimmed.length > cols - 10) return undefined;
  return trimmed.slice(-ECHO_PROBE_CHARS);
}

function occurrences(entry: ProcessEntry, probe: string): number {
  // Joined without separators too: a prompt line can wrap in the middle of the probe.
  const lines = entry.screen.getVisibleLines().map((line) => line.trimEnd());
  const count = (haystack: string) => haystack.split(probe).length - 1;
  return Math.max(count(lines.join('\n')), count(lines.join('')));
}

/**
 * A fresh user turn: the text — always as a paste where the program takes one, because typed keys
 * would be read as commands when a text starts with an agent's prefix (Claude Code: "?" help,
 * "!" shell, "/" commands) — then Enter as its own write, `submitAfterEchoMs` after the program
 * echoed the text.
 */
export async function typeUserTurn(entry: ProcessEntry, text: string, submitAfterEchoMs = DEFAULT_SUBMIT_AFTER_ECHO_MS): Promise<void> {
  const pasted = await pasteSequence(entry, text);
  const echoed = waitForEcho(entry, text);
  entry.write(pasted);
  await echoed;
  await settleAfterEcho(entry, submitAfterEchoMs);
  entry.write('\r');
}
