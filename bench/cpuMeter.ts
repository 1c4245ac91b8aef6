/**
 * CPU time spent by this process around a piece of work: a figure that survives a loaded machine,
 * where wall-clock throughput does not (other processes take the cores, not our work's cost).
 * `processMs` is every thread of the process (process.cpuUsage: the event loop, GC helpers, the
 * thread pool); `mainThreadMs` is the event loop's thread alone, read from the kernel's scheduler
 * statistics (nanoseconds), or `undefined` where the kernel does not expose them.
 */
import { readFileSync } from 'node:fs';

export interface CpuTime {
  processMs: number;
  mainThreadMs: number | undefined;
}

/** Time the main thread (its task id is the process id) has run on a CPU, in ns, from /proc. */
function mainThreadRunNs(): number | undefined {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return undefined;
  }
}

/** Starts measuring; the returned function gives the CPU time used since. */
export function startCpuMeter(): () => CpuTime {
  const usage = process.cpuUsage();
  const mainNs = mainThreadRunNs();
  return () => {
    const used = process.cpuUsage(usage);
    const mainNow = mainThreadRunNs();
    return {
      processMs: (used.user + used.system) / 1000,
      mainThreadMs: mainNs === undefined || mainNow === undefined ? undefined : (mainNow - mainNs) / 1e6,
    };
  };
}
