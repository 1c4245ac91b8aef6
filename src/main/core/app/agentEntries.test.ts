/** Agent entries through the core, with a scripted stand-in TUI (the real CLIs are tested in test/agents and core/status). */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SwitchboardCore } from './switchboardCore';
import { buildCore } from '../composition';
import { waitForEvent } from '../base';
import type { ControlEvent } from '../../../shared/api';
import { waitForOutput } from '../../../../test/support/wait';

let core: SwitchboardCore | undefined;
afterEach(async () => {
  await core?.dispose();
  core = undefined;
});

function waitForAgent(c: SwitchboardCore, id: string, predicate: (e: Extract<ControlEvent, { type: 'processChanged' }>) => boolean) {
  return waitForEvent<ControlEvent>(c.onEvent, (e) => e.type === 'processChanged' && e.process.id === id && predicate(e), 15_000);
}

describe('agent entries', () => {
  it('an agent from switchboard.json gets its preset, status and reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-agents-'));
    writeFileSync(
      join(dir, 'switchboard.json'),
      JSON.stringify({ agents: { helper: { command: 'cat', autoStart: true, stuckThresholdMs: 5000 } } }),
    );
    core = buildCore({ projectDir: dir, watchConfig: false, killGraceMs: 300 });
    await core.init();
    const [agent] = core.listProcesses('agent');
    expect(agent).toMatchObject({ name: 'helper', kind: 'agent', argv: ['cat'] });
    expect(agent.agent?.preset).toBeDefined();
    expect(agent.agent?.reason).toBeTruthy();
    expect(core.statusTrackerOf(agent.id).explain().thresholds.stuckThresholdMs).toBe(5000);
    await core.stopProcess(agent.id);
    await waitForAgent(core, agent.id, (e) => e.process.agent?.primary === 'dead');
    expect(core.describe(agent.id).agent?.health).toBe('DEAD');
  });

  it('spawnAgent with argv keeps the preset and types instructions once the prompt is idle', async () => {
    core = buildCore({ projectDir: mkdtempSync(join(tmpdir(), 'sb-agents-')), watchConfig: false, killGraceMs: 300 });
    await core.init();
    // A stand-in that looks idle to the generic rules: prints a prompt and echoes what it reads.
    const info = await core.spawnAgent({
      preset: 'generic',
      name: 'stand-in',
      argv: ['bash', '--noprofile', '--norc', '-c', 'printf "> "; while IFS= read -r line; do echo "got:$line"; printf "> "; done'],
      instructions: 'do the thing',
    });
    expect(info.kind).toBe('agent');
    await waitForOutput(core.entry(info.id), /got:do the thing/, 20_000);
    expect(() => core!.statusTrackerOf('p_000000')).toThrow(/Unknown process id/);
  });

  it('spawnAgent with a budget gives the new agent that cap; a switchboard.json agent with its own keeps it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-agents-'));
    writeFileSync(
      join(dir, 'switchboard.json'),
      JSON.stringify({ agents: { capped: { command: 'cat', budget: { usd: 5, period: 'day' } } } }),
    );
    core = buildCore({ projectDir: dir, watchConfig: false, killGraceMs: 300 });
    await core.init();
    const info = await core.spawnAgent({ preset: 'generic', argv: ['cat'], budget: { tokens: 100, period: 'run' } });
    expect(core.describe(info.id).budget).toMatchObject({ cap: 100, unit: 'tokens', period: 'run', source: 'agent', reached: false });
    await expect(core.spawnAgent({ preset: 'capped', budget: { usd: 50, period: 'day' } })).rejects.toThrow(
      '"capped" has its own budget in switchboard.json; spawn it without one (a person raises a cap in Switchboard)',
    );
    const own = await core.spawnAgent({ preset: 'capped' });
    expect(core.describe(own.id).budget).toMatchObject({ cap: 5, unit: 'usd', period: 'day' });
  });

  it('an agent preset reads its launched CLI version; the status carries it next to the verified one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-agents-'));
    // A stand-in for a Claude Code that updated itself: answers --version, otherwise waits.
    const cli = join(mkdtempSync(join(tmpdir(), 'sb-cli-')), 'claude');
    writeFileSync(cli, '#!/bin/sh\n[ "$1" = --version ] && { echo "2.1.332 (Claude Code)"; exit 0; }\nexec cat\n', { mode: 0o755 });
    core = buildCore({ projectDir: dir, watchConfig: false, killGraceMs: 300 });
    await core.init();
    const changed = waitForEvent<ControlEvent>(
      core.onEvent,
      (e) => e.type === 'processChanged' && e.process.agent?.cliVersion === '2.1.332',
      15_000,
    );
    const info = await core.spawnAgent({ preset: 'claude', name: 'updated', argv: [cli] });
    await changed;
    expect(core.describe(info.id).agent).toMatchObject({
      cliVersion: '2.1.332',
      verifiedVersion: expect.stringMatching(/^\d+\.\d+\.\d+$/),
    });
  });

  it('statusTrackerOf refuses non-agents', async () => {
    core = buildCore({ projectDir: mkdtempSync(join(tmpdir(), 'sb-agents-')), watchConfig: false, killGraceMs: 300 });
    await core.init();
    const info = await core.spawnProcess({ kind: 'command', argv: ['cat'] });
    expect(() => core!.statusTrackerOf(info.id)).toThrow(`Process ${info.id} is not an agent`);
  });
});

describe('agents that need a person', () => {
  it('announce the transition into waiting once, and count in needsAttentionCount', async () => {
    core = buildCore({ projectDir: mkdtempSync(join(tmpdir(), 'sb-agents-')), watchConfig: false, killGraceMs: 300 });
    await core.init();
    // Prints Claude Code's permission prompt (as in recordings/dev-permission-yes.cast) when told to.
    const script =
      'printf "> "; read -r x; printf "\\n"; printf "%.0s─" $(seq 1 120); printf "\\n Do you want to proceed?\\n ❯ 1. Yes\\n   2. No\\n"; read -r y; printf "> "; sleep 1000';
    const info = await core.spawnAgent({ preset: 'claude', name: 'asker', argv: ['bash', '--noprofile', '--norc', '-c', script] });
    const events: ControlEvent[] = [];
    core.onEvent((e) => e.type === 'attentionRequested' && events.push(e));
    const waiting = waitForAgent(core, info.id, (e) => e.process.agent?.primary === 'waiting');
    core.writeInput(info.id, 'go\r');
    await waiting;
    expect(events).toEqual([{ type: 'attentionRequested', id: info.id, reason: 'Waiting for your permission', title: 'asker' }]);
    expect(core.needsAttentionCount()).toBe(1);
  });
});
