/**
 * Sandboxed entries against the real things: bubblewrap, a real Claude Code (against the mock
 * Messages API, `--dangerously-skip-permissions`) in a worktree, the real MCP endpoint and hook
 * receiver, HTTP servers on the host's loopback (one allowed, one not) and a real shell in a PTY.
 * One core and one agent are shared by the file; each test checks its part of what they did.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreHandle } from '../../src/main/core/composition';
import { allowSandboxTarget, bwrapArgs, innerScript, placeholderKey } from '../../src/main/core/sandbox';
import { makeTestRepo, type TestRepo } from '../../src/main/core/worktrees/testing/gitRepo';
import { createClaudeHarness, trustClaudeFolder, type ClaudeHarness } from '../fixtures/anthropic/claudeHarness';
import { startMockAnthropic, type MockAnthropic } from '../fixtures/anthropic/mockAnthropic';
import { httpGet, startRepoCore } from '../support/repoCore';
import { screenTail, waitForOutput, waitForScreen } from '../support/wait';
import { processTree } from '../agents/ptyScreen';

const AGENT_WAIT_MS = 90_000;
const TEST_TIMEOUT_MS = 240_000;
const MARKER = 'ssh-marker-outside-the-sandbox';
const VITE_FIXTURE = resolve(__dirname, '../fixtures/servers/vite-app');
const VITE_BIN = resolve(__dirname, '../../node_modules/.bin/vite');

let repo: TestRepo;
let handle: CoreHandle;
let mock: MockAnthropic;
let harness: ClaudeHarness;
let allowedServer: Server;
let refusedServer: Server;
let agentId: string;
let worktreePath: string;

function listen(text: string): Promise<Server> {
  return new Promise((done) => {
    const server = createServer((_req, res) => res.end(text)).listen(0, '127.0.0.1', () => done(server));
  });
}
const portOf = (server: Server) => (server.address() as AddressInfo).port;

async function freePort(): Promise<number> {
  const server = await listen('');
  const port = portOf(server);
  await new Promise((done) => server.close(done));
  return port;
}

/** Host pids whose environment says they belong to entry `id` (the sandboxed ones included: /proc shows every pid namespace). */
function pidsOfEntry(id: string): number[] {
  const needle = `SWITCHBOARD_PROCESS_ID=${id}\0`;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(needle);
      } catch {
        return false;
      }
    })
    .map(Number);
}

beforeAll(async () => {
  repo = makeTestRepo({ 'README.md': 'hello\n' });
  allowedServer = await listen('allowed server answered');
  refusedServer = await listen('refused server answered');
  handle = await startRepoCore(repo);
  const created = await handle.core.worktrees.createWorktree({ name: 'a' });
  worktreePath = created.worktree.path;
  mock = await startMockAnthropic({ turns: [] });
  harness = await createClaudeHarness({
    baseUrl: mock.url,
    args: ['--dangerously-skip-permissions'],
    settings: { skipDangerousModePermissionPrompt: true },
  });
  trustClaudeFolder(harness, worktreePath);
  // Claude Code remembers a key it may use by its last 20 characters: inside it sees the placeholder.
  const claudeJson = join(harness.configDir, '.claude.json');
  const json = JSON.parse(readFileSync(claudeJson, 'utf8')) as { customApiKeyResponses: { approved: string[] } };
  json.customApiKeyResponses.approved.push(placeholderKey(harness.apiKey).slice(-20));
  writeFileSync(claudeJson, JSON.stringify(json));
  mkdirSync(join(harness.home, '.ssh'), { recursive: true });
  writeFileSync(join(harness.home, '.ssh', 'marker'), MARKER);
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  await handle?.dispose();
  await mock?.close();
  await harness?.cleanup();
  allowedServer?.close();
  refusedServer?.close();
  repo?.cleanup();
});

/** The agent's next Bash call runs `command`; resolves with what the tool printed. */
async function bash(command: string): Promise<string> {
  return toolCall('Bash', { command, description: 'sandbox check' });
}

async function toolCall(name: string, input: Record<string, unknown>): Promise<string> {
  const mark = mock.mark();
  mock.enqueue([{ toolUse: { name, input } }], [{ text: 'Done.' }]);
  await handle.core.sendUserTurn(agentId, `Run the ${name} step.`);
  const context = () => screenTail(handle.core.entry(agentId), 30);
  const result = await mock.waitFor('tool_result', undefined, { after: mark, timeoutMs: AGENT_WAIT_MS, context });
  await mock.waitFor('stream_end', (e) => e.kind === 'main', { after: mark, timeoutMs: AGENT_WAIT_MS, context });
  await waitForAgentIdle();
  return result.content;
}

function waitForAgentIdle(): Promise<string[]> {
  return waitForScreen(handle.core.entry(agentId), () => handle.core.describe(agentId).agent?.primary === 'idle', AGENT_WAIT_MS);
}

describe('a real Claude Code in a sandbox (bubblewrap, as root)', () => {
  it(
    'starts sandboxed in its worktree and reaches its prompt; its status comes through its hooks',
    async () => {
      const info = await handle.core.spawnAgent({
        preset: 'claude',
        name: 'claude-sandboxed',
        argv: harness.argv,
        env: harness.env,
        worktree: 'a',
        sandbox: { network: { allow: [`127.0.0.1:${portOf(allowedServer)}`] } },
      });
      agentId = info.id;
      expect(info.sandbox).toMatchObject({ refusedCount: 0 });
      expect(info.sandbox?.writable).toContain(worktreePath);
      await waitForAgentIdle();
      await bash('echo warm-up');
      expect(handle.core.describe(agentId).agent?.lastHookAt, 'a hook reached the receiver').toBeGreaterThan(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'writes a file that lands in its worktree',
    async () => {
      expect(await bash('echo landed > sandbox-wrote-this.txt && echo ok')).toContain('ok');
      expect(readFileSync(join(worktreePath, 'sandbox-wrote-this.txt'), 'utf8')).toBe('landed\n');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'cannot see or write ~/.ssh',
    async () => {
      const out = await bash('cat ~/.ssh/marker; mkdir -p ~/.ssh && echo planted > ~/.ssh/planted; ls -A ~/.ssh');
      expect(out).not.toContain(MARKER);
      expect(existsSync(join(harness.home, '.ssh', 'planted')), 'nothing lands in the real ~/.ssh').toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'is refused a host server that is not allowed: counted on the entry, with host and port',
    async () => {
      const port = portOf(refusedServer);
      const out = await bash(`curl -sS http://127.0.0.1:${port}/; echo; curl -sS https://127.0.0.1:${port}/ 2>&1; echo`);
      expect(out).not.toContain('refused server answered');
      expect(out).toContain('not on this entry');
      const sandbox = handle.core.describe(agentId).sandbox!;
      expect(sandbox.refusedCount).toBe(2);
      expect(sandbox.refused.map((r) => `${r.host}:${r.port}`)).toEqual([`127.0.0.1:${port}`, `127.0.0.1:${port}`]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'reaches the allowed server through the proxy',
    async () => {
      expect(await bash(`curl -sS http://127.0.0.1:${portOf(allowedServer)}/`)).toContain('allowed server answered');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'reaches a refused server once a person allows it for this agent',
    async () => {
      const target = `127.0.0.1:${portOf(refusedServer)}`;
      allowSandboxTarget(handle.core, agentId, target);
      expect(handle.core.describe(agentId).sandbox?.reach).toContain(target);
      expect(await bash(`curl -sS http://${target}/`)).toContain('refused server answered');
      expect(handle.core.describe(agentId).sandbox?.refusedCount).toBe(2);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'calls MCP whoami and is told its own entry',
    async () => {
      const out = await toolCall('mcp__switchboard__whoami', {});
      expect(out).toContain(agentId);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'sees a placeholder key in its environment, never the real one',
    async () => {
      const out = await bash('printenv ANTHROPIC_API_KEY; printenv ANTHROPIC_BASE_URL');
      expect(out).not.toContain(harness.apiKey);
      expect(out).toContain(placeholderKey(harness.apiKey));
      expect(out).not.toContain(mock.url);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'spawns a process over MCP without asking for a sandbox: it runs in the agent’s sandbox',
    async () => {
      const out = await toolCall('mcp__switchboard__spawn_process', {
        kind: 'command',
        argv: ['sleep', '300'],
        name: 'child-of-sandboxed',
      });
      const child = handle.core.listProcesses().find((p) => p.name === 'child-of-sandboxed');
      expect(child, out).toBeDefined();
      expect(handle.core.describe(child!.id).access?.spawnedBy).toBe(agentId);
      expect(handle.core.describe(child!.id).sandbox?.reach).toContain(`127.0.0.1:${portOf(allowedServer)}`);
      const sleeper = pidsOfEntry(child!.id).find((pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'sleep');
      expect(sleeper, 'the child runs').toBeDefined();
      expect(readlinkSync(`/proc/${sleeper}/ns/net`), 'in a network namespace of its own').not.toBe(readlinkSync('/proc/self/ns/net'));
      await handle.core.closeProcess(child!.id);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'leaves no process behind once closed',
    async () => {
      const entry = handle.core.entry(agentId);
      expect(pidsOfEntry(agentId).length, 'the tree runs on the host').toBeGreaterThan(1);
      await handle.core.closeProcess(agentId);
      expect(entry.isDisposed).toBe(true);
      expect(pidsOfEntry(agentId)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('a sandboxed shell', () => {
  it(
    'keeps job control: Ctrl+C stops the foreground job, not the shell',
    async () => {
      const info = await handle.core.spawnProcess({
        kind: 'terminal',
        argv: ['bash', '--norc', '--noprofile', '-i'],
        env: { PS1: 'sandboxed$ ' },
        sandbox: true,
      });
      const entry = handle.core.entry(info.id);
      await waitForOutput(entry, /sandboxed\$ /, 15_000);
      entry.write('sleep 30; echo slept-$((40+2))\r');
      // Ctrl+C goes to the terminal's foreground group: type it once sleep is that group, not when
      // the line is merely echoed (bash may not have made the job foreground yet).
      await waitForForegroundJob(handle.core.describe(info.id).pid!, 'sleep');
      entry.write('\x03');
      entry.write('echo alive-$((1+1))\r');
      await waitForOutput(entry, /alive-2/, 15_000);
      expect(screenTail(entry, 20)).not.toContain('slept-42');
      expect(handle.core.describe(info.id).state).toBe('running');
      // Its own pid namespace: the test runner's process is neither visible nor signalable.
      entry.write(`kill -0 ${process.pid} 2>/dev/null && echo sees-host || echo host-hidden-$((3+4))\r`);
      await waitForOutput(entry, /host-hidden-7/, 15_000);
      await handle.core.closeProcess(info.id);
    },
    TEST_TIMEOUT_MS,
  );
});

/** Resolves once a `comm` process of the tree under `root` leads the terminal's foreground group (/proc has no event for it). */
async function waitForForegroundJob(root: number, comm: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = processTree(root).find(({ pid }) => readProc(pid, 'comm')?.trim() === comm);
    // /proc/<pid>/stat after the command name: state ppid pgrp session tty_nr tpgid …
    const fields = job && readProc(job.pid, 'stat')?.split(') ')[1]?.split(' ');
    if (fields && fields[2] === fields[5]) return;
    if (Date.now() > deadline) throw new Error(`no foreground ${comm} under ${root} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined; // gone meanwhile
  }
}

describe('a server in a sandbox', () => {
  it(
    'a sandboxed Vite becomes ready and answers on the host loopback; its relays are not its ports; closing leaves no process',
    async () => {
      const web = join(worktreePath, 'web');
      cpSync(VITE_FIXTURE, web, { recursive: true });
      const port = await freePort();
      const info = await handle.core.spawnProcess({
        kind: 'command',
        name: 'vite-sandboxed',
        argv: [VITE_BIN, '--port', String(port), '--strictPort'],
        worktree: 'a',
        cwd: 'web',
        sandbox: true,
      });
      const result = await handle.core.waitForReady(info.id, 60_000);
      expect(result, result.message).toMatchObject({ success: true, state: 'ready', port });
      for (const host of ['127.0.0.1', 'localhost']) {
        const page = await httpGet(`http://${host}:${port}/`);
        expect(page.status).toBe(200);
        expect(page.body).toContain('Switchboard Vite fixture');
      }
      expect(handle.core.describe(info.id).ports?.listening, 'the proxy and MCP relays inside are not the server').toEqual([port]);
      const pids = pidsOfEntry(info.id);
      expect(
        pids.some((pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'socat'),
        'relays run inside',
      ).toBe(true);
      await handle.core.closeProcess(info.id);
      expect(pidsOfEntry(info.id)).toEqual([]);
      await expect(httpGet(`http://127.0.0.1:${port}/`), 'the host port is closed with it').rejects.toThrow(/ECONNREFUSED/);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('bubblewrap as an ordinary user', () => {
  const user = 'sbsandbox';
  const canMakeUsers = process.getuid?.() === 0;

  it.skipIf(!canMakeUsers)('hides the home, writes only the working folder and has no network', () => {
    try {
      execFileSync('id', [user], { stdio: 'ignore' });
    } catch {
      execFileSync('useradd', ['-m', user]);
    }
    const home = execFileSync('sh', ['-c', `getent passwd ${user} | cut -d: -f6`], { encoding: 'utf8' }).trim();
    const work = join(home, 'work');
    execFileSync('runuser', ['-u', user, '--', 'sh', '-c', `mkdir -p ${work} ~/sockets ~/.ssh && echo ${MARKER} > ~/.ssh/marker`]);
    const plan = {
      mounts: { home, rw: [work], ro: [], hidden: [] },
      socketDir: join(home, 'sockets'),
      relays: [],
      alwaysHidden: [],
      cwd: work,
    };
    const script = `echo landed > inside.txt; cat ~/.ssh/marker 2>&1; id -u; curl -sS --max-time 3 http://127.0.0.1:${portOf(allowedServer)}/ 2>&1; echo end`;
    const argv = ['bwrap', ...bwrapArgs(plan), '--', '/bin/sh', '-c', innerScript(plan, 'socat'), 'sandbox', 'sh', '-c', script];
    const out = execFileSync('runuser', ['-u', user, '--', ...argv], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home } });
    expect(readFileSync(join(work, 'inside.txt'), 'utf8')).toBe('landed\n');
    expect(out).not.toContain(MARKER);
    expect(out).not.toContain('allowed server answered');
    expect(out).toMatch(/Could not connect|Failed to connect|Couldn't connect/);
    expect(out.split('\n')).not.toContain('0');
  });
});

describe('when no sandbox can be made', () => {
  it('refuses to start without bubblewrap, saying why and how to fix it in one line', async () => {
    const bin = join(repo.home, 'bin-without-bwrap');
    mkdirSync(bin, { recursive: true });
    for (const tool of ['sh', 'echo'])
      symlinkSync(execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim() || `/bin/${tool}`, join(bin, tool));
    const attempt = handle.core.spawnProcess({
      kind: 'command',
      argv: ['sh', '-c', 'echo ran-unsandboxed'],
      env: { PATH: bin },
      sandbox: true,
    });
    await expect(attempt).rejects.toThrow(/bubblewrap \(bwrap\) is not installed\. Install it: sudo apt install bubblewrap/);
    const entry = handle.core.listProcesses().find((p) => p.argv.join(' ').includes('ran-unsandboxed'))!;
    expect(entry.state).toBe('error');
    expect(entry.message).not.toContain('\n');
    expect(entry.message).toMatch(/^Sandbox unavailable: bubblewrap/);
  });
});
