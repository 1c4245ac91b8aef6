/**
 * Reads a JSONL file the CLI appends to, from where the last read stopped: only complete lines,
 * an unfinished last line is read again next time. A line that is not JSON is skipped (a CLI's
 * record we cannot read must not stop the ones after it). A file that shrank (rewritten) is read
 * again from its start, so its reader must be reset. Anything but a regular file reads as nothing.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

const CHUNK_BYTES = 256 * 1024;

export class JsonlTail {
  private offset = 0;

  constructor(readonly path: string) {}

  /** The records appended since the last read; `restarted` when the file was rewritten and read from its start. */
  read(): { records: unknown[]; restarted: boolean } {
    let fd: number;
    try {
      // Non-blocking: a FIFO put where the file was must not hang the reader (it is then skipped).
      fd = openSync(this.path, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch {
      return { records: [], restarted: false };
    }
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) return { records: [], restarted: false };
      const size = stat.size;
      const restarted = size < this.offset;
      if (restarted) this.offset = 0;
      return { records: this.readLines(fd, size), restarted };
    } finally {
      closeSync(fd);
    }
  }

  private readLines(fd: number, size: number): unknown[] {
    const records: unknown[] = [];
    const buffer = Buffer.alloc(Math.min(CHUNK_BYTES, Math.max(1, size - this.offset)));
    let pending: Buffer = Buffer.alloc(0);
    let position = this.offset;
    while (position < size) {
      const n = readSync(fd, buffer, 0, Math.min(buffer.length, size - position), position);
      if (n <= 0) break;
      position += n;
      const bytes = pending.length ? Buffer.concat([pending, buffer.subarray(0, n)]) : buffer.subarray(0, n);
      let start = 0;
      for (let nl = bytes.indexOf(10, start); nl !== -1; nl = bytes.indexOf(10, start)) {
        const record = parseLine(bytes.subarray(start, nl).toString('utf8'));
        if (record !== undefined) records.push(record);
        this.offset += nl + 1 - start;
        start = nl + 1;
      }
      pending = Buffer.from(bytes.subarray(start));
    }
    return records;
  }
}

function parseLine(line: string): unknown {
  if (!line.trim()) return undefined;
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}
