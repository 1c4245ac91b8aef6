/**
 * Messages between the main thread and a screen worker (`screenWorker.ts`). Each worker hosts the
 * headless screens of several entries, addressed by a screen id; messages on one port arrive in
 * order, so a query sent after a write is answered from a screen that has the write.
 */
import type { ScreenCursor } from './types';

/** What the main thread reads synchronously: posted by the worker after parsing changed it. */
export interface ScreenState {
  cols: number;
  rows: number;
  title: string;
  /** The program's last own state report (OSC 7501), '' when none. */
  agentState: string;
  cursor: ScreenCursor;
  isBracketedPasteMode: boolean;
  parsedUpTo: number;
  scrollbackLength: number;
  skippedBytes: number;
  /** Visible rows; left out when they did not change since the last state. */
  lines?: string[];
}

/** Same size, cursor and modes: what a reader of the rows sees besides the rows and the title. */
export function isSameView(a: ScreenState, b: ScreenState): boolean {
  return (
    a.cols === b.cols &&
    a.rows === b.rows &&
    a.cursor.x === b.cursor.x &&
    a.cursor.y === b.cursor.y &&
    a.isBracketedPasteMode === b.isBracketedPasteMode
  );
}

export interface ScreenOptions {
  cols: number;
  rows: number;
  scrollback?: number;
}

/**
 * Bytes for several screens in one transferred buffer: item i is the next `length` bytes, ending at
 * ring offset `end`; `skipped` bytes before them were left out (a flood the screen could not parse).
 */
export interface WriteItem {
  screenId: number;
  length: number;
  end: number;
  skipped: number;
}

export type ScreenQuery =
  { kind: 'flush' } | { kind: 'serialize' } | { kind: 'serializeForRestore'; maxLines?: number } | { kind: 'allLines' };

/** What each query resolves to. */
export interface QueryResults {
  flush: number;
  /** After a flush: the screen and the ring offset it reflects, taken at one instant. */
  serialize: { screen: string; offset: number };
  serializeForRestore: string;
  allLines: string[];
}

export type ToWorker =
  /** `replay`: the output a screen rebuilt on a new worker had; queries wait until it is parsed. */
  | { type: 'open'; screenId: number; options: ScreenOptions; replay?: { buffer: ArrayBuffer; end: number } }
  | { type: 'write'; items: WriteItem[]; buffer: ArrayBuffer }
  | { type: 'resize'; screenId: number; cols: number; rows: number }
  | { type: 'query'; screenId: number; requestId: number; query: ScreenQuery }
  | { type: 'close'; screenId: number };

export type FromWorker =
  | { type: 'state'; screenId: number; state: ScreenState }
  /** A terminal reply to the program's query (device attributes, cursor position): goes to the PTY at once. */
  | { type: 'reply'; screenId: number; data: string }
  | { type: 'result'; screenId: number; requestId: number; value: QueryResults[ScreenQuery['kind']] };
