import { expect, test, type Page } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { buildHostileFolders, type HostileFolders, type HostileName } from '../test/fixtures/hostileFolders';
import { startServe, type ServeHandle } from './support/serve';
import { screenshotPath } from './support/screenshots';

/**
 * Hostile folders in the browser UI through one real `serve` (no --trust) holding all of them:
 * each is shown untrusted first — the prompt asks, no worktree is listed and the sidebar says why —
 * then trusted, and in each git repository a worktree is made from the UI, listed, reviewed
 * (diff), committed and merged. Every program the folders' git config, hooks or attributes name
 * writes a marker if it runs: none may appear (test/fixtures/hostileFolders.ts).
 */
let folders: HostileFolders;
let serve: ServeHandle;

const GIT_REPOS: HostileName[] = ['fsmonitor', 'clean-filter', 'hooks-path', 'diff-external', 'pager'];
const ALL: HostileName[] = [...GIT_REPOS, 'embedded-bare', 'escaping-dir'];

test.beforeAll(async () => {
  folders = buildHostileFolders();
  serve = await startServe(
    ALL.map((name) => folders.projects[name]),
    { trust: false },
  );
});
test.afterAll(async () => {
  await serve?.stop();
  folders?.cleanup();
});

async function showProject(page: Page, name: HostileName): Promise<void> {
  const tab = page.locator(`[data-testid="project-tab"][data-project="${basename(folders.projects[name])}"]`);
  // The first project shows at once, its prompt up: it is already the active one.
  if (!/\bactive\b/.test((await tab.getAttribute('class')) ?? '')) await tab.click({ timeout: 10_000 });
  await expect(tab).toHaveClass(/active/);
}

test('hostile folders: nothing of them runs untrusted or trusted, through listing, review, commit and merge', async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  await page.goto(serve.ui);
  const prompt = page.getByTestId('trust-prompt');
  const sidebar = page.getByTestId('sidebar');

  for (const name of ALL) {
    await showProject(page, name);
    await expect(prompt).toBeVisible();
    if (name === 'escaping-dir') {
      // The worktrees section is asked about, its folder shown plainly as leaving the project.
      const request = prompt.locator('[data-testid="trust-request"][data-key="worktrees"]');
      await expect(request.getByTestId('trust-worktrees-dir')).toHaveText(folders.escapeTarget);
      await expect(request.getByTestId('trust-worktrees-escapes')).toBeVisible();
      await page.screenshot({ path: screenshotPath(testInfo, 'hostile-worktrees-dir.png') });
    } else {
      await expect(prompt.getByRole('heading')).toHaveText(/Do you trust the folder/);
      await expect(prompt.locator('[data-testid="trust-request"][data-key="folder"]')).toBeVisible();
    }
    await prompt.getByTestId('trust-dismiss').click();
    await expect(sidebar.getByTestId('worktrees-untrusted')).toContainText('runs no git in a folder before you trust it');
    await expect(sidebar.getByTestId('worktree-group')).toHaveCount(0);
  }
  await page.screenshot({ path: screenshotPath(testInfo, 'hostile-untrusted-sidebar.png') });
  expect(folders.markers()).toEqual([]);

  for (const name of GIT_REPOS) {
    await showProject(page, name);
    await trustShown(page);
    await makeReviewCommitAndMerge(page, name);
    expect(folders.markers()).toEqual([]);
  }

  for (const name of ['embedded-bare', 'escaping-dir'] as const) {
    await showProject(page, name);
    await trustShown(page);
  }
  // The embedded bare repository is no repository to Switchboard: nothing to group, nothing ran.
  expect(existsSync(folders.escapeTarget)).toBe(false);
  expect(folders.markers()).toEqual([]);
});

/** Trusts the shown project: its prompt opens again when it is shown, or the sidebar's banner opens it. */
async function trustShown(page: Page): Promise<void> {
  const prompt = page.getByTestId('trust-prompt');
  const banner = page.getByTestId('sidebar').getByTestId('trust-banner');
  await expect(prompt.or(banner)).toBeVisible();
  if (await banner.isVisible()) await banner.click({ timeout: 10_000 });
  await prompt.getByTestId('trust-accept').click({ timeout: 10_000 });
  await expect(prompt).toBeHidden();
  await expect(page.getByTestId('worktrees-untrusted')).toHaveCount(0);
}

/** "New agent in a worktree…" whose agent writes a file, the group listed, the review's diff, commit, then merge. */
async function makeReviewCommitAndMerge(page: Page, name: HostileName): Promise<void> {
  const sidebar = page.getByTestId('sidebar');
  await sidebar.getByTestId('open-new-worktree').click();
  const dialog = page.getByTestId('new-worktree');
  await dialog.getByTestId('new-worktree-name').fill('work');
  await dialog.getByTestId('new-worktree-preset').selectOption('generic');
  await dialog.getByTestId('new-worktree-command').fill(`printf 'work in ${name}\\n' > WORK.md; exec cat`);
  await dialog.getByTestId('new-worktree-instructions').fill('write it');
  await dialog.getByTestId('new-worktree-submit').click();
  await expect(dialog).toBeHidden();

  const group = sidebar.locator('[data-testid="worktree-group"][data-worktree="work"]');
  await expect(group.getByTestId('worktree-branch')).toHaveText('⎇ switchboard/work');
  await expect(group.getByTestId('worktree-counts')).toHaveText('↑0 ↓0 · 1 changed', { timeout: 15_000 });
  await group.getByTestId('worktree-open-diff').click();
  const review = page.getByTestId('worktree-review');
  const file = review.getByTestId('review-file');
  await expect(file).toHaveCount(1);
  await expect(file).toHaveAttribute('data-path', 'WORK.md');
  await expect(file.locator('.diff-add')).toContainText([`+work in ${name}`]);
  await review.getByTestId('review-commit-message').fill(`Work in ${name}`);
  await review.getByTestId('review-commit').click();
  await expect(review.getByTestId('review-outcome')).toContainText('Committed');
  await review.getByTestId('review-merge').click();
  await expect(review.getByTestId('review-outcome')).toContainText('Merged into main');
  expect(readFileSync(join(folders.projects[name], 'WORK.md'), 'utf8')).toBe(`work in ${name}\n`);
  await review.getByTestId('review-commit-message').press('Escape');
  await expect(review).toBeHidden();
}
