/** Starts the real `serve` (built output) on a project and returns its announced JSON line. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Page } from '@playwright/test';

export interface ServeHandle {
  ui: string;
  token: string;
  pid: number;
  url?: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

const ROOT = resolve(__dirname, '../..');

export interface ServeOptions {
  /** Start with --trust (default true): the project's entries may run at once. */
  trust?: boolean;
  /** Keep state across a restart: the caller owns (and removes) this directory. */
  dataDir?: string;
  port?: number;
  env?: Record<string, string>;
}

export async function startServe(projectDir: string, options: ServeOptions = {}): Promise<ServeHandle> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'sb-e2e-data-'));
  const trust = options.trust === false ? [] : ['--trust'];
  const port = options.port === undefined ? [] : ['--port', String(options.port)];
  const child = spawn(
    process.execPath,
    [join(ROOT, 'out/main/serve.js'), '--project', projectDir, '--data-dir', dataDir, ...trust, ...port],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const line = await new Promise<string>((resolveLine, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not announce itself in 20 s; stderr: ${stderr}`)), 20_000);
    createInterface({ input: child.stdout }).once('line', (l) => {
      clearTimeout(timer);
      resolveLine(l);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  const announced = JSON.parse(line) as { ui: string; token: string; pid: number; url?: string };
  return {
    ...announced,
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
