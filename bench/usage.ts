/**
 * The cost of reading usage. CPU per agent turn: a turn's transcript records (Claude Code 2.1.332's
 * own lines, test/fixtures/usage, around a 20 KB tool result as a real turn carries) appended to
 * the file with usage off, against the same plus the read Switchboard makes after the turn with
 * usage on (tail, parse, price, history; the atomic save coalesced, as the capability does: these
 * turns come back to back, so they share one), measured in this run. The receiver's CPU per
 * report of Claude Code's status line (Claude Code 2.1.332's own input, test/fixtures/usage; it
 * reports after every message) against the read per turn. Memory: the RSS and
 * heap a day's history of 30 agents takes (each with 8 sessions of 40 turns), and its file's size.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeTranscriptReader, SAVE_WINDOW_MS, statusLineReceiver, UsageHistory } from '../src/main/core/usage/testing/fileUsageReader';
import { startCpuMeter } from './cpuMeter';
import type { BenchRow } from './report';

const TURNS = 400;
const AGENTS = 30;
const SESSIONS_PER_AGENT = 8;
const TURNS_PER_SESSION = 40;
const STATUS_LINE_REPORTS = 5_000;

function turnLines(sample: string[], turn: number): string {
  const toolResult = JSON.stringify({
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', content: 'x'.repeat(20_000) }] },
  });
  const assistant = sample.map((line) => line.replace(/"msg_mock_(\d+)"/, `"msg_bench_${turn}_$1"`));
  return [toolResult, ...assistant].join('\n') + '\n';
}

function cpuPerTurn(dir: string, usage: boolean, sample: string[]): number {
  const file = join(dir, `${usage ? 'on' : 'off'}.jsonl`);
  writeFileSync(file, '');
  const reader = claudeTranscriptReader(file, new UsageHistory(join(dir, `${usage ? 'on' : 'off'}-history.json`)));
  const stop = startCpuMeter();
  for (let turn = 0; turn < TURNS; turn++) {
    appendFileSync(file, turnLines(sample, turn));
    if (usage) reader.refresh();
  }
  reader.flush(); // the save the turns coalesced into, as at shutdown
  return stop().processMs / TURNS;
}

/** One durable save of a small history (write, fsync, rename): what a turn paid before saves were coalesced. */
function cpuPerSave(dir: string): number {
  const history = new UsageHistory(join(dir, 'save.json'));
  history.observe({
    path: '/p/s.jsonl',
    input_tokens: 1,
    output_tokens: 1,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    cost_usd: 0,
    worktree: undefined,
  });
  const saves = 50;
  const stop = startCpuMeter();
  for (let i = 0; i < saves; i++) history.save();
  return stop().processMs / saves;
}

/** The receiver's CPU per status-line report, the same windows each time as between two resets. */
function cpuPerStatusLineReport(body: string): number {
  const receive = statusLineReceiver();
  for (let i = 0; i < 500; i++) receive(body); // warm-up
  const stop = startCpuMeter();
  for (let i = 0; i < STATUS_LINE_REPORTS; i++) receive(body);
  return stop().processMs / STATUS_LINE_REPORTS;
}

function dayOfHistory(dir: string): { rssMb: number; heapMb: number; fileKb: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage();
  const history = new UsageHistory(join(dir, 'day.json'));
  for (let a = 0; a < AGENTS; a++) {
    for (let s = 0; s < SESSIONS_PER_AGENT; s++) {
      const path = `/home/dev/.claude/projects/-home-dev-project/${a}-${s}-0b7f6a52-1c4e-4a55-9d0e-7f3b1a2c4d5e.jsonl`;
      for (let t = 1; t <= TURNS_PER_SESSION; t++) {
        history.observe({
          path,
          input_tokens: 2_000 * t,
          output_tokens: 300 * t,
          cache_read_tokens: 40_000 * t,
          cache_write_tokens: 1_500 * t,
          cost_usd: 0.02 * t,
          worktree: `wt-${a % 6}`,
        });
      }
    }
  }
  history.save();
  gc?.();
  const after = process.memoryUsage();
  return {
    rssMb: (after.rss - before.rss) / 1e6,
    heapMb: (after.heapUsed - before.heapUsed) / 1e6,
    fileKb: statSync(join(dir, 'day.json')).size / 1e3,
  };
}

export async function benchUsage(): Promise<BenchRow[]> {
  const sample = readFileSync(join(__dirname, '../test/fixtures/usage/claude-2.1.332-transcript.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean);
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-usage-'));
  try {
    cpuPerTurn(dir, true, sample); // warm-up: the JIT, the page cache
    const off = cpuPerTurn(dir, false, sample);
    const on = cpuPerTurn(dir, true, sample);
    const save = cpuPerSave(dir);
    const statusLine = cpuPerStatusLineReport(
      readFileSync(join(__dirname, '../test/fixtures/usage/claude-2.1.332-status-line.json'), 'utf8'),
    );
    const day = dayOfHistory(dir);
    return [
      { section: 'usage', name: 'CPU per agent turn, usage off (the turn written only)', value: off, unit: 'ms' },
      {
        section: 'usage',
        name: 'CPU per agent turn, usage on (written, then read and saved) (baseline: off)',
        value: on,
        unit: 'ms',
        baseline: off,
        ratio: on / off,
      },
      // The tail, parse and price; the history's durable save is coalesced (one per SAVE_WINDOW_MS at most).
      { section: 'usage', name: 'CPU the read adds per agent turn', value: on - off, unit: 'ms' },
      {
        section: 'usage',
        name: "the receiver's CPU per Claude Code status-line report (baseline: the read per agent turn)",
        value: statusLine,
        unit: 'ms',
        baseline: on - off,
        ratio: statusLine / (on - off),
      },
      {
        section: 'usage',
        name: `one history save (at most one per ${SAVE_WINDOW_MS / 1000} s, whatever the turns)`,
        value: save,
        unit: 'ms',
      },
      {
        section: 'usage',
        name: `a day's history, ${AGENTS} agents × ${SESSIONS_PER_AGENT} sessions × ${TURNS_PER_SESSION} turns: RSS`,
        value: day.rssMb,
        unit: 'MB',
      },
      { section: 'usage', name: `a day's history, ${AGENTS} agents: heap`, value: day.heapMb, unit: 'MB' },
      { section: 'usage', name: `a day's history, ${AGENTS} agents: file`, value: day.fileKb, unit: 'KB' },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
