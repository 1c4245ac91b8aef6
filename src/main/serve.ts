/**
 * Headless entry: `npm run serve -- --project DIR [--port N] [--data-dir DIR]`.
 * The same core as the app, the same renderer, served to a browser over a token-protected
 * WebSocket. Prints one JSON line on stdout once it is up.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createCore } from './core/app/createCore';
import { startWebServer } from './core/bridge/webServer';
import { readEndpointFile, removeEndpointFile, writeEndpointFile } from './core/mcp';
import { isProcessAlive as isPidAlive } from './core/sessions';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      project: { type: 'string', default: process.cwd() },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'static-dir': { type: 'string' },
    },
    strict: true,
  });
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0–65535, got ${values.port}`);
  const projectDir = resolve(values.project);
  const dataDir = resolve(values['data-dir'] ?? join(homedir(), '.switchboard', 'serve'));
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });

  // A previous instance that died (SIGKILL, power loss) left its discovery file: it names a dead endpoint.
  const stale = readEndpointFile(dataDir);
  if (stale && stale.pid !== process.pid && !isPidAlive(stale.pid)) removeEndpointFile(dataDir, stale.pid);
  const handle = await createCore({
    projectDir,
    dataDir,
    onContinuityProblem: (message) => process.stderr.write(`switchboard: ${message}\n`),
  });
  // One app token for the browser UI and for MCP clients started elsewhere (processes get their own).
  const token = handle.mcp.token;
  const web = await startWebServer({
    core: handle.core,
    staticDir: resolve(values['static-dir'] ?? join(__dirname, '../renderer')),
    token,
    port,
  });
  for (const issue of handle.core.issues) process.stderr.write(`switchboard.json: ${issue.path} ${issue.message}\n`);
  const endpoint = { url: handle.mcp.url, token, pid: process.pid };
  writeEndpointFile(dataDir, endpoint);
  process.stdout.write(`${JSON.stringify({ ui: web.uiUrl, ...endpoint })}\n`);

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    removeEndpointFile(dataDir);
    await web.close();
    await handle.dispose(); // every process tree ends before we exit
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGHUP', () => void stop(0));
}

main().catch((err) => {
  process.stderr.write(`switchboard serve: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
