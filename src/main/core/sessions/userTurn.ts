/**
 * Typing into a program the way a person does — the one path for every "user turn" Switchboard
 * sends: instructions for a fresh agent, send_message, timer bodies (docs/timers.md).
 */
import type { ProcessEntry } from './processEntry';

/** How long to wait for the program to echo typed text before sending Enter anyway. */
export const SUBMIT_ECHO_WAIT_MS = 1_000;

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
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      output.dispose();
      exit.dispose();
      resolve();
    };
    const timer = setTimeout(done, maxMs);
    const output = entry.onOutput(done);
    const exit = entry.onRunExited(done);
  });
}

/**
 * A fresh user turn: the text — always as a paste where the program takes one, because typed keys
 * would be read as commands when a text starts with an agent's prefix (Claude Code: "?" help,
 * "!" shell, "/" commands) — then Enter as its own write once the program echoed the text.
 */
export async function typeUserTurn(entry: ProcessEntry, text: string): Promise<void> {
  const echoed = nextOutput(entry, SUBMIT_ECHO_WAIT_MS);
  entry.write(pasteSequence(entry, text));
  await echoed;
  entry.write('\r');
}
