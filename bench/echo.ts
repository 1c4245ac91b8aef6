/** Input-echo latency: type a marker into an entry running `cat` and time until it comes back. */
import type { ProcessEntry } from '../src/main/core/sessions';

/** An echo this late means it was lost: the bench says so instead of waiting forever. */
const ECHO_TIMEOUT_MS = 10_000;

export async function timeEcho(entry: ProcessEntry, marker: string): Promise<number> {
  const seen = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`No echo of ${JSON.stringify(marker)} from ${entry.name} within ${ECHO_TIMEOUT_MS} ms`));
    }, ECHO_TIMEOUT_MS);
    // The echo may come back in two reads under load: look at what arrived since the write, not each chunk alone.
    let arrived = '';
    const sub = entry.onDidWriteOutput((chunk) => {
      arrived = (arrived + chunk.text).slice(-4 * marker.length);
      if (!arrived.includes(marker)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
  const sent = performance.now();
  entry.write(marker);
  await seen;
  return performance.now() - sent;
}
