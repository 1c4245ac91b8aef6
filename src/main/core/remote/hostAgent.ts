/**
 * The small program we run on the host with its own `node` (`node -`, the source on stdin, so
 * nothing of it shows in the host's process list): it reports what is installed and running,
 * builds node-pty there when the installed one does not load, starts the server detached from the
 * SSH session (so it outlives the connection), and opens folders in a running server through its
 * loopback WebSocket. Plain CommonJS for any Node: it
 * must get as far as naming an old Node. Each run prints one JSON line, or one
 * `switchboard-host: <reason>` line on stderr and exits 3.
 */
import { MCP_ENDPOINT_FILE } from '../../../shared/mcp';
import { IDENTITY_LABEL, IDENTITY_PATH } from '../security';

/** The host user's folder for installs, the server's data dir and its state. */
export const HOST_BASE_DIR = '.switchboard-server';
/** A server that printed nothing for this long is reported as failed (a cold start under load takes seconds). */
const START_TIMEOUT_MS = 60_000;
/** Building node-pty on a slow host (a small VM, an emulated architecture) takes minutes. */
const BUILD_TIMEOUT_MS = 600_000;
export const HOST_FAILURE_PREFIX = 'switchboard-host: ';

export type HostAgentRequest =
  | { mode: 'probe'; version: string }
  | { mode: 'start'; version: string; port: number; dirs: string[]; trust: boolean }
  | { mode: 'open'; version: string; dirs: string[] }
  | { mode: 'listener'; version: string; port: number };

/** Where a host port is served by the host user's own process: the address a forward must target. */
export interface HostListener {
  address: string;
}

export interface HostProbe {
  node: string;
  /** The host's `process.platform` and `process.arch`: which native prebuilds are worth sending. */
  platform: string;
  arch: string;
  installed: boolean;
  running: { version: string; pid: number; port: number; ui: string } | null;
  /** Why the server the state file names is not counted as ours (another user's pid, no identity proof): one line. */
  notOurs?: string;
}

export interface HostServer {
  pid: number;
  port: number;
  ui: string;
}

export interface HostProject {
  id: string;
  dir: string;
  name: string;
  url: string;
  token: string;
}

/** The program for one request; the request is data inside it, it reads nothing else from us. */
export function hostAgentSource(request: HostAgentRequest): string {
  return `'use strict';
const REQUEST = ${JSON.stringify(request)};
const BASE = require('path').join(require('os').homedir(), ${JSON.stringify(HOST_BASE_DIR)});
const START_TIMEOUT_MS = ${START_TIMEOUT_MS};
const BUILD_TIMEOUT_MS = ${BUILD_TIMEOUT_MS};
const MCP_ENDPOINT_FILE = ${JSON.stringify(MCP_ENDPOINT_FILE)};
const FAILURE_PREFIX = ${JSON.stringify(HOST_FAILURE_PREFIX)};
const IDENTITY_LABEL = ${JSON.stringify(IDENTITY_LABEL)};
const IDENTITY_PATH = ${JSON.stringify(IDENTITY_PATH)};
${HOST_AGENT_BODY}`;
}

const HOST_AGENT_BODY = String.raw`
const fs = require('fs');
const path = require('path');
const os = require('os');
const cp = require('child_process');
const STATE_FILE = path.join(BASE, 'server.json');
const DATA_DIR = path.join(BASE, 'data');

function done(value) {
  process.stdout.write(JSON.stringify(value) + '\n');
  process.exit(0);
}
function fail(message) {
  process.stderr.write(FAILURE_PREFIX + message + '\n');
  process.exit(3);
}
// Why the live process 'pid' is not our server, or '' when it may be: only a process of this user
// counts (EPERM means another user's), and a recycled pid is some other program.
function notOurProcess(pid) {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return e.code === 'EPERM' ? 'pid ' + pid + ' belongs to another user' : 'pid ' + pid + ' is not running';
  }
  let owner;
  try {
    owner = fs.statSync('/proc/' + pid).uid;
  } catch (e) {
    return ''; // no /proc (macOS): a pid we may signal is this user's
  }
  if (owner !== process.getuid()) return 'pid ' + pid + ' belongs to uid ' + owner;
  try {
    return fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').includes(BASE) ? '' : 'pid ' + pid + ' is another program';
  } catch (e) {
    return 'pid ' + pid + ' cannot be read';
  }
}
function secretOf(state) {
  try {
    return new URL(state.ui).hash.replace(/^#token=/, '');
  } catch (e) {
    return '';
  }
}
// Whether whatever listens on the state's port proves it holds the state's UI secret (HMAC of a
// fresh nonce): nothing is sent to it before it has.
function provesIdentity(state) {
  const crypto = require('crypto');
  const secret = secretOf(state);
  if (!secret) return Promise.resolve(false);
  const nonce = crypto.randomBytes(32).toString('base64url');
  const key = crypto.createHmac('sha256', secret).update(IDENTITY_LABEL).digest();
  const expected = crypto.createHmac('sha256', key).update(nonce).digest('base64url');
  return new Promise((resolve) => {
    const req = require('http').get(
      { host: '127.0.0.1', port: state.port, path: IDENTITY_PATH + '?nonce=' + nonce, timeout: 10000 },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          if (body.length < 4096) body += chunk;
        });
        res.on('end', () => {
          try {
            resolve(res.statusCode === 200 && JSON.parse(body).proof === expected);
          } catch (e) {
            resolve(false);
          }
        });
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}
// The server the state file names, when it is ours and proves it; else undefined and why.
async function runningServer() {
  let state;
  try {
    state = JSON.parse(fs.readFileSync(STATE_FILE, 'utf8'));
  } catch (e) {
    return { state: undefined };
  }
  if (!state || typeof state.pid !== 'number' || typeof state.port !== 'number') return { state: undefined };
  const notOurs = notOurProcess(state.pid);
  if (notOurs) return { state: undefined, notOurs: notOurs.endsWith('not running') ? undefined : notOurs };
  if (!(await provesIdentity(state))) return { state: undefined, notOurs: 'what listens on port ' + state.port + ' does not prove it is the server pid ' + state.pid + ' started' };
  return { state };
}
function resolveDir(dir) {
  const home = os.homedir();
  const full = dir === '~' ? home : dir.startsWith('~/') ? path.join(home, dir.slice(2)) : path.resolve(home, dir);
  let real;
  try {
    real = fs.realpathSync(full);
  } catch (e) {
    fail('No such folder on the host: ' + full);
  }
  if (!fs.statSync(real).isDirectory()) fail('Not a folder on the host: ' + full);
  return real;
}
function installDir() {
  return path.join(BASE, REQUEST.version);
}

async function probe() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 20) fail('Node ' + process.version + ' on the host is too old: the server needs Node >= 20');
  const { state, notOurs } = await runningServer();
  done({
    notOurs,
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    installed: fs.existsSync(path.join(installDir(), '.installed')),
    running: state ? { version: state.version, pid: state.pid, port: state.port, ui: state.ui } : null,
  });
}

function start() {
  ensurePty();
  const dirs = REQUEST.dirs.map(resolveDir);
  fs.mkdirSync(DATA_DIR, { recursive: true, mode: 0o700 });
  const lineFile = path.join(DATA_DIR, 'serve-line.json');
  const logFile = path.join(DATA_DIR, 'serve.log');
  fs.rmSync(lineFile, { force: true });
  const out = fs.openSync(lineFile, 'w', 0o600);
  const log = fs.openSync(logFile, 'a', 0o600);
  const logStart = fs.fstatSync(log).size;
  const args = [path.join(installDir(), 'out', 'main', 'serve.js'), '--port', String(REQUEST.port), '--data-dir', DATA_DIR];
  for (const dir of dirs) args.push('--project', dir);
  if (REQUEST.trust) args.push('--trust');
  // Its own session, output to files: the SSH session ending (or the network) leaves it running.
  const child = cp.spawn(process.execPath, args, { detached: true, stdio: ['ignore', out, log], cwd: os.homedir() });
  let settled = false;
  const logTail = () => fs.readFileSync(logFile, 'utf8').slice(logStart).trim().split('\n').slice(-3).join(' | ');
  const check = () => {
    if (settled) return;
    const text = fs.readFileSync(lineFile, 'utf8');
    if (!text.includes('\n')) return;
    settled = true;
    const line = JSON.parse(text.split('\n')[0]);
    const state = { version: REQUEST.version, pid: child.pid, port: Number(new URL(line.ui).port), ui: line.ui };
    fs.writeFileSync(STATE_FILE + '.tmp', JSON.stringify(state), { mode: 0o600 });
    fs.renameSync(STATE_FILE + '.tmp', STATE_FILE);
    child.unref();
    done({ pid: state.pid, port: state.port, ui: state.ui });
  };
  fs.watch(lineFile, check);
  child.on('exit', (code) => {
    if (!settled) fail('the server exited (' + code + ') before it was up: ' + logTail());
  });
  setTimeout(() => fail('the server printed nothing within ' + START_TIMEOUT_MS / 1000 + ' s: ' + logTail()), START_TIMEOUT_MS).unref();
  check();
}

// node-pty travels as built on the laptop (or a prebuild for the host's platform). Whether it fits
// is found by loading it; when it does not, it is built here with node-gyp and the host's compiler.
function ptyLoadError(ptyDir) {
  const probe = 'try { require(' + JSON.stringify(ptyDir) + ') } catch (e) { process.stderr.write(String(e.message).split("\\n")[0]); process.exit(1) }';
  const loaded = cp.spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
  return loaded.status === 0 ? undefined : String(loaded.stderr).trim() || 'exit ' + loaded.status;
}
function onPath(names) {
  const dirs = String(process.env.PATH || '').split(path.delimiter).filter(Boolean);
  for (const name of names) {
    if (path.isAbsolute(name) && fs.existsSync(name)) return name;
    for (const dir of dirs) {
      const file = path.join(dir, name);
      try {
        fs.accessSync(file, fs.constants.X_OK);
        if (fs.statSync(file).isFile()) return file;
      } catch (e) {
        // not here
      }
    }
  }
  return undefined;
}
// npm's own node-gyp beside this node (official, nodesource, nvm and Homebrew layouts), npm's on PATH, or node-gyp on PATH.
function nodeGyp() {
  const beside = path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  if (fs.existsSync(beside)) return [process.execPath, beside];
  const npm = onPath(['npm']);
  const viaNpm = npm && path.join(path.dirname(fs.realpathSync(npm)), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  if (viaNpm && fs.existsSync(viaNpm)) return [process.execPath, viaNpm];
  const own = onPath(['node-gyp']);
  return own ? [own] : undefined;
}
// Node's headers installed beside it (node-gyp's --nodedir); none: node-gyp uses its cache or downloads them.
function nodeHeadersDir() {
  const prefixes = [path.resolve(process.execPath, '..', '..'), process.config.variables.node_prefix];
  return prefixes.find((prefix) => prefix && fs.existsSync(path.join(prefix, 'include', 'node', 'node_api.h')));
}
function missingBuildTools(gyp) {
  const missing = [];
  if (!onPath([process.env.PYTHON || 'python3', 'python3', 'python'])) missing.push('python3');
  if (!onPath([process.platform === 'linux' ? 'make' : 'gmake', 'make'])) missing.push('make');
  const cxx = process.env.CXX ? [process.env.CXX.split(' ')[0]] : process.platform === 'linux' ? ['g++'] : ['c++', 'clang++'];
  if (!onPath(cxx)) missing.push(cxx[0] + ' (a C++ compiler)');
  if (!gyp) missing.push('node-gyp (it comes with npm)');
  return missing;
}
function ensurePty() {
  const ptyDir = path.join(installDir(), 'node_modules', 'node-pty');
  const loadError = ptyLoadError(ptyDir);
  if (!loadError) return;
  const where = process.platform + '-' + process.arch + ', Node ' + process.version;
  const gyp = nodeGyp();
  const missing = missingBuildTools(gyp);
  if (missing.length > 0) {
    fail('node-pty has no build that loads on the host (' + where + ') and cannot be built there: missing ' + missing.join(', ') + ' (' + loadError + ')');
  }
  const headers = nodeHeadersDir();
  const args = gyp.slice(1).concat(['rebuild'], headers ? ['--nodedir=' + headers] : []);
  const built = cp.spawnSync(gyp[0], args, { cwd: ptyDir, encoding: 'utf8', timeout: BUILD_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
  fs.writeFileSync(path.join(installDir(), 'node-pty-build.log'), String(built.stdout) + String(built.stderr), { mode: 0o600 });
  const stillFails = built.status === 0 ? ptyLoadError(ptyDir) : undefined;
  if (built.status === 0 && !stillFails) return;
  const errors = String(built.stderr).split('\n').filter((line) => /error|ERR!/i.test(line) && !/not ok/.test(line));
  const noHeaders = headers ? '' : ' (no Node headers at ' + path.resolve(process.execPath, '..', '..', 'include', 'node') + ', and node-gyp could not fetch them?)';
  fail('building node-pty on the host (' + where + ') failed' + noHeaders + ': ' + (stillFails || (errors[0] || 'exit ' + built.status).trim()) + ' (log: ' + path.join(installDir(), 'node-pty-build.log') + ')');
}

async function open() {
  const { state, notOurs } = await runningServer();
  if (!state) fail(notOurs ? 'the server is not ours: ' + notOurs : 'no server is running on the host');
  const WebSocket = require(path.join(BASE, state.version, 'node_modules', 'ws'));
  const secret = secretOf(state);
  const dirs = REQUEST.dirs.map(resolveDir);
  const ws = new WebSocket('ws://127.0.0.1:' + state.port + '/ws', { headers: { Authorization: 'Bearer ' + secret } });
  const waiting = new Map();
  let seq = 0;
  const call = (cmd, args) =>
    new Promise((resolve, reject) => {
      seq += 1;
      waiting.set(seq, { resolve, reject });
      ws.send(JSON.stringify({ t: 'call', seq, cmd, args }));
    });
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    const message = JSON.parse(String(data));
    const pending = message.t === 'result' && waiting.get(message.seq);
    if (!pending) return;
    waiting.delete(message.seq);
    if (message.ok) pending.resolve(message.value);
    else pending.reject(new Error(message.error && message.error.message));
  });
  ws.on('error', (e) => fail('cannot reach the server on the host: ' + e.message));
  ws.on('open', async () => {
    try {
      const workspace = await call('getWorkspace', {});
      const open = new Map(workspace.projects.map((p) => [p.dir, p]));
      const wanted = [];
      for (const dir of dirs) wanted.push(open.get(dir) || (await call('openProject', { dir })));
      const listed = dirs.length > 0 ? wanted : workspace.projects;
      const projects = listed.map((p) => {
        const endpoint = JSON.parse(fs.readFileSync(path.join(DATA_DIR, 'projects', p.id, MCP_ENDPOINT_FILE), 'utf8'));
        return { id: p.id, dir: p.dir, name: p.name, url: endpoint.url, token: endpoint.token };
      });
      ws.close();
      done({ projects });
    } catch (e) {
      fail(e.message);
    }
  });
}

// The address the host user's own process listens on at REQUEST.port, read from the kernel's
// tables (/proc/net/tcp{,6}: LISTEN rows, their uid column): a server on ::1 only is reached there,
// and a port that only another user listens on is never forwarded to. No /proc (macOS): 127.0.0.1.
function hexToIPv4(hex) {
  return [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
}
function hexToIPv6(hex) {
  const bytes = [];
  for (let word = 0; word < 4; word++) for (let i = 3; i >= 0; i--) bytes.push(hex.slice(word * 8 + i * 2, word * 8 + i * 2 + 2));
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push(parseInt(bytes[i] + bytes[i + 1], 16).toString(16));
  const full = groups.join(':');
  if (full.startsWith('0:0:0:0:0:ffff:')) return hexToIPv4(hex.slice(24));
  return full === '0:0:0:0:0:0:0:1' ? '::1' : full === '0:0:0:0:0:0:0:0' ? '::' : full;
}
function listenersOn(port) {
  const rows = [];
  for (const [file, decode] of [['/proc/net/tcp', hexToIPv4], ['/proc/net/tcp6', hexToIPv6]]) {
    let text;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 8 || cols[3] !== '0A') continue;
      const [addr, hexPort] = cols[1].split(':');
      if (parseInt(hexPort, 16) === port) rows.push({ address: decode(addr), uid: Number(cols[7]) });
    }
  }
  return rows;
}
function listener() {
  if (!fs.existsSync('/proc/net/tcp')) done({ address: '127.0.0.1' });
  const rows = listenersOn(REQUEST.port);
  const ours = rows.filter((row) => row.uid === process.getuid()).map((row) => row.address);
  const preference = [['127.0.0.1', '127.0.0.1'], ['0.0.0.0', '127.0.0.1'], ['::1', '::1'], ['::', '::1']];
  for (const [bound, target] of preference) if (ours.includes(bound)) done({ address: target });
  if (ours.length > 0) done({ address: ours[0] });
  if (rows.length > 0) fail('port ' + REQUEST.port + ' on the host is served by another user (uid ' + rows[0].uid + '): not forwarded');
  fail('nothing listens on port ' + REQUEST.port + ' on the host');
}

Promise.resolve(({ probe, start, open, listener })[REQUEST.mode]()).catch((e) => fail(String((e && e.message) || e)));
`;
