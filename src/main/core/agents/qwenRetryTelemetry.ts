/**
 * Qwen Code's in-request retries as `active · retrying` with the attempt: each run of a Qwen entry
 * gets telemetry switched on into a file in a private directory, and the retry records appended
 * to it become ApiRetry events for the entry's status tracker (docs/agent-status.md).
 *
 * Least privilege: the env turns off prompt logging, and an outfile makes Qwen Code skip every
 * OTLP exporter (`useOtlp` is false with an outfile, `chunks/sdk-impl-BNYFWLP2.js:10079`), so
 * nothing leaves the machine. Env beats the user's settings for this run only.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { serviceKey } from '../base';
import type { DecorationKey, EntryDecoration, EntryDecorator, ProcessEntry } from '../sessions';
import type { StatusTracker } from '../status';
import { AGENT_STATUS } from './agentStatusDecoration';
import { presetOf } from './agentSpec';
import { TopLevelJsonSplitter, qwenApiRetryOf, type QwenApiRetry } from './qwenRetryRecords';

const noChange = () => ({ dispose: () => undefined });

/** Qwen Code 0.24.4's telemetry env (`resolveTelemetrySettings`, `chunks/chunk-DXXCNZW4.js:9082-9123`). */
function telemetryEnv(outfile: string): Record<string, string> {
  return {
    QWEN_TELEMETRY_ENABLED: 'true',
    QWEN_TELEMETRY_TARGET: 'local',
    QWEN_TELEMETRY_OUTFILE: outfile,
    QWEN_TELEMETRY_LOG_PROMPTS: 'false',
  };
}

class QwenRetryTelemetry implements EntryDecoration {
  readonly onDidChange = noChange;
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'switchboard-qwen-telemetry-'));
  private readonly outfile = path.join(this.dir, 'telemetry.jsonl');
  private readonly splitter = new TopLevelJsonSplitter();
  private readonly decoder = new StringDecoder('utf8');
  private readonly watcher: FSWatcher;
  private offset = 0;

  constructor(private readonly tracker: StatusTracker) {
    writeFileSync(this.outfile, '', { mode: 0o600 });
    this.watcher = watch(this.outfile, () => this.readAppended());
    this.watcher.on('error', () => undefined); // a lost watch loses the retry signal, not the run
  }

  describe() {
    return {};
  }

  envForRun(): Record<string, string> {
    return telemetryEnv(this.outfile);
  }

  private readAppended(): void {
    const text = this.readNewText();
    for (const json of this.splitter.push(text)) {
      const retry = qwenApiRetryOf(json);
      if (retry) this.tracker.applyHookEvent(apiRetryEvent(retry, Date.now()));
    }
  }

  private readNewText(): string {
    const fd = openSync(this.outfile, 'r');
    try {
      let text = '';
      const buffer = Buffer.alloc(64 * 1024);
      for (let n; (n = readSync(fd, buffer, 0, buffer.length, this.offset)) > 0; this.offset += n)
        text += this.decoder.write(buffer.subarray(0, n));
      return text;
    } finally {
      closeSync(fd);
    }
  }

  dispose(): void {
    this.watcher.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function apiRetryEvent(retry: QwenApiRetry, at: number) {
  const status = retry.statusCode === undefined ? '' : ` (status ${retry.statusCode})`;
  return {
    event: 'ApiRetry' as const,
    at,
    attempt: retry.attempt,
    message: `retrying a failed request${status}`,
    ...(retry.delayMs === undefined ? {} : { retryAt: (retry.loggedAt ?? at) + retry.delayMs }),
  };
}

export const QWEN_RETRY_TELEMETRY: DecorationKey<EntryDecoration> = serviceKey('qwen retry telemetry');

/** For the Qwen preset's own program; its tracker must be decorated before it. */
export const qwenRetryTelemetryDecorator: EntryDecorator = (entry: ProcessEntry, context) => {
  if (entry.kind !== 'agent') return undefined;
  const preset = presetOf(entry);
  const tracker = context.earlier(AGENT_STATUS)?.tracker;
  if (preset.id !== 'qwen' || preset.isGeneric || !tracker) return undefined;
  return new QwenRetryTelemetry(tracker);
};
