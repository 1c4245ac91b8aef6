/**
 * The endpoint's gate (docs/mcp.md): bearer token, DNS-rebinding Host check, Origin check, body cap,
 * session ownership, and a generated corpus of malformed JSON-RPC requests — each answered with
 * an error, nothing spawned, the server still serving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOk, connectClient, startSwitchboard, type Switchboard } from './mcpHarness';
import { openSession, rawRequest } from './httpClient';
import { generateCorpus, runMcpCorpus } from './malformedCorpus';
import { MAX_BODY_BYTES } from '../../src/main/core/mcp';

let sb: Switchboard;
let port: string;
const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

beforeAll(async () => {
  sb = await startSwitchboard();
  port = new URL(sb.url).port;
});
afterAll(async () => {
  await sb?.close();
});

const auth = () => ({ Authorization: `Bearer ${sb.token}` });

describe('authentication', () => {
  it('answers 401 without a token, with a wrong one, or with another scheme — before anything else runs', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: 'Bearer wrong' },
      { Authorization: `Basic ${sb.token}` },
      { Authorization: `Bearer ${sb.token}x` },
      { Authorization: 'Bearer' },
    ]) {
      const res = await rawRequest(sb.url, { headers, body: initialize });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.messages[0]).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
      expect(res.headers['mcp-session-id']).toBeUndefined();
    }
    expect(sb.handle.mcp.service.endpoint.sessionCount).toBe(0);
  });

  it('accepts the app token and per-process tokens, never a revoked one', async () => {
    expect((await rawRequest(sb.url, { headers: auth(), body: initialize })).status).toBe(200);
    const p = await sb.handle.core.spawnProcess({ kind: 'command', shell: 'sleep 60' });
    const token = sb.handle.mcp.service.identity.tokenFor(p.id);
    const session = await openSession(sb.url, token);
    const sessions = sb.handle.mcp.service.endpoint.sessionCount;
    await sb.handle.core.closeProcess(p.id);
    expect((await rawRequest(sb.url, { headers: { Authorization: `Bearer ${token}` }, body: initialize })).status).toBe(401);
    expect((await rawRequest(sb.url, { headers: session, body: ping })).status).toBe(401);
    // The closed entry's sessions are gone with its token.
    await expect.poll(() => sb.handle.mcp.service.endpoint.sessionCount).toBe(sessions - 1);
  });

  it('a session belongs to the token that opened it', async () => {
    const session = await openSession(sb.url, sb.token);
    const p = await sb.handle.core.spawnProcess({ kind: 'command', shell: 'sleep 60' });
    const other = sb.handle.mcp.service.identity.tokenFor(p.id);
    const hijack = await rawRequest(sb.url, {
      headers: { ...session, Authorization: `Bearer ${other}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
    });
    expect(hijack.status).toBe(404);
    expect(hijack.messages[0]).toMatchObject({ error: { code: -32001, message: 'Session not found' }, id: 7 });
    expect((await rawRequest(sb.url, { headers: session, body: ping })).status).toBe(200);
    await sb.handle.core.closeProcess(p.id);
  });
});

describe('DNS rebinding and cross-origin', () => {
  it('403 for a Host that is not a loopback name with our port', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      `127.0.0.1:${Number(port) + 1}`,
      '127.0.0.1',
      `0.0.0.0:${port}`,
      `localhost.evil.example:${port}`,
      `[::2]:${port}`,
    ]) {
      const res = await rawRequest(sb.url, { headers: { ...auth(), Host: host }, body: initialize });
      expect(res.status, host).toBe(403);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      expect((await rawRequest(sb.url, { headers: { ...auth(), Host: host }, body: initialize })).status, host).toBe(200);
    }
  });

  it('403 for a present Origin that is not our loopback origin; no CORS headers ever', async () => {
    for (const origin of [
      'https://evil.example',
      'null',
      `http://evil.example:${port}`,
      `http://127.0.0.1:${Number(port) + 1}`,
      'file://',
      `ws://127.0.0.1:${port}`,
    ]) {
      const res = await rawRequest(sb.url, { headers: { ...auth(), Origin: origin }, body: initialize });
      expect(res.status, origin).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    const ok = await rawRequest(sb.url, { headers: { ...auth(), Origin: `http://127.0.0.1:${port}` }, body: initialize });
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await rawRequest(sb.url, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('HTTP surface', () => {
  it('413 for a body over the cap, declared or streamed; the server keeps serving', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(MAX_BODY_BYTES) } });
    const declared = await rawRequest(sb.url, { headers: auth(), body: big });
    expect(declared.status).toBe(413);
    expect(declared.messages[0]).toMatchObject({ error: { message: expect.stringMatching(/too large/) } });
    const streamed = await rawRequest(sb.url, { headers: auth(), body: big, chunked: true });
    expect(streamed.status).toBe(413);
    const huge = await rawRequest(sb.url, { headers: auth(), body: Buffer.alloc(MAX_BODY_BYTES * 12, 0x20), chunked: true }).catch(
      (err: Error) => ({ status: 0, error: err.message }),
    );
    // Far past the cap the connection is cut after the 413 (a client still writing may only see the reset).
    expect([413, 0]).toContain(huge.status);
    expect((await rawRequest(sb.url, { headers: auth(), body: initialize })).status).toBe(200);
  });

  it('404 for other paths, 405 for other methods, 400 for requests without a session', async () => {
    expect((await rawRequest(sb.url, { path: '/', headers: auth(), body: ping })).status).toBe(404);
    expect((await rawRequest(sb.url, { path: '/mcp/../etc', headers: auth(), body: ping })).status).toBe(404);
    const put = await rawRequest(sb.url, { method: 'PUT', headers: auth(), body: ping });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, POST, DELETE');
    expect((await rawRequest(sb.url, { headers: auth(), body: ping })).status).toBe(400);
    expect((await rawRequest(sb.url, { method: 'GET', headers: { ...auth(), Accept: 'text/event-stream' } })).status).toBe(400);
    expect((await rawRequest(sb.url, { method: 'DELETE', headers: auth() })).status).toBe(400);
  });

  it('DELETE ends the session and frees it', async () => {
    const before = sb.handle.mcp.service.endpoint.sessionCount;
    const session = await openSession(sb.url, sb.token);
    expect(sb.handle.mcp.service.endpoint.sessionCount).toBe(before + 1);
    expect((await rawRequest(sb.url, { method: 'DELETE', headers: session })).status).toBe(200);
    expect(sb.handle.mcp.service.endpoint.sessionCount).toBe(before);
    expect((await rawRequest(sb.url, { headers: session, body: ping })).status).toBe(404);
  });

  it('the hook receiver takes only process tokens', async () => {
    const hooks = sb.url.replace(/\/mcp$/, '/hooks');
    const body = JSON.stringify({ hook_event_name: 'Stop' });
    expect((await rawRequest(hooks, { body })).status).toBe(401);
    expect((await rawRequest(hooks, { headers: auth(), body })).status).toBe(400);
    const p = await sb.handle.core.spawnProcess({ kind: 'command', shell: 'sleep 60' });
    const asProcess = { Authorization: `Bearer ${sb.handle.mcp.service.identity.tokenFor(p.id)}` };
    expect((await rawRequest(hooks, { headers: asProcess, body })).status).toBe(200);
    expect((await rawRequest(hooks, { headers: asProcess, body: '{not json' })).status).toBe(400);
    await sb.handle.core.closeProcess(p.id);
  });

  it('the status-line receiver takes only process tokens and answers the line as plain text', async () => {
    const statusLine = sb.url.replace(/\/mcp$/, '/status-line');
    const body = JSON.stringify({ model: { display_name: 'Opus 5.5\x1b[2J' }, rate_limits: { five_hour: { used_percentage: 42 } } });
    expect((await rawRequest(statusLine, { body })).status).toBe(401);
    expect((await rawRequest(statusLine, { headers: auth(), body })).status).toBe(400);
    const p = await sb.handle.core.spawnProcess({ kind: 'command', shell: 'sleep 60' });
    const asProcess = { Authorization: `Bearer ${sb.handle.mcp.service.identity.tokenFor(p.id)}` };
    const answer = await rawRequest(statusLine, { headers: asProcess, body });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    // A command has no usage record to join: the line is the input's own, with no control character.
    expect(answer.body).toBe('Opus 5.52J · 5h 42 %');
    expect((await rawRequest(statusLine, { headers: asProcess, body: '{not json' })).status).toBe(400);
    await sb.handle.core.closeProcess(p.id);
  });
});

describe('malformed JSON-RPC corpus', () => {
  it('answers each of ≥1000 generated malformed requests with an error, spawns nothing, keeps serving', async () => {
    const corpus = generateCorpus();
    expect(corpus.length).toBeGreaterThanOrEqual(1000);
    const spawned: string[] = [];
    const sub = sb.handle.core.onDidAddEntry((entry) => spawned.push(entry.name));
    const processesBefore = sb.handle.core.listProcesses().length;
    const { failures, byCategory, session } = await runMcpCorpus(sb.url, sb.token, corpus);
    sub.dispose();
    expect(failures, failures.slice(0, 10).join('\n')).toEqual([]);
    expect(spawned).toEqual([]);
    expect(sb.handle.core.listProcesses()).toHaveLength(processesBefore);
    expect(Object.keys(byCategory).sort()).toEqual([
      'bad-json',
      'batches',
      'headers',
      'huge-strings',
      'missing-ids',
      'unknown-methods',
      'wrong-types',
    ]);
    // Still serving: the corpus's own session and a brand-new client both work.
    const list = await rawRequest(sb.url, {
      headers: session,
      body: JSON.stringify({ jsonrpc: '2.0', id: 'after', method: 'tools/list' }),
    });
    expect(list.status).toBe(200);
    expect((list.messages[0].result as { tools: unknown[] }).tools.length).toBeGreaterThan(20);
    const client = await connectClient(sb.url, sb.token);
    expect(await callOk(client, 'whoami')).toMatchObject({ role: 'external' });
    await client.close();
  }, 180_000);
});
