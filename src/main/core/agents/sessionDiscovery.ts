/**
 * The agent CLIs' own session files: the session id of a CLI that names its sessions itself
 * (Codex) — the session file the run holds open (Linux /proc fds of its process tree), else the
 * newest matching file under the CLI's home written since the run started in the same working
 * directory — and whether a CLI stored a conversation under an id Switchboard assigned.
 */
import { existsSync, readdirSync, readlinkSync, statSync, openSync, readSync, closeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { collectTree, findByEnvMarker, readProcessTable, RUN_MARKER_ENV } from '../sessions';
import { SESSION_PLACEHOLDER, type SessionHome } from './agentPreset';

type SessionFileRule = SessionHome & { pattern: RegExp };
type TranscriptRule = SessionHome & { fileName: string };

interface RunToSearch {
  pid?: number;
  marker?: string;
  cwd: string;
  startedAt: number;
  env: Readonly<Record<string, string>>;
}

/** How deep the dated session folders go (YYYY/MM/DD) plus slack for other layouts. */
const MAX_SCAN_DEPTH = 5;
/** Only the head of a session file is read to match its working directory. */
const HEAD_BYTES = 64 * 1024;

export function discoverSessionId(rule: SessionFileRule, run: RunToSearch): string | undefined {
  return fromOpenFiles(rule, run) ?? fromSessionDir(rule, run);
}

function fromOpenFiles(rule: SessionFileRule, run: RunToSearch): string | undefined {
  if (process.platform !== 'linux') return undefined;
  const pids = run.pid !== undefined ? collectTree(run.pid, readProcessTable()) : new Set<number>();
  if (run.marker) for (const pid of findByEnvMarker(RUN_MARKER_ENV, run.marker)) pids.add(pid);
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const match = rule.pattern.exec(target);
      if (match?.[1]) return match[1];
    }
  }
  return undefined;
}

/**
 * Whether the CLI stored a conversation under `sessionId`: its transcript file in any folder right
 * under the home (the folder name encodes the working directory in the CLI's own way, which
 * changes with its versions; the id alone is unique).
 */
export function hasStoredConversation(rule: TranscriptRule, sessionId: string, env: Readonly<Record<string, string>>): boolean {
  const root = join(homeOf(rule, env), rule.dir);
  const fileName = rule.fileName.split(SESSION_PLACEHOLDER).join(sessionId);
  let folders: string[];
  try {
    folders = readdirSync(root);
  } catch {
    return false;
  }
  return folders.some((folder) => existsSync(join(root, folder, fileName)));
}

/** The CLI's home as the CLI resolves it: `~` is the HOME the entry gives it, else ours. */
function homeOf(rule: SessionHome, env: Readonly<Record<string, string>>): string {
  return env[rule.homeEnv] ?? process.env[rule.homeEnv] ?? rule.defaultHome.replace(/^~/, env.HOME ?? homedir());
}

function fromSessionDir(rule: SessionFileRule, run: RunToSearch): string | undefined {
  const home = homeOf(rule, run.env);
  let best: { id: string; mtime: number } | undefined;
  const visit = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      let stat;
      try {
        stat = statSync(path);
      } catch {
        continue;
      }
      if (stat.isDirectory()) {
        if (depth < MAX_SCAN_DEPTH) visit(path, depth + 1);
        continue;
      }
      const match = rule.pattern.exec(path);
      if (!match?.[1] || stat.mtimeMs < run.startedAt || (best && stat.mtimeMs <= best.mtime)) continue;
      if (mentionsCwd(path, run.cwd)) best = { id: match[1], mtime: stat.mtimeMs };
    }
  };
  visit(join(home, rule.dir), 0);
  return best?.id;
}

/** Session files record the working directory near their start (JSON-escaped). */
function mentionsCwd(path: string, cwd: string): boolean {
  const buffer = Buffer.alloc(HEAD_BYTES);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const length = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, length).toString('utf8').includes(JSON.stringify(cwd));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
