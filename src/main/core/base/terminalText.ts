/**
 * Terminal output as plain text: escape sequences removed, so patterns, URL parsers, JSON readers
 * and agents see what a person reads on screen ("VITE v7.3.8  ready in 662 ms", not
 * "\x1b[32m\x1b[1mVITE\x1b[22m…"). The one stripper of the core: every reader of output uses it.
 */

/**
 * CSI (colours, cursor moves, screen clears), OSC (titles, hyperlinks; ended by BEL or ST),
 * DCS/SOS/PM/APC strings, and the two-byte escapes (charset selection, keypad modes).
 * C1 control forms (0x9b CSI, 0x9d OSC) are included: some programs emit them in UTF-8.
 */
const ANSI_SEQUENCE =
  // eslint-disable-next-line no-control-regex
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b\]|\x9d)[^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[ -/]*[0-~]/g;

/** An escape sequence cut off at the end of a chunk (its rest arrives with the next one). */
// eslint-disable-next-line no-control-regex
const TRAILING_PARTIAL_ESCAPE = /\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*|[PX^_][^\x1b]*)?$/;

/** C0 controls left after the sequences: all but tab and line feed (backspace, bell, shift-in/out, CR). */
// eslint-disable-next-line no-control-regex
const STRAY_CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;

/** The same, keeping carriage returns for readers that render overwrites (progress bars, spinners). */
// eslint-disable-next-line no-control-regex
const STRAY_CONTROLS_BUT_CR = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/** Any character either pass could remove: most log lines have none, and skip all passes. */
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\x00-\x08\x0b-\x1f\x7f\x9b\x9d]/;

/** Escape sequences and control characters removed; tabs and line feeds kept. */
export function stripAnsi(text: string): string {
  return strip(text, STRAY_CONTROLS);
}

/** As {@link stripAnsi}, but carriage returns stay, so a caller can apply a line's overwrites. */
export function stripAnsiKeepingCarriageReturns(text: string): string {
  return strip(text, STRAY_CONTROLS_BUT_CR);
}

function strip(text: string, strayControls: RegExp): string {
  if (!ANY_CONTROL.test(text)) return text;
  return text.replace(TRAILING_PARTIAL_ESCAPE, '').replace(ANSI_SEQUENCE, '').replace(strayControls, '');
}
