/**
 * A real `serve` process (node with tsx's loader, no build needed: one node process, so signals
 * reach serve itself, not a wrapper, and SIGKILL really kills the app).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = resolve(__dirname, '../..');
/** tsx compiles serve on the fly: a few seconds on a busy machine. */
const SERVE_START_TIMEOUT_MS = 60_000;

interface ServeLine {
  ui: string;
  url: string;
  token: string;
  pid: number;
}

export interface ServeProcess {
  child: ChildProcess;
  printed: ServeLine;
  root: string;
  projectDir: string;
  dataDir: string;
  staticDir: string;
  /** Everything serve wrote on stderr so far. */
  stderr(): string;
  kill(): void;
}

interface ServeOptions {
  root?: string;
  staticFiles?: Record<string, string>;
  extraArgs?: string[];
  /** Writes the project's files (switchboard.json) before serve opens it. */
  beforeStart?: (projectDir: string) => void;
}

/** Starts serve in a throw-away root (or `options.root`) and resolves with its printed line. */
export async function startServe(options: ServeOptions = {}): Promise<ServeProcess> {
  const root = options.root ?? mkdtempSync(join(tmpdir(), 'serve-'));
  const projectDir = join(root, 'project');
  const dataDir = join(root, 'data');
  const staticDir = join(root, 'static');
  mkdirSync(projectDir, { recursive: true });
  mkdirSync(staticDir, { recursive: true });
  for (const [name, text] of Object.entries(options.staticFiles ?? {})) writeFileSync(join(staticDir, name), text);
  options.beforeStart?.(projectDir);
  const { child, printed, stderr } = await spawnServe({ projectDir, dataDir, staticDir }, options.extraArgs ?? []);
  return {
    child,
    printed,
    root,
    projectDir,
    dataDir,
    staticDir,
    stderr,
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (!options.root) rmSync(root, { recursive: true, force: true });
    },
  };
}

interface ServeDirs {
  projectDir: string;
  dataDir: string;
  staticDir: string;
}

interface SpawnedServe {
  child: ChildProcess;
  printed: ServeLine;
  /** Everything serve wrote on stderr so far. */
  stderr(): string;
  /** Resolves with the exit code once the process is gone. */
  exited: Promise<number | null>;
}

/**
 * Spawns serve on these directories and resolves with its printed line; rejects with its stderr if
 * it exits first. `env`: added to this process's environment (what a user's shell exports).
 */
export async function spawnServe(dirs: ServeDirs, extraArgs: string[] = [], env: Record<string, string> = {}): Promise<SpawnedServe> {
  const args = ['--project', dirs.projectDir, '--data-dir', dirs.dataDir, '--static-dir', dirs.staticDir, ...extraArgs];
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/main/serve.ts'), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const line = await new Promise<string>((resolveLine, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve printed nothing within ${SERVE_START_TIMEOUT_MS} ms; stderr:\n${stderr}`)),
      SERVE_START_TIMEOUT_MS,
    );
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (first) => {
      clearTimeout(timer);
      lines.close();
      resolveLine(first);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}; stderr:\n${stderr}`));
    });
  });
  return { child, printed: JSON.parse(line) as ServeLine, stderr: () => stderr, exited };
}

export function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
}
