import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SessionManager } from './sessionManager';
import { ProcessEntry } from './processEntry';
import { BACKGROUND_BURST_BYTES, BACKGROUND_BYTES_PER_SECOND } from './inputPriority';
import { PtyHost } from './ptyHost';
import { isAlive } from './processTree';
import { waitForExit, waitForOutput, waitForScreen } from '../../../../test/support/wait';

const FIXTURES = resolve(__dirname, '../../../../test/fixtures/sessions');
let manager: SessionManager;

function make(argv: string[], extra: Partial<{ cwd: string; ringBytes: number }> = {}) {
  manager ??= new SessionManager({ killGraceMs: 500, ringBytes: extra.ringBytes });
  return manager.create({ name: argv[0], kind: 'command', argv, cwd: extra.cwd ?? process.cwd() });
}

afterEach(async () => {
  await manager?.dispose();
  manager = undefined as unknown as SessionManager;
});

describe('ProcessEntry on a real PTY', () => {
  it('captures output with monotonic offsets and exits cleanly', async () => {
    const entry = make(['bash', '-c', 'printf "one\\ntwo\\n"']);
    await entry.start();
    expect(entry.state).toBe('running');
    await waitForExit(entry);
    const read = entry.ring.read(0);
    expect(read.data.toString()).toBe('one\r\ntwo\r\n');
    expect(read.end).toBe(10);
    expect(entry.state).toBe('stopped');
    expect(entry.lastExit?.exitCode).toBe(0);
    expect(entry.screen.getVisibleLines().slice(0, 2)).toEqual(['one', 'two']);
  });

  it('reports a non-zero exit as an error with the code', async () => {
    const entry = make(['bash', '-c', 'exit 3']);
    await entry.start();
    await waitForExit(entry);
    expect(entry.state).toBe('error');
    expect(entry.message).toBe('Exited with code 3');
  });

  it('echoes input typed into the PTY', async () => {
    const entry = make(['cat']);
    await entry.start();
    entry.write('ping-123\r');
    await waitForOutput(entry, /ping-123\r\n.*ping-123/s);
  });

  it('resizes the PTY and the screen', async () => {
    const entry = make(['bash', '-c', 'read line; stty size']);
    await entry.start();
    entry.resize(77, 21);
    expect(entry.screen.cols).toBe(77);
    entry.write('\r');
    await waitForOutput(entry, /21 77/);
    expect(() => entry.resize(0, 10)).toThrow(/Invalid terminal size/);
  });

  it('wraps the ring while offsets keep growing', async () => {
    const entry = make(['bash', '-c', 'for i in $(seq 1 2000); do echo "line $i"; done'], { ringBytes: 4096 });
    await entry.start();
    await waitForExit(entry);
    expect(entry.ring.end).toBeGreaterThan(4096 * 4);
    expect(entry.ring.start).toBe(entry.ring.end - 4096);
    const read = entry.ring.read(0);
    expect(read.truncated).toBe(true);
    expect(read.data.toString()).toMatch(/line 2000\r\n$/);
  });

  it('restarts into a new run whose output starts after the old one', async () => {
    const entry = make(['bash', '-c', 'echo "run $RANDOM"; exec cat']);
    await entry.start();
    await waitForOutput(entry, /run \d+/);
    const firstRunEnd = entry.ring.end;
    const firstPid = entry.pid;
    await entry.restart();
    expect(entry.runId).toBe(2);
    expect(entry.runOffset).toBeGreaterThan(firstRunEnd);
    expect(entry.pid).not.toBe(firstPid);
    expect(isAlive(firstPid!)).toBe(false);
    await waitForOutput(entry, /run \d+/);
    await waitForScreen(entry, (lines) => lines.some((l) => l.includes('restarted')));
  });

  it('stop, then start again: entries outlive their process', async () => {
    const entry = make(['cat']);
    await entry.start();
    await entry.stop();
    expect(entry.state).toBe('stopped');
    expect(entry.message).toBe('Stopped');
    await entry.start();
    expect(entry.isRunning).toBe(true);
  });

  it('kills the whole tree: SIGTERM ignorers, setsid children and double-forked daemons', async () => {
    const entry = make([join(FIXTURES, 'stubborn-tree.sh')]);
    await entry.start();
    const text = await waitForOutput(entry, /(?=.*IGNORER \d+)(?=.*SETSID \d+)(?=.*DAEMON \d+)(?=.*LEADER \d+)/s);
    const pids = [...text.matchAll(/(IGNORER|SETSID|DAEMON|LEADER) (\d+)/g)].map((m) => Number(m[2]));
    expect(pids).toHaveLength(4);
    for (const pid of pids) expect(isAlive(pid)).toBe(true);
    await manager.close(entry.id);
    for (const pid of pids) expect(isAlive(pid), `pid ${pid} survived close`).toBe(false);
    expect(manager.list()).toHaveLength(0);
  });

  it('kills the tree on restart and on manager dispose (app quit)', async () => {
    const entry = make([join(FIXTURES, 'stubborn-tree.sh')]);
    await entry.start();
    let text = await waitForOutput(entry, /(?=.*IGNORER \d+)(?=.*DAEMON \d+)(?=.*LEADER \d+)/s);
    const firstPids = [...text.matchAll(/(?:IGNORER|SETSID|DAEMON|LEADER) (\d+)/g)].map((m) => Number(m[1]));
    await entry.restart();
    for (const pid of firstPids) expect(isAlive(pid), `pid ${pid} survived restart`).toBe(false);
    text = await waitForOutput(entry, /(?=.*IGNORER \d+)(?=.*DAEMON \d+)(?=.*LEADER \d+)/s);
    const secondPids = [...text.matchAll(/(?:IGNORER|SETSID|DAEMON|LEADER) (\d+)/g)].map((m) => Number(m[1]));
    await manager.dispose();
    for (const pid of secondPids) expect(isAlive(pid), `pid ${pid} survived quit`).toBe(false);
  });

  it('a command that does not exist puts the entry in error with a clear message', async () => {
    const entry = make(['definitely-not-a-command-xyz']);
    await expect(entry.start()).rejects.toThrow('Command not found: definitely-not-a-command-xyz');
    expect(entry.state).toBe('error');
    expect(entry.message).toBe('Command not found: definitely-not-a-command-xyz');
  });

  it('a missing cwd and a non-executable file are spawn errors too', async () => {
    const missing = make(['bash'], { cwd: '/no/such/dir' });
    await expect(missing.start()).rejects.toThrow('Working directory does not exist: /no/such/dir');
    expect(missing.state).toBe('error');
    const dir = mkdtempSync(join(tmpdir(), 'sb-'));
    writeFileSync(join(dir, 'script.sh'), 'echo hi\n', { mode: 0o644 });
    const notExec = make(['./script.sh'], { cwd: dir });
    await expect(notExec.start()).rejects.toThrow('Permission denied: ./script.sh is not executable');
  });

  it('writing to a stopped entry is a clear error', () => {
    const entry = make(['cat']);
    expect(() => entry.write('x')).toThrow(/is not running/);
  });

  it('attach returns a screen snapshot consistent with the batch stream', async () => {
    const entry = make(['bash', '-c', 'echo first; read x; echo second; exec cat']);
    await entry.start();
    await waitForOutput(entry, /first/);
    const snap = await entry.attach();
    expect(snap.screen).toContain('first');
    expect(snap.offset).toBe(entry.ring.end);
    const later: string[] = [];
    entry.onDidFlushOutput((b) => {
      expect(b.start).toBeGreaterThanOrEqual(snap.offset);
      later.push(b.data.toString('utf8'));
    });
    entry.write('\r');
    await waitForOutput(entry, /second/);
    entry.onDidFlushOutput(() => undefined);
    await entry.attach(); // flushes the batcher
    expect(later.join('')).toContain('second');
    expect(later.join('')).not.toContain('first');
  });
});

describe('terminal queries', () => {
  it('the headless screen answers a device-attributes query while no viewer is attached, and not once one is', async () => {
    // Asks DA1 (ESC[c) twice; prints what came back each time (the reply ends in "c").
    const script = `stty raw -echo; for i in 1 2; do printf '\\033[c'; IFS= read -r -d c -t 3 reply && echo "got:$i" || echo "none:$i"; done`;
    const entry = make(['bash', '-c', script]);
    await entry.start();
    await waitForOutput(entry, /got:1/);
    entry.addViewer('pane-1'); // an attached pane answers from now on (none here: so no answer)
    await waitForOutput(entry, /none:2/, 10_000);
  });
});

describe('viewer batches', () => {
  it('carry exactly the bytes of their offset range, across many flushes', async () => {
    const entry = make(['bash', '-c', 'for i in $(seq 1 20000); do echo "batch line $i"; done']);
    const received: Buffer[] = [];
    let expectedStart = -1;
    entry.onDidFlushOutput((b) => {
      if (expectedStart >= 0) expect(b.start).toBe(expectedStart);
      expectedStart = b.end;
      expect(b.data.length).toBe(b.end - b.start);
      received.push(Buffer.from(b.data));
    });
    await entry.start();
    await waitForExit(entry);
    const all = Buffer.concat(received).toString();
    expect(all).toBe(entry.ring.read(entry.runOffset).data.toString());
    expect(all).toMatch(/batch line 20000\r\n$/);
  });

  it("leave the screen on the run's last lines after a flood, viewed or not", async () => {
    // 2.3 MB: more than the screen parses while it floods, so most of it is skipped on the way.
    const entry = make(['sh', '-c', 'seq 1 300000; echo flood done']);
    await entry.start();
    await waitForExit(entry);
    expect(entry.screen.getVisibleLines().filter(Boolean).slice(-3)).toEqual(['299999', '300000', 'flood done']);
    expect((await entry.attach()).screen).toMatch(/299999\r\n300000\r\nflood done\r\n$/);
  });

  it("carry the right bytes where a batch spans the ring's wrap, many times over", async () => {
    // A 64 KB ring and 600 KB of output: the ring wraps ~10 times, and batches across a wrap are joined.
    const entry = make(['seq', '1', '100000'], { ringBytes: 64 * 1024 });
    const received: Buffer[] = [];
    entry.onDidFlushOutput((b) => received.push(Buffer.from(b.data)));
    await entry.start();
    await waitForExit(entry);
    const expected = Array.from({ length: 100000 }, (_, i) => `${i + 1}\r\n`).join('');
    expect(Buffer.concat(received).toString()).toBe(expected);
  });
});

describe('output chunks for detectors', () => {
  it('a flood arrives merged from many PTY reads, every byte once and in order', async () => {
    const floodBytes = 4 * 1024 * 1024;
    const entry = make(['bash', '-c', `yes 'merged output chunk line' | head -c ${floodBytes}`], { ringBytes: 4 * floodBytes });
    const chunks: Array<{ start: number; end: number; text: string }> = [];
    entry.onDidWriteOutput((chunk) => chunks.push({ start: chunk.start, end: chunk.end, text: chunk.text }));
    await entry.start();
    await waitForExit(entry);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i].start).toBe(chunks[i - 1].end);
    expect(chunks.map((c) => c.text).join('')).toBe(entry.ring.read(entry.runOffset).data.toString());
    // The kernel hands a terminal's output over in reads of about 4 KB: one chunk per read would be ~1000.
    expect(chunks.length).toBeLessThan(floodBytes / (8 * 1024));
  });

  it('the restart banner reaches the screen but is not the program output', async () => {
    const entry = make(['bash', '-c', 'echo "run $RANDOM"; exec cat']);
    await entry.start();
    await waitForOutput(entry, /run \d+/);
    const texts: string[] = [];
    entry.onDidWriteOutput((chunk) => texts.push(chunk.text));
    await entry.restart();
    await waitForOutput(entry, /run \d+/);
    await waitForScreen(entry, (lines) => lines.some((l) => l.includes('restarted')));
    expect(texts.join('')).toMatch(/run \d+/);
    expect(texts.join('')).not.toContain('restarted');
  });
});

describe('ProcessEntry input priority (real PTYs)', () => {
  const entries: ProcessEntry[] = [];
  // A PTY thread of its own: its input priority sees only this test's typing.
  let ptys: PtyHost;
  beforeEach(() => {
    ptys = new PtyHost();
  });
  afterEach(async () => {
    for (const entry of entries.splice(0)) await entry.close();
    ptys.dispose();
  });
  const create = (name: string, argv: string[]) => {
    const entry = new ProcessEntry({
      id: name,
      spec: { name, kind: 'command', argv, cwd: process.cwd() },
      ptys,
      killGraceMs: 500,
    });
    entries.push(entry);
    return entry;
  };

  it('while someone types into one entry, a flood in another reads at most its background rate', async () => {
    const typedInto = create('typed', ['cat']);
    const flood = create('flood', ['yes', 'flood line']);
    await typedInto.start();
    await flood.start();
    await waitForOutput(flood, /flood line/);

    // A typist's pace, not waiting for each echo: a slow echo under load must not leave gaps
    // longer than the typing window, in which the flood may rightly read freely.
    // Counted from the first key's echo: what the flood read freely before it is delivered by then.
    const keys = 20;
    const keyIntervalMs = 50;
    typedInto.write('k');
    await waitForOutput(typedInto, /k/);
    const startOffset = flood.ring.end;
    const startedAt = performance.now();
    for (let key = 1; key < keys; key++) {
      typedInto.write('k');
      await new Promise((resolve) => setTimeout(resolve, keyIntervalMs));
    }
    const seconds = (performance.now() - startedAt) / 1000;
    const floodBytes = flood.ring.end - startOffset;
    await waitForOutput(typedInto, new RegExp(`k{${keys}}`));
    // Reads are about 4 KB; one may land before each hold and the first keystroke finds a full tty buffer.
    const slackBytes = 64 * 1024;
    expect(floodBytes).toBeLessThan(BACKGROUND_BYTES_PER_SECOND * seconds + BACKGROUND_BURST_BYTES + slackBytes);

    // Nobody typing: the flood reads freely again, a megabyte well within the time.
    const freeOffset = flood.ring.end;
    await new Promise<void>((resolve) => {
      const subscription = flood.onDidWriteOutput(() => {
        if (flood.ring.end - freeOffset < 1024 * 1024) return;
        subscription.dispose();
        resolve();
      });
    });
  });
});
