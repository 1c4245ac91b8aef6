import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOKEN_ENV } from '../../../shared/mcp';
import { claudeStatusLine, usersClaudeStatusLine } from './claudeStatusLineCommand';

const TOKEN = 'run-token-of-the-agent';
/** The real input Claude Code 2.1.332 wrote to its status-line command (test/fixtures/usage). */
const INPUT = readFileSync(path.join(__dirname, '../../../../test/fixtures/usage/claude-2.1.332-status-line.json'), 'utf8');

interface Receiver {
  url: string;
  posted: Array<{ authorization: string | undefined; body: string }>;
  server: Server;
}

/** Switchboard's status-line receiver as the command sees it: the line for the run's token, 401 for any other. */
async function startReceiver(): Promise<Receiver> {
  const posted: Receiver['posted'] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      posted.push({ authorization: req.headers.authorization, body });
      if (req.headers.authorization !== `Bearer ${TOKEN}`) {
        res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"error":"Unauthorized"}');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Opus 5.5 · 5h 42 % · weekly 85 %');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/status-line`, posted, server };
}

/** Runs the status line as Claude Code does (a shell, the input on stdin); resolves with its exit code and stdout. */
function runStatusLine(shell: string, command: string, token = TOKEN): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(shell, ['-c', command], { env: { ...process.env, [MCP_TOKEN_ENV]: token }, stdio: ['pipe', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stdin.end(INPUT);
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout })));
}

describe("Claude Code's status-line command", () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await new Promise((done) => receiver.server.close(done));
  });

  for (const shell of ['sh', 'bash']) {
    it(`under ${shell}: posts the input with the run's token and prints the receiver's line`, async () => {
      const { code, stdout } = await runStatusLine(shell, claudeStatusLine(receiver.url).command);
      expect(code).toBe(0);
      expect(stdout).toBe('Opus 5.5 · 5h 42 % · weekly 85 %');
      expect(receiver.posted.at(-1)).toEqual({ authorization: `Bearer ${TOKEN}`, body: INPUT });
    });

    it(`under ${shell}: with the user's own status line, theirs gets the same input and prints; the input is posted too`, async () => {
      const theirs = { type: 'command' as const, command: `printf 'theirs: %s bytes' "$(wc -c | tr -d ' ')"`, padding: 2 };
      const line = claudeStatusLine(receiver.url, theirs);
      const before = receiver.posted.length;

      const { code, stdout } = await runStatusLine(shell, line.command);

      expect(code).toBe(0);
      expect(stdout).toBe(`theirs: ${Buffer.byteLength(INPUT.trimEnd())} bytes`);
      expect(receiver.posted.slice(before)).toEqual([{ authorization: `Bearer ${TOKEN}`, body: INPUT.trimEnd() }]);
      expect(line.padding).toBe(2);
      // Their command is in a file of Switchboard's, not in the argv Claude Code's shell gets.
      expect(line.command).not.toContain('wc -c');
    });
  }

  it('prints nothing, and fails nothing, when the receiver refuses the token', async () => {
    const { code, stdout } = await runStatusLine('sh', claudeStatusLine(receiver.url).command, 'a-revoked-token');
    expect(code).toBe(0);
    expect(stdout).toBe('');
  });

  it('prints nothing, and fails nothing, when Switchboard is gone', async () => {
    const { code, stdout } = await runStatusLine('sh', claudeStatusLine('http://127.0.0.1:1/status-line').command);
    expect(code).toBe(0);
    expect(stdout).toBe('');
  });
});

describe("the user's own status line", () => {
  const dirs: string[] = [];
  afterEach(() => {
    while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
  });

  function folders() {
    const root = mkdtempSync(path.join(tmpdir(), 'switchboard-status-line-'));
    dirs.push(root);
    const config = path.join(root, 'config');
    const cwd = path.join(root, 'project');
    mkdirSync(config);
    mkdirSync(path.join(cwd, '.claude'), { recursive: true });
    const write = (file: string, settings: unknown) =>
      writeFileSync(file, typeof settings === 'string' ? settings : JSON.stringify(settings));
    const line = (command: string) => ({ statusLine: { type: 'command', command } });
    return { root, config, cwd, write, line };
  }

  it('is the first of the local, project and user settings that sets one, as Claude Code picks it', () => {
    const { config, cwd, write, line } = folders();
    const env = { CLAUDE_CONFIG_DIR: config };
    write(path.join(config, 'settings.json'), { ...line('user'), theme: 'dark' });
    expect(usersClaudeStatusLine(env, cwd)?.command).toBe('user');
    write(path.join(cwd, '.claude', 'settings.json'), line('project'));
    expect(usersClaudeStatusLine(env, cwd)?.command).toBe('project');
    write(path.join(cwd, '.claude', 'settings.local.json'), { statusLine: { type: 'command', command: 'local', refreshInterval: 5 } });
    expect(usersClaudeStatusLine(env, cwd)).toEqual({ type: 'command', command: 'local', refreshInterval: 5 });
  });

  it('is looked for in ~/.claude without CLAUDE_CONFIG_DIR; damaged or other kinds of settings are passed over', () => {
    const { root, cwd, write, line } = folders();
    mkdirSync(path.join(root, '.claude'));
    write(path.join(root, '.claude', 'settings.json'), line('home'));
    write(path.join(cwd, '.claude', 'settings.local.json'), '{ not json');
    write(path.join(cwd, '.claude', 'settings.json'), { statusLine: { type: 'static', command: 'x' } });
    expect(usersClaudeStatusLine({ HOME: root }, cwd)?.command).toBe('home');
    expect(usersClaudeStatusLine({ HOME: path.join(root, 'nobody') }, cwd)).toBeUndefined();
  });

  it('keeps their command in a file only the user can read', () => {
    const command = claudeStatusLine('http://127.0.0.1:1/status-line', { type: 'command', command: 'echo mine' }).command;
    const file = /\. '([^']+)'/u.exec(command)?.[1];
    expect(readFileSync(file!, 'utf8')).toBe('echo mine\n');
    expect(statSync(file!).mode & 0o777).toBe(0o600);
  });
});
