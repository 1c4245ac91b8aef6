/**
 * Browser sessions of serve's UI in Chromium: a cookie another loopback page tosses in does not
 * lock the user out (any valid session cookie counts), and a tab whose serve is gone stops at the
 * first server on its address that cannot prove it is the one the tab knew — a restarted serve
 * (new secret) or any program bound on the old port — without sending it a cookie.
 */
import { expect, test, type Page } from '@playwright/test';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { resolve } from 'node:path';
import { startServe, type ServeHandle } from './support/serve';
import { freePort } from '../test/support/ports';

const PROJECT = resolve(__dirname, 'fixtures/three-entries');
const connected = (page: Page) => page.locator('[data-testid="app"][data-connected="true"]');
const REPLACED = 'This Switchboard server restarted or is another program now';

let serve: ServeHandle | undefined;
const servers: Server[] = [];
test.afterEach(async () => {
  await serve?.stop();
  serve = undefined;
  for (const server of servers.splice(0)) await new Promise((r) => server.close(r));
});

/** A plain HTTP server on 127.0.0.1:`port` answering every request with `body`; it records what it was sent. */
async function listen(port: number, body: (path: string) => string): Promise<Array<{ path: string; headers: IncomingHttpHeaders }>> {
  const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'Content-Type': req.url?.startsWith('/identity') ? 'application/json' : 'text/html' });
    res.end(body(req.url ?? ''));
  });
  server.on('upgrade', (req, socket) => {
    seen.push({ path: `upgrade ${req.url}`, headers: req.headers });
    socket.destroy();
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  return seen;
}

test('a cookie of our name tossed in by a page on another loopback port does not lock the user out', async ({ page }) => {
  serve = await startServe(PROJECT);
  const port = Number(new URL(serve.ui).port);
  await page.goto(serve.ui);
  await expect(connected(page)).toBeVisible();

  // Cookies ignore ports: a page served from another loopback port sets sb_ui_<port> for every path the UI uses.
  const otherPort = await freePort();
  await listen(otherPort, () => '<!doctype html><title>dev server</title>');
  await page.goto(`http://127.0.0.1:${otherPort}/`);
  await page.evaluate((name) => {
    for (const path of ['/', '/ws', '/session']) document.cookie = `${name}=tossed; path=${path}`;
  }, `sb_ui_${port}`);
  const ours = (await page.context().cookies(`http://127.0.0.1:${port}/ws`)).filter((c) => c.name === `sb_ui_${port}`);
  expect(ours.map((c) => c.value)).toContain('tossed');
  expect(ours.length).toBeGreaterThanOrEqual(2); // the tossed ones sit beside the session cookie and go first for /ws

  // A reload asks /session for the server's key and opens the socket with every cookie of our name.
  await page.goto(`http://127.0.0.1:${port}/`);
  await expect(connected(page)).toBeVisible();
  await expect(page.locator('[data-testid="pane"]')).toHaveCount(3);
  await expect(page.getByTestId('connection-banner')).toHaveCount(0);
});

test('a stale tab stops at a restarted serve or another program on its port, and sends neither its cookie', async ({ page, browser }) => {
  const port = await freePort();
  serve = await startServe(PROJECT, { port });
  await page.goto(serve.ui);
  await expect(connected(page)).toBeVisible();
  const [cookie] = await page.context().cookies();
  expect(cookie.value).not.toBe(new URL(serve.ui).hash.slice('#token='.length)); // a session value, never the secret

  const sent: Array<{ url: string; cookie?: string }> = [];
  const sockets: string[] = [];
  page.on('request', (request) => void request.allHeaders().then((headers) => sent.push({ url: request.url(), cookie: headers.cookie })));
  page.on('websocket', (ws) => sockets.push(ws.url()));
  const firstUi = serve.ui;
  await serve.stop();
  const banner = page.getByTestId('connection-banner');
  await expect(banner).toContainText('Connection to Switchboard lost');

  // serve again on the same port: a new secret, so another server to this tab.
  serve = await startServe(PROJECT, { port });
  expect(serve.ui).not.toBe(firstUi);
  await expect(banner).toContainText(REPLACED, { timeout: 30_000 });
  await expect(banner).toHaveAttribute('data-status', 'lost');
  expect(sockets).toEqual([]);
  expect(sent.length).toBeGreaterThan(0);
  for (const request of sent) {
    expect(request.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/identity\\?nonce=[\\w-]{43}$`));
    expect(request.cookie).toBeUndefined();
  }
  // It stays stopped: no more checks once it said so.
  const settled = sent.length;
  await page.waitForTimeout(1_500); // a quiet period is what is asserted: the retry loop would have asked within 1.25 s
  expect(sent.length).toBe(settled);
  // The new link works in the same browser.
  await page.goto('about:blank');
  await page.goto(serve.ui);
  await expect(connected(page)).toBeVisible();

  // Now a program that is not serve takes the port while a tab of this run is open.
  const tab = await browser.newPage();
  await tab.goto(serve.ui);
  await expect(connected(tab)).toBeVisible();
  const [session] = await tab.context().cookies();
  await serve.stop();
  serve = undefined;
  await expect(tab.getByTestId('connection-banner')).toContainText('Connection to Switchboard lost');
  const seen = await listen(port, (path) => (path.startsWith('/identity') ? '{"proof":"made-up"}' : '<!doctype html>'));
  await expect(tab.getByTestId('connection-banner')).toContainText(REPLACED, { timeout: 30_000 });
  expect(seen.length).toBeGreaterThan(0);
  for (const request of seen) {
    expect(request.path).toMatch(/^\/identity\?nonce=/);
    expect(request.headers.cookie).toBeUndefined();
    expect(JSON.stringify(request.headers)).not.toContain(session.value);
  }
  await tab.close();
});
