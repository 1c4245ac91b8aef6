/**
 * The grid a person keeps open all day, through `serve` in Chromium: find, zoom, themes, a layout
 * that survives a reload, 30 entries with detached panes, and reconnecting after serve restarts.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pane, paneText, startServe, type ServeHandle } from './support/serve';
import { screenshotPath } from './support/screenshots';
import { freePort } from '../test/support/ports';

const THREE_ENTRIES = resolve(__dirname, 'fixtures/three-entries');

interface Debug {
  mountedPanes(): number;
  fontSize(id: string): number | undefined;
  terminalBackground(id: string): string | undefined;
  pointOf(id: string, text: string): { x: number; y: number } | undefined;
  renderer(id: string): string | null;
  rows(id: string): number | undefined;
}
/** Calls one read-only method of the page's debug hook. */
const debug = <M extends keyof Debug>(page: Page, method: M, ...args: Parameters<Debug[M]>) =>
  page.evaluate(
    ([m, a]) => {
      const hook = (window as unknown as { switchboardDebug: Record<string, (...x: unknown[]) => unknown> }).switchboardDebug;
      const call = hook[m];
      return call ? call(...a) : undefined;
    },
    [method, args] as const,
  ) as Promise<ReturnType<Debug[M]>>;
const idOf = async (page: Page, name: string) => (await pane(page, name).getAttribute('data-id')) ?? '';
const paneNames = (page: Page) => page.locator('[data-testid="pane"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));

let serve: ServeHandle | undefined;
const cleanups: (() => void)[] = [];
test.afterEach(async () => {
  await serve?.stop();
  serve = undefined;
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** One project folder per name under `root`, each with one `cat` entry named `<name>-echo`. */
function echoProjects(root: string, names: string[]): string[] {
  return names.map((name) => {
    const dir = join(root, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'switchboard.json'), JSON.stringify({ processes: { [`${name}-echo`]: { command: 'cat' } } }));
    return dir;
  });
}

async function typeInto(page: Page, name: string, line: string): Promise<void> {
  await pane(page, name).scrollIntoViewIfNeeded();
  await expect(pane(page, name)).toHaveAttribute('data-attached', 'true');
  await pane(page, name).locator('.pane-terminal').click();
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

/** The page at `ui` with every pane on one renderer (`?renderer=`): find must work on both. */
function onRenderer(ui: string, renderer: Renderer): string {
  const url = new URL(ui);
  url.searchParams.set('renderer', renderer);
  return url.toString();
}
type Renderer = 'dom' | 'webgl';

/** The shell pane on `renderer` with four "needle"s (the command line and three lines of output), its find bar open on them. */
async function findNeedles(page: Page, renderer: Renderer) {
  serve = await startServe(THREE_ENTRIES);
  await page.goto(onRenderer(serve.ui, renderer));
  await typeInto(page, 'shell', 'for i in 1 2 3; do echo "hay-$i-needle"; done');
  await expect.poll(() => paneText(page, 'shell')).toContain('hay-3-needle');
  await expect.poll(async () => debug(page, 'renderer', await idOf(page, 'shell'))).toBe(renderer);

  const shellId = await idOf(page, 'shell');
  const rows = await debug(page, 'rows', shellId);

  await pane(page, 'shell').locator('.pane-terminal').click();
  await page.keyboard.press('Control+Shift+F');
  const bar = pane(page, 'shell').getByTestId('find-bar');
  await expect(bar).toBeVisible();
  await bar.getByTestId('find-input').fill('needle');
  await expect(bar.getByTestId('find-count')).toHaveText(/^\d of 4$/);
  // The bar takes rows from the terminal, and xterm drops its selection when the rows change (often after the first search).
  await expect.poll(() => debug(page, 'rows', shellId)).toBeLessThan(rows ?? 0);
  return bar;
}

/** "2 of 4" → 2. */
const matchNumber = async (bar: Locator) => Number((await bar.getByTestId('find-count').textContent())?.split(' ')[0]);

for (const renderer of ['dom', 'webgl'] as const) {
  test(`find in a pane (${renderer} renderer): Ctrl+Shift+F, match count, next/previous, case and regex toggles`, async ({ page }) => {
    const bar = await findNeedles(page, renderer);
    const first = await matchNumber(bar);
    await bar.getByTestId('find-next').click();
    await expect(bar.getByTestId('find-count')).toHaveText(`${(first % 4) + 1} of 4`);
    await bar.getByTestId('find-previous').click();
    await expect(bar.getByTestId('find-count')).toHaveText(`${first} of 4`);

    await bar.getByTestId('find-input').fill('HAY');
    await expect(bar.getByTestId('find-count')).toHaveText(/of 4$/);
    await bar.getByTestId('find-case').click();
    await expect(bar.getByTestId('find-count')).toHaveText('no matches');
    await bar.getByTestId('find-case').click();

    await bar.getByTestId('find-regex').click();
    await bar.getByTestId('find-input').fill('hay-\\d-needle');
    await expect(bar.getByTestId('find-count')).toHaveText(/of 3$/);
    await bar.getByTestId('find-input').fill('hay-(');
    await expect(bar.getByTestId('find-count')).toContainText('Invalid regular expression');

    await bar.getByTestId('find-input').press('Escape');
    await expect(bar).toHaveCount(0);
    // Ctrl+Shift+F never reached the shell: it still runs commands normally.
    await page.keyboard.type('echo after-find');
    await page.keyboard.press('Enter');
    await expect.poll(() => paneText(page, 'shell')).toMatch(/\nafter-find/);
  });

  test(`find's next match advances after the terminal's rows change (${renderer} renderer): xterm clears the selection the search continues from`, async ({
    page,
  }) => {
    const bar = await findNeedles(page, renderer);
    const shellId = await idOf(page, 'shell');
    await bar.getByTestId('find-next').click();
    const before = await matchNumber(bar);
    const rows = await debug(page, 'rows', shellId);

    await page.setViewportSize({ width: 1400, height: 650 });
    await expect.poll(() => debug(page, 'rows', shellId)).toBeLessThan(rows ?? 0);
    await bar.getByTestId('find-next').click();
    await expect(bar.getByTestId('find-count')).toHaveText(`${(before % 4) + 1} of 4`);

    await page.setViewportSize({ width: 1400, height: 900 });
    await expect.poll(() => debug(page, 'rows', shellId)).toBe(rows);
    await bar.getByTestId('find-previous').click();
    await expect(bar.getByTestId('find-count')).toHaveText(`${before} of 4`);
  });

  test(`find's next match continues from the active match after typing into the terminal (${renderer} renderer): typing clears the selection`, async ({
    page,
  }) => {
    const bar = await findNeedles(page, renderer);
    await bar.getByTestId('find-next').click();
    const before = await matchNumber(bar);

    await typeInto(page, 'shell', 'echo typed-while-finding');
    await expect.poll(() => paneText(page, 'shell')).toMatch(/\ntyped-while-finding/);
    // The click and the keys cleared the selection; find still stands on the same match.
    await expect(bar.getByTestId('find-count')).toHaveText(`${before} of 4`);
    await bar.getByTestId('find-next').click();
    await expect(bar.getByTestId('find-count')).toHaveText(`${(before % 4) + 1} of 4`);
  });

  test(`find keeps its active match when a click follows output within 200 ms (${renderer} renderer): the search addon's refresh then found no selection`, async ({
    page,
  }) => {
    const bar = await findNeedles(page, renderer);
    if ((await matchNumber(bar)) === 4) await bar.getByTestId('find-previous').click();
    const before = await matchNumber(bar);
    expect(before).toBeLessThan(4); // the refresh's fallback is the last match: it must differ

    await typeInto(page, 'shell', 'sleep 1; echo later-output');
    const shellId = await idOf(page, 'shell');
    // In the page, so the click lands well within the addon's 200 ms: once the output and the prompt
    // after it are drawn, click the terminal (the selection goes) and take the refresh's results.
    const refreshed = await page.evaluate(async (id) => {
      const hook = (window as unknown as { switchboardDebug: SearchDebug }).switchboardDebug;
      const isDrawn = () => /\nlater-output\n+sb\$/.test(hook.screenText(id));
      while (!isDrawn()) await new Promise((resolve) => setTimeout(resolve, 0));
      const results = hook.nextFindResults(id);
      const screen = document.querySelector(`[data-testid="pane"][data-id="${id}"] .xterm-screen`);
      const box = screen?.getBoundingClientRect();
      const at = { bubbles: true, cancelable: true, button: 0, detail: 1, clientX: (box?.left ?? 0) + 20, clientY: (box?.top ?? 0) + 10 };
      for (const type of ['mousedown', 'mouseup', 'click']) screen?.dispatchEvent(new MouseEvent(type, at));
      return results;
    }, shellId);
    expect(refreshed?.index).toBe(before - 1);
    await expect(bar.getByTestId('find-count')).toHaveText(`${before} of 4`);
    await bar.getByTestId('find-next').click();
    await expect(bar.getByTestId('find-count')).toHaveText(`${before + 1} of 4`);
  });
}

interface SearchDebug {
  screenText(id: string): string;
  nextFindResults(id: string): Promise<{ index: number; count: number }> | undefined;
}

test('per-pane zoom, theme, reorder, collapse, columns and groups persist across a reload and a restart', async ({ page }, testInfo) => {
  const dataDir = tempDir('sb-e2e-layout-');
  serve = await startServe(THREE_ENTRIES, { dataDir });
  await page.goto(serve.ui);
  await expect(page.locator('[data-testid="pane"]')).toHaveCount(3);
  expect(await paneNames(page)).toEqual(['clock', 'shell', 'echoer']);

  // zoom one pane
  const shellId = await idOf(page, 'shell');
  await pane(page, 'shell').getByTestId('zoom-in').click();
  await pane(page, 'shell').getByTestId('zoom-in').click();
  await expect(pane(page, 'shell').getByTestId('zoom-size')).toHaveText('15');
  expect(await debug(page, 'fontSize', shellId)).toBe(15);
  expect(await debug(page, 'fontSize', await idOf(page, 'clock'))).toBe(13);

  // theme: dark, then light, each applied to the page and every terminal
  await page.getByTestId('theme').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect.poll(() => paneText(page, 'clock')).toMatch(/tick \d+/);
  await typeInto(page, 'shell', 'echo see src/app.ts:42 for details');
  await page.screenshot({ path: screenshotPath(testInfo, 'grid-dark.png') });
  await page.getByTestId('theme').selectOption('light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  expect(await debug(page, 'terminalBackground', shellId)).toBe('#ffffff');
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
  await page.screenshot({ path: screenshotPath(testInfo, 'grid-light.png') });

  // drag echoer's header onto clock: echoer moves first
  await pane(page, 'echoer').getByTestId('pane-header').dragTo(pane(page, 'clock').getByTestId('pane-header'));
  await expect.poll(() => paneNames(page)).toEqual(['echoer', 'clock', 'shell']);

  // collapse clock to its header: its terminal is gone (detached)
  await pane(page, 'clock').getByTestId('collapse').click();
  await expect(pane(page, 'clock').getByTestId('pane-terminal')).toHaveCount(0);
  await expect(pane(page, 'clock')).toHaveAttribute('data-attached', 'false');

  // two fixed columns, and a custom group holding the shell
  await page.getByTestId('columns').selectOption('2');
  await expect(page.getByTestId('column-splitter')).toHaveCount(1);
  await pane(page, 'shell').locator('.pane-terminal').click();
  page.once('dialog', (dialog) => void dialog.accept('mine'));
  await page.getByTestId('add-group').click();
  await expect(page.locator('[data-testid="group-tab"][data-group="mine"]')).toHaveAttribute('aria-selected', 'true');
  await expect.poll(() => paneNames(page)).toEqual(['shell']);
  await page.locator('[data-testid="group-tab"][data-group="all"]').click();
  await expect.poll(() => paneNames(page)).toEqual(['echoer', 'clock', 'shell']);

  const checkLayout = async () => {
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await expect.poll(() => paneNames(page)).toEqual(['echoer', 'clock', 'shell']);
    await expect(pane(page, 'clock')).toHaveAttribute('data-attached', 'false');
    await expect(pane(page, 'shell').getByTestId('zoom-size')).toHaveText('15');
    await expect(page.getByTestId('column-splitter')).toHaveCount(1);
    await expect(page.locator('[data-testid="group-tab"][data-group="mine"]')).toHaveCount(1);
  };
  // the view state is written shortly after each change; a reload reads it back from the core
  await expect.poll(() => readSavedState(dataDir)).toMatchObject({ theme: 'light', group: 'all', collapsed: ['processes.clock'] });
  await page.reload();
  await checkLayout();
  expect(await debug(page, 'fontSize', await idOf(page, 'shell'))).toBe(15);

  // a restart gives every entry a new id; the layout is keyed by config name, so it stays
  await serve.stop();
  serve = await startServe(THREE_ENTRIES, { dataDir });
  await page.goto('about:blank');
  await page.goto(serve.ui);
  await checkLayout();
});

function readSavedState(dataDir: string): unknown {
  try {
    const dir = join(dataDir, 'ui');
    const [file] = readdirSync(dir);
    return JSON.parse(readFileSync(join(dir, file ?? ''), 'utf8'));
  } catch {
    return undefined;
  }
}

test('a file:line in a terminal opens in the configured editor; files outside the project are refused', async ({ page }) => {
  const project = tempDir('sb-e2e-links-');
  mkdirSync(join(project, 'src'));
  writeFileSync(join(project, 'src', 'app.ts'), 'export {};\n');
  const opened = join(tempDir('sb-e2e-editor-'), 'opened.txt');
  const editor = join(project, '..', `${project.split('/').pop()}-editor.sh`);
  writeFileSync(editor, `#!/bin/sh\necho "$@" >> '${opened}'\n`);
  chmodSync(editor, 0o755);
  cleanups.push(() => rmSync(editor, { force: true }));
  writeFileSync(
    join(project, 'switchboard.json'),
    JSON.stringify({ processes: { shell: { command: 'bash', args: ['--noprofile', '--norc', '-i'], env: { PS1: 'sb$ ' } } } }),
  );
  serve = await startServe(project, { env: { SWITCHBOARD_EDITOR: `${editor} --goto {file}:{line}:{column}` } });
  await page.goto(serve.ui);
  // the editor script sits beside the project: a real file, but outside it
  await typeInto(page, 'shell', `clear; echo "at src/app.ts:42:7 and ${editor}:1"`);
  await expect.poll(() => paneText(page, 'shell')).toMatch(/(^|\n)at src\/app\.ts:42:7/);
  const id = await idOf(page, 'shell');

  const link = await debug(page, 'pointOf', id, 'at src/app.ts');
  expect(link).toBeDefined();
  await page.mouse.move(link!.x + 30, link!.y); // over "src/app.ts:42:7"
  await page.mouse.click(link!.x + 30, link!.y);
  await expect.poll(() => (readFileOr(opened) ?? '').trim()).toBe(`--goto ${join(project, 'src', 'app.ts')}:42:7`);

  const outside = await debug(page, 'pointOf', id, editor);
  await page.mouse.move(outside!.x + 10, outside!.y);
  await page.mouse.click(outside!.x + 10, outside!.y);
  await expect(page.getByTestId('error-toast')).toContainText('outside the project');
  expect((readFileOr(opened) ?? '').trim().split('\n')).toHaveLength(1);
});

function readFileOr(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

test('30 entries: panes far out of view are detached and re-attach with their content when scrolled to', async ({ page }) => {
  const project = tempDir('sb-e2e-thirty-');
  const processes: Record<string, unknown> = {};
  for (let i = 1; i <= 30; i++) {
    const name = `entry${String(i).padStart(2, '0')}`;
    processes[name] =
      i <= 10
        ? { command: 'bash', args: ['-c', `for n in $(seq 1 200); do echo "${name}-line-$n"; done; exec cat`] }
        : { command: 'bash', args: ['-c', `echo "${name}-ready"; exec cat`] };
  }
  writeFileSync(join(project, 'switchboard.json'), JSON.stringify({ processes }));
  serve = await startServe(project);
  await page.goto(serve.ui);
  await expect(page.locator('[data-testid="pane"]')).toHaveCount(30);
  await expect.poll(() => paneText(page, 'entry01')).toContain('entry01-line-200');

  const mounted = await debug(page, 'mountedPanes');
  expect(mounted).toBeGreaterThan(0);
  expect(mounted).toBeLessThan(30);
  await expect(pane(page, 'entry30')).toHaveAttribute('data-attached', 'false');
  expect(await paneText(page, 'entry30')).toBe('');

  await pane(page, 'entry30').scrollIntoViewIfNeeded();
  await expect(pane(page, 'entry30')).toHaveAttribute('data-attached', 'true');
  await expect.poll(() => paneText(page, 'entry30')).toContain('entry30-ready');
  await expect(pane(page, 'entry01')).toHaveAttribute('data-attached', 'false');
  // back at the top, a flooding pane re-attaches from the core's snapshot: each line once, the last one there
  await pane(page, 'entry01').scrollIntoViewIfNeeded();
  await expect.poll(() => paneText(page, 'entry01')).toContain('entry01-line-200');
  const lines = (await paneText(page, 'entry01')).split('\n').filter((l) => l.includes('entry01-line-'));
  expect(new Set(lines).size).toBe(lines.length);

  // typing into a re-attached pane reaches its process
  await typeInto(page, 'entry30', 'typed-after-reattach');
  await expect.poll(() => paneText(page, 'entry30')).toMatch(/typed-after-reattach\s*\n\s*typed-after-reattach/);
});

/** A restart that keeps the UI secret: the open tab proves it is the same server and signs in again. */
const PINNED = ['--pin-ui-secret'];

test('serve killed and restarted: the page says so, reconnects by itself and shows each line once', async ({ page }) => {
  const dataDir = tempDir('sb-e2e-reconnect-');
  const port = await freePort();
  serve = await startServe(THREE_ENTRIES, { dataDir, port, args: PINNED });
  await page.goto(serve.ui);
  await typeInto(page, 'echoer', 'before-restart');
  await expect.poll(() => paneText(page, 'echoer')).toContain('before-restart');
  // continuity saves each screen every few seconds: wait for that copy, so what comes back is known
  const echoerId = await idOf(page, 'echoer');
  // both copies, the terminal's echo and cat's: a save can fall between the two
  await expect.poll(() => savedScreen(dataDir, echoerId).match(/before-restart/g)?.length ?? 0, { timeout: 15_000 }).toBe(2);

  serve.process.kill('SIGKILL'); // the hard way: no goodbye on the socket
  await new Promise((r) => serve!.process.once('exit', r));
  const banner = page.getByTestId('connection-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('Connection to Switchboard lost');
  await expect(page.getByTestId('config-issues')).toHaveCount(0); // not dressed up as a config problem

  serve = await startServe(THREE_ENTRIES, { dataDir, port, args: PINNED });
  await expect(banner).toHaveCount(0, { timeout: 30_000 });
  // The restarted serve runs new processes. Each pane shows the core's screen once: the previous
  // run restored above one marker, then the new run — never the page's old copy on top of it.
  await expect.poll(async () => newRun(await paneText(page, 'clock'))).toMatch(/tick 2\b/);
  const ticks = [...newRun(await paneText(page, 'clock')).matchAll(/tick (\d+)/g)].map((m) => Number(m[1]));
  expect(ticks.filter((n) => n === 1)).toHaveLength(1);
  expect(new Set(ticks).size).toBe(ticks.length);
  // Panes re-attach independently: the clock having drawn says nothing about the echoer's snapshot.
  await expect(pane(page, 'echoer')).toHaveAttribute('data-attached', 'true');
  await expect.poll(() => paneText(page, 'echoer')).toContain('── restored ');
  const echoer = await paneText(page, 'echoer');
  expect(echoer.match(/── restored /g), echoer).toHaveLength(1);
  expect(echoer.match(/before-restart/g), echoer).toHaveLength(2); // the restored echo and cat's copy
  expect(newRun(echoer)).not.toContain('before-restart');
  await typeInto(page, 'echoer', 'after-restart');
  await expect.poll(async () => newRun(await paneText(page, 'echoer'))).toMatch(/after-restart\s*\n\s*after-restart/);
  expect((await paneText(page, 'echoer')).match(/after-restart/g)).toHaveLength(2);
});

/** The text after the `── restored … ──` line, or all of it when nothing was restored. */
function newRun(text: string): string {
  const marker = text.lastIndexOf('── restored ');
  return marker < 0 ? text : text.slice(text.indexOf('\n', marker) + 1);
}

/** The screen continuity saved for entry `id` under `dataDir` ('' until there is one). */
function savedScreen(dataDir: string, id: string): string {
  const root = join(dataDir, 'continuity');
  if (!existsSync(root)) return '';
  for (const project of readdirSync(root)) {
    try {
      return readFileSync(join(root, project, `${id}.screen`), 'utf8');
    } catch {
      // not this project's directory
    }
  }
  return '';
}

test('serve restarted with two projects open: both projects’ panes re-attach, each line once', async ({ page }) => {
  const root = tempDir('sb-e2e-reconnect-two-');
  const dataDir = tempDir('sb-e2e-reconnect-two-data-');
  const dirs = echoProjects(root, ['alpha', 'beta']);
  const port = await freePort();
  serve = await startServe(dirs, { dataDir, port, args: PINNED });
  await page.goto(serve.ui);
  const tab = (name: string) => page.locator(`[data-testid="project-tab"][data-project="${name}"]`);
  const show = async (name: string) => {
    await tab(name).locator('.project-name').click();
    await expect(tab(name)).toHaveClass(/active/);
  };
  for (const name of ['beta', 'alpha']) {
    await show(name);
    await typeInto(page, `${name}-echo`, `${name}-before`);
    await expect.poll(() => paneText(page, `${name}-echo`)).toContain(`${name}-before\n`);
    const id = await idOf(page, `${name}-echo`);
    await expect.poll(() => savedScreen(dataDir, id), { timeout: 15_000 }).toContain(`${name}-before`);
  }

  serve.process.kill('SIGKILL');
  await new Promise((r) => serve!.process.once('exit', r));
  const banner = page.getByTestId('connection-banner');
  await expect(banner).toContainText('Connection to Switchboard lost');
  serve = await startServe(dirs, { dataDir, port, args: PINNED });
  await expect(banner).toHaveCount(0, { timeout: 30_000 });

  // alpha was shown when the socket dropped (its pane re-attached in place); beta attaches when shown.
  const typedAfter = new Map<string, number>();
  for (const name of ['alpha', 'beta', 'alpha']) {
    await show(name);
    const echo = `${name}-echo`;
    await expect(pane(page, echo)).toHaveAttribute('data-attached', 'true');
    await expect.poll(() => paneText(page, echo)).toContain('── restored ');
    const text = await paneText(page, echo);
    expect(text.match(/── restored /g), text).toHaveLength(1);
    expect(text.match(new RegExp(`${name}-before`, 'g')), text).toHaveLength(2); // the typed echo and cat's copy, restored once
    expect(text).not.toContain(name === 'alpha' ? 'beta-before' : 'alpha-before');
    await typeInto(page, echo, `${name}-after`);
    typedAfter.set(name, (typedAfter.get(name) ?? 0) + 1);
    // cat echoes each typed line back: every line typed in this pane shows twice, none more often.
    const expected = 2 * typedAfter.get(name)!;
    await expect.poll(async () => (await paneText(page, echo)).match(new RegExp(`${name}-after`, 'g'))?.length ?? 0).toBe(expected);
  }
});

test('two projects in one window: each keeps its own layout; a change made just before switching stays with its project', async ({
  page,
}) => {
  const root = tempDir('sb-e2e-two-views-');
  serve = await startServe(echoProjects(root, ['alpha', 'beta']));
  await page.goto(serve.ui);
  const tab = (name: string) => page.locator(`[data-testid="project-tab"][data-project="${name}"]`);
  await expect(tab('alpha')).toHaveClass(/active/);
  await expect(pane(page, 'alpha-echo')).toBeVisible();

  // Zoom alpha's pane and switch at once: the write waiting for its delay goes to alpha, not beta.
  await pane(page, 'alpha-echo').getByTestId('zoom-in').click();
  await expect(pane(page, 'alpha-echo').getByTestId('zoom-size')).toHaveText('14');
  await tab('beta').locator('.project-name').click();
  await expect(pane(page, 'beta-echo')).toBeVisible();
  await expect(pane(page, 'beta-echo').getByTestId('zoom-size')).toHaveText('13');

  await tab('alpha').locator('.project-name').click();
  await expect(pane(page, 'alpha-echo').getByTestId('zoom-size')).toHaveText('14');
  // And after a reload, from alpha's core.
  await page.reload();
  await expect(pane(page, 'alpha-echo').getByTestId('zoom-size')).toHaveText('14');
  await tab('beta').locator('.project-name').click();
  await expect(pane(page, 'beta-echo').getByTestId('zoom-size')).toHaveText('13');
});
