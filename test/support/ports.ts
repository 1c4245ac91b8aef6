/** Ports for tests and benchmarks that start real servers. */
import { createServer } from 'node:net';

/** A port nobody listens on right now (the kernel's choice, released at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  await new Promise((done) => server.close(done));
  return port;
}
