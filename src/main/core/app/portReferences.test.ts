/**
 * The main checkout's entries through the runtime: `${port}` and `${port:NAME}` reach the real
 * process, a fixed port stays, and a bad reference is a config issue that leaves the others running.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SwitchboardCore } from './switchboardCore';
import { buildCore } from '../composition';
import { waitForOutput } from '../../../../test/support/wait';

let core: SwitchboardCore | undefined;
afterEach(async () => {
  await core?.dispose();
  core = undefined;
});

async function open(processes: Record<string, unknown>): Promise<SwitchboardCore> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-portrefs-'));
  writeFileSync(join(dir, 'switchboard.json'), JSON.stringify({ processes }));
  core = buildCore({ projectDir: dir, watchConfig: false, killGraceMs: 500 });
  await core.init();
  return core;
}

const echo = (text: string) => ({ command: 'bash', args: ['-c', `echo "${text}"; exec sleep 600`] });

describe('${...} references in the main checkout', () => {
  it('expand in args and env before the process starts; a fixed port stays', async () => {
    const c = await open({
      api: { ...echo('api on $APP_PORT'), env: { APP_PORT: '${port}' } },
      web: { ...echo('web on ${port}, api ${port:api} at ${url:api}, db app_${worktree}'), port: 3999 },
    });
    expect(c.issues).toEqual([]);
    const api = c.listProcesses().find((p) => p.configName === 'api')!;
    const web = c.listProcesses().find((p) => p.configName === 'web')!;
    const apiLine = await waitForOutput(c.entry(api.id), /api on \d+/);
    const apiPort = /api on (\d+)/.exec(apiLine)![1];
    expect(Number(apiPort)).toBeGreaterThan(0);
    await expect(waitForOutput(c.entry(web.id), /web on/)).resolves.toContain(
      `web on 3999, api ${apiPort} at http://localhost:${apiPort}, db app_main`,
    );
  });

  it('an unknown reference is a config issue with its field; the other entries still run', async () => {
    const c = await open({ bad: echo('${prot}'), good: echo('fine') });
    expect(c.issues).toEqual([
      {
        path: 'processes.bad.args.1',
        message: 'has an unknown reference ${prot} (known: ${port}, ${port:NAME}, ${url:NAME}, ${worktree})',
      },
    ]);
    expect(c.listProcesses().map((p) => p.configName)).toEqual(['good']);
  });
});
