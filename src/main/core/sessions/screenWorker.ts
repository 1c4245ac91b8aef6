/**
 * Entry point of a screen worker thread (see screenPool.ts): hosts the headless screens the main
 * thread sends it. Built as its own file next to the main bundle (electron.vite.config.ts).
 */
import { parentPort } from 'node:worker_threads';
import { ScreenHost } from './screenHost';
import type { FromWorker, ToWorker } from './screenProtocol';

const port = parentPort;
if (!port) throw new Error('screenWorker.ts runs as a worker thread only');
const host = new ScreenHost((message: FromWorker) => port.postMessage(message));
port.on('message', (message: ToWorker) => host.handle(message));
