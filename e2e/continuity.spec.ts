/**
 * After a restart of `serve` on the same data directory, the browser shows each pane's previous
 * output (5000 lines, dimmed) above a `── restored <time> ──` line, and an agent with a known
 * conversation shows "resumable" with a Resume action that relaunches it with the CLI's resume
 * arguments. The agent is a stand-in under the claude preset that prints its arguments and stores
 * a conversation file as Claude Code does; the real CLIs resume in test/continuity.
 */
import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pane, paneText, startServe, type ServeHandle } from './support/serve';

const STORE_CONVERSATION = 'mkdir -p "$CLAUDE_CONFIG_DIR/projects/p" && touch "$CLAUDE_CONFIG_DIR/projects/p/$2.jsonl"';

let root: string;
let serve: ServeHandle | undefined;
test.afterEach(async () => {
  await serve?.stop();
  rmSync(root, { recursive: true, force: true });
});

test('panes show the previous run above the restored line; a resumable agent resumes', async ({ page }) => {
  root = mkdtempSync(join(tmpdir(), 'sb-e2e-continuity-'));
  const dataDir = join(root, 'data');
  writeFileSync(
    join(root, 'switchboard.json'),
    JSON.stringify({
      settings: { scrollbackLines: 10_000 },
      processes: { lines: { command: 'test -f .printed || seq -f "line-%g" 1 5000; touch .printed; sleep 600' } },
      agents: {
        helper: {
          preset: 'claude',
          command: '/bin/sh',
          // Stores its conversation where Claude Code does ($2 is the session id after --session-id / --resume).
          args: ['-c', `${STORE_CONVERSATION}; echo "args: $*"; sleep 600`, 'stand-in'],
          env: { CLAUDE_CONFIG_DIR: join(root, 'claude-config') },
        },
      },
    }),
  );
  serve = await startServe(root, { dataDir });
  await page.goto(serve.ui);
  await expect.poll(() => paneText(page, 'lines'), { timeout: 30_000 }).toContain('line-5000');
  await pane(page, 'helper').getByTestId('start').click();
  await expect.poll(() => paneText(page, 'helper')).toMatch(/args: .*--session-id [0-9a-f-]{36}/);
  const session = /--session-id ([0-9a-f-]{36})/.exec(await paneText(page, 'helper'))![1];
  await pane(page, 'helper').getByTestId('stop').click();
  await expect(pane(page, 'helper').getByTestId('resumable')).toBeVisible();
  await serve.stop();

  serve = await startServe(root, { dataDir });
  await page.goto(serve.ui);
  await expect.poll(() => paneText(page, 'lines'), { timeout: 30_000 }).toContain('── restored ');
  const text = await paneText(page, 'lines');
  const restoredAt = text.indexOf('── restored ');
  const before = text
    .slice(0, restoredAt)
    .split('\n')
    .filter((l) => /^line-\d+$/.test(l.trim()));
  expect(before).toHaveLength(5000);
  expect(before[0].trim()).toBe('line-1');
  await page.screenshot({ path: test.info().outputPath('restored.png') });

  const helper = pane(page, 'helper');
  await expect(helper.getByTestId('resumable')).toBeVisible();
  await helper.getByTestId('resume').click();
  await expect.poll(() => paneText(page, 'helper')).toContain(`--resume ${session}`);
  await expect(helper.getByTestId('resumable')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('resumed.png') });
});
