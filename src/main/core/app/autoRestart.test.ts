import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SwitchboardCore } from './switchboardCore';
import { buildCore } from '../composition';
import { waitForEvent } from '../base';
import type { RunStarted } from '../sessions';

let core: SwitchboardCore | undefined;
afterEach(async () => {
  await core?.dispose();
  core = undefined;
});

async function coreWith(processes: Record<string, unknown>): Promise<SwitchboardCore> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-restart-'));
  writeFileSync(join(dir, 'switchboard.json'), JSON.stringify({ processes }));
  core = buildCore({ projectDir: dir, watchConfig: false, killGraceMs: 300 });
  await core.init();
  return core;
}

describe('autoRestart', () => {
  it('on-failure restarts a crashed process with backoff', async () => {
    const c = await coreWith({ crashy: { command: 'bash', args: ['-c', 'echo run; exit 3'], autoRestart: 'on-failure' } });
    const entry = c.entry(c.listProcesses()[0].id);
    const started = Date.now();
    await waitForEvent<RunStarted>(entry.onDidStartRun, (e) => e.runId === 2, 10_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900); // first backoff is 1 s
  });

  it('on-failure leaves a clean exit alone; a requested stop never restarts', async () => {
    const c = await coreWith({
      clean: { command: 'bash', args: ['-c', 'exit 0'], autoRestart: 'on-failure' },
      steady: { command: 'cat', autoRestart: 'always' },
    });
    const [clean, steady] = c.listProcesses().map((p) => c.entry(p.id));
    await waitForEvent(clean.onDidExitRun, () => true, 5_000).catch(() => undefined);
    await c.stopProcess(steady.id);
    // Both would have restarted after 1 s; give the backoff timer a chance to (wrongly) fire.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(clean.runId).toBe(1);
    expect(steady.runId).toBe(1);
    expect(steady.isRunning).toBe(false);
  });
});
