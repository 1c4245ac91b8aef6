/**
 * Messages between the main thread and the PTY thread (`ptyWorker.ts`), which owns every PTY's
 * master fd and reads it on its own event loop. PTYs are addressed by an id the main thread picks.
 * Spawns are answered on a second port the main thread waits on synchronously (ptyHost.ts), so
 * a spawn returns its pid like `node-pty`'s does; everything else is asynchronous and in order.
 */

/** Slots of the flags both threads share: the spawn answer was posted; how many PTYs the thread holds. */
export const SPAWN_ANSWERED = 0;
export const LIVE_PTYS = 1;

export interface PtySpawnRequest {
  type: 'spawn';
  ptyId: number;
  file: string;
  args: string[];
  options: { name: string; cols: number; rows: number; cwd: string; env: Record<string, string> };
}

export type ToPtyThread =
  | PtySpawnRequest
  /** `isTyped`: input from a person or an agent (input priority), not a terminal's reply to a query. */
  | { type: 'write'; ptyId: number; data: string; isTyped: boolean }
  | { type: 'resize'; ptyId: number; cols: number; rows: number }
  /** Whether the main thread wants this PTY read (flow control, the output budget, input priority). */
  | { type: 'reading'; ptyId: number; isWanted: boolean }
  /** The main thread took in a data message; its buffer comes back to be filled again. */
  | { type: 'taken'; ptyId: number; buffer: ArrayBuffer };

export type FromPtyThread =
  /** Output bytes [0, length) of `buffer` (transferred), in read order. */
  | { type: 'data'; ptyId: number; buffer: ArrayBuffer; length: number }
  /** After the PTY's last data message. */
  | { type: 'exit'; ptyId: number; exitCode: number; signal: number };

/** The answer to a spawn, on the synchronous port. */
export type PtySpawnReply = { ptyId: number; pid: number } | { ptyId: number; error: string };
