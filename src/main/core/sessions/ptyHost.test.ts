import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PtyHost, type HostedPty, type PtyExit, type PtySpawnOptions } from './ptyHost';
import { isAlive } from './processTree';

let host: PtyHost;
afterEach(() => host?.dispose());

const options = (): PtySpawnOptions => ({
  name: 'xterm-256color',
  cols: 80,
  rows: 24,
  cwd: process.cwd(),
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
});

/** A PTY on `host` running `script` in sh, with its output messages and exit collected. */
function run(script: string) {
  const messages: Buffer[] = [];
  let onExit!: (exit: PtyExit) => void;
  const exited = new Promise<PtyExit>((resolve) => (onExit = resolve));
  const pty: HostedPty = host.spawn('/bin/sh', ['-c', script], options(), {
    onData: (data) => messages.push(Buffer.from(data)), // copied: the buffer goes back to the PTY thread
    onExit,
  });
  const text = () => Buffer.concat(messages).toString();
  return { pty, messages, exited, text };
}

describe('PTY thread', () => {
  // Complete to the last line: the PTY thread holds the slave open, or Linux drops a last write still in flight at exit.
  it('spawns synchronously and delivers every byte in order, then the exit', async () => {
    host = new PtyHost();
    const { pty, exited, text, messages } = run('seq 1 200000; exit 3');
    expect(pty.pid).toBeGreaterThan(0);
    expect(await exited).toEqual({ exitCode: 3, signal: 0 });
    const expected = Array.from({ length: 200000 }, (_, i) => `${i + 1}\r\n`).join('');
    expect(text()).toBe(expected);
    // A flood is merged: far fewer messages than the ~4 KB reads it came in.
    expect(messages.length).toBeLessThan(expected.length / 8192);
  });

  it('goes on reading while the main thread is busy', () => {
    host = new PtyHost();
    const marker = join(mkdtempSync(join(tmpdir(), 'sb-ptythread-')), 'done');
    // 120 KB through the terminal (80 KB of "y\n", each newline sent as \r\n) is more than the
    // kernel buffers for an unread PTY and less than the PTY thread holds: the program finishes
    // only if that thread reads.
    run(`yes | head -c 80000; touch ${marker}; sleep 5`);
    const deadline = Date.now() + 10_000;
    while (!existsSync(marker) && Date.now() < deadline); // this thread never yields meanwhile
    expect(existsSync(marker)).toBe(true);
  });

  it('stops reading when asked, past what it already held, and reads on when asked again', async () => {
    host = new PtyHost();
    const { pty, messages } = run('yes');
    await new Promise<void>((resolve) => {
      const check = setInterval(() => messages.length > 0 && (clearInterval(check), resolve()), 5);
    });
    pty.setReading(false);
    await new Promise((resolve) => setTimeout(resolve, 300)); // what is already on its way arrives
    const pausedAt = Buffer.concat(messages).length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(Buffer.concat(messages).length).toBe(pausedAt);
    pty.setReading(true);
    await new Promise<void>((resolve) => {
      const check = setInterval(() => Buffer.concat(messages).length > pausedAt + 1024 * 1024 && (clearInterval(check), resolve()), 5);
    });
    process.kill(pty.pid, 'SIGKILL');
  });

  it('a thread that died is replaced at the next spawn', async () => {
    host = new PtyHost();
    expect(await run('echo first').exited).toEqual({ exitCode: 0, signal: 0 });
    const worker = host.worker;
    await worker?.terminate(); // no PTY left on it: see ptyHost.ts on why it must outlive them
    const again = run('echo again');
    expect(host.worker).not.toBe(worker);
    expect(await again.exited).toEqual({ exitCode: 0, signal: 0 });
    expect(again.text()).toContain('again');
  });

  // node-pty reporting an exit while the thread is torn down aborts the process (SIGABRT, 134).
  it.each([
    ['its programs were just killed', 'for (const pty of ptys) process.kill(pty.pid, "SIGKILL");'],
    ['its programs still run', ''],
  ])('the process exits cleanly while the thread holds PTYs: %s', async (_case, beforeExit) => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-ptyexit-'));
    const script = join(dir, 'exit.ts');
    writeFileSync(
      script,
      `import { PtyHost } from ${JSON.stringify(join(__dirname, 'ptyHost.ts'))};
const host = new PtyHost();
const env = { PATH: process.env.PATH ?? '' };
const ptys = Array.from({ length: 20 }, () =>
  host.spawn('/bin/sh', ['-c', 'echo up; sleep 30'], { name: 'xterm', cols: 80, rows: 24, cwd: process.cwd(), env }, { onData() {}, onExit() {} }),
);
console.log(JSON.stringify(ptys.map((pty) => pty.pid)));
setTimeout(() => {
  ${beforeExit}
  process.exit(0);
}, 300);
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    const pids = JSON.parse(out.trim().split('\n')[0]) as number[];
    const deadline = Date.now() + 5_000;
    while (pids.some(isAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
