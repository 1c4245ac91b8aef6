/**
 * Starts one of the session layer's worker threads by its entry name. Built, the entry is
 * `<name>.js` beside the main bundle (electron-vite builds it for the Electron main and `serve`
 * alike); from source (vitest, tsx) it is compiled by tsx.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startWorkerThread(entry: 'screenWorker' | 'ptyWorker', options: WorkerOptions = {}): Worker {
  if (!__filename.endsWith('.ts')) return new Worker(join(__dirname, `${entry}.js`), options);
  const tsx = createRequire(__filename).resolve('tsx/cjs');
  const source = join(__dirname, `${entry}.ts`);
  return new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(source)});`, { ...options, eval: true });
}
