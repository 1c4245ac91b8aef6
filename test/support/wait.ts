/** Event-driven waits for tests: every wait has a timeout and a message that shows the state. */
import { existsSync, readFileSync, watch } from 'node:fs';
import { dirname } from 'node:path';
import type { ProcessEntry } from '../../src/main/core/sessions';

/** Resolves when the entry's output since `fromOffset` matches `pattern`. */
export function waitForOutput(entry: ProcessEntry, pattern: RegExp, timeoutMs = 10_000, fromOffset = entry.runOffset): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const text = entry.ring.read(fromOffset).data.toString('utf8');
      if (!pattern.test(text)) return false;
      resolve(text);
      return true;
    };
    if (check()) return;
    const timer = setTimeout(() => {
      sub.dispose();
      const text = entry.ring.read(fromOffset).data.toString('utf8');
      reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${pattern} in output of ${entry.name}:\n${text.slice(-2000)}`));
    }, timeoutMs);
    const sub = entry.onDidWriteOutput(() => {
      if (check()) {
        clearTimeout(timer);
        sub.dispose();
      }
    });
  });
}

/** Resolves when the run ends. */
export function waitForExit(entry: ProcessEntry, timeoutMs = 10_000): Promise<void> {
  if (!entry.isRunning) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry.name} did not exit within ${timeoutMs} ms`)), timeoutMs);
    const sub = entry.onDidExitRun(() => {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
}

/** Resolves when `predicate()` holds after a screen change. */
export function waitForScreen(entry: ProcessEntry, predicate: (lines: string[]) => boolean, timeoutMs = 10_000): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const lines = entry.screen.getVisibleLines();
      if (!predicate(lines)) return false;
      resolve(lines);
      return true;
    };
    if (check()) return;
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`Timed out after ${timeoutMs} ms; screen:\n${entry.screen.getVisibleLines().join('\n')}`));
    }, timeoutMs);
    const sub = entry.screen.onDidChange(() => {
      if (check()) {
        clearTimeout(timer);
        sub.dispose();
      }
    });
  });
}

/** Resolves once `path` contains `text` (watching its directory: no polling). */
export function waitForFileText(path: string, text: string, timeoutMs: number): Promise<void> {
  const has = () => existsSync(path) && readFileSync(path, 'utf8').includes(text);
  if (has()) return Promise.resolve();
  return new Promise((resolveWait, reject) => {
    const settle = () => {
      if (!has()) return;
      clearTimeout(timer);
      watcher.close();
      resolveWait();
    };
    const watcher = watch(dirname(path), settle);
    const timer = setTimeout(() => {
      watcher.close();
      reject(new Error(`${path} did not contain ${JSON.stringify(text)} within ${timeoutMs} ms`));
    }, timeoutMs);
    // The text may have been written between the first look and the watch: look once more.
    settle();
  });
}

/** The entry's last `rows` non-blank screen rows: the context a failed wait on an agent shows. */
export function screenTail(entry: ProcessEntry, rows = 12): string {
  return entry.screen
    .getVisibleLines()
    .filter((l) => l.trim())
    .slice(-rows)
    .join('\n');
}
