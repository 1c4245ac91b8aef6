import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { killTree } from './treeKill';
import { isAlive } from './processTree';

const TREE = resolve(__dirname, '../../../../test/fixtures/sessions/stubborn-tree.sh');

describe('killTree', () => {
  it('escalates to SIGKILL for processes that ignore SIGTERM, including ones in their own session', async () => {
    const child = spawn(TREE, { detached: true, env: { ...process.env, SB_TEST_MARK: 'tk1' } });
    const pids = await new Promise<number[]>((resolveP, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`fixture did not report pids: ${out}`)), 10_000);
      child.stdout.on('data', (d) => {
        out += d;
        const found = [...out.matchAll(/(?:IGNORER|SETSID|DAEMON|LEADER) (\d+)/g)].map((m) => Number(m[1]));
        if (found.length === 4) {
          clearTimeout(timer);
          resolveP(found);
        }
      });
    });
    const result = await killTree({ pid: child.pid!, marker: { key: 'SB_TEST_MARK', value: 'tk1' } }, 'SIGTERM', 300);
    expect(result.forced).toBeGreaterThanOrEqual(2); // the ignorer and the setsid ignorer
    if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
    for (const pid of pids) expect(isAlive(pid), `pid ${pid} survived`).toBe(false);
  });
});
