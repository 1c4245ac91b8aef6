import { startServe, exitOf } from './serveProcess';
import { sendCase } from './webCorpus';
void (async () => {
  const s = await startServe();
  const port = Number(new URL(s.printed.ui).port);
  const a = await sendCase(port, { category: 'bad-paths', description: '//', chunks: [Buffer.from(`GET // HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`)], expected: [400] });
  console.log('answer', a.status);
  const exit = await Promise.race([exitOf(s.child), new Promise((r) => setTimeout(() => r('alive'), 2000))]);
  console.log('serve:', exit, s.stderr().slice(0, 300));
  s.kill();
})();
