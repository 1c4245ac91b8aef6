import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_SIGHTINGS, PortMonitor } from './portMonitor';

afterEach(() => vi.useRealTimers());

const line = (text: string, offset = 0, isPartial = false) => ({ text, offset, isPartial });

describe('PortMonitor', () => {
  it('records new sightings once, with their offset; a new run starts empty', () => {
    const monitor = new PortMonitor({ listPorts: async () => [] });
    expect(monitor.recordLine(line('  ➜  Local:   http://localhost:5173/', 120)).map((s) => [s.url, s.offset])).toEqual([
      ['http://localhost:5173/', 120],
    ]);
    expect(monitor.recordLine(line('  ➜  Local:   http://localhost:5173/', 400))).toEqual([]);
    expect(monitor.info.sightings).toHaveLength(1);
    monitor.beginRun(undefined);
    expect(monitor.info).toEqual({ sightings: [], listening: [] });
    monitor.dispose();
  });

  it('ignores lines still being written ("http://localhost:51" may be half of 5173)', () => {
    const monitor = new PortMonitor({ listPorts: async () => [] });
    expect(monitor.recordLine(line('Local: http://localhost:51', 0, true))).toEqual([]);
    monitor.dispose();
  });

  it(`keeps at most ${MAX_SIGHTINGS} sightings`, () => {
    const monitor = new PortMonitor({ listPorts: async () => [] });
    for (let i = 0; i < MAX_SIGHTINGS + 5; i++) monitor.recordLine(line(`GET http://localhost:${3000 + i}/`));
    expect(monitor.info.sightings).toHaveLength(MAX_SIGHTINGS);
    monitor.dispose();
  });

  it('scans the tree while a run lives, reports every scan, and stops at the exit', async () => {
    vi.useFakeTimers();
    let ports = [3000];
    const scannedPids: number[] = [];
    const monitor = new PortMonitor({ scanIntervalMs: 100, listPorts: async (pid) => (scannedPids.push(pid), ports) });
    const scans: number[][] = [];
    const changes: number[][] = [];
    monitor.onDidScan((p) => scans.push([...p]));
    monitor.onDidChange((info) => changes.push(info.listening));
    monitor.beginRun(4242);
    await vi.advanceTimersByTimeAsync(250);
    expect(scans).toEqual([[3000], [3000], [3000]]); // unchanged scans are still reported
    expect(changes).toEqual([[3000]]); // but only a change is a change
    ports = [3000, 24678];
    await vi.advanceTimersByTimeAsync(100);
    expect(monitor.info.listening).toEqual([3000, 24678]);
    monitor.endRun();
    expect(monitor.info.listening).toEqual([]);
    const count = scannedPids.length;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(scannedPids).toHaveLength(count);
    expect(new Set(scannedPids)).toEqual(new Set([4242]));
    monitor.dispose();
  });
});
