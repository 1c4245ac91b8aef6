import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectFromArgv } from './launchArgs';

const folder = mkdtempSync(join(tmpdir(), 'sb-launch-'));
writeFileSync(join(folder, 'notes.txt'), '');

describe('projectFromArgv', () => {
  it('takes --project, relative to the launch directory', () => {
    expect(projectFromArgv(['electron', '.', '--project', 'shop'], '/home/me', 2)).toBe('/home/me/shop');
  });
  it('takes a folder passed as a plain argument (dock drop, file manager), skipping the launcher arguments', () => {
    expect(projectFromArgv(['/opt/Switchboard/switchboard', folder], '/', 1)).toBe(folder);
    expect(projectFromArgv(['electron', '.', '--no-sandbox', folder], '/', 2)).toBe(folder);
  });
  it('names no project when there is none (the welcome view decides) — not the app path, files or flags', () => {
    expect(projectFromArgv(['electron', '.'], folder, 2)).toBeUndefined();
    expect(
      projectFromArgv(['/opt/Switchboard/switchboard', '--inspect', join(folder, 'notes.txt'), '/no/such/dir'], '/', 1),
    ).toBeUndefined();
  });
});
