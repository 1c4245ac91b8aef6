/**
 * The installer's source: a packaged app's `app.asar` (made here with @electron/asar, the native
 * module unpacked as electron-builder's asarUnpack does) stages exactly what the app's folder does.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createPackageWithOptions } from '@electron/asar';
import { afterAll, describe, expect, it } from 'vitest';
import { asarSource, directorySource } from './bundleSource';
import { serverBundle, type ServerBundle } from './serverBundle';

const scratch = mkdtempSync(join(tmpdir(), 'bundle-source-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const LONG_NAME = `out/renderer/assets/${'a-chunk-name-longer-than-ustar-allows-'.repeat(4)}index.js`;
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ version: '1.2.3', dependencies: { dep: '1', pty: '1' }, devDependencies: { tool: '1' } }),
  'out/main/serve.js': 'console.log("serve")\n',
  [LONG_NAME]: 'export {}\n',
  'node_modules/dep/package.json': JSON.stringify({ dependencies: { nested: '2', shared: '1' } }),
  'node_modules/dep/index.js': 'module.exports = 1\n',
  'node_modules/dep/node_modules/nested/package.json': '{}',
  'node_modules/shared/package.json': '{}',
  'node_modules/pty/package.json': '{}',
  'node_modules/pty/build/Release/pty.node': '\u007fELF not really',
  'node_modules/pty/prebuilds/darwin-arm64/pty.node': 'Mach-O',
  'node_modules/pty/prebuilds/win32-x64/pty.node': 'PE',
  'node_modules/tool/package.json': '{}',
};

function appTree(): string {
  const root = join(scratch, 'app');
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  chmodSync(join(root, 'node_modules/pty/build/Release/pty.node'), 0o755);
  symlinkSync('index.js', join(root, 'node_modules/dep/main.js'));
  return root;
}

/** Unpacks the bundle's tar with the system's tar, as the host does. */
function unpack(bundle: ServerBundle, into: string): Promise<string> {
  mkdirSync(into);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const stream = bundle.stream();
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('error', reject);
    stream.once('end', () => {
      const result = spawnSync('tar', ['-xzf', '-', '-C', into], { input: Buffer.concat(chunks), encoding: 'utf8' });
      if (result.status !== 0) reject(new Error(result.stderr));
      else resolve(into);
    });
  });
}

/** Every path under `root` with its type, mode and contents. */
function snapshot(root: string): string[] {
  const found = spawnSync('find', ['.', '-mindepth', '1', '-printf', '%P %y %m %l\n'], { cwd: root, encoding: 'utf8' }).stdout;
  return found
    .trim()
    .split('\n')
    .sort()
    .map((line) => {
      const path = line.split(' ')[0];
      const isFile = statSync(join(root, path), { throwIfNoEntry: false })?.isFile() && line.split(' ')[1] === 'f';
      return isFile ? `${line.trimEnd()} ${readFileSync(join(root, path), 'utf8')}` : line.trimEnd();
    });
}

describe('the server bundle', () => {
  it('stages the same files, modes and version from a packaged app.asar (native module unpacked) as from the app folder', async () => {
    const root = appTree();
    const archive = join(scratch, 'app.asar');
    await createPackageWithOptions(root, archive, { unpack: '**/node_modules/pty/**' });
    expect(statSync(`${archive}.unpacked/node_modules/pty/build/Release/pty.node`).isFile()).toBe(true);

    const fromFolder = serverBundle(directorySource(root));
    const fromAsar = serverBundle(asarSource(archive));
    expect(fromAsar.version).toBe(fromFolder.version);
    expect(fromFolder.version).toMatch(/^1\.2\.3-[0-9a-f]{12}$/);
    expect(fromAsar.paths).toEqual(fromFolder.paths);
    expect(fromFolder.paths).toEqual(['package.json', 'out', 'node_modules/dep', 'node_modules/pty', 'node_modules/shared']);

    const staged = snapshot(await unpack(fromFolder, join(scratch, 'from-folder')));
    expect(snapshot(await unpack(fromAsar, join(scratch, 'from-asar')))).toEqual(staged);
    expect(staged).toContain(`${LONG_NAME} f 644 ${FILES[LONG_NAME]}`);
    expect(staged).toContain('node_modules/pty/build/Release/pty.node f 755 \u007fELF not really');
    expect(staged).toContain('node_modules/dep/main.js l 777 index.js');
    expect(staged).toContain('node_modules/dep/node_modules/nested/package.json f 644 {}');
    expect(staged.some((line) => line.startsWith('node_modules/tool'))).toBe(false);
  });

  it("sent to a known host, other OSes' native prebuilds stay behind", async () => {
    const bundle = serverBundle(directorySource(join(scratch, 'app')));
    const prebuilds = async (platform: string, into: string) => {
      const stream = bundle.stream({ platform, arch: 'arm64' });
      const staged = snapshot(await unpack({ ...bundle, stream: () => stream }, join(scratch, into)));
      return staged.filter((line) => line.includes('/prebuilds/')).map((line) => line.split(' ')[0]);
    };
    expect(await prebuilds('linux', 'for-linux')).toEqual([]);
    expect(await prebuilds('darwin', 'for-darwin')).toEqual([
      'node_modules/pty/prebuilds/darwin-arm64',
      'node_modules/pty/prebuilds/darwin-arm64/pty.node',
    ]);
  });

  it('a file that cannot be read fails the stream with its reason instead of leaving it open', async () => {
    const source = directorySource(join(scratch, 'app'));
    const bundle = serverBundle({
      ...source,
      read: (path) => (path === 'node_modules/dep/index.js' ? source.read('gone') : source.read(path)),
    });
    await expect(unpack(bundle, join(scratch, 'unreadable'))).rejects.toThrow(/ENOENT.*gone/);
  });

  it('a tree without the built server is refused with the path to build', () => {
    expect(() => serverBundle(join(scratch, 'nothing'))).toThrow(/No built server at .*nothing\/out\/main\/serve\.js: run npm run build/);
  });
});
