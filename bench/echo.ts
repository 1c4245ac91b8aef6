/** Input-echo latency: type a marker into an entry running `cat` and time until it comes back. */
import type { ProcessEntry } from '../src/main/core/sessions';

export async function timeEcho(entry: ProcessEntry, marker: string): Promise<number> {
  const seen = new Promise<void>((resolve) => {
    const sub = entry.onDidWriteOutput((chunk) => {
      if (!chunk.text.includes(marker)) return;
      sub.dispose();
      resolve();
    });
  });
  const sent = performance.now();
  entry.write(marker);
  await seen;
  return performance.now() - sent;
}
