/**
 * `wait_for_pattern`: event-driven (the entry's output events), never a polling loop, so any
 * number of waits cost nothing while output is quiet and never hold up other calls.
 * Patterns are matched per line of ANSI-stripped output, and per carriage-return segment, with
 * the unterminated last line (a prompt) checked too.
 */
import type { ProcessEntry } from '../sessions';
import { stripAnsiKeepingCarriageReturns } from '../base';
import { matchSegments, renderStreamText } from './outputText';
import type { LinePattern } from '../../../shared/userPattern';

/** Longest unterminated line kept for matching (a runaway line without newlines must not grow forever). */
export const MAX_PARTIAL_LINE_BYTES = 64 * 1024;
/** Lines returned with a timeout or exit, to show what the process printed instead. */
const TAIL_LINES = 15;
const TAIL_BYTES = 8 * 1024;

type PatternWaitEnd = 'matched' | 'timeout' | 'exited' | 'not_running' | 'closed' | 'cancelled';

interface PatternWaitResult {
  matched: boolean;
  reason: PatternWaitEnd;
  message: string;
  /** The matching line (ANSI-stripped). */
  line?: string;
  /** The match and its capture groups. */
  groups?: string[];
  /** Byte offset where the matching line starts. */
  offset?: number;
  elapsed_ms: number;
  /** Last lines of output when nothing matched. */
  last_lines?: string[];
}

interface PatternWaitOptions {
  from: 'now' | 'start';
  timeoutMs: number;
  signal: AbortSignal;
  /** Called while waiting, at most every `progressIntervalMs`. */
  onProgress?: (elapsedMs: number) => void;
  progressIntervalMs?: number;
  /** Fires if the entry is closed while we wait. */
  onClosed?: (listener: () => void) => { dispose(): void };
}

interface LineMatch {
  line: string;
  groups: string[];
  offset: number;
}

/** Splits bytes into lines, remembering where each starts, and reports the first match. */
export class LineMatcher {
  private partial: Buffer = Buffer.alloc(0);
  private partialStart = 0;

  constructor(private readonly regex: LinePattern) {}

  /** Feeds bytes that start at ring offset `start`; returns the first match, if any. */
  push(data: Buffer, start: number): LineMatch | undefined {
    let buffer = this.partial.length > 0 ? Buffer.concat([this.partial, data]) : data;
    let bufferStart = this.partial.length > 0 ? this.partialStart : start;
    let lineStart = 0;
    for (;;) {
      const newline = buffer.indexOf(0x0a, lineStart);
      if (newline < 0) break;
      const match = this.test(buffer.subarray(lineStart, newline), bufferStart + lineStart);
      if (match) {
        this.partial = Buffer.alloc(0);
        return match;
      }
      lineStart = newline + 1;
    }
    buffer = buffer.subarray(lineStart);
    bufferStart += lineStart;
    if (buffer.length > MAX_PARTIAL_LINE_BYTES) {
      bufferStart += buffer.length - MAX_PARTIAL_LINE_BYTES;
      buffer = buffer.subarray(buffer.length - MAX_PARTIAL_LINE_BYTES);
    }
    this.partial = Buffer.from(buffer);
    this.partialStart = bufferStart;
    return buffer.length > 0 ? this.test(buffer, bufferStart) : undefined;
  }

  private test(lineBytes: Buffer, offset: number): LineMatch | undefined {
    const text = stripAnsiKeepingCarriageReturns(lineBytes.toString('utf8'));
    for (const segment of matchSegments(text)) {
      const m = this.regex.exec(segment);
      if (m) return { line: segment, groups: [...m].map((g) => g ?? ''), offset };
    }
    return undefined;
  }
}

export function waitForPattern(entry: ProcessEntry, regex: LinePattern, options: PatternWaitOptions): Promise<PatternWaitResult> {
  const startedAt = Date.now();
  // Bytes already in the ring but not yet delivered as output would otherwise arrive as a chunk
  // after the backlog was read (twice) or after `now` (output from before the call).
  entry.flushOutput();
  const from = options.from === 'start' ? entry.runOffset : entry.ring.end;
  const matcher = new LineMatcher(regex);
  const elapsed = () => Date.now() - startedAt;

  return new Promise<PatternWaitResult>((resolve) => {
    const disposables: Array<{ dispose(): void }> = [];
    let done = false;
    const finish = (result: Omit<PatternWaitResult, 'elapsed_ms' | 'last_lines'>, withTail = !result.matched) => {
      if (done) return;
      done = true;
      for (const d of disposables) d.dispose();
      resolve({ ...result, elapsed_ms: elapsed(), ...(withTail ? { last_lines: tailLines(entry) } : {}) });
    };
    const matched = (m: LineMatch) =>
      finish({
        matched: true,
        reason: 'matched',
        message: `Matched ${regex.toString()} in ${entry.name}`,
        line: m.line,
        groups: m.groups,
        offset: m.offset,
      });

    if (options.signal.aborted) return finish({ matched: false, reason: 'cancelled', message: 'Cancelled by the client' });
    // Subscribe and read the backlog in the same tick: no output can slip between the two.
    disposables.push(
      entry.onDidWriteOutput((chunk) => {
        const m = matcher.push(chunk.data, chunk.start);
        if (m) matched(m);
      }),
    );
    if (options.from === 'start') {
      const backlog = entry.ring.read(from);
      const m = matcher.push(backlog.data, backlog.start);
      if (m) return matched(m);
    }
    if (!entry.isRunning) {
      return finish({
        matched: false,
        reason: 'not_running',
        message: `${entry.name} (${entry.id}) is not running (${entry.message}); nothing more will be printed`,
      });
    }
    disposables.push(
      entry.onDidExitRun((exit) => {
        const how = exit.signal ? `was killed by signal ${exit.signal}` : `exited with code ${exit.exitCode}`;
        finish({ matched: false, reason: 'exited', message: `${entry.name} (${entry.id}) ${how} before ${regex.toString()} appeared` });
      }),
    );
    if (options.onClosed)
      disposables.push(
        options.onClosed(() => finish({ matched: false, reason: 'closed', message: `${entry.name} (${entry.id}) was closed` }, false)),
      );
    const onAbort = () => finish({ matched: false, reason: 'cancelled', message: 'Cancelled by the client' }, false);
    options.signal.addEventListener('abort', onAbort, { once: true });
    disposables.push({ dispose: () => options.signal.removeEventListener('abort', onAbort) });
    const timer = setTimeout(
      () =>
        finish({
          matched: false,
          reason: 'timeout',
          message: `${regex.toString()} did not appear in ${entry.name} within ${Math.round(options.timeoutMs / 100) / 10} s`,
        }),
      options.timeoutMs,
    );
    disposables.push({ dispose: () => clearTimeout(timer) });
    if (options.onProgress) {
      // A heartbeat for the client (keeps its request timer alive), not a check of the condition.
      const progress = options.onProgress;
      const ticker = setInterval(() => progress(elapsed()), options.progressIntervalMs ?? 1_000);
      disposables.push({ dispose: () => clearInterval(ticker) });
    }
  });
}

/** The run's last lines, whatever the wait started from: what the process printed instead. */
function tailLines(entry: ProcessEntry): string[] {
  const read = entry.ring.read(Math.max(entry.runOffset, entry.ring.end - TAIL_BYTES));
  const lines = renderStreamText(read.data.toString('utf8'))
    .split('\n')
    .filter((l) => l.trim() !== '');
  return lines.slice(-TAIL_LINES);
}
