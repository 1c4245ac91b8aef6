/** Starts the real `serve` (built output) on a project and returns its announced JSON line. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { test, type Page } from '@playwright/test';

export interface ServeHandle {
  ui: string;
  /** The first project's MCP endpoint (absent when serve started without a project). */
  token: string;
  pid: number;
  url?: string;
  /** Every project opened at start, each with its own MCP endpoint and app token. */
  projects: Array<{ id: string; dir: string; url: string; token: string }>;
  dataDir: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

const ROOT = resolve(__dirname, '../..');

/**
 * `projectDirs`: the folders to open at start (none: the welcome view). `trust` (default true)
 * starts serve with --trust: the projects' entries may run at once. `roots`: more folders the
 * browser's path field may open (home always may). `dataDir`: a data directory that outlives this
 * serve (restart tests); default a fresh one removed on stop. `port`: a fixed port (restart on the
 * same address). `env`: extra environment for serve.
 */
interface ServeOptions {
  trust?: boolean;
  roots?: string[];
  dataDir?: string;
  port?: number;
  env?: Record<string, string>;
  /** More arguments for serve (`--remote`, `--ssh-config`). */
  args?: string[];
  /** How long serve may take to print its line (a first connect to a remote host installs the server there). */
  announceTimeoutMs?: number;
}

export async function startServe(projectDirs: string | string[], options: ServeOptions = {}): Promise<ServeHandle> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'sb-e2e-data-'));
  const trust = options.trust === false ? [] : ['--trust'];
  const port = options.port === undefined ? [] : ['--port', String(options.port)];
  const projects = (Array.isArray(projectDirs) ? projectDirs : [projectDirs]).flatMap((dir) => ['--project', dir]);
  const roots = (options.roots ?? []).flatMap((dir) => ['--root', dir]);
  const child = spawn(
    process.execPath,
    [join(ROOT, 'out/main/serve.js'), ...projects, ...roots, '--data-dir', dataDir, ...trust, ...port, ...(options.args ?? [])],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...options.env },
    },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const line = await new Promise<string>((resolveLine, reject) => {
    const timeoutMs = options.announceTimeoutMs ?? 20_000;
    // A serve that never announced has no handle to stop it by: it is ended here, not left running.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not announce itself in ${timeoutMs / 1000} s; stderr: ${stderr}`));
    }, timeoutMs);
    createInterface({ input: child.stdout }).once('line', (l) => {
      clearTimeout(timer);
      resolveLine(l);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  const announced = JSON.parse(line) as Omit<ServeHandle, 'process' | 'stop' | 'dataDir'>;
  return {
    ...announced,
    dataDir,
    process: child,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Text a pane's terminal shows (buffer incl. scrollback), read through the debug hook. */
export function paneText(page: Page, name: string): Promise<string> {
  return page.evaluate((paneName) => {
    const el = document.querySelector(`[data-testid="pane"][data-name="${paneName}"]`);
    const id = el?.getAttribute('data-id');
    const debug = (window as unknown as { switchboardDebug?: { screenText(id: string): string } }).switchboardDebug;
    return id && debug ? debug.screenText(id) : '';
  }, name);
}

export function pane(page: Page, name: string) {
  return page.locator(`[data-testid="pane"][data-name="${name}"]`);
}

/** Starts serve on `projectDir` before each test of the file and stops it after; returns the running handle. */
export function serveForEachTest(projectDir: string, options: { trust?: boolean } = {}): () => ServeHandle {
  let handle: ServeHandle | undefined;
  test.beforeEach(async () => {
    handle = await startServe(projectDir, options);
  });
  test.afterEach(async () => {
    await handle?.stop();
    handle = undefined;
  });
  return () => {
    if (!handle) throw new Error('serve is not running outside a test');
    return handle;
  };
}
