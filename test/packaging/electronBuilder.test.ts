/**
 * The packaging configuration, checked where it can be here (the Electron binary and electron-builder's
 * downloads are not reachable on the build machines): what the installer will hold, and a real
 * `npm run dist` wherever Electron is installed.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';

const ROOT = resolve(__dirname, '../..');
const config = parseYaml(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, any>;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; main: string };

function electronBinary(): string | undefined {
  const pathFile = join(ROOT, 'node_modules/electron/path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = join(ROOT, 'node_modules/electron/dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

describe('electron-builder configuration', () => {
  it('packs the built app, keeps node-pty out of the ASAR and builds AppImage/.deb and .dmg/.zip', () => {
    expect(config.files).toEqual(expect.arrayContaining(['out/**', 'package.json']));
    expect(pkg.main).toMatch(/^out\//);
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toContain('**/node_modules/node-pty/**');
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg', 'zip']);
  });

  it('flips the hardening fuses in the packaged binary', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('never spawns the app binary as Node (RunAsNode is off in packaged builds)', () => {
    // The remote host agent is sent as source to the host's own `node -` and never runs in the app:
    // its process.execPath is the host's Node.
    const runsOnTheHostsNode = new Set([join('core', 'remote', 'hostAgent.ts')]);
    const offenders = readdirSync(join(ROOT, 'src/main'), { recursive: true })
      .map(String)
      .filter((f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f) && !f.includes('testing') && !runsOnTheHostsNode.has(f))
      .filter((f) => /process\.execPath|child_process'\)\.fork|\bfork\(/.test(readFileSync(join(ROOT, 'src/main', f), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('has an app icon of at least 512×512 px', () => {
    for (const icon of [config.linux.icon, config.mac.icon]) {
      const png = readFileSync(join(ROOT, icon));
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(512);
      expect(png.readUInt32BE(20)).toBeGreaterThanOrEqual(512);
    }
  });

  it('ships every package the built main process requires as a dependency (devDependencies are not packaged)', () => {
    const mainDir = join(ROOT, 'out/main');
    expect(existsSync(mainDir), 'run `npm run build` first (npm test does)').toBe(true);
    const files = readdirSync(mainDir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.js'));
    const required = new Set<string>();
    for (const file of files) {
      for (const m of readFileSync(join(mainDir, file), 'utf8').matchAll(/require\("([^"./][^"]*)"\)/g)) required.add(m[1]);
    }
    const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
    const missing = [...required]
      .filter((spec) => !spec.startsWith('node:') && !builtinModules.includes(spec) && spec !== 'electron')
      .map(packageOf)
      .filter((name) => !(name in pkg.dependencies));
    expect(required.size).toBeGreaterThan(5);
    expect([...new Set(missing)]).toEqual([]);
  });

  it('npm run dist builds an installable package where Electron is installed', (ctx) => {
    if (!electronBinary()) {
      console.log(
        'dist: SKIPPED — no Electron binary installed here (ELECTRON_SKIP_BINARY_DOWNLOAD=1); electron-builder would download it.',
      );
      ctx.skip();
    }
    const result = spawnSync('npm', ['run', 'dist', '--', '--dir'], { cwd: ROOT, encoding: 'utf8', timeout: 600_000 });
    expect(result.status, result.stderr).toBe(0);
    expect(readdirSync(join(ROOT, 'dist')).some((name) => name.endsWith('-unpacked') || name === 'mac')).toBe(true);
  });
});
