/**
 * The units beside the code run in shared workers (`npm run test:unit`, --no-isolate); a file that
 * replaces a module with vi.mock must run apart, and the config finds those by name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const REPLACES_A_MODULE = /\bvi\.(?:mock|doMock|unmock|doUnmock)\(/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return testFiles(path);
    return d.name.endsWith('.test.ts') ? [path] : [];
  });
}

it('every unit under src/ that replaces a module with vi.mock is named *.mock.test.ts, and only those', () => {
  const files = testFiles(join(ROOT, 'src'));
  const misnamed = files.filter((f) => REPLACES_A_MODULE.test(readFileSync(f, 'utf8')) !== f.endsWith('.mock.test.ts'));
  expect(misnamed.map((f) => relative(ROOT, f))).toEqual([]);
  expect(files.filter((f) => f.endsWith('.mock.test.ts')).length).toBeGreaterThan(0);
});
