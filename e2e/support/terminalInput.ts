/** What a program in a pane reads, the clipboard and mouse selection, for the keyboard and clipboard e2e tests. */
import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pane, startServe, type ServeHandle } from './serve';

/** Prints the repr of everything it has read so far in raw mode; `on` first turns on bracketed paste (DECSET 2004). */
export const RAW_INPUT_ECHO = [
  'import os, sys, tty',
  "if sys.argv[1] == 'on': sys.stdout.write('\\x1b[?2004h')",
  "sys.stdout.write('ready\\r\\n'); sys.stdout.flush()",
  'tty.setraw(0)',
  "seen = b''",
  'while True:',
  '    seen += os.read(0, 4096)',
  "    sys.stdout.write('got ' + repr(seen) + '\\r\\n'); sys.stdout.flush()",
].join('\n');

export const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
export const setClipboard = (page: Page, text: string) => page.evaluate((t) => navigator.clipboard.writeText(t), text);

/** Double-clicks `word` in the pane's terminal: xterm selects the word, as for a person. */
export async function doubleClickWord(page: Page, name: string, word: string): Promise<void> {
  const id = (await pane(page, name).getAttribute('data-id')) ?? '';
  const point = await page.evaluate(
    ([i, w]) =>
      (
        window as unknown as { switchboardDebug: { pointOf(id: string, text: string): { x: number; y: number } | undefined } }
      ).switchboardDebug.pointOf(i, w),
    [id, word] as const,
  );
  expect(point, `"${word}" is not on the screen of ${name}`).toBeDefined();
  await page.mouse.dblclick(point!.x + 2, point!.y);
}

/**
 * Returns `open(page, processes)`: serve on a fresh project holding just those processes, the page
 * allowed to use the clipboard and showing it; serve stops and the project goes after each test.
 */
export function openProcessesForEachTest(): (page: Page, processes: Record<string, unknown>) => Promise<ServeHandle> {
  let serve: ServeHandle | undefined;
  let project: string | undefined;
  test.afterEach(async () => {
    await serve?.stop();
    serve = undefined;
    if (project) rmSync(project, { recursive: true, force: true });
    project = undefined;
  });
  return async (page, processes) => {
    project = mkdtempSync(join(tmpdir(), 'sb-e2e-terminal-'));
    writeFileSync(join(project, 'switchboard.json'), JSON.stringify({ processes }));
    serve = await startServe(project);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(serve.ui).origin });
    await page.goto(serve.ui);
    return serve;
  };
}

/** Ctrl+C in the pane `name`, which runs `sleep 100`, ends it by SIGINT as a terminal's interrupt does. */
export async function expectCtrlCInterrupts(page: Page, name: string): Promise<void> {
  const state = pane(page, name).getByTestId('state');
  await expect(state).toContainText('running');
  await pane(page, name).locator('.pane-terminal').click();
  await page.keyboard.press('Control+KeyC');
  await expect(state).toHaveAttribute('title', 'Killed by signal 2');
}
