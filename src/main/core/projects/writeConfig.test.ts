import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { proposeConfig } from './proposeConfig';
import { writeConfig } from './writeConfig';
import { SwitchboardConfigSchema } from '../../../shared/config';
import type { SwitchboardCore } from '../app';
import { buildCore } from '../composition';
import { waitForOutput } from '../../../../test/support/wait';

let core: SwitchboardCore | undefined;
afterEach(async () => {
  await core?.dispose();
  core = undefined;
});

function projectWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-write-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('writeConfig', () => {
  it('writes the kept entries with $schema; the file validates against the schema and its entries start', async () => {
    const dir = projectWith({
      'package.json': JSON.stringify({ scripts: { dev: 'echo dev-server-up; exec sleep 30', start: 'node dist/server.js' } }),
      'Procfile.dev': 'worker: echo worker-up; exec sleep 30\n',
    });
    const proposal = proposeConfig(dir, { isOnPath: () => false });
    const path = writeConfig(
      dir,
      proposal.entries.filter((e) => e.selected),
    );
    const written = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    expect(SwitchboardConfigSchema.safeParse(written).success).toBe(true);
    expect(written).toEqual({
      $schema: './node_modules/switchboard/resources/switchboard.schema.json',
      processes: { worker: { command: 'echo worker-up; exec sleep 30' }, dev: { command: 'npm', args: ['run', 'dev'] } },
    });
    core = buildCore({ projectDir: dir, watchConfig: false, killGraceMs: 500 });
    await core.init();
    expect(core.snapshot().configIssues).toEqual([]);
    const byName = new Map(core.listProcesses().map((p) => [p.name, p]));
    await waitForOutput(core.entry(byName.get('worker')!.id), /worker-up/);
    await waitForOutput(core.entry(byName.get('dev')!.id), /dev-server-up/, 20_000);
  });

  it('never replaces an existing switchboard.json', () => {
    const dir = projectWith({ 'switchboard.json': '{"processes":{}}' });
    expect(() =>
      writeConfig(dir, [{ section: 'processes', name: 'web', source: 'test', selected: true, config: { command: 'x' } }]),
    ).toThrow(/already exists/);
    expect(readFileSync(join(dir, 'switchboard.json'), 'utf8')).toBe('{"processes":{}}');
  });

  it('refuses a selection that is not a valid config and writes nothing', () => {
    const dir = projectWith({});
    expect(() =>
      writeConfig(dir, [{ section: 'processes', name: 'web', source: 'test', selected: true, config: { command: '' } }]),
    ).toThrow(/not a valid switchboard.json/);
    expect(() => readFileSync(join(dir, 'switchboard.json'))).toThrow();
  });
});
