/**
 * The clipboard in a pane, through `serve` in Chromium with the page allowed to use the clipboard:
 * copy on select puts a selection there as soon as it is made (only with the setting on), and
 * Ctrl+Shift+V pastes wrapped in bracketed-paste markers exactly when the program asked for them.
 */
import { expect, test, type Page } from '@playwright/test';
import { pane, paneText } from './support/serve';
import { clipboard, doubleClickWord, openProcessesForEachTest, RAW_INPUT_ECHO, setClipboard } from './support/terminalInput';

const open = openProcessesForEachTest();

test('copy on select: a selection goes to the clipboard at once with the setting on, and only on Ctrl+Shift+C with it off', async ({
  page,
}) => {
  await open(page, { words: { command: 'bash', args: ['-c', 'echo "alpha firstword4711 middle secondword4712 omega"; exec cat'] } });
  await expect.poll(() => paneText(page, 'words')).toContain('secondword4712');
  const copyOnSelect = page.getByRole('checkbox', { name: 'Copy on select' });
  await expect(copyOnSelect).not.toBeChecked();

  await setClipboard(page, 'untouched');
  await doubleClickWord(page, 'words', 'firstword4711');
  expect(await clipboard(page)).toBe('untouched');
  await page.keyboard.press('Control+Shift+KeyC'); // the selection was made: the explicit copy takes it
  await expect.poll(() => clipboard(page)).toBe('firstword4711');

  await copyOnSelect.check();
  await setClipboard(page, 'untouched');
  await doubleClickWord(page, 'words', 'secondword4712');
  await expect.poll(() => clipboard(page)).toBe('secondword4712');
});

test('paste: the program gets ESC[200~ … ESC[201~ around the text when it turned bracketed paste on, the bare text when not', async ({
  page,
}) => {
  const rawEcho = (mode: 'on' | 'off') => ({ command: 'python3', args: ['-c', RAW_INPUT_ECHO, mode] });
  await open(page, { bracketed: rawEcho('on'), plain: rawEcho('off') });
  await setClipboard(page, 'pasted one\npasted two');
  for (const name of ['bracketed', 'plain']) {
    await expect.poll(() => paneText(page, name)).toContain('ready');
    await pane(page, name).locator('.pane-terminal').click();
    await page.keyboard.press('Control+Shift+KeyV');
  }
  // xterm sends a pasted newline as Enter (CR), as a terminal does.
  await expect.poll(() => paneText(page, 'bracketed')).toContain("got b'\\x1b[200~pasted one\\rpasted two\\x1b[201~'");
  await expect.poll(() => paneText(page, 'plain')).toContain("got b'pasted one\\rpasted two'");
  expect(await paneText(page, 'plain')).not.toContain('200~');
});

test('copy on select: find selecting its match again (after a click and typing, after output over a selection) copies nothing', async ({
  page,
}) => {
  // Each line read is printed again a second later: output that comes while the user's selection stands.
  const script = 'echo "hay needle4711 hay"; echo "hay needle4711 again"; while IFS= read -r line; do sleep 1; echo "late $line"; done';
  await open(page, { words: { command: 'bash', args: ['-c', script] } });
  await expect.poll(() => paneText(page, 'words')).toContain('needle4711 again');
  await page.getByRole('checkbox', { name: 'Copy on select' }).check();
  const terminal = pane(page, 'words').locator('.pane-terminal');
  await terminal.click();
  await page.keyboard.press('Control+Shift+F');
  const bar = pane(page, 'words').getByTestId('find-bar');
  await bar.getByTestId('find-input').fill('needle4711');
  await expect(bar.getByTestId('find-count')).toHaveText(/^\d of 2$/);
  const id = (await pane(page, 'words').getAttribute('data-id')) ?? '';

  // A click drops the selection the match was; typing puts the match back (activeMatch.ts), and the
  // search addon's refresh 200 ms after output selects a match: none of it is a selection to copy.
  await terminal.click();
  await setClipboard(page, 'untouched');
  const refreshed = afterFindRefresh(page, id, 'late typed-after-find');
  await page.keyboard.type('typed-after-find');
  await page.keyboard.press('Enter');
  await refreshed;
  expect(await clipboard(page)).toBe('untouched');

  // A selection the user makes is copied; the refresh after the output that follows moves the
  // selection to a match, and that is not copied over it.
  const refreshedAgain = afterFindRefresh(page, id, 'late more');
  await page.keyboard.type('more');
  await page.keyboard.press('Enter');
  await doubleClickWord(page, 'words', 'again');
  await expect.poll(() => clipboard(page)).toBe('again');
  await refreshedAgain;
  expect(await clipboard(page)).toBe('again');
});

/**
 * Resolves once `text` is on the pane's screen and find's refresh after it has run. Called before
 * the typing, so the page is already waiting when the output comes.
 */
async function afterFindRefresh(page: Page, id: string, text: string): Promise<void> {
  await page.evaluate(
    async ([i, t]) => {
      const hook = (window as unknown as { switchboardDebug: FindDebug }).switchboardDebug;
      while (!hook.screenText(i).includes(t)) await hook.nextFindResults(i);
    },
    [id, text] as const,
  );
}

interface FindDebug {
  screenText(id: string): string;
  nextFindResults(id: string): Promise<{ index: number; count: number }> | undefined;
}
