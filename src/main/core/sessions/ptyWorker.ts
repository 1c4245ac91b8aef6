/**
 * Entry point of the PTY thread (see ptyHost.ts): owns the PTYs the main thread spawns through it
 * and reads them here. Built as its own file next to the main bundle (electron.vite.config.ts).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { PtyThread } from './ptyThread';
import { LIVE_PTYS, SPAWN_ANSWERED, type FromPtyThread, type PtySpawnReply, type ToPtyThread } from './ptyProtocol';

const port = parentPort;
if (!port) throw new Error('ptyWorker.ts runs as a worker thread only');
const { spawnPort, flags: sharedFlags } = workerData as { spawnPort: MessagePort; flags: SharedArrayBuffer };
const flags = new Int32Array(sharedFlags);

const thread = new PtyThread(
  (message: FromPtyThread, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer),
  (reply: PtySpawnReply) => {
    spawnPort.postMessage(reply);
    Atomics.store(flags, SPAWN_ANSWERED, 1);
    Atomics.notify(flags, SPAWN_ANSWERED);
  },
  (live: number) => {
    Atomics.store(flags, LIVE_PTYS, live);
    Atomics.notify(flags, LIVE_PTYS);
  },
);
port.on('message', (message: ToPtyThread) => thread.handle(message));
// This thread must outlive its PTYs (ptyHost.ts): an error in one message is logged, not fatal.
process.on('uncaughtException', (err) => console.error(`PTY thread: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));
