import { afterEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { Terminal } from '@xterm/headless';
import {
  SCREEN_BUDGET_WINDOW_MS,
  SCREEN_BUSY_SHARE,
  SCREEN_CHUNK_BYTES,
  SCREEN_MAX_BACKLOG_BYTES,
  ScreenModel,
  SYNCHRONIZED_FRAME_MAX_MS,
} from './screenModel';

/** Lines of exactly `bytes` bytes, numbered so the newest one can be found on screen. */
function floodOf(bytes: number, tag: string): string {
  const line = (n: number) => `${tag} ${String(n).padStart(8, '0')} ${'x'.repeat(60)}\r\n`;
  let text = '';
  for (let n = 0; text.length < bytes; n++) text += line(n);
  return text.slice(0, bytes - 2) + '\r\n';
}

describe('ScreenModel flood policy', () => {
  afterEach(() => vi.restoreAllMocks());

  it('keeps at most SCREEN_MAX_BACKLOG_BYTES queued: a flood drops its oldest bytes and the screen shows the newest', async () => {
    const screen = new ScreenModel({ cols: 100, rows: 10 });
    const piece = floodOf(64 * 1024, 'old');
    const total = 4 * SCREEN_MAX_BACKLOG_BYTES;
    let offset = 0;
    // Written in one synchronous burst, as a PTY flood arrives: nothing is parsed in between.
    while (offset < total - piece.length) {
      offset += piece.length;
      screen.write(piece, offset);
    }
    const last = 'newest line of the flood\r\n';
    offset += last.length;
    screen.write(last, offset);

    expect(await screen.flush()).toBe(offset);
    const parsed = offset - screen.skippedBytes;
    expect(screen.skippedBytes).toBeGreaterThan(0);
    // At most the chunk already handed to xterm plus the bounded backlog reached the parser.
    expect(parsed).toBeLessThanOrEqual(SCREEN_MAX_BACKLOG_BYTES + SCREEN_CHUNK_BYTES + last.length);
    expect(screen.getVisibleLines().join('\n')).toContain('newest line of the flood');
    screen.dispose();
  });

  it('parses at most SCREEN_BUSY_SHARE of each budget window under a flood, then yields until the window ends', async () => {
    const COST_PER_CHUNK_MS = 1;
    let virtualNow = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => virtualNow);
    const originalWrite = Terminal.prototype.write;
    const writes = vi.spyOn(Terminal.prototype, 'write').mockImplementation(function (this: Terminal, data, callback) {
      virtualNow += COST_PER_CHUNK_MS; // every chunk costs the same virtual parse time
      originalWrite.call(this, data, callback);
    });
    const timers = vi.spyOn(globalThis, 'setTimeout');

    const screen = new ScreenModel({ cols: 100, rows: 10 });
    const chunks = 20; // well under the backlog bound: nothing is dropped, only paced
    screen.write(floodOf(chunks * SCREEN_CHUNK_BYTES, 'flood'), chunks * SCREEN_CHUNK_BYTES);

    const budgetMs = SCREEN_BUSY_SHARE * SCREEN_BUDGET_WINDOW_MS;
    const isBudgetPause = (call: unknown[]) => typeof call[1] === 'number' && call[1] >= 1;
    await vi.waitFor(() => expect(timers.mock.calls.some(isBudgetPause)).toBe(true));

    const pause = timers.mock.calls.find(isBudgetPause)!;
    expect(writes.mock.calls.length).toBe(Math.ceil(budgetMs / COST_PER_CHUNK_MS));
    expect(pause[1]).toBeGreaterThan(0);
    expect(pause[1]).toBeLessThanOrEqual(SCREEN_BUDGET_WINDOW_MS);
    expect(screen.skippedBytes).toBe(0);
    screen.dispose();
  });
});

describe('ScreenModel state reports (OSC 7501)', () => {
  it('keeps the last state a program reported, fires on each report, and forgets it on state=clear', async () => {
    const screen = new ScreenModel({ cols: 40, rows: 5 });
    const reported: string[] = [];
    screen.onDidChangeAgentState((state) => reported.push(state));
    const write = async (data: string) => {
      const bytes = Buffer.from(data, 'utf8');
      written += bytes.length;
      screen.write(bytes, written);
      await screen.flush();
    };
    let written = 0;
    // Codex 0.169.0's own sequences (recordings/codex/codex-permission-yes.cast), ST- and BEL-terminated.
    await write('\x1b]7501;state=working:app=codex\x07');
    await write('\x1b]7501;state=blocked:app=codex:kind=permission\x1b\\• Running curl');
    expect(screen.agentState).toBe('state=blocked:app=codex:kind=permission');
    expect(screen.getVisibleLines()[0]).toBe('• Running curl');
    await write('\x1b]7501;state=clear\x07');
    expect(screen.agentState).toBe('');
    expect(reported).toEqual(['state=working:app=codex', 'state=blocked:app=codex:kind=permission', '']);
    screen.dispose();
  });
});

describe('ScreenModel synchronized output (DEC mode 2026)', () => {
  /** Copilot CLI 1.0.102 brackets each frame with ?2026h … ?2026l, and its PTY reads split frames. */
  const CAST = 'test/fixtures/recordings/copilot/copilot-api-error-retries.cast';

  function castOutput(): string[] {
    const [header, ...events] = readFileSync(CAST, 'utf8').trim().split('\n');
    expect(JSON.parse(header)).toMatchObject({ width: 120, height: 40 });
    return events
      .map((line) => JSON.parse(line) as [number, string, string])
      .filter((e) => e[1] === 'o')
      .map((e) => e[2]);
  }

  it('shows the frame before while the program draws the next one, and announces the change once the frame closes', async () => {
    const screen = new ScreenModel({ cols: 120, rows: 40 });
    let changes = 0;
    screen.onDidChange(() => changes++);
    let written = 0;
    let complete = screen.getVisibleLines();
    let readsEndingMidFrame = 0;
    for (const data of castOutput()) {
      const bytes = Buffer.from(data, 'utf8');
      written += bytes.length;
      const changesBefore = changes;
      screen.write(bytes, written);
      await screen.flush();
      if (screen.isMidFrame) {
        readsEndingMidFrame++;
        expect(screen.getVisibleLines()).toEqual(complete);
        expect(changes).toBe(changesBefore);
      } else {
        complete = screen.getVisibleLines();
        expect(changes).toBe(changesBefore + 1);
      }
    }
    expect(readsEndingMidFrame).toBeGreaterThan(0);
    expect(complete.join('\n')).toContain('Copilot v1.0.102');
    screen.dispose();
  });

  it('shows a frame left open longer than SYNCHRONIZED_FRAME_MAX_MS as drawn so far', async () => {
    const screen = new ScreenModel({ cols: 40, rows: 5 });
    screen.write(Buffer.from('before'), 6);
    await screen.flush();
    const openedAt = performance.now();
    screen.write(Buffer.from('\x1b[?2026h\r\nhalf a fr'), 20);
    await screen.flush();
    expect(screen.getVisibleLines()[0]).toBe('before');
    expect(screen.getVisibleLines()[1]).toBe('');
    await new Promise<void>((resolve) => screen.onDidChange(() => resolve()));
    expect(performance.now() - openedAt).toBeGreaterThanOrEqual(SYNCHRONIZED_FRAME_MAX_MS - 1);
    expect(screen.isMidFrame).toBe(false);
    expect(screen.getVisibleLines()[1]).toBe('half a fr');
    screen.dispose();
  });
});
