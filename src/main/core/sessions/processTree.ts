/**
 * Process-table reads for tree kill. Linux reads /proc directly (no child process per call);
 * other Unixes ask `ps`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

interface ProcessRow {
  pid: number;
  ppid: number;
  pgid: number;
  /** Zombies are dead for our purposes: they only wait to be reaped. */
  isZombie: boolean;
}

const hasProc = process.platform === 'linux';

export function readProcessTable(): Map<number, ProcessRow> {
  return hasProc ? readProcTable() : readPsTable();
}

function readProcTable(): Map<number, ProcessRow> {
  const rows = new Map<number, ProcessRow>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const row = readProcStat(pid);
    if (row) rows.set(pid, row);
  }
  return rows;
}

/** Parses /proc/PID/stat; the command name may contain spaces and parentheses, so split after the last ')'. */
function readProcStat(pid: number): ProcessRow | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // exited between readdir and read
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]), isZombie: fields[0] === 'Z' || fields[0] === 'X' };
}

function readPsTable(): Map<number, ProcessRow> {
  const rows = new Map<number, ProcessRow>();
  const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat='], { encoding: 'utf8' });
  for (const line of out.split('\n')) {
    const [pid, ppid, pgid, stat] = line.trim().split(/\s+/);
    if (!pid) continue;
    rows.set(Number(pid), { pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), isZombie: stat?.startsWith('Z') ?? false });
  }
  return rows;
}

/** The root and every descendant of it in `table`. */
export function collectTree(rootPid: number, table: Map<number, ProcessRow>): Set<number> {
  const children = new Map<number, number[]>();
  for (const row of table.values()) {
    const list = children.get(row.ppid) ?? [];
    list.push(row.pid);
    children.set(row.ppid, list);
  }
  const tree = new Set<number>();
  const stack = [rootPid];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (tree.has(pid)) continue;
    tree.add(pid);
    for (const child of children.get(pid) ?? []) stack.push(child);
  }
  return tree;
}

/**
 * Processes whose environment carries `KEY=value`: every process Switchboard spawns inherits a
 * per-run marker, so descendants that re-parented to init (double fork, setsid daemons) are still
 * found. Linux only; elsewhere tree walking has to do.
 */
export function findByEnvMarker(key: string, value: string): Set<number> {
  const found = new Set<number>();
  if (!hasProc) return found;
  const needle = Buffer.from(`\0${key}=${value}\0`);
  const needleAtStart = needle.subarray(1);
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${pid}/environ`);
    } catch {
      continue; // gone, or not ours to read
    }
    if (environ.includes(needle) || environ.subarray(0, needleAtStart.length).equals(needleAtStart)) found.add(pid);
  }
  return found;
}

export function isAlive(pid: number): boolean {
  if (hasProc) {
    const row = readProcStat(pid);
    return row !== undefined && !row.isZombie;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // No such process, or one we may not signal (not ours to watch).
    return false;
  }
}
