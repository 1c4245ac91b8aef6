/**
 * Entry point of the PTY thread (see ptyHost.ts): owns the PTYs the main thread spawns through it
 * and reads them here. Built as its own file next to the main bundle (electron.vite.config.ts).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { PtyThread } from './ptyThread';
import type { FromPtyThread, PtySpawnReply, ToPtyThread } from './ptyProtocol';

const port = parentPort;
if (!port) throw new Error('ptyWorker.ts runs as a worker thread only');
const { spawnPort, spawnSignal } = workerData as { spawnPort: MessagePort; spawnSignal: SharedArrayBuffer };
const signal = new Int32Array(spawnSignal);

const thread = new PtyThread(
  (message: FromPtyThread, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer),
  (reply: PtySpawnReply) => {
    spawnPort.postMessage(reply);
    Atomics.store(signal, 0, 1);
    Atomics.notify(signal, 0);
  },
);
port.on('message', (message: ToPtyThread) => thread.handle(message));
