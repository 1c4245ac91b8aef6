/**
 * The grid with 30 entries (10 flooding at full speed, 20 idle) in Chromium through the real
 * `serve`: frame time p95 and renderer heap with every pane mounted (`?panes=all`, the old way)
 * against panes detached out of view, in one run; echo latency of typing into one idle pane while
 * the others flood, against the same grid with nobody flooding, split into where the keystroke
 * waits (the input call's round trip, the echo's frame arriving, the renderer showing it).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { WebSocket } from 'ws';
import { decodeOutputFrame } from '../src/shared/outputFrame';
import { CHROMIUM_LAUNCH_OPTIONS } from '../test/support/chromium';
import { percentile, type BenchRow } from './report';

const ROOT = resolve(__dirname, '..');
const FLOODING = 10;
const IDLE = 20;
/** How long frames are sampled per mode. */
const SAMPLE_MS = 5_000;
const ECHO_SAMPLES = 40;
const ECHO_GOAL_MS = 50;
/**
 * `SB_BENCH_RENDERER=webgl` (or `dom`) puts every pane on that renderer (the page's `?renderer=`);
 * unset, the page picks as it does for a user (the DOM renderer where WebGL is drawn in software).
 */
const RENDERER = process.env.SB_BENCH_RENDERER || undefined;
if (RENDERER && RENDERER !== 'webgl' && RENDERER !== 'dom') throw new Error(`SB_BENCH_RENDERER must be webgl or dom, not ${RENDERER}`);
/** `SB_BENCH_SERVE=<dir>/out/main/serve.js` runs another build (a base commit's), to compare it in alternating runs. */
const SERVE_JS = resolve(process.env.SB_BENCH_SERVE || join(ROOT, 'out/main/serve.js'));

export async function benchGrid(): Promise<BenchRow[]> {
  const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
  try {
    // The baseline first: the same 30 panes with nobody flooding, so the ratio shows what the flood costs.
    const quiet = await withServe({ flooding: false }, (serve) => measureEcho(browser, serve));
    const flood = await withServe({ flooding: true }, async (serve) => ({
      all: await measure(browser, serve.ui, 'all'),
      detached: await measure(browser, serve.ui, 'detached'),
      echo: await measureEcho(browser, serve),
    }));
    const { all, detached } = flood;
    const stage = (name: string, pick: (s: EchoMeasure) => number[]): BenchRow => ({
      section: 'grid',
      name: `echo ${name} p99 (base: nobody floods)`,
      value: percentile(pick(flood.echo), 99),
      baseline: percentile(pick(quiet), 99),
      unit: 'ms',
    });
    const rows: BenchRow[] = [
      {
        section: 'grid',
        name: 'frame time p95, 30 entries (base: all mounted)',
        value: detached.frameP95,
        baseline: all.frameP95,
        unit: 'ms',
      },
      { section: 'grid', name: 'renderer heap, 30 entries (base: all mounted)', value: detached.heapMb, baseline: all.heapMb, unit: 'MB' },
      { section: 'grid', name: 'mounted terminals (base: all mounted)', value: detached.mounted, baseline: all.mounted, unit: 'panes' },
      { ...stage('latency while 10 flood', (s) => s.page.total), goal: `< ${ECHO_GOAL_MS} ms` },
      {
        section: 'grid',
        name: 'echo latency while 10 flood p50 (base: nobody floods)',
        value: percentile(flood.echo.page.total, 50),
        baseline: percentile(quiet.page.total, 50),
        unit: 'ms',
      },
      {
        section: 'grid',
        name: 'echo latency of the first keystroke while 10 flood (base: nobody floods)',
        value: flood.echo.page.total[0],
        baseline: quiet.page.total[0],
        unit: 'ms',
      },
      stage('· input call round trip', (s) => s.page.inputReply),
      stage('· keystroke to output frame', (s) => s.page.frameArrived),
      stage('· output frame to screen', (s) => s.page.rendered),
      stage('· in the browser’s network stack: input out to echo in', (s) => s.page.network),
      stage('on a socket of its own (core only)', (s) => s.ownSocket),
      {
        section: 'grid',
        name: 'core event-loop delay p99 while typing (base: nobody floods)',
        value: flood.echo.loopDelay.p99,
        baseline: quiet.loopDelay.p99,
        unit: 'ms',
      },
      { section: 'grid', name: 'CPU of the 10 flooding programs while typing', value: flood.echo.cpu.floods, unit: 'cores' },
      {
        section: 'grid',
        name: 'CPU of serve while typing (base: nobody floods)',
        value: flood.echo.cpu.serve,
        baseline: quiet.cpu.serve,
        unit: 'cores',
      },
    ];
    return rows.map((r) => (r.baseline ? { ...r, ratio: r.value / r.baseline } : r));
  } finally {
    await browser.close();
  }
}

interface ServeUnderTest {
  ui: string;
  /** The event loop's delay since the previous call (bench/fixtures/loopDelay.cjs, preloaded into serve). */
  loopDelay(): Promise<LoopDelay>;
  /** Starts counting CPU time; the returned function gives the cores used since by serve and by the flooding programs. */
  cpuMeter(): () => { serve: number; floods: number };
}

interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
}

/** Runs `serve` on a fresh 30-entry project (10 of them flooding, or all quiet) for `use`. */
async function withServe<T>({ flooding }: { flooding: boolean }, use: (serve: ServeUnderTest) => Promise<T>): Promise<T> {
  const project = mkdtempSync(join(tmpdir(), 'sb-bench-grid-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-bench-grid-data-'));
  const processes: Record<string, unknown> = {};
  for (let i = 0; i < FLOODING; i++)
    processes[`flood${i}`] = flooding
      ? { command: 'bash', args: ['-c', `while :; do echo "flood ${i} $RANDOM $RANDOM"; done`] }
      : { command: 'cat' };
  for (let i = 0; i < IDLE; i++) processes[`idle${i}`] = { command: 'cat' };
  writeFileSync(join(project, 'switchboard.json'), JSON.stringify({ processes }));
  const loopFile = join(dataDir, 'loop-delay.jsonl');
  const serve = spawn(
    process.execPath,
    ['--require', join(ROOT, 'bench/fixtures/loopDelay.cjs'), SERVE_JS, '--project', project, '--data-dir', dataDir, '--trust'],
    { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, SB_BENCH_LOOP_FILE: loopFile } },
  );
  try {
    const line = await new Promise<string>((r) => createInterface({ input: serve.stdout }).once('line', r));
    const pid = serve.pid ?? 0;
    return await use({
      ui: (JSON.parse(line) as { ui: string }).ui,
      loopDelay: () => readLoopDelay(pid, loopFile),
      cpuMeter: () => startProcessCpuMeter(pid),
    });
  } finally {
    serve.kill('SIGTERM');
    await new Promise((r) => serve.once('exit', r));
    rmSync(project, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function openGrid(browser: Browser, uiUrl: string, mode: 'all' | 'detached'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(ECHO_TRACE_SCRIPT);
  const url = new URL(uiUrl);
  if (mode === 'all') url.searchParams.set('panes', 'all');
  if (RENDERER) url.searchParams.set('renderer', RENDERER);
  await page.goto(url.toString());
  await page
    .locator('[data-testid="pane"]')
    .nth(FLOODING + IDLE - 1)
    .waitFor();
  await page.waitForTimeout(1_000); // bench only: let the first attach burst settle before sampling
  return { context, page };
}

async function measure(browser: Browser, uiUrl: string, mode: 'all' | 'detached') {
  const { context, page } = await openGrid(browser, uiUrl, mode);
  // A string script: the bench runs under tsx, whose helpers do not exist in the page.
  const frames = await page.evaluate<number[]>(
    `new Promise((done) => { const deltas = []; let last = performance.now(); const end = last + ${SAMPLE_MS};
      const tick = (now) => { deltas.push(now - last); last = now; if (now < end) requestAnimationFrame(tick); else done(deltas); };
      requestAnimationFrame(tick); })`,
  );
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  const mounted = await page.evaluate(() =>
    (window as unknown as { switchboardDebug: { mountedPanes(): number } }).switchboardDebug.mountedPanes(),
  );
  await context.close();
  return { frameP95: percentile(frames, 95), heapMb: usedSize / 1024 / 1024, mounted };
}

interface EchoMeasure {
  page: EchoStages;
  /** The same echo through a socket of its own to serve while the page stays open: the core without the page's socket or renderer. */
  ownSocket: number[];
  /** Cores used while the page's echoes were measured (from the first keystroke to the last echo). */
  cpu: { serve: number; floods: number };
  loopDelay: LoopDelay;
}

/** Echo into the first idle pane of the grid as a person opens it (panes out of view detached). */
async function measureEcho(browser: Browser, serve: ServeUnderTest): Promise<EchoMeasure> {
  const { context, page } = await openGrid(browser, serve.ui, 'detached');
  try {
    const { stages, cpu, loopDelay } = await echoLatency(page, 'idle0', serve);
    const ownSocket = await echoOverOwnSocket(serve.ui, 'idle1');
    return { page: stages, ownSocket, cpu, loopDelay };
  } finally {
    await context.close();
  }
}

/** Asks serve for its loop delay (SIGUSR2) and waits for the line it appends. */
async function readLoopDelay(pid: number, file: string): Promise<LoopDelay> {
  const linesBefore = readLines(file).length;
  process.kill(pid, 'SIGUSR2');
  for (;;) {
    const lines = readLines(file);
    if (lines.length > linesBefore) return JSON.parse(lines[lines.length - 1]) as LoopDelay;
    await new Promise((r) => setTimeout(r, 20)); // polling a file: serve answers when its loop gets to the signal
  }
}

function readLines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU ticks (user + system) of serve and of its flooding children (`while :` loops), from /proc. */
function cpuTicks(servePid: number): { serve: number; floods: number } {
  const ticks = { serve: 0, floods: 0 };
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Fields after the command's closing parenthesis: state ppid … utime (14th field) stime (15th).
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const used = Number(fields[11]) + Number(fields[12]);
      if (Number(name) === servePid) ticks.serve += used;
      else if (Number(fields[1]) === servePid && readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('while :')) ticks.floods += used;
    } catch {
      // the process ended between listing and reading
    }
  }
  return ticks;
}

function startProcessCpuMeter(servePid: number): () => { serve: number; floods: number } {
  const before = cpuTicks(servePid);
  const startedAt = performance.now();
  return () => {
    const after = cpuTicks(servePid);
    const seconds = (performance.now() - startedAt) / 1000;
    const cores = (ticks: number) => ticks / CLOCK_TICKS_PER_SECOND / seconds;
    return { serve: cores(after.serve - before.serve), floods: cores(after.floods - before.floods) };
  };
}

/** Keystroke to echo frame on a WebSocket that carries only this pane's output (Node's `ws`, the UI secret as bearer). */
async function echoOverOwnSocket(uiUrl: string, paneName: string): Promise<number[]> {
  const url = new URL(uiUrl);
  const secret = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
  const ws = new WebSocket(`ws://${url.host}/ws`, { headers: { Authorization: `Bearer ${secret}` } });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let seq = 0;
  const replies = new Map<number, (value: unknown) => void>();
  let onFrame: (() => void) | undefined;
  let paneId = '';
  ws.on('message', (raw: Buffer, isBinary: boolean) => {
    if (isBinary) {
      if (decodeOutputFrame(new Uint8Array(raw)).id === paneId) onFrame?.();
      return;
    }
    const message = JSON.parse(raw.toString('utf8')) as { t: string; seq: number; value?: unknown };
    if (message.t === 'result') replies.get(message.seq)?.(message.value);
  });
  const call = (cmd: string, args: unknown) =>
    new Promise<unknown>((resolve) => {
      replies.set(++seq, resolve);
      ws.send(JSON.stringify({ t: 'call', seq, cmd, args }));
    });
  try {
    const snapshot = (await call('getSnapshot', {})) as { processes: { id: string; name: string }[] };
    paneId = snapshot.processes.find((p) => p.name === paneName)?.id ?? '';
    await call('attach', { id: paneId });
    const samples: number[] = [];
    for (let i = 0; i < ECHO_SAMPLES; i++) {
      const start = performance.now();
      const echoed = new Promise<void>((resolve) => (onFrame = resolve));
      void call('writeInput', { id: paneId, data: String.fromCharCode(97 + (i % 26)) });
      await echoed;
      samples.push(performance.now() - start);
    }
    return samples;
  } finally {
    ws.close();
  }
}

/**
 * Stamps, in the page, when each input call leaves, when its reply comes back (the core has
 * written it to the PTY), and when each output frame of the traced pane arrives: where an echo
 * waits (the core's loop, the socket, the renderer) shows in the differences.
 */
const ECHO_TRACE_SCRIPT = `(() => {
  const trace = (window.__echoTrace = { paneId: '', sends: new Map(), replies: new Map(), frames: [] });
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (typeof data === 'string' && data.includes('"cmd":"writeInput"')) trace.sends.set(JSON.parse(data).seq, performance.now());
    return send.call(this, data);
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        const at = performance.now();
        if (typeof event.data === 'string') {
          const message = JSON.parse(event.data);
          if (message.t === 'result' && trace.sends.has(message.seq)) trace.replies.set(message.seq, at);
          return;
        }
        const bytes = new Uint8Array(event.data);
        const headerLength = new DataView(event.data).getUint32(0);
        const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headerLength)));
        if (header.id === trace.paneId) trace.frames.push(at);
      });
    }
  };
})()`;

interface EchoStages {
  /** Keystroke to the screen showing its echo. */
  total: number[];
  /** The input call's round trip: the core's loop took it and wrote it to the PTY. */
  inputReply: number[];
  /** Keystroke to the echo's output frame arriving in the page. */
  frameArrived: number[];
  /** The echo's frame arriving to the screen showing it: the renderer's share. */
  rendered: number[];
  /** The input frame leaving the browser's network stack to the echo frame reaching it (no page main thread in it). */
  network: number[];
}

/**
 * Type one character at a time into an idle pane and time each stage until the terminal shows its
 * echo; serve's CPU and loop delay are taken over the keystrokes alone.
 */
async function echoLatency(
  page: Page,
  paneName: string,
  serve: ServeUnderTest,
): Promise<{ stages: EchoStages; cpu: { serve: number; floods: number }; loopDelay: LoopDelay }> {
  const target = page.locator(`[data-testid="pane"][data-name="${paneName}"]`);
  await target.scrollIntoViewIfNeeded();
  await target.locator('.pane-terminal').click();
  const id = (await target.getAttribute('data-id')) ?? '';
  await page.evaluate(`window.__echoTrace.paneId = ${JSON.stringify(id)}`);
  const stages: EchoStages = { total: [], inputReply: [], frameArrived: [], rendered: [], network: [] };
  const network = await networkStamps(page, id);
  await serve.loopDelay(); // starts the window
  const cpuUsed = serve.cpuMeter();
  const stopTrace = PAGE_TRACE ? await startPageTrace(page) : undefined;
  for (let i = 0; i < ECHO_SAMPLES; i++) {
    network.reset();
    const char = String.fromCharCode(97 + (i % 26));
    const screen = `window.switchboardDebug.screenText(${JSON.stringify(id)})`;
    const before = await page.evaluate<number>(`${screen}.length`);
    const waiting = page.evaluate<{ start: number; shown: number }>(
      `new Promise((done) => { const t = window.__echoTrace; t.frames.length = 0; t.sends.clear(); t.replies.clear();
        const start = performance.now();
        const check = () => (${screen}.length > ${before} ? done({ start, shown: performance.now() }) : requestAnimationFrame(check)); check(); })`,
    );
    await page.keyboard.type(char);
    const { start, shown } = await waiting;
    const trace = await page.evaluate<{ sent: number[]; replied: number[]; frames: number[] }>(
      `(() => { const t = window.__echoTrace; return { sent: [...t.sends.values()], replied: [...t.replies.values()], frames: [...t.frames] }; })()`,
    );
    const frame = trace.frames.find((at) => at >= start && at <= shown) ?? shown;
    stages.total.push(shown - start);
    if (trace.sent[0] !== undefined && trace.replied[0] !== undefined) stages.inputReply.push(trace.replied[0] - trace.sent[0]);
    stages.frameArrived.push(frame - start);
    stages.rendered.push(shown - frame);
    const roundTrip = network.roundTrip();
    if (roundTrip !== undefined) stages.network.push(roundTrip);
  }
  const usage = { stages, cpu: cpuUsed(), loopDelay: await serve.loopDelay() };
  if (stopTrace) process.stderr.write(`page main thread while typing into ${paneName} (share of the time):\n${await stopTrace()}\n`);
  return usage;
}

/** `SB_BENCH_PAGE_TRACE=1`: a Chromium trace of the page over the keystrokes, its main thread's time by kind of work printed on stderr. */
const PAGE_TRACE = Boolean(process.env.SB_BENCH_PAGE_TRACE);

/** Timeline events worth naming (they nest: a task contains a function call that forces a layout). */
const TRACED_WORK = [
  'RunTask',
  'FunctionCall',
  'TimerFire',
  'FireAnimationFrame',
  'EventDispatch',
  'UpdateLayoutTree',
  'Layout',
  'PrePaint',
  'Paint',
  'Layerize',
  'Commit',
  'MinorGC',
  'MajorGC',
];

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
}

async function startPageTrace(page: Page): Promise<() => Promise<string>> {
  const browser = page.context().browser();
  if (!browser) throw new Error('the page has no browser to trace');
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8'] });
  const startedAt = performance.now();
  return async () => {
    const events = (JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
    const windowMs = performance.now() - startedAt;
    const mainThreads = new Set(
      events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
    );
    const totals = new Map<string, number>();
    for (const event of events) {
      if (event.ph !== 'X' || !mainThreads.has(`${event.pid}:${event.tid}`) || !TRACED_WORK.includes(event.name)) continue;
      totals.set(event.name, (totals.get(event.name) ?? 0) + (event.dur ?? 0) / 1000);
    }
    return TRACED_WORK.filter((name) => totals.has(name))
      .map((name) => `  ${((100 * (totals.get(name) ?? 0)) / windowMs).toFixed(1).padStart(5)} %  ${name}`)
      .join('\n');
  };
}

/** The browser network stack's own timestamps (CDP) of the input frames sent and the pane's output frames received. */
async function networkStamps(page: Page, paneId: string) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  let sentAt: number | undefined;
  let echoedAt: number | undefined;
  cdp.on('Network.webSocketFrameSent', ({ timestamp, response }) => {
    if (sentAt === undefined && response.opcode === 1 && response.payloadData.includes('"cmd":"writeInput"')) sentAt = timestamp;
  });
  cdp.on('Network.webSocketFrameReceived', ({ timestamp, response }) => {
    if (sentAt === undefined || echoedAt !== undefined || response.opcode !== 2) return;
    if (decodeOutputFrame(Buffer.from(response.payloadData, 'base64')).id === paneId) echoedAt = timestamp;
  });
  return {
    reset: () => {
      sentAt = undefined;
      echoedAt = undefined;
    },
    roundTrip: () => (sentAt !== undefined && echoedAt !== undefined ? (echoedAt - sentAt) * 1_000 : undefined),
  };
}
