import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deviceAccessFromArgv, projectFromArgv } from './launchArgs';

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

describe('deviceAccessFromArgv', () => {
  it("takes serve's device flags in both forms, --notify repeatable, and none by default", () => {
    const argv = ['/opt/Switchboard/switchboard', '--listen', '10.0.0.5:8443', '--tls-cert=/etc/c.pem', '--tls-key', '/etc/k.pem'];
    expect(deviceAccessFromArgv([...argv, '--notify', 'https://a.example/h', '--notify=ntfy+https://ntfy.sh/t'])).toEqual({
      listen: '10.0.0.5:8443',
      tlsCert: '/etc/c.pem',
      tlsKey: '/etc/k.pem',
      notify: ['https://a.example/h', 'ntfy+https://ntfy.sh/t'],
    });
    expect(deviceAccessFromArgv(['electron', '.', '--public-url', 'https://box.example.ts.net', '--device-port', '9443'])).toMatchObject({
      publicUrl: 'https://box.example.ts.net',
      devicePort: 9443,
    });
    expect(deviceAccessFromArgv(['electron', '.', folder])).toEqual({ notify: [] });
  });
  it('refuses a flag without its value, and a port that is not one', () => {
    expect(() => deviceAccessFromArgv(['electron', '.', '--listen'])).toThrow('--listen needs a value');
    expect(() => deviceAccessFromArgv(['electron', '.', '--device-port', 'x'])).toThrow('--device-port must be 0–65535, got x');
  });
  it("never takes a flag's value for the project folder", () => {
    expect(projectFromArgv(['electron', '.', '--tls-cert', folder], '/', 2)).toBeUndefined();
  });
});
