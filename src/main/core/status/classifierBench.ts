/**
 * Benchmark helper (wired into `npm run bench` by bench/): classifier cost per screen update.
 * Every screen state of the recordings (one per output event) is captured first, then each is
 * classified `rounds` times; results are per classification in microseconds.
 */
import { performance } from 'node:perf_hooks';
import { ScreenModel } from '../sessions';
import { classify } from './classifier';
import { listRecordings, loadRecording, recordingsDir } from './replay/asciicast';
import { ruleSetFor } from './rules';

interface ClassifierBenchResult {
  /** Distinct screen states classified. */
  screens: number;
  classifications: number;
  p50Us: number;
  p99Us: number;
  meanUs: number;
}

export async function benchClassifier(options: { rounds?: number; dir?: string; agent?: string } = {}): Promise<ClassifierBenchResult> {
  const rounds = options.rounds ?? 20;
  const dir = options.dir ?? recordingsDir();
  const rules = ruleSetFor(options.agent ?? 'claude');
  const screens: Array<{ lines: string[]; title: string; cols: number }> = [];
  for (const name of listRecordings(dir)) {
    const rec = loadRecording(name, dir);
    const model = new ScreenModel({ cols: rec.header.width, rows: rec.header.height });
    let offset = 0;
    for (const e of rec.events) {
      if (e.type !== 'o') continue;
      offset += Buffer.byteLength(e.data);
      model.write(e.data, offset);
      await model.flush();
      screens.push({ lines: model.getVisibleLines(), title: model.title, cols: model.cols });
    }
    model.dispose();
  }
  if (screens.length === 0) throw new Error(`benchClassifier: no recordings in ${dir}`);
  const timesUs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const s of screens) {
      const t0 = performance.now();
      classify({ getVisibleLines: () => s.lines, cols: s.cols }, s.title, { rules, now: 0 });
      timesUs.push((performance.now() - t0) * 1000);
    }
  }
  timesUs.sort((a, b) => a - b);
  const at = (q: number) => timesUs[Math.min(timesUs.length - 1, Math.floor(q * timesUs.length))];
  return {
    screens: screens.length,
    classifications: timesUs.length,
    p50Us: at(0.5),
    p99Us: at(0.99),
    meanUs: timesUs.reduce((a, b) => a + b, 0) / timesUs.length,
  };
}
