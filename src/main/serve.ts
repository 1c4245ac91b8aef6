/**
 * Headless entry: `npm run serve -- --project DIR [--port N] [--data-dir DIR] [--trust]`.
 * The same core as the app, the same renderer, served to a browser over a secret-protected
 * WebSocket. Prints one JSON line on stdout once it is up.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createCore, type CoreHandle } from './core/composition';
import { startWebServer, type RunningWebServer } from './core/bridge';
import { removeEndpointFile, writeEndpointFile } from './core/mcp';
import { loadOrCreateSecret } from './core/security';
import { describeError, installProcessGuard } from './processGuard';

/** The browser UI's secret, beside the endpoint file in the data directory. */
const UI_SECRET_FILE = 'ui-secret';

const log = (line: string) => void process.stderr.write(`${line}\n`);

// Installed before anything can start a process tree, so no failure leaves one behind.
let handle: CoreHandle | undefined;
let web: RunningWebServer | undefined;
let dataDir: string | undefined;
const guard = installProcessGuard(process, {
  name: 'switchboard serve',
  log,
  async stop() {
    if (dataDir) removeEndpointFile(dataDir);
    await web?.close();
    await handle?.dispose(); // every process tree ends before we exit
  },
  killNow() {
    if (dataDir) removeEndpointFile(dataDir);
    handle?.killNow();
  },
});

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      project: { type: 'string', default: process.cwd() },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'static-dir': { type: 'string' },
      /** Trust the project's switchboard.json as it is now: its entries may run (and auto-start). */
      trust: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0–65535, got ${values.port}`);
  const projectDir = resolve(values.project);
  const dir = resolve(values['data-dir'] ?? join(homedir(), '.switchboard', 'serve'));
  mkdirSync(dir, { recursive: true, mode: 0o700 });

  handle = await createCore({ projectDir, dataDir: dir, grantTrust: values.trust });
  dataDir = dir;
  // The app token is for MCP clients started elsewhere; the browser gets its own secret.
  const token = handle.mcp.token;
  web = await startWebServer({
    core: handle.core,
    staticDir: resolve(values['static-dir'] ?? join(__dirname, '../renderer')),
    // Kept in the data dir: an open tab reconnects when serve restarts on the same port.
    uiSecret: loadOrCreateSecret(join(dir, UI_SECRET_FILE)),
    port,
  });
  for (const issue of handle.core.issues) log(`switchboard.json: ${issue.path} ${issue.message}`);
  for (const request of handle.core.trustState().pending) {
    log(`not trusted (${request.change}): ${request.key}: ${request.argv.join(' ')} — trust it in the UI or restart with --trust`);
  }
  const endpoint = { url: handle.mcp.url, token, pid: process.pid };
  writeEndpointFile(dir, endpoint);
  process.stdout.write(`${JSON.stringify({ ui: web.uiUrl, ...endpoint })}\n`);
}

main().catch((err: unknown) => {
  log(`switchboard serve: ${err instanceof Error ? err.message : describeError(err)}`);
  void guard.shutdown(1);
});
