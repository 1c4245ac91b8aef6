/**
 * Qwen Code's per-attempt retry report, read from its telemetry file (`telemetry.outfile`).
 *
 * Qwen Code 0.24.4 retries a refused request (429, 5xx) inside the request, up to 7 attempts from
 * 1.5 s, and draws nothing but its spinner meanwhile. Its only structured account of each attempt
 * is `logApiRetry` (bundle `chunks/chunk-2VS5EEXU.js:4581`), an OpenTelemetry log record
 * `qwen-code.api_retry` with `attempt_number` (the attempt that failed, 1-based), `status_code`
 * and `retry_delay_ms`. With an outfile, its FileLogExporter appends each record as indented JSON
 * (`chunks/sdk-impl-BNYFWLP2.js:9918`), one top-level object after another, spans and metrics
 * in between. Only those three fields of retry records are kept; nothing else in the file is read.
 */

/** The record's name. A sample (Qwen Code 0.24.4, a 429 from the mock Chat Completions API) is in qwenRetryRecords.test.ts. */
const QWEN_API_RETRY_EVENT = 'qwen-code.api_retry';

export interface QwenApiRetry {
  /** The attempt that failed (1 = the first request): the retry about to be made is also number `attempt`. */
  attempt: number;
  statusCode?: number;
  delayMs?: number;
  /** Epoch ms when Qwen Code logged it (`event.timestamp`): the back-off starts then. */
  loggedAt?: number;
}

/**
 * Splits appended text into complete top-level JSON objects, carrying an unfinished one over to
 * the next chunk. Braces inside strings do not count.
 */
export class TopLevelJsonSplitter {
  private carry = '';
  private depth = 0;
  private inString = false;
  private escaped = false;

  push(text: string): string[] {
    const objects: string[] = [];
    const buffer = this.carry + text;
    let start = this.depth > 0 ? 0 : -1;
    for (let i = this.carry.length; i < buffer.length; i++) {
      const c = buffer[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') this.inString = false;
      } else if (c === '"' && this.depth > 0) this.inString = true;
      else if (c === '{' || c === '[') {
        if (this.depth++ === 0) start = i;
      } else if ((c === '}' || c === ']') && this.depth > 0 && --this.depth === 0) {
        objects.push(buffer.slice(start, i + 1));
        start = -1;
      }
    }
    this.carry = start >= 0 ? buffer.slice(start) : '';
    return objects;
  }
}

/** The retry a telemetry record reports, or undefined for any other record. */
export function qwenApiRetryOf(json: string): QwenApiRetry | undefined {
  if (!json.includes(QWEN_API_RETRY_EVENT)) return undefined;
  let record: unknown;
  try {
    record = JSON.parse(json);
  } catch {
    return undefined;
  }
  const attributes = (record as { attributes?: Record<string, unknown> } | null)?.attributes;
  if (attributes?.['event.name'] !== QWEN_API_RETRY_EVENT) return undefined;
  const attempt = positiveInt(attributes.attempt_number);
  if (attempt === undefined) return undefined;
  const delay = attributes.retry_delay_ms;
  const loggedAt = typeof attributes['event.timestamp'] === 'string' ? Date.parse(attributes['event.timestamp']) : NaN;
  return {
    attempt,
    statusCode: positiveInt(attributes.status_code),
    // A jittered back-off: a fraction of a millisecond (1705.83…).
    delayMs: typeof delay === 'number' && Number.isFinite(delay) && delay >= 0 ? Math.round(delay) : undefined,
    loggedAt: Number.isFinite(loggedAt) ? loggedAt : undefined,
  };
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}
