/**
 * Reading the recordings in test/fixtures/recordings/<cli>/: asciicast v2 (`.cast`) plus the ground-truth
 * sidecar (`.truth.json`, format agent-status-truth/1). See that folder's README.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentDetail, AgentPrimary } from '../../../../shared/status';

interface CastHeader {
  version: 2;
  width: number;
  height: number;
  duration?: number;
  title?: string;
}

interface CastEvent {
  /** Milliseconds since spawn. */
  ms: number;
  type: 'o' | 'i' | 'm' | 'r';
  data: string;
}

export interface TruthInterval {
  start_ms: number;
  end_ms: number;
  primary: AgentPrimary;
  detail: AgentDetail;
  cause: string;
}

export interface TruthFile {
  format: string;
  cast: string;
  agent: string;
  agent_version: string;
  cols: number;
  rows: number;
  duration_ms: number;
  tolerance_ms: number;
  startup_grace_ms: number;
  stuck_threshold_ms: number;
  intervals: TruthInterval[];
  tolerance_windows: Array<{ start_ms: number; end_ms: number }>;
  exit: { t_ms: number; exit_code: number; signal: number } | null;
  /** The machine's 1-minute load average while it was recorded (recordings made since the recorder measures it). */
  load_average_1m?: { min: number; max: number };
  /** The raw facts the intervals were derived from (recorder-specific). */
  events?: unknown[];
}

export interface Recording {
  name: string;
  header: CastHeader;
  events: CastEvent[];
  truth: TruthFile;
}

/**
 * The root of the recording sets: one folder per CLI (`claude/`, `codex/`, …) kept in the test tree
 * so replays run on any checkout, or SWITCHBOARD_RECORDINGS_DIR to replay others.
 */
export function recordingsRoot(): string {
  return process.env.SWITCHBOARD_RECORDINGS_DIR ?? path.resolve(__dirname, '../../../../../test/fixtures/recordings');
}

/** One CLI's recordings (the Claude Code set by default). */
export function recordingsDir(cli = 'claude'): string {
  return path.join(recordingsRoot(), cli);
}

export function listRecordings(dir = recordingsDir()): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.cast') && existsSync(path.join(dir, f.replace(/\.cast$/, '.truth.json'))))
    .map((f) => f.replace(/\.cast$/, ''))
    .sort();
}

export function loadRecording(name: string, dir = recordingsDir()): Recording {
  const castLines = readFileSync(path.join(dir, `${name}.cast`), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const header = JSON.parse(castLines[0]) as CastHeader;
  if (header.version !== 2) throw new Error(`${name}.cast: asciicast version ${String(header.version)}, expected 2`);
  const events = castLines.slice(1).map((line, i) => {
    const [t, type, data] = JSON.parse(line) as [number, CastEvent['type'], string];
    if (typeof t !== 'number' || typeof data !== 'string') throw new Error(`${name}.cast line ${i + 2}: not [t, type, data]`);
    return { ms: t * 1000, type, data };
  });
  const truth = JSON.parse(readFileSync(path.join(dir, `${name}.truth.json`), 'utf8')) as TruthFile;
  return { name, header, events, truth };
}

export function truthAt(truth: TruthFile, ms: number): TruthInterval | undefined {
  return truth.intervals.find((i) => ms >= i.start_ms && ms < i.end_ms);
}

export function isInToleranceWindow(truth: TruthFile, ms: number): boolean {
  return truth.tolerance_windows.some((w) => ms >= w.start_ms && ms < w.end_ms);
}
