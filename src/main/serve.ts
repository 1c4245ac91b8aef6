/**
 * Headless entry: `npm run serve -- [--project DIR]… [--root DIR]… [--port N] [--data-dir DIR] [--trust]
 * [--remote DEST[:DIR]]… [--ssh-config FILE] [--pin-ui-secret] [--public-url https://HOST | --listen ADDR[:PORT]
 * --tls-cert F --tls-key F] [--device-port N] [--notify URL]…`.
 * The same workspace and core as the app, the same renderer, served to a browser over a
 * secret-protected WebSocket. Without --project the browser shows the welcome view. Prints one JSON
 * line on stdout once it is up.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { mkdirSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startWebServer, type RunningWebServer } from './core/bridge';
import { parsePublicAccess } from './core/devices';
import { startDeviceAccess, type DeviceAccess } from './deviceAccess';
import { generateToken, loadOrCreateSecret } from './core/security';
import { createHostWorkspace, type HostWorkspace } from './core/workspace';
import { connectRemoteHosts, groupRemoteSpecs, type RemoteHosts } from './core/remote';
import { describeError, installProcessGuard } from './processGuard';
import type { TrustRequest } from '../shared/trust';

/** A pinned UI secret (`--pin-ui-secret`), beside the endpoint file in the data directory. */
const UI_SECRET_FILE = 'ui-secret';
/** A pinned UI secret given by the environment (never an argument: argv is world-readable). */
const UI_SECRET_ENV = 'SWITCHBOARD_UI_SECRET';
const PINNED_SECRET = /^[\w-]{32,256}$/;

/**
 * A new UI secret each run, so a tab or link of an earlier run is worth nothing to this one (or to
 * whatever binds the port after it). Pinned, it stays: from the environment, or kept in the data dir.
 */
function uiSecretFor(dataDir: string, pin: boolean): string {
  const fromEnv = process.env[UI_SECRET_ENV];
  delete process.env[UI_SECRET_ENV]; // processes serve starts never see it
  if (fromEnv !== undefined) {
    if (!PINNED_SECRET.test(fromEnv)) throw new Error(`${UI_SECRET_ENV} must be 32–256 characters of A–Z, a–z, 0–9, "_" and "-"`);
    return fromEnv;
  }
  const file = join(dataDir, UI_SECRET_FILE);
  if (pin) return loadOrCreateSecret(file);
  rmSync(file, { force: true }); // an earlier run's pinned secret is not left lying around
  return generateToken();
}

const log = (line: string) => void process.stderr.write(`${line}\n`);

// Installed before anything can start a process tree, so no failure leaves one behind.
let host: HostWorkspace | undefined;
let web: RunningWebServer | undefined;
let deviceAccess: DeviceAccess | undefined;
let remotes: RemoteHosts | undefined;
const guard = installProcessGuard(process, {
  name: 'switchboard serve',
  log,
  async stop() {
    remotes?.dispose(); // only the connections: the hosts' servers and processes keep running
    await deviceAccess?.close();
    await web?.close();
    await host?.dispose(); // every process tree ends before we exit
  },
  killNow() {
    host?.killNow();
  },
});

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      /** A project to open at start (repeatable); none: the welcome view. */
      project: { type: 'string', multiple: true, default: [] },
      /** A folder the browser's path field may open projects in, besides home (repeatable). */
      root: { type: 'string', multiple: true, default: [] },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'static-dir': { type: 'string' },
      /** Trust the --project folders' switchboard.json as it is now: its entries may run (and auto-start). */
      trust: { type: 'boolean', default: false },
      /** A host (and optionally a folder on it) to connect to over the system's ssh (repeatable). */
      remote: { type: 'string', multiple: true, default: [] },
      /** The ssh config file for --remote hosts (`ssh -F`). */
      'ssh-config': { type: 'string' },
      /** Keep the UI secret across runs (in the data dir), so an open tab reconnects after a restart. */
      'pin-ui-secret': { type: 'boolean', default: false },
      /** Devices reach this UI through the person's HTTPS front at this origin (docs/devices.md). */
      'public-url': { type: 'string' },
      /** The loopback port that front forwards to (default: any free one, printed). */
      'device-port': { type: 'string' },
      /** Devices reach this UI over HTTPS on ADDR[:PORT] with this certificate and key. */
      listen: { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      /** A webhook (or `ntfy+https://SERVER/TOPIC`) told when an agent needs a person (repeatable). */
      notify: { type: 'string', multiple: true, default: [] },
    },
    strict: true,
  });
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0–65535, got ${values.port}`);
  const accessFlags = { publicUrl: values['public-url'], listen: values.listen, tlsCert: values['tls-cert'], tlsKey: values['tls-key'] };
  // Checked before anything starts: a wrong listener setting is one line, and nothing half-runs.
  parsePublicAccess(accessFlags);
  const devicePort = values['device-port'] === undefined ? 0 : Number(values['device-port']);
  if (!Number.isInteger(devicePort) || devicePort < 0 || devicePort > 65535)
    throw new Error(`--device-port must be 0–65535, got ${values['device-port']}`);
  const projectDirs = values.project.map((dir) => resolve(dir));
  const remoteSpecs = groupRemoteSpecs(values.remote);
  const dataDir = resolve(values['data-dir'] ?? join(homedir(), '.switchboard', 'serve'));
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Before anything starts a process: a pinned secret from the environment must not reach them.
  const uiSecret = uiSecretFor(dataDir, values['pin-ui-secret']);

  host = createHostWorkspace({ dataDir, roots: [homedir(), ...values.root.map((dir) => resolve(dir)), ...projectDirs], log });
  const { workspace } = host;
  for (const dir of projectDirs) await workspace.open(dir, { grantTrust: values.trust });
  if (projectDirs.length > 0) workspace.focus(workspace.list()[0].id);
  web = await startWebServer({
    workspace,
    staticDir: resolve(values['static-dir'] ?? join(__dirname, '../renderer')),
    uiSecret,
    port,
  });
  deviceAccess = await startDeviceAccess({
    workspace,
    dataDir,
    staticDir: resolve(values['static-dir'] ?? join(__dirname, '../renderer')),
    flags: { ...accessFlags, devicePort, notify: values.notify },
    log,
  });
  const projects = workspace.list().map(({ id, dir, handle }) => {
    for (const issue of handle.core.issues) log(`${dir}/switchboard.json: ${issue.path} ${issue.message}`);
    for (const request of handle.core.trustState().pending) {
      log(`not trusted (${request.change}): ${request.key}: ${describeRequest(request)} — trust it in the UI or restart with --trust`);
    }
    return { id, dir, url: handle.mcp.url, token: handle.mcp.token };
  });
  remotes = await connectRemoteHosts({
    specs: remoteSpecs,
    configFile: values['ssh-config'] && resolve(values['ssh-config']),
    appRoot: resolve(__dirname, '../..'),
    dataDir,
    trust: values.trust,
    log,
  });
  // The hosts' projects show in this server's own UI beside the local ones, tagged with their host.
  workspace.link(remotes);
  // Remote projects are listed like local ones, with their host and the tunnelled endpoint.
  const remoteProjects = remotes.projects().map(({ id, dir, host, url, token }) => ({ id, dir, host, url, token }));
  const hosts = remotes
    .states()
    .map(({ host, status, message, ui }) => ({ host, status, ...(message ? { message } : {}), ...(ui ? { ui } : {}) }));
  // `url`/`token`: the first project's endpoint, for clients that know one project.
  const first = projects[0] ? { url: projects[0].url, token: projects[0].token } : {};
  const line = {
    ui: web.uiUrl,
    ...first,
    pid: process.pid,
    projects: [...projects, ...remoteProjects],
    ...(hosts.length ? { hosts } : {}),
    // Where paired devices go, and where this server listens for them (the front's target with --public-url).
    ...(deviceAccess.reach ? { devices: deviceAccess.reach } : {}),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

main().catch((err: unknown) => {
  log(`switchboard serve: ${err instanceof Error ? err.message : describeError(err)}`);
  void guard.shutdown(1);
});

/** One line per waiting request: the command, the folder itself, or what the worktrees section does. */
function describeRequest(request: TrustRequest): string {
  if (request.kind === 'folder') return 'the folder itself (no git runs there until it is trusted)';
  if (!request.worktrees) return request.argv.join(' ');
  const { dir, copy, setup } = request.worktrees;
  return [dir && `dir ${dir}`, copy.length > 0 && `copy ${copy.join(' ')}`, setup.length > 0 && `setup ${setup.join('; ')}`]
    .filter(Boolean)
    .join(', ');
}
