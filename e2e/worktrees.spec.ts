import { expect, test } from '@playwright/test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { makeTestRepo, type TestRepo } from '../src/main/core/worktrees/testing/gitRepo';
import { startServe, type ServeHandle } from './support/serve';
import { screenshotPath } from './support/screenshots';

/**
 * Worktrees in the browser UI through the real `serve` on a real git repository: "New agent in a
 * worktree…" makes one (a real `git worktree add`), its agent writes a file there, its own web
 * server comes up on its own port, the sidebar groups it with its branch, counts and URL, the
 * review shows the agent's file as an uncommitted diff, and commit + merge land it on main.
 */
let repo: TestRepo;
let serve: ServeHandle;

/** A real HTTP server on the instance's own port: each worktree's `web` gets another. */
const WEB = { command: 'python3', args: ['-m', 'http.server', '${port}', '--bind', '127.0.0.1'] };

test.beforeEach(async () => {
  repo = makeTestRepo({ 'README.md': 'hello\n', '.gitignore': 'switchboard.json\n' });
  repo.write('switchboard.json', JSON.stringify({ processes: { web: WEB }, worktrees: { start: ['web'] } }));
  serve = await startServe(repo.root);
});
test.afterEach(async () => {
  await serve.stop();
  repo.cleanup();
});

test('creates a worktree from the UI, groups it in the sidebar with its URL, reviews its diff and merges it, then prunes it', async ({
  page,
}, testInfo) => {
  // Three flows in one (create + group, review + merge, prune), each waiting on real git and servers.
  test.setTimeout(180_000);
  await page.goto(serve.ui);
  const sidebar = page.getByTestId('sidebar');
  await expect(sidebar.getByTestId('sidebar-entry')).toHaveCount(1);
  // Only the main checkout: the list stays flat.
  await expect(sidebar.getByTestId('worktree-group')).toHaveCount(0);

  await sidebar.getByTestId('open-new-worktree').click();
  const dialog = page.getByTestId('new-worktree');
  await expect(dialog.getByTestId('new-worktree-base')).toHaveValue('main');
  // A name git refuses as a folder/branch slug is refused in the dialog, with what was typed kept.
  await dialog.getByTestId('new-worktree-name').fill('Bad Name');
  await dialog.getByTestId('new-worktree-preset').selectOption('generic');
  await dialog.getByTestId('new-worktree-command').fill(`printf 'notes from the agent\\n' > NOTES.md; exec cat`);
  await dialog.getByTestId('new-worktree-instructions').fill('write the notes');
  await dialog.getByTestId('new-worktree-submit').click();
  await expect(dialog.getByTestId('new-worktree-problem')).toContainText('name');
  await expect(dialog.getByTestId('new-worktree-command')).toHaveValue(`printf 'notes from the agent\\n' > NOTES.md; exec cat`);

  await dialog.getByTestId('new-worktree-name').fill('feature-a');
  await dialog.getByTestId('new-worktree-submit').click();
  await expect(dialog).toBeHidden();

  const group = sidebar.locator('[data-testid="worktree-group"][data-worktree="feature-a"]');
  await expect(sidebar.getByTestId('worktree-group')).toHaveCount(2);
  await expect(group.getByTestId('worktree-branch')).toHaveText('⎇ switchboard/feature-a');
  // Its own web, shown by its plain name, ready on a port of its own; the agent beside it.
  await expect(group.getByTestId('entry-name')).toHaveText(['web', 'generic']);
  const worktreeUrl = group.getByTestId('worktree-url');
  await expect(worktreeUrl).toHaveText(/^web localhost:\d+/, { timeout: 30_000 });
  const mainUrl = sidebar.locator('[data-testid="worktree-group"][data-worktree="main"]').getByTestId('worktree-url');
  await expect(mainUrl).toHaveText(/^web localhost:\d+/, { timeout: 30_000 });
  expect(await worktreeUrl.textContent()).not.toBe(await mainUrl.textContent());
  await expect(group.getByTestId('worktree-counts')).toHaveText('↑0 ↓0 · 1 changed', { timeout: 15_000 });
  expect(existsSync(join(repo.root, 'NOTES.md'))).toBe(false);
  // Pane headers name the worktree: the agent's and the worktree's web, not the main checkout's web.
  const panes = page.getByTestId('pane');
  await expect(panes.and(page.locator('[data-name="generic"]')).getByTestId('pane-worktree')).toHaveText('⎇ feature-a');
  await expect(panes.and(page.locator('[data-name="web"]'))).toHaveCount(2);
  await expect(panes.and(page.locator('[data-name="web"]')).getByTestId('pane-worktree')).toHaveText(['⎇ feature-a']);
  await page.screenshot({ path: screenshotPath(testInfo, 'worktrees-sidebar.png') });

  await group.getByTestId('worktree-open-diff').click();
  const review = page.getByTestId('worktree-review');
  const file = review.getByTestId('review-file');
  await expect(file).toHaveCount(1);
  await expect(file).toHaveAttribute('data-path', 'NOTES.md');
  await expect(file.getByTestId('review-uncommitted')).toBeVisible();
  await expect(file.locator('.review-added')).toHaveText('+1');
  await expect(file.locator('.diff-add')).toContainText(['+notes from the agent']);
  // gh is not signed in here (or not installed): the button is disabled and says why.
  await expect(review.getByTestId('review-pull-request')).toBeDisabled();
  // The worktree's agent runs, so its commit message can be asked of it (test/worktrees/claudeWorktreeServe.e2e.test.ts).
  await expect(review.getByTestId('review-ask-message')).toBeEnabled();
  await expect(review.getByTestId('review-ask-message')).toHaveAttribute('title', 'Ask generic to write the message for this work');
  await expect(review.getByTestId('review-pull-request-reason')).toContainText(/no remote|gh/);
  await page.screenshot({ path: screenshotPath(testInfo, 'worktrees-review.png') });

  // Merging with uncommitted work is refused and says so; commit, then merge lands it on main.
  await review.getByTestId('review-merge').click();
  await expect(review.getByTestId('review-outcome')).toContainText('uncommitted');
  await review.getByTestId('review-commit-message').fill('Notes from the agent');
  await review.getByTestId('review-commit').click();
  await expect(review.getByTestId('review-outcome')).toContainText('Committed');
  await expect(file.getByTestId('review-uncommitted')).toHaveCount(0);
  await review.getByTestId('review-merge-strategy').selectOption('ff');
  await review.getByTestId('review-merge').click();
  await expect(review.getByTestId('review-outcome')).toContainText('Merged into main (fast-forward)');
  expect(repo.git('show', 'main:NOTES.md')).toBe('notes from the agent\n');
  expect(repo.git('log', '-1', '--format=%s', 'main').trim()).toBe('Notes from the agent');

  // The prune view: merged, feature-a is stale ("branch merged") and shows its disk use; removing
  // it is refused while its entries run, and goes through once they are stopped.
  await review.getByTestId('review-commit-message').press('Escape');
  await expect(review).toBeHidden();
  await sidebar.getByTestId('open-prune').click();
  const prune = page.getByTestId('worktree-prune');
  const row = prune.locator('[data-testid="prune-row"][data-worktree="feature-a"]');
  await expect(prune.getByTestId('prune-row')).toHaveCount(1);
  await expect(row.getByTestId('prune-reasons')).toHaveText('branch merged');
  await expect(row.getByTestId('prune-disk')).toHaveText(/^\d+(\.\d)? (KB|MB)$/);
  await page.screenshot({ path: screenshotPath(testInfo, 'worktrees-prune.png') });
  await row.getByTestId('prune-remove').click();
  await expect(row.getByTestId('prune-outcome')).toContainText('entries running');
  expect(repo.git('worktree', 'list')).toContain('feature-a');
  await prune.getByTestId('prune-unused-days').press('Escape');
  await expect(prune).toBeHidden();
  for (const pane of await panes.filter({ has: page.getByTestId('pane-worktree') }).all()) {
    await pane.getByTestId('stop').click();
    await expect(pane.getByTestId('stop')).toHaveCount(0);
  }
  await sidebar.getByTestId('open-prune').click();
  await row.getByTestId('prune-remove').click();
  await expect(prune.getByTestId('prune-removed')).toHaveText('feature-a: Removed.');
  await expect(prune.getByTestId('prune-empty')).toBeVisible();
  expect(repo.git('worktree', 'list')).not.toContain('feature-a');
  expect(repo.git('branch', '--list', 'switchboard/feature-a')).toBe('');
  expect(repo.git('show', 'main:NOTES.md')).toBe('notes from the agent\n');
});
