/**
 * The sandbox's cost (issue 42), sandboxed against plain in one run, the two sides alternating:
 * a real Claude Code (against the mock Messages API) from start to the status tracker's idle
 * state; keystroke → echo in an interactive `bash`; and `npm install` of three small packages from
 * a local registry stand-in (packed here from node_modules), through the egress proxy against direct.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoreHandle } from '../src/main/core/composition';
import { placeholderKey } from '../src/main/core/sandbox';
import { makeTestRepo } from '../src/main/core/worktrees/testing/gitRepo';
import { createClaudeHarness, trustClaudeFolder, type ClaudeHarness } from '../test/fixtures/anthropic/claudeHarness';
import { startMockAnthropic } from '../test/fixtures/anthropic/mockAnthropic';
import { startRepoCore } from '../test/support/repoCore';
import { screenTail, waitForExit, waitForOutput } from '../test/support/wait';
import { timeEcho } from './echo';
import { percentile, type BenchRow } from './report';

const START_ROUNDS = 3;
const ECHO_ROUNDS = 4;
const ECHO_PER_ROUND = 50;
const NPM_ROUNDS = 4;
const NPM_PACKAGES = ['ms', 'picocolors', 'kleur'];
const AGENT_WAIT_MS = 90_000;
const NPM_WAIT_MS = 60_000;

type Side = 'plain' | 'sandboxed';
const SIDES: Side[] = ['plain', 'sandboxed'];
/** Alternate which side goes first, so neither always runs on a warmer machine. */
const order = (round: number): Side[] => (round % 2 === 0 ? SIDES : [...SIDES].reverse());

const progress = (what: string) => process.stderr.write(`bench: sandbox: ${what}\n`);

function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      if (check()) {
        clearInterval(timer);
        resolve();
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(timer);
        reject(new Error(`${what} not within ${timeoutMs} ms`));
      }
    }, 10);
  });
}

async function agentStart(handle: CoreHandle, harness: ClaudeHarness, side: Side, round: number): Promise<number> {
  const started = performance.now();
  const info = await handle.core.spawnAgent({
    preset: 'claude',
    name: `claude-${side}-${round}`,
    argv: harness.argv,
    // As root Claude Code takes --dangerously-skip-permissions only with IS_SANDBOX=1, which the
    // sandbox sets: the plain side gets it too, so both run the same CLI the same way.
    env: { ...harness.env, IS_SANDBOX: '1' },
    worktree: 'a',
    ...(side === 'sandboxed' ? { sandbox: true } : {}),
  });
  await until(() => handle.core.describe(info.id).agent?.primary === 'idle', AGENT_WAIT_MS, `${side} Claude Code idle`).catch(
    (err: Error) => {
      throw new Error(`${err.message}; screen:\n${screenTail(handle.core.entry(info.id), 30)}`);
    },
  );
  const ms = performance.now() - started;
  await handle.core.closeProcess(info.id);
  return ms;
}

async function echoRound(handle: CoreHandle, side: Side, round: number): Promise<number[]> {
  const info = await handle.core.spawnProcess({
    kind: 'terminal',
    argv: ['bash', '--norc', '--noprofile', '-i'],
    env: { PS1: 'bench$ ' },
    name: `echo-${side}-${round}`,
    ...(side === 'sandboxed' ? { sandbox: true } : {}),
  });
  const entry = handle.core.entry(info.id);
  await waitForOutput(entry, /bench\$ /, 15_000);
  const samples: number[] = [];
  for (let i = 0; i < ECHO_PER_ROUND; i++) {
    samples.push(await timeEcho(entry, `${side[0]}${round}k${i}q`));
    entry.write('\x15'); // Ctrl+U: an empty line again, so readline never redraws a long one
  }
  await handle.core.closeProcess(info.id);
  return samples;
}

interface Registry {
  server: Server;
  port: number;
}

/** A registry stand-in: each package's packument and the tarball `npm pack` made of its node_modules copy. */
async function startRegistry(dir: string): Promise<Registry> {
  const tarballs = new Map<string, Buffer>();
  const packuments = new Map<string, { version: string; file: string; tarball: Buffer }>();
  for (const name of NPM_PACKAGES) {
    const out = execFileSync('npm', ['pack', join(__dirname, '../node_modules', name), '--pack-destination', dir, '--json'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [{ filename, version }] = JSON.parse(out) as { filename: string; version: string }[];
    const tarball = readFileSync(join(dir, filename));
    tarballs.set(`/${name}/-/${name}-${version}.tgz`, tarball);
    packuments.set(`/${name}`, { version, file: `${name}-${version}.tgz`, tarball });
  }
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const tgz = tarballs.get(path);
    if (tgz) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tgz);
      return;
    }
    const p = packuments.get(path);
    if (!p) {
      res.writeHead(404).end('{}');
      return;
    }
    const name = path.slice(1);
    const port = (server.address() as AddressInfo).port;
    const body = {
      name,
      'dist-tags': { latest: p.version },
      versions: {
        [p.version]: {
          name,
          version: p.version,
          dist: {
            tarball: `http://127.0.0.1:${port}/${name}/-/${p.file}`,
            shasum: createHash('sha1').update(p.tarball).digest('hex'),
            integrity: `sha512-${createHash('sha512').update(p.tarball).digest('base64')}`,
          },
        },
      },
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, port: (server.address() as AddressInfo).port };
}

async function npmInstall(handle: CoreHandle, root: string, port: number, side: Side, round: number): Promise<number> {
  const folder = `npm-${side}-${round}`;
  const dir = join(root, folder);
  mkdirSync(dir, { recursive: true });
  const dependencies = Object.fromEntries(NPM_PACKAGES.map((name) => [name, '*']));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: folder, version: '1.0.0', private: true, dependencies }));
  const registry = `http://127.0.0.1:${port}`;
  // A fresh cache each time: every packument and tarball crosses the (proxied or direct) network.
  const command = `npm install --registry ${registry} --cache ./.npm-cache --no-audit --no-fund --no-package-lock --loglevel=error && echo npm-installed-ok`;
  const started = performance.now();
  const info = await handle.core.spawnProcess({
    kind: 'command',
    argv: ['sh', '-c', command],
    cwd: folder,
    name: folder,
    ...(side === 'sandboxed' ? { sandbox: { network: { allow: [`127.0.0.1:${port}`] } } } : {}),
  });
  const entry = handle.core.entry(info.id);
  await waitForExit(entry, NPM_WAIT_MS);
  const ms = performance.now() - started;
  const out = entry.ring.read(entry.runOffset).data.toString('utf8');
  if (!out.includes('npm-installed-ok')) throw new Error(`${side} npm install failed:\n${out}`);
  await handle.core.closeProcess(info.id);
  rmSync(dir, { recursive: true, force: true });
  return ms;
}

/** Start to exit of `sh -c true`: the fixed cost of making a sandbox (bwrap, the relays), for reading the npm figure. */
async function trueRun(handle: CoreHandle, side: Side, round: number): Promise<number> {
  const started = performance.now();
  const info = await handle.core.spawnProcess({
    kind: 'command',
    argv: ['sh', '-c', 'true'],
    name: `true-${side}-${round}`,
    ...(side === 'sandboxed' ? { sandbox: true } : {}),
  });
  await waitForExit(handle.core.entry(info.id), NPM_WAIT_MS);
  const ms = performance.now() - started;
  await handle.core.closeProcess(info.id);
  return ms;
}

function rows(figure: string, goal: string | undefined, limit: number | undefined, unit: string, s: Record<Side, number[]>): BenchRow[] {
  const out: BenchRow[] = [];
  for (const p of [50, 95] as const) {
    const value = percentile(s.sandboxed, p);
    const baseline = percentile(s.plain, p);
    const ratio = value / baseline;
    out.push({
      section: 'sandbox',
      name: `${figure} p${p}, sandboxed (baseline: plain, n=${s.sandboxed.length})`,
      value,
      unit,
      baseline,
      ratio,
      ...(goal && limit !== undefined && p === 50 ? { goal, met: ratio <= limit } : {}),
    });
  }
  return out;
}

export async function benchSandbox(): Promise<BenchRow[]> {
  const repo = makeTestRepo({ 'README.md': 'hello\n' });
  const work = mkdtempSync(join(tmpdir(), 'sb-bench-sandbox-'));
  const mock = await startMockAnthropic({ turns: [] });
  const registry = await startRegistry(work);
  progress(`registry stand-in on 127.0.0.1:${registry.port}`);
  let handle: CoreHandle | undefined;
  let harness: ClaudeHarness | undefined;
  try {
    handle = await startRepoCore(repo);
    const { worktree } = await handle.core.worktrees.createWorktree({ name: 'a' });
    harness = await createClaudeHarness({
      baseUrl: mock.url,
      args: ['--dangerously-skip-permissions'],
      settings: { skipDangerousModePermissionPrompt: true },
    });
    trustClaudeFolder(harness, worktree.path);
    // Inside, Claude Code sees the placeholder key: approve it as the live test does.
    const claudeJson = join(harness.configDir, '.claude.json');
    const json = JSON.parse(readFileSync(claudeJson, 'utf8')) as { customApiKeyResponses: { approved: string[] } };
    json.customApiKeyResponses.approved.push(placeholderKey(harness.apiKey).slice(-20));
    writeFileSync(claudeJson, JSON.stringify(json));

    progress('agent start → idle');
    const start: Record<Side, number[]> = { plain: [], sandboxed: [] };
    await agentStart(handle, harness, 'sandboxed', -1); // warm-up: the page cache, bwrap's probe
    for (let r = 0; r < START_ROUNDS; r++) for (const side of order(r)) start[side].push(await agentStart(handle, harness, side, r));

    progress('echo');
    const echo: Record<Side, number[]> = { plain: [], sandboxed: [] };
    for (let r = 0; r < ECHO_ROUNDS; r++) for (const side of order(r)) echo[side].push(...(await echoRound(handle, side, r)));

    progress('npm install');
    const npm: Record<Side, number[]> = { plain: [], sandboxed: [] };
    await npmInstall(handle, repo.root, registry.port, 'sandboxed', -1); // warm-up
    for (let r = 0; r < NPM_ROUNDS; r++)
      for (const side of order(r)) npm[side].push(await npmInstall(handle, repo.root, registry.port, side, r));

    const bare: Record<Side, number[]> = { plain: [], sandboxed: [] };
    for (let r = 0; r < NPM_ROUNDS; r++) for (const side of order(r)) bare[side].push(await trueRun(handle, side, r));

    const echoP99 = { sandboxed: percentile(echo.sandboxed, 99), plain: percentile(echo.plain, 99) };
    return [
      ...rows('Claude Code start → idle', '≤ 1.2×', 1.2, 'ms', start),
      ...rows('bash keystroke → echo', undefined, undefined, 'ms', echo),
      {
        section: 'sandbox',
        name: `bash keystroke → echo p99, sandboxed (baseline: plain, n=${echo.sandboxed.length})`,
        value: echoP99.sandboxed,
        unit: 'ms',
        baseline: echoP99.plain,
        ratio: echoP99.sandboxed / echoP99.plain,
      },
      ...rows(`npm install of ${NPM_PACKAGES.length} packages, proxied`, '≤ 1.3×', 1.3, 'ms', npm),
      ...rows('`sh -c true` start → exit', undefined, undefined, 'ms', bare),
    ];
  } finally {
    await handle?.dispose();
    await mock.close();
    await harness?.cleanup();
    registry.server.close();
    repo.cleanup();
    rmSync(work, { recursive: true, force: true });
  }
}
