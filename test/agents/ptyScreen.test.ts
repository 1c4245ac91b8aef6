/** The PTY driver itself: screen waits, terminal replies, and killing a whole process tree. */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { PtyScreen, processTree, waitUntilGone } from './ptyScreen';

const SHORT_TIMEOUT_MS = 300;
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color', LANG: 'C.UTF-8' };

const screens: PtyScreen[] = [];
afterEach(async () => {
  while (screens.length > 0) await (screens.pop() as PtyScreen).kill();
});

function spawnBash(script: string): PtyScreen {
  const screen = PtyScreen.spawn({ argv: ['bash', '--norc', '-c', script], env, cwd: process.cwd() });
  screens.push(screen);
  return screen;
}

describe('PtyScreen', () => {
  it('waits for text and reports the screen when it never comes', async () => {
    const screen = spawnBash('printf "hello\\n"; read line; printf "got:%s\\n" "$line"');
    await screen.waitForText('hello');
    await screen.submit('typed');
    await screen.waitForText('got:typed');
    await expect(screen.waitForText('never shown', { timeoutMs: SHORT_TIMEOUT_MS })).rejects.toThrow(/got:typed/);
  });

  it('answers terminal queries like a real terminal (cursor position report)', async () => {
    // Ask for the cursor position; a terminal answers ESC[row;colR on stdin.
    const screen = spawnBash('printf "x\\033[6n"; IFS= read -rs -d R reply; printf "\\nreply:%q\\n" "$reply"');
    await screen.waitForText(/reply:.*\[1;2/);
  });

  it.skipIf(!existsSync('/proc/self/stat'))('kills the whole tree, including a child in its own session', async () => {
    const screen = spawnBash('setsid sleep 60 & sleep 60 & echo started; wait');
    await screen.waitForText('started');
    const tree = processTree(screen.pid);
    expect(tree.length).toBeGreaterThanOrEqual(3);
    await screen.kill();
    // kill() returns only once the whole tree is gone, so this needs no wait of its own.
    expect(await waitUntilGone(tree, 0)).toBe(true);
  });
});
