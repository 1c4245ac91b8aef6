/** The state badge of agent entries, from snapshots of a real core: stopped on purpose is not dead. */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SwitchboardCore } from '../../src/main/core/app';
import { buildCore } from '../../src/main/core/composition';
import { waitForEvent } from '../../src/main/core/base';
import type { ControlEvent } from '../../src/shared/api';
import { isAgentStoppedOnPurpose, stateLabel } from '../../src/renderer/src/panes/stateLabel';
import { freePort } from '../support/ports';

let core: SwitchboardCore | undefined;
afterEach(async () => {
  await core?.dispose();
  core = undefined;
});

async function coreWithAgent(command: string, args: string[]): Promise<{ core: SwitchboardCore; id: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-state-label-'));
  writeFileSync(join(dir, 'switchboard.json'), JSON.stringify({ agents: { helper: { command, args } } }));
  core = buildCore({ projectDir: dir, watchConfig: false, killGraceMs: 300 });
  await core.init();
  return { core, id: core.listProcesses('agent')[0].id };
}

const exited = (c: SwitchboardCore, id: string) =>
  waitForEvent<ControlEvent>(
    c.onEvent,
    (e) => e.type === 'processChanged' && e.process.id === id && e.process.agent?.primary === 'dead',
    15_000,
  );

describe('agent state badge', () => {
  it('an agent not started in this run is "stopped", without a DEAD badge', async () => {
    const { core: c, id } = await coreWithAgent('cat', []);
    const info = c.describe(id);
    expect(info.agent?.primary).toBe('dead'); // what the status tracker and MCP report: nothing runs
    expect(isAgentStoppedOnPurpose(info)).toBe(true);
    expect(stateLabel(info)).toMatchObject({ text: 'stopped', tone: 'stopped' });
  });

  it('an agent a person stopped is "stopped"', async () => {
    const { core: c, id } = await coreWithAgent('cat', []);
    await c.startProcess(id);
    const gone = exited(c, id);
    await c.stopProcess(id);
    await gone;
    expect(stateLabel(c.describe(id))).toMatchObject({ text: 'stopped', tone: 'stopped' });
  });

  it('an agent whose run ended on its own is "dead"', async () => {
    const { core: c, id } = await coreWithAgent('bash', ['-c', 'exit 3']);
    const gone = exited(c, id);
    await c.startProcess(id);
    await gone;
    const info = c.describe(id);
    expect(isAgentStoppedOnPurpose(info)).toBe(false);
    expect(stateLabel(info)).toMatchObject({ text: 'dead', tone: 'dead' });
    expect(info.agent?.health).toBe('DEAD');
  });
});

describe('server state badge', () => {
  it('a ready server is drawn as starting while its ready line can still be overturned, then green', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'sb-state-label-'));
    const server = `require('http').createServer((q, r) => r.end('ok')).listen(${port}, '127.0.0.1', () => console.log('listening on http://127.0.0.1:${port}'))`;
    writeFileSync(
      join(dir, 'switchboard.json'),
      JSON.stringify({ processes: { api: { command: process.execPath, args: ['-e', server], port } } }),
    );
    core = buildCore({ projectDir: dir, watchConfig: false, killGraceMs: 300 });
    const c = core;
    const changed = (settling: boolean) =>
      waitForEvent<ControlEvent>(
        c.onEvent,
        (e) => e.type === 'processChanged' && e.process.state === 'ready' && (e.process.readiness?.settling === true) === settling,
        15_000,
      );
    const settlingSeen = changed(true);
    const settledSeen = changed(false);
    await c.init();
    await c.startProcess(c.listProcesses()[0].id);
    const settling = await settlingSeen;
    if (settling.type !== 'processChanged') throw new Error('unreachable');
    expect(stateLabel(settling.process)).toMatchObject({ glyph: '◌', text: 'starting', tone: 'starting' });
    expect(stateLabel(settling.process).title).toMatch(/ready on http:\/\/127\.0\.0\.1:\d+ \(confirming it stays up\)$/);
    const settled = await settledSeen;
    if (settled.type !== 'processChanged') throw new Error('unreachable');
    expect(stateLabel(settled.process)).toMatchObject({ glyph: '●', text: 'ready', tone: 'ready' });
  });
});
