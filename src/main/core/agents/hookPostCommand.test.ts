import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOKEN_ENV } from '../../../shared/mcp';
import { startCmdlineSniffer, type CmdlineSniffer } from '../../../../test/support/cmdlineSniffer';
import { HOOK_STDIN_BODY, hookPostCommand } from './hookPostCommand';

interface Received {
  authorization: string | undefined;
  body: string;
}

/**
 * The hook receiver holds each request open until the sniffer has seen curl's command line, so the
 * token would be caught there if curl had it in its argv.
 */
async function startHoldingReceiver(hold: () => Promise<unknown>): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      void hold().then(() => {
        received.push({ authorization: req.headers.authorization, body });
        res.end('{}');
      });
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`, received, server };
}

function runHook(shell: string, command: string, stdin: string, token: string): Promise<number | null> {
  const child = spawn(shell, ['-c', command], { env: { ...process.env, [MCP_TOKEN_ENV]: token }, stdio: ['pipe', 'ignore', 'inherit'] });
  child.stdin.end(stdin);
  return new Promise((resolve) => child.once('exit', resolve));
}

describe('the hook post command', () => {
  let sniffer: CmdlineSniffer;
  let held: Promise<string>;
  let receiver: Awaited<ReturnType<typeof startHoldingReceiver>>;
  const tokens: string[] = [];

  beforeAll(async () => {
    sniffer = await startCmdlineSniffer();
    receiver = await startHoldingReceiver(() => held);
  });
  afterAll(async () => {
    await new Promise((done) => receiver.server.close(done));
    await sniffer.stop();
  });

  for (const shell of ['sh', 'bash']) {
    it(`under ${shell}: posts the hook's stdin with the run's token, and the token is in no process's command line`, async () => {
      const token = randomBytes(32).toString('base64url');
      tokens.push(token);
      sniffer.watch({ secrets: [token], markers: [receiver.url] });
      held = sniffer.nextMarked(receiver.url, (cmdline) => cmdline.startsWith('curl '));
      const payload = JSON.stringify({ hook_event_name: 'AfterAgent', prompt_response: `it's "quoted" and\nmultiline` });

      expect(await runHook(shell, hookPostCommand(receiver.url, HOOK_STDIN_BODY), payload, token)).toBe(0);

      expect(receiver.received.at(-1)).toEqual({ authorization: `Bearer ${token}`, body: payload });
      expect(await held).toContain('-K /dev/fd/4');
      expect(await held).not.toContain(token);
    });
  }

  it('names no variable a CLI could expand in its settings before running the hook ($NAME, ${NAME})', () => {
    expect(hookPostCommand('http://127.0.0.1:1/hooks', HOOK_STDIN_BODY)).not.toMatch(/\$(\w|\{)/);
  });

  it('a literal body needs no stdin; an unreachable receiver fails nothing', async () => {
    const token = randomBytes(32).toString('base64url');
    sniffer.watch({ secrets: [token] });
    held = Promise.resolve('');
    expect(await runHook('sh', hookPostCommand(receiver.url, `--data '{"hook_event_name":"BeforeModel"}'`), '', token)).toBe(0);
    expect(receiver.received.at(-1)).toEqual({ authorization: `Bearer ${token}`, body: '{"hook_event_name":"BeforeModel"}' });
    expect(await runHook('sh', hookPostCommand('http://127.0.0.1:1/hooks', HOOK_STDIN_BODY), '{}', token)).toBe(0);
  });

  it('the sniffer saw no token in any command line', async () => {
    const report = await sniffer.stop();
    expect(report.marked).toBeGreaterThanOrEqual(2);
    expect(report.leaks).toEqual([]);
  });
});
