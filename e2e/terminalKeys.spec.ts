/**
 * The terminal's keys reach the program in the pane (issue: on Linux/Windows the menu used to take
 * Ctrl+C, Ctrl+Z, Ctrl+A, Ctrl+O, Ctrl+V, Ctrl+X), the terminal emulators' Ctrl+Shift chords copy,
 * paste and select instead, and the app's text fields keep their own editing keys. Through `serve`
 * in Chromium on Linux, so the renderer's handling is what is under test; the menu's side is
 * menuTemplate.test.ts.
 */
import { expect, test } from '@playwright/test';
import { pane, paneText } from './support/serve';
import {
  clipboard,
  doubleClickWord,
  expectCtrlCInterrupts,
  openProcessesForEachTest,
  RAW_INPUT_ECHO,
  setClipboard,
} from './support/terminalInput';

const open = openProcessesForEachTest();

/** Prints a word to select, then echoes the raw bytes it reads. */
const rawEchoAfter = (word: string) => ({
  command: 'bash',
  args: ['-c', `echo ${word}; exec python3 -c "$0" off`, RAW_INPUT_ECHO],
});

test('Ctrl+C, Ctrl+Z, Ctrl+A, Ctrl+O, Ctrl+V and Ctrl+X typed into a focused pane reach the program as bytes', async ({ page }) => {
  await open(page, { keys: rawEchoAfter('keys4711') });
  await expect.poll(() => paneText(page, 'keys')).toContain('ready');
  await pane(page, 'keys').locator('.pane-terminal').click();
  for (const letter of ['C', 'Z', 'A', 'O', 'V', 'X']) await page.keyboard.press(`Control+Key${letter}`);
  await expect.poll(() => paneText(page, 'keys')).toContain("got b'\\x03\\x1a\\x01\\x0f\\x16\\x18'");
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('Ctrl+C in a pane running sleep 100 interrupts it', async ({ page }) => {
  await open(page, { sleeper: { command: 'sleep', args: ['100'] } });
  await expectCtrlCInterrupts(page, 'sleeper');
});

test('Ctrl+Shift+C copies the selection, Ctrl+Shift+V pastes it, Ctrl+Shift+A selects the buffer; the program sees only the paste', async ({
  page,
}) => {
  await open(page, { keys: rawEchoAfter('pickme4712') });
  await expect.poll(() => paneText(page, 'keys')).toContain('ready');
  await setClipboard(page, 'untouched');
  await doubleClickWord(page, 'keys', 'pickme4712');
  await page.keyboard.press('Control+Shift+KeyC');
  await expect.poll(() => clipboard(page)).toBe('pickme4712');

  await page.keyboard.press('Control+Shift+KeyV');
  await expect.poll(() => paneText(page, 'keys')).toContain("got b'pickme4712'");

  await page.keyboard.press('Control+Shift+KeyA');
  await page.keyboard.press('Control+Shift+KeyC');
  await expect.poll(() => clipboard(page)).toMatch(/pickme4712[\s\S]*ready[\s\S]*got b'pickme4712'/);
  // Neither copy nor select-all sent the program anything: the only input it read is the paste.
  expect((await paneText(page, 'keys')).match(/got b'/g)).toHaveLength(1);
});

test('text fields keep Ctrl+A, Ctrl+C, Ctrl+X, Ctrl+V and Ctrl+Z', async ({ page }) => {
  await open(page, { keys: rawEchoAfter('field4713') });
  await expect.poll(() => paneText(page, 'keys')).toContain('ready');
  await pane(page, 'keys').locator('.pane-terminal').click();
  await page.keyboard.press('Control+Shift+KeyK');
  const search = page.getByRole('combobox', { name: 'Search commands' });
  await expect(search).toBeFocused();
  await search.pressSequentially('zoom');
  await page.keyboard.press('Control+KeyA');
  await page.keyboard.press('Control+KeyC');
  await expect.poll(() => clipboard(page)).toBe('zoom');
  await page.keyboard.press('Control+KeyX');
  await expect(search).toHaveValue('');
  await page.keyboard.press('Control+KeyV');
  await page.keyboard.press('Control+KeyV');
  await expect(search).toHaveValue('zoomzoom');
  await page.keyboard.press('Control+KeyZ');
  await expect(search).toHaveValue('zoom');
  // The palette shows the chords from the keymap beside the actions that have one.
  await expect(page.getByRole('option', { name: /Zoom terminals in/ }).getByTestId('palette-hint')).toHaveText('Ctrl+Shift+=');
  expect(await paneText(page, 'keys')).not.toContain('got ');
});
