/**
 * Reading a process: the rendered screen, the output stream (ANSI-stripped or raw) by byte offset,
 * regex search over the retained output, and waiting for a pattern.
 */
import { compileUserPattern, type UserPattern } from '../../../../shared/userPattern';
import { DEFAULT_OUTPUT_BYTES, DEFAULT_SEARCH_LIMIT, DEFAULT_WAIT_SECONDS } from '../../../../shared/mcp';
import { SwitchboardError } from '../../../../shared/errors';
import type { ProcessEntry } from '../../sessions';
import { defineTool, type ToolContext } from '../toolContext';
import {
  completeUtf8Length,
  isValidUtf8,
  keepLastLines,
  matchSegments,
  renderStreamText,
  trimBlankLines,
  utf8SafeStart,
} from '../outputText';
import { stripAnsi, stripAnsiKeepingCarriageReturns } from '../../base';
import { waitForPattern } from '../patternWait';
import { callerKey } from '../identity';

/** search_output yields to the event loop after this much matching. */
const SEARCH_SLICE_MS = 10;
/** A matching line longer than this is cut in results (the offset still points at it). */
const MAX_RESULT_LINE_CHARS = 500;

/** Compiles a caller's regex; a bad one is a tool error naming the regex. */
function compilePattern(pattern: string): UserPattern {
  try {
    return compileUserPattern(pattern);
  } catch (err) {
    throw new SwitchboardError('bad_pattern', `Invalid pattern: ${(err as Error).message}`, { pattern });
  }
}

/** The rendered screen, trimmed, newest lines kept under `maxBytes`. */
export async function screenOf(entry: ProcessEntry, maxBytes: number): Promise<Record<string, unknown>> {
  const offset = await entry.screen.flush();
  const { lines, truncated } = keepLastLines(trimBlankLines(entry.screen.getVisibleLines()), maxBytes);
  return {
    text: lines.join('\n'),
    cols: entry.screen.cols,
    rows: entry.screen.rows,
    cursor: entry.screen.getCursor(),
    title: entry.screen.title,
    truncated,
    offset,
  };
}

/** Bytes from `since` (or the newest `maxBytes`), cut on UTF-8 character boundaries. */
function readBytes(entry: ProcessEntry, since: number | undefined, maxBytes: number) {
  const ring = entry.ring;
  const read = since === undefined ? ring.tail(maxBytes) : ring.read(since, maxBytes);
  const skip = utf8SafeStart(read.data);
  const body = read.data.subarray(skip);
  const data = body.subarray(0, completeUtf8Length(body));
  const start = read.start + skip;
  const next = start + data.length;
  return {
    data,
    fields: {
      start_offset: start,
      next_offset: next,
      end_offset: ring.end,
      run_start_offset: entry.runOffset,
      has_more: next < ring.end,
      ...(since !== undefined && since > ring.end ? { note: `since_offset ${since} is past the end of the output (${ring.end})` } : {}),
      ...(read.truncated ? { bytes_lost: read.start - (since ?? read.start) } : {}),
    },
  };
}

const getProcessOutput = defineTool({
  name: 'get_process_output',
  title: 'Read output',
  summary: "Read an entry's screen (grid) or output text from an offset (stream).",
  description:
    'Read what a process shows. mode "grid" (default): the rendered terminal screen as text, blank lines trimmed — best for TUIs and agents. mode "stream": ANSI-stripped output text from since_offset (default: the newest max_bytes); pass next_offset back as since_offset to read on without repeats. run "previous": what it showed before the app last restarted.',
  annotations: { readOnlyHint: true },
  requires: { perCall: ({ process_id }) => [{ entry: process_id, right: 'read', action: 'reading the output of' }] },
  run: async ({ process_id, mode, since_offset, max_bytes, run }, _call, ctx) => {
    const entry = ctx.core.entry(process_id);
    const maxBytes = max_bytes ?? DEFAULT_OUTPUT_BYTES;
    if (run === 'previous') return previousRunOutput(ctx, process_id, maxBytes);
    if ((mode ?? 'grid') === 'grid') {
      const screen = await screenOf(entry, maxBytes);
      return { process_id, mode: 'grid', ...screen, next_offset: screen.offset };
    }
    const { data, fields } = readBytes(entry, since_offset, maxBytes);
    return { process_id, mode: 'stream', text: renderStreamText(data.toString('utf8')), ...fields };
  },
});

/** The saved scrollback of the previous app run as text, newest lines kept under `maxBytes`. */
function previousRunOutput(ctx: ToolContext, processId: string, maxBytes: number): Record<string, unknown> {
  const saved = ctx.core.previousOutput(processId);
  if (saved === undefined) {
    throw new SwitchboardError(
      'not_found',
      `Process ${processId} has no output saved from a previous app run (it is new, or the app kept no state)`,
      { process_id: processId },
    );
  }
  const { lines, truncated } = keepLastLines(trimBlankLines(stripAnsi(saved).split(/\r?\n/)), maxBytes);
  return { process_id: processId, run: 'previous', text: lines.join('\n'), truncated };
}

const getProcessRawOutput = defineTool({
  name: 'get_process_raw_output',
  title: 'Read raw output',
  summary: 'Raw terminal bytes from an offset.',
  description:
    'Raw terminal bytes (escape sequences included) from since_offset (default: the newest max_bytes), as UTF-8 text, or base64 when the bytes are not valid UTF-8 (encoding says which). Returns next_offset.',
  annotations: { readOnlyHint: true },
  requires: { perCall: ({ process_id }) => [{ entry: process_id, right: 'read', action: 'reading the output of' }] },
  run: ({ process_id, since_offset, max_bytes }, _call, ctx) => {
    const entry = ctx.core.entry(process_id);
    const { data, fields } = readBytes(entry, since_offset, max_bytes ?? DEFAULT_OUTPUT_BYTES);
    const utf8 = isValidUtf8(data);
    return { process_id, encoding: utf8 ? 'utf8' : 'base64', data: data.toString(utf8 ? 'utf8' : 'base64'), ...fields };
  },
});

const searchOutput = defineTool({
  name: 'search_output',
  title: 'Search output',
  summary: "Regex search over an entry's retained output.",
  description:
    'Search the retained output (all runs, ANSI-stripped, line by line) for a regular expression. Returns the matching lines with their byte offsets, newest kept when there are more than limit.',
  annotations: { readOnlyHint: true },
  requires: { perCall: ({ process_id }) => [{ entry: process_id, right: 'read', action: 'searching the output of' }] },
  run: async ({ process_id, pattern, limit }, call, ctx) => {
    const entry = ctx.core.entry(process_id);
    const regex = compilePattern(pattern);
    const max = limit ?? DEFAULT_SEARCH_LIMIT;
    const read = entry.ring.read(entry.ring.start);
    const matches: Array<{ offset: number; line: string }> = [];
    let total = 0;
    let lineStart = 0;
    let sliceStartedAt = performance.now();
    while (lineStart < read.data.length) {
      // Up to 256 MiB of output: give the event loop (PTYs, other calls, the UI) its turn often.
      if (performance.now() - sliceStartedAt > SEARCH_SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        if (call.signal.aborted) throw new SwitchboardError('timeout', 'search_output was cancelled');
        sliceStartedAt = performance.now();
      }
      let end = read.data.indexOf(0x0a, lineStart);
      if (end < 0) end = read.data.length;
      const text = stripAnsiKeepingCarriageReturns(read.data.subarray(lineStart, end).toString('utf8'));
      const hit = matchSegments(text).find((segment) => regex.test(segment));
      if (hit !== undefined) {
        total += 1;
        matches.push({
          offset: read.start + lineStart,
          line: hit.length > MAX_RESULT_LINE_CHARS ? `${hit.slice(0, MAX_RESULT_LINE_CHARS)}…` : hit,
        });
        if (matches.length > max) matches.shift();
      }
      lineStart = end + 1;
    }
    return {
      process_id,
      pattern,
      matches,
      total_matches: total,
      truncated: total > matches.length,
      searched: { start_offset: read.start, end_offset: read.end, run_start_offset: entry.runOffset },
    };
  },
});

const waitForPatternTool = defineTool({
  name: 'wait_for_pattern',
  title: 'Wait for output',
  summary: 'Block until an output line matches a regex, a timeout, or exit.',
  description:
    'Block until a line of the process\'s output matches the regex, or timeout_seconds pass, or the process exits. from "now" (default) counts only new output, "start" also the current run so far. Returns { matched, reason, line, groups, offset } or, without a match, the last lines. Other calls are never held up. Sends progress notifications when given a progress token; cancellable.',
  annotations: { readOnlyHint: true },
  requires: { perCall: ({ process_id }) => [{ entry: process_id, right: 'read', action: 'watching the output of' }] },
  run: async ({ process_id, pattern, timeout_seconds, from }, call, ctx) => {
    const entry = ctx.core.entry(process_id);
    const regex = compilePattern(pattern);
    const timeoutSeconds = timeout_seconds ?? DEFAULT_WAIT_SECONDS;
    const release = ctx.patternWaits.acquire(callerKey(call.caller));
    const result = await waitForPattern(entry, regex, {
      from: from ?? 'now',
      timeoutMs: timeoutSeconds * 1000,
      signal: call.signal,
      onProgress: call.hasProgress
        ? (elapsedMs) => call.progress(Math.round(elapsedMs / 100) / 10, timeoutSeconds, `Waiting for ${regex.toString()} in ${entry.name}`)
        : undefined,
      onClosed: (listener) => onEntryRemoved(ctx, process_id, listener),
    }).finally(release);
    return { process_id, pattern, ...result };
  },
});

function onEntryRemoved(ctx: ToolContext, id: string, listener: () => void) {
  return ctx.core.onEvent((event) => {
    if (event.type === 'processRemoved' && event.id === id) listener();
  });
}

export const outputTools = [getProcessOutput, getProcessRawOutput, searchOutput, waitForPatternTool];
