/**
 * Typing into a program the way a person does — the one path for every "user turn" Switchboard
 * sends: instructions for a fresh agent, send_message, timer bodies (docs/timers.md).
 */
import type { ProcessEntry } from './processEntry';

/** How long to wait for the program to echo typed text before sending Enter anyway. */
export const SUBMIT_ECHO_WAIT_MS = 1_000;

/**
 * Pause between the echo of the text and its Enter. TUIs that cannot tell a paste from typing take
 * an Enter right behind other input for part of a paste and insert a newline instead of
 * submitting (Gemini CLI: within 30 ms of a key, 40 ms after it has handled a paste); the echo
 * shows the text was handled, and no person presses Enter faster than this after it.
 */
export const SUBMIT_AFTER_ECHO_MS = 120;

/**
 * The text as a bracketed paste when the program enabled it (ESC[?2004h), plain otherwise.
 * Paste delimiters inside the text are removed, so pasted content cannot end the paste early.
 */
export function pasteSequence(entry: ProcessEntry, text: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/\x1b\[20[01]~/g, '');
  return entry.screen.isBracketedPasteMode ? `\x1b[200~${clean}\x1b[201~` : clean;
}

/** Resolves once the entry produced output after this call, after `maxMs`, or when the run ends. */
export function nextOutput(entry: ProcessEntry, maxMs: number): Promise<void> {
  return untilOrTimeout(entry, maxMs, (done) => entry.onOutput(done));
}

/** Resolves when `listen` calls its `done`, after `maxMs`, or when the run ends; every listener is removed. */
function untilOrTimeout(entry: ProcessEntry, maxMs: number, listen: (done: () => void) => { dispose(): void }): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      listener.dispose();
      exit.dispose();
      resolve();
    };
    const timer = setTimeout(done, maxMs);
    const listener = listen(done);
    const exit = entry.onRunExited(done);
  });
}

/**
 * Resolves when Enter may follow `text`, written right after this call: SUBMIT_AFTER_ECHO_MS after
 * the screen shows it (or SUBMIT_ECHO_WAIT_MS passed, or the run ended). Any output is not enough:
 * a busy TUI redraws before it has read the text, and then reads text and Enter in one go.
 */
export async function readyForEnter(entry: ProcessEntry, text: string): Promise<void> {
  await screenShows(entry, echoProbe(text), SUBMIT_ECHO_WAIT_MS);
  await new Promise<void>((resolve) => setTimeout(resolve, SUBMIT_AFTER_ECHO_MS));
}

/** Characters from the end of the text's last line that the echo must show (wrapping aside). */
const ECHO_PROBE_CHARS = 12;

/** The tail of the last non-empty line, or '' (then any output counts) for text with nothing to see. */
function echoProbe(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  return lines.length > 0 ? lines[lines.length - 1].slice(-ECHO_PROBE_CHARS) : '';
}

/** Resolves once the parsed screen contains `probe` (any output if it is ''), after `maxMs`, or when the run ends. */
function screenShows(entry: ProcessEntry, probe: string, maxMs: number): Promise<void> {
  const shown = () => probe === '' || entry.screen.getVisibleLines().some((line) => line.includes(probe));
  return untilOrTimeout(entry, maxMs, (done) => entry.screen.onDidChange(() => shown() && done()));
}

/**
 * A fresh user turn: the text — always as a paste where the program takes one, because typed keys
 * would be read as commands when a text starts with an agent's prefix (Claude Code: "?" help,
 * "!" shell, "/" commands) — then Enter as its own write once the program echoed the text.
 */
export async function typeUserTurn(entry: ProcessEntry, text: string): Promise<void> {
  const echoed = readyForEnter(entry, text);
  entry.write(pasteSequence(entry, text));
  await echoed;
  entry.write('\r');
}
