/**
 * What another local user sees of our processes: a separate process reads every
 * `/proc/<pid>/cmdline` in a tight loop (as any user may) and reports the command lines that hold a
 * secret. Processes that ran before it started are read once: their command lines were set before
 * any secret it watches for was issued, and skipping them keeps a pass around a millisecond on a
 * busy machine (a pass over ~150 processes took 30 ms), short enough to see a hook's curl. Secrets reach it on its stdin, never in its own argv. A command line holding one of the
 * `markers` (e.g. the hook receiver's URL) is announced as soon as it is seen, so a test can hold a
 * request open until the sniffer has looked at its sender, and can tell that the sniffer was
 * looking at the right moment at all.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

interface SniffReport {
  scans: number;
  /** Command lines (NUL turned into spaces) that held a secret. */
  leaks: string[];
  /** Distinct processes whose command line held a marker. */
  marked: number;
}

export interface CmdlineSniffer {
  /** Adds secrets to look for and markers to announce. */
  watch(o: { secrets?: readonly string[]; markers?: readonly string[] }): void;
  /** Resolves with the first command line holding `marker` (and passing `accept`) seen from now on. */
  nextMarked(marker: string, accept?: (cmdline: string) => boolean): Promise<string>;
  stop(): Promise<SniffReport>;
}

const SCRIPT = String.raw`
const fs = require('fs');
const secrets = [], markers = [], leaks = new Set(), marked = new Set(), before = new Set();
let scans = 0, stopped = false, pending = '';
process.stdin.on('data', (d) => {
  pending += d;
  for (let i; (i = pending.indexOf('\n')) >= 0; pending = pending.slice(i + 1)) {
    const m = JSON.parse(pending.slice(0, i));
    secrets.push(...(m.secrets || []));
    markers.push(...(m.markers || []));
  }
});
process.stdin.on('end', () => (stopped = true));
function scan() {
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid || before.has(pid)) continue;
    if (scans === 0) before.add(pid);
    let cmdline;
    try { cmdline = fs.readFileSync('/proc/' + pid + '/cmdline', 'latin1').split('\0').join(' ').trim(); } catch { continue; }
    if (!cmdline) continue;
    if (secrets.some((s) => cmdline.includes(s))) leaks.add(cmdline);
    const marker = markers.find((m) => cmdline.includes(m));
    if (marker !== undefined && !marked.has(pid + ' ' + cmdline)) {
      marked.add(pid + ' ' + cmdline);
      process.stdout.write(JSON.stringify({ marker, cmdline }) + '\n');
    }
  }
  scans += 1;
}
(function tick() {
  if (stopped) {
    process.stdout.write(JSON.stringify({ report: { scans, leaks: [...leaks], marked: marked.size } }) + '\n');
    return;
  }
  scan();
  if (scans === 1) process.stdout.write(JSON.stringify({ ready: true }) + '\n');
  setTimeout(tick, 1);
})();
`;

export async function startCmdlineSniffer(): Promise<CmdlineSniffer> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['-e', SCRIPT], { stdio: 'pipe' });
  const lines = createInterface({ input: child.stdout });
  const waiters: Array<{ marker: string; accept: (cmdline: string) => boolean; resolve: (cmdline: string) => void }> = [];
  let onReport: ((report: SniffReport) => void) | undefined;
  let onReady: (() => void) | undefined;
  lines.on('line', (line) => {
    const message = JSON.parse(line) as { ready?: true; marker?: string; cmdline?: string; report?: SniffReport };
    if (message.ready) onReady?.();
    if (message.report) onReport?.(message.report);
    if (message.marker === undefined) return;
    for (const waiter of waiters.filter((w) => w.marker === message.marker && w.accept(message.cmdline!))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(message.cmdline!);
    }
  });
  await new Promise<void>((resolve, reject) => {
    onReady = resolve;
    child.once('exit', (code) => reject(new Error(`the cmdline sniffer exited (${code})`)));
  });
  let stopped: Promise<SniffReport> | undefined;
  return {
    watch: (o) => child.stdin.write(`${JSON.stringify(o)}\n`),
    nextMarked: (marker, accept = () => true) => new Promise((resolve) => waiters.push({ marker, accept, resolve })),
    // Once: a test's cleanup may stop it again after the test read its report.
    stop: () =>
      (stopped ??= new Promise<SniffReport>((resolve) => {
        onReport = resolve;
        child.stdin.end();
      })),
  };
}
