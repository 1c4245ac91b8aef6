/**
 * A screen no rule recognises that still looks like a question to a person (docs/agent-status.md,
 * "Unknown dialogs are never idle"). A CLI update brings dialogs its rules never saw; calling them
 * idle is the one failure the status exists to prevent, so a screen whose bottom rows carry a
 * dialog's structure — a selection marker on a numbered option, a dialog's key hints, a yes/no
 * suffix, options that name their keys — reads as waiting, marked low-confidence.
 *
 * The cues are structural and shared by every preset; each carries a real sample from a CLI's
 * dialog (the waiting rules' samples) and where it came from.
 */

/** How many non-blank bottom rows a dialog may take: the tallest recorded one (a trust dialog with
 *  its path and explanation) fits, the transcript far above it does not count. */
const DIALOG_WINDOW_ROWS = 16;

/** A box's side frame, so `│ ● 1. Allow once │` reads as `● 1. Allow once`. */
const BOX_SIDE = /^[\s│┃║]*[│┃║]\s?|\s*[│┃║]+\s*$/gu;
/** A row that tops a dialog: a horizontal rule or a box's top edge (inside a frame or not). */
const DIALOG_TOP = /^[\s│┃║]*(?:[─━═]{8,}|[╭┌][─━═]{3,})/u;

interface DialogCue {
  id: string;
  /** Tested on each bottom row, box frame removed (with the row below it, after a newline, when `withNextRow`). */
  row: RegExp;
  withNextRow?: boolean;
  /** How many rows must match (options come in twos or more). */
  minRows: number;
  sample: string;
  source: string;
}

/** Each cue alone makes a dialog: none of them is drawn by an idle composer or a streaming answer. */
export const DIALOG_CUES: readonly DialogCue[] = [
  {
    id: 'selected-numbered-option',
    row: /^\s*[❯›>→●▶◉]\s*\d+[.)]\s+\S/u,
    minRows: 1,
    sample: ' ❯ 1. Yes',
    source:
      'Claude Code 2.1.197 permission prompt (recordings/claude/2.1.197/dev-permission-yes.cast); also Codex 0.169.0 `› 1.`, Gemini CLI 0.61.0 `● 1.`',
  },
  {
    id: 'dialog-key-hint',
    // Confirm, choose, navigate or dismiss keys. Never a busy row's hint: "esc to interrupt",
    // "Enter to steer", and "esc cancel" / "esc to cancel", which Codex and Qwen Code show while a
    // turn starts or runs (every dialog that says "Esc to cancel" names its Enter key or options too).
    row: /\b(?:enter|return|↵)\s*(?:to|:)?\s*(?:confirm|select|submit|accept|continue|choose|approve|answer)\b|\besc(?:ape)?\s*(?:to|:)?\s*(?:dismiss|back|close|deny|reject|decline)\b|↑\s*\/?\s*↓/iu,
    minRows: 1,
    sample: '  ↑↓ select  enter submit  esc dismiss',
    source: 'opencode 1.18.33 question (recordings/opencode); also Claude Code 2.1.197 `Enter to confirm · Esc to cancel` (trust dialog)',
  },
  {
    // An options list without numbers: the selected option, and below it an unselected one where
    // the marker's place is blank, the marker indented by two or more (a user turn `❯ text` sits at
    // the first column or one in, and no such sibling follows it); a slash-command completion
    // list (`❯ /exit`) is no question.
    id: 'selected-unnumbered-option',
    row: /^( {2,})[❯›] (?!\/)\S[^\n]*\n\1 {2}\S/u,
    withNextRow: true,
    minRows: 1,
    sample: '  ❯ Yes, set auto mode as my default permission mode\n    No, keep manual mode',
    source: 'Claude Code 2.1.332 auto-mode offer and trust dialog (recordings/claude/dev-permission-no.cast, dev-trust-dialog.cast)',
  },
  {
    // A dialog's footer ends on, or lists, "Esc to cancel"; a busy row says it inside brackets (`(esc to cancel, 5s)`).
    id: 'esc-to-cancel-footer',
    row: /\besc to cancel\s*(?:·|$)/iu,
    minRows: 1,
    sample: '  Enter to stay in auto mode · shift+Tab to leave for accept edits mode and stop · Esc to cancel',
    source:
      'Claude Code 2.1.332 auto mode gateway dialog (recordings/claude/dev-auto-mode-gateway.cast); permission `Esc to cancel · Tab to amend`',
  },
  {
    // A row of its own saying the CLI waits on the person (in the spinner's place, before the
    // dialog is drawn); 2.1.197's "⎿  Waiting…" under a tool names no one and is no cue.
    id: 'waiting-for-person-row',
    row: /^\s*Waiting for (?:your |the user's )?(?:permission|approval|confirmation|answer)(?:…|\.{3})?\s*$/iu,
    minRows: 1,
    sample: '  Waiting for permission…',
    source: 'Claude Code 2.1.332 before its permission and question dialogs (recordings/claude/dev-permission-no.cast @ 12.2 s)',
  },
  {
    id: 'yes-no-suffix',
    row: /(?:\((?:y\/n|Y\/n|y\/N)\)|\[(?:y\/n|Y\/n|y\/N|Yes|No)\]|\(Y\)es\/\(N\)o)\s*:?\s*$/u,
    minRows: 1,
    sample: "Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]:",
    source: 'aider, rules/aider.ts shell-command-confirm (from its source, unverified); `[y/N]` of rules/generic.ts',
  },
  {
    id: 'options-with-keys',
    // Options that name their key at the end: `Run (once) (y)`, `Skip (esc or n)`.
    row: /\S\s+\((?:[a-z]|esc(?:ape)?(?: or [a-z])?)\)\s*$/u,
    minRows: 2,
    sample: '  → Run (once) (y)\n    Skip (esc or n)',
    source:
      'Cursor Agent, rules/cursorAgent.ts command-approval (from its docs, unverified); Codex 0.169.0 approval options `(y)`, `(p)`, `(esc)`',
  },
];

/**
 * The dialog's rows when the screen's bottom looks like one (from the rule or box top above its
 * first cue, or the window's start, to the last row), else undefined.
 */
export function readUnknownDialog(lines: readonly string[]): string[] | undefined {
  const window = bottomWindow(lines);
  const rows = window.map((y) => lines[y].replace(BOX_SIDE, ''));
  let firstCue = -1;
  for (const cue of DIALOG_CUES) {
    const hits = rows.flatMap((row, i) => (cue.row.test(cue.withNextRow ? `${row}\n${rows[i + 1] ?? ''}` : row) ? [i] : []));
    if (hits.length >= cue.minRows && (firstCue < 0 || hits[0] < firstCue)) firstCue = hits[0];
  }
  if (firstCue < 0) return undefined;
  let top = window[0];
  for (let y = window[firstCue]; y >= window[0]; y--) {
    if (DIALOG_TOP.test(lines[y])) {
      top = y + 1;
      break;
    }
  }
  return lines.slice(top, window[window.length - 1] + 1);
}

/** Indices of the last DIALOG_WINDOW_ROWS non-blank rows, top to bottom. */
function bottomWindow(lines: readonly string[]): number[] {
  const picked: number[] = [];
  for (let y = lines.length - 1; y >= 0 && picked.length < DIALOG_WINDOW_ROWS; y--) {
    if (lines[y].trim() !== '') picked.unshift(y);
  }
  return picked;
}
