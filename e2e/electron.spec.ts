/**
 * The real Electron app, wherever its binary is installed. On the build machines it is not
 * (ELECTRON_SKIP_BINARY_DOWNLOAD=1), and this test says so plainly instead of pretending.
 */
import { _electron as electron, expect, test } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expectCtrlCInterrupts } from './support/terminalInput';

const ROOT = resolve(__dirname, '..');

/**
 * The installed binary, found the way the electron package does — without requiring it, since
 * electron ≥ 38 tries to download a missing binary on require (no network here).
 */
function electronBinary(): string | undefined {
  const pkg = resolve(ROOT, 'node_modules/electron');
  const pathFile = resolve(pkg, 'path.txt');
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) return resolve(process.env.ELECTRON_OVERRIDE_DIST_PATH, 'electron');
  if (!existsSync(pathFile)) return undefined;
  const binary = resolve(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

/** The binary, or the test skipped saying why. */
function electronOrSkip(): string | undefined {
  const binary = electronBinary();
  if (!binary) console.log('electron.spec: SKIPPED — no Electron binary installed here (ELECTRON_SKIP_BINARY_DOWNLOAD=1).');
  test.skip(
    !binary,
    'SKIPPED: the Electron binary is not installed here (ELECTRON_SKIP_BINARY_DOWNLOAD=1); the shell is covered by src/main/electron/shell.test.ts with electron mocked',
  );
  return binary;
}

test('the Electron app starts, shows the grid and quits leaving no child process', async () => {
  const binary = electronOrSkip();
  const app = await electron.launch({
    executablePath: binary,
    args: [ROOT, '--project', resolve(__dirname, 'fixtures/three-entries'), '--no-sandbox', '--trust'],
  });
  const page = await app.firstWindow();
  await expect(page.locator('[data-testid="pane"]')).toHaveCount(3);
  const isolated = await page.evaluate(() => typeof (window as unknown as { require?: unknown }).require === 'undefined');
  expect(isolated).toBe(true);
  const pid = app.process().pid!;
  await app.close();
  expect(() => process.kill(pid, 0)).toThrow();
});

test('Ctrl+C in a pane running sleep 100 ends it: the application menu leaves the interrupt to the terminal', async () => {
  const binary = electronOrSkip();
  const project = mkdtempSync(join(tmpdir(), 'sb-e2e-electron-keys-'));
  writeFileSync(join(project, 'switchboard.json'), JSON.stringify({ processes: { sleeper: { command: 'sleep', args: ['100'] } } }));
  const app = await electron.launch({ executablePath: binary, args: [ROOT, '--project', project, '--no-sandbox', '--trust'] });
  try {
    await expectCtrlCInterrupts(await app.firstWindow(), 'sleeper');
  } finally {
    await app.close();
    rmSync(project, { recursive: true, force: true });
  }
});
