/**
 * Terminal output as plain text: escape sequences removed, so patterns and URL parsers see what a
 * person reads on screen ("VITE v7.3.8  ready in 662 ms", not "\x1b[32m\x1b[1mVITE\x1b[22m…").
 */

/**
 * CSI (colours, cursor moves, screen clears), OSC (titles, hyperlinks; ended by BEL or ST),
 * DCS/SOS/PM/APC strings, and the two-byte escapes (charset selection, keypad modes).
 * C1 control forms (0x9b CSI) are included: some programs emit them in UTF-8.
 */
const ANSI_SEQUENCE =
  // eslint-disable-next-line no-control-regex
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b\]|\x9d)[^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[ -/]*[0-~]/g;

/** Remaining C0 controls except tab (backspace, bell, shift-in/out). Line breaks are split earlier. */
// eslint-disable-next-line no-control-regex
const STRAY_CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;

/** Any character either pattern could remove: most log lines have none, and skip both passes. */
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\x00-\x08\x0b-\x1f\x7f\x9b\x9d]/;

export function stripAnsi(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  return text.replace(ANSI_SEQUENCE, '').replace(STRAY_CONTROLS, '');
}
