/**
 * One real `serve` process takes the web server's malformed-request corpus and the MCP
 * endpoint's malformed JSON-RPC corpus at the same time: every request gets its expected answer
 * from our own handlers, and afterwards serve is alive and still serves the UI, its WebSocket and MCP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { callOk, connectClient } from '../mcp/mcpHarness';
import { generateCorpus, runMcpCorpus } from '../mcp/malformedCorpus';
import { rawRequest } from '../mcp/httpClient';
import { generateWebCorpus, sendCase, type WebCorpusCase } from './webCorpus';
import { startServe, type ServeProcess } from './serveProcess';
import { uiSession } from './uiSession';

const INDEX = '<!doctype html><title>corpus</title>';
const APP = 'console.log("corpus")';
let serve: ServeProcess;

beforeAll(async () => {
  serve = await startServe({ staticFiles: { 'index.html': INDEX, 'app.js': APP } });
});
afterAll(() => serve?.kill());

/** True when the answer is the case's expected status, written by our handler (security headers), serving only our files. */
function judge(c: WebCorpusCase, answer: { status: number; headers: string; body: Buffer }): string | undefined {
  if (!c.expected.includes(answer.status)) return `status ${answer.status}, expected ${c.expected.join('|')}`;
  if (answer.status === 0) return undefined;
  if (!/x-content-type-options: nosniff/i.test(answer.headers))
    return `answer without our security headers: ${answer.headers.split('\r\n')[0]}`;
  if (answer.status === 200 && answer.body.length > 0 && ![INDEX, APP].includes(answer.body.toString()))
    return `served something that is not ours: ${answer.body.subarray(0, 80).toString()}`;
  return undefined;
}

async function runWebCorpus(cases: WebCorpusCase[], port: number): Promise<{ failures: string[]; byCategory: Record<string, number> }> {
  const failures: string[] = [];
  const byCategory: Record<string, number> = {};
  for (const [index, c] of cases.entries()) {
    byCategory[c.category] = (byCategory[c.category] ?? 0) + 1;
    const problem = await sendCase(port, c).then(
      (answer) => judge(c, answer),
      (err: Error) => err.message,
    );
    if (problem) failures.push(`#${index} ${c.category} ${c.description}: ${problem}`);
  }
  return { failures, byCategory };
}

describe('serve under malformed requests', () => {
  it('answers ≥1000 malformed web requests and ≥1000 malformed MCP requests, sent together, and keeps serving', async () => {
    const port = Number(new URL(serve.printed.ui).port);
    const { cookie } = await uiSession(serve.printed.ui);
    const webCases = generateWebCorpus({ port, auth: { Cookie: cookie }, files: ['/index.html', '/app.js'] });
    expect(webCases.length).toBeGreaterThanOrEqual(1000);
    const mcpCases = generateCorpus();
    expect(mcpCases.length).toBeGreaterThanOrEqual(1000);

    const [web, mcp] = await Promise.all([runWebCorpus(webCases, port), runMcpCorpus(serve.printed.url, serve.printed.token, mcpCases)]);

    expect(web.failures, web.failures.slice(0, 15).join('\n')).toEqual([]);
    expect(Object.keys(web.byCategory).sort()).toEqual(['bad-paths', 'encodings', 'headers', 'oversized', 'slow-bodies', 'upgrades']);
    expect(mcp.failures, mcp.failures.slice(0, 10).join('\n')).toEqual([]);
    expect(serve.child.exitCode).toBeNull();
    expect(serve.child.signalCode).toBeNull();

    // Still serving: the shell, the control WebSocket, the corpus's MCP session and a new MCP client.
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(INDEX);
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { Cookie: cookie } });
    const snapshot = await new Promise<{ ok: boolean }>((resolve, reject) => {
      socket.once('open', () => socket.send(JSON.stringify({ t: 'call', seq: 1, cmd: 'getSnapshot', args: {} })));
      socket.on('message', (raw, isBinary) => {
        const message = isBinary ? undefined : (JSON.parse(raw.toString()) as { t: string; seq?: number; ok: boolean });
        if (message?.t === 'result' && message.seq === 1) resolve(message);
      });
      socket.once('error', reject);
    });
    socket.close();
    expect(snapshot.ok).toBe(true);
    const list = await rawRequest(serve.printed.url, {
      headers: mcp.session,
      body: JSON.stringify({ jsonrpc: '2.0', id: 'after', method: 'tools/list' }),
    });
    expect(list.status).toBe(200);
    const client = await connectClient(serve.printed.url, serve.printed.token);
    expect(await callOk(client, 'list_processes')).toMatchObject({ processes: [] });
    await client.close();
    expect(serve.child.exitCode).toBeNull();
  }, 300_000);
});
