/** Readiness through the core: the same methods the UI and MCP's restart_process use. */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../../test/support/ports';
import type { SwitchboardCore } from './switchboardCore';
import { buildCore } from '../composition';

let core: SwitchboardCore | undefined;
afterEach(async () => {
  await core?.dispose();
  core = undefined;
});

const serverScript = (port: number) =>
  `const s=require('http').createServer((q,r)=>r.end('ok'));s.listen(${port},'127.0.0.1',()=>console.log('Server listening on http://localhost:${port}'))`;

describe('readiness through the core', () => {
  it('restartAndWait reports ready with the URL; the entry shows it', async () => {
    core = buildCore({ projectDir: mkdtempSync(join(tmpdir(), 'sb-ready-')), watchConfig: false, killGraceMs: 500 });
    await core.init();
    const port = await freePort();
    const info = await core.spawnProcess({
      kind: 'command',
      argv: [process.execPath, '-e', serverScript(port)],
      name: 'api',
      ready: { port },
    });
    const result = await core.restartAndWait(info.id, { readyTimeoutMs: 20_000 });
    expect(result).toMatchObject({ success: true, state: 'ready', port });
    expect(result.message).toContain(String(port));
    const response = await fetch(`http://127.0.0.1:${port}/`);
    expect(await response.text()).toBe('ok');
    expect(core.checkReady(info.id)).toMatchObject({ ready: true, state: 'ready' });
    expect(core.describe(info.id)).toMatchObject({ state: 'ready' });
  });

  it('a process that exits at once is an error with its code and last lines', async () => {
    core = buildCore({ projectDir: mkdtempSync(join(tmpdir(), 'sb-ready-')), watchConfig: false, killGraceMs: 500 });
    await core.init();
    const info = await core.spawnProcess({ kind: 'command', shell: 'echo "boom: config missing"; exit 2', name: 'bad' });
    const result = await core.restartAndWait(info.id, { readyTimeoutMs: 10_000 });
    expect(result.success).toBe(false);
    expect(result.state).toBe('error');
    expect(result.message).toMatch(/code 2/);
    expect(result.logs?.join('\n')).toContain('boom: config missing');
    expect(core.describe(info.id).state).toBe('error');
  });

  it('readiness applies to command entries only', async () => {
    core = buildCore({ projectDir: mkdtempSync(join(tmpdir(), 'sb-ready-')), watchConfig: false, killGraceMs: 500 });
    await core.init();
    const info = await core.spawnProcess({ kind: 'terminal', argv: ['cat'] });
    expect(() => core!.checkReady(info.id)).toThrow('is not a command entry');
  });
});

describe('restart whose spawn fails', () => {
  it('answers at once with the reason instead of waiting out the timeout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-ready-'));
    core = buildCore({ projectDir: dir, watchConfig: false, killGraceMs: 300 });
    await core.init();
    const info = await core.spawnProcess({ kind: 'command', argv: ['bash', '-c', 'sleep 100'], name: 'moving', cwd: dir });
    const entry = core.entry(info.id);
    entry.redefine({ ...entry.definition, argv: ['no-such-command-xyz'] });
    const started = Date.now();
    const result = await core.restartAndWait(info.id, { readyTimeoutMs: 20_000 });
    expect(result).toMatchObject({ success: false, state: 'error', message: 'Command not found: no-such-command-xyz' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
