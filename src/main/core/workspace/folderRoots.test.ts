import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FolderRoots } from './folderRoots';

let base: string;
let home: string;
let extra: string;
let outside: string;
let roots: FolderRoots;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'sb-roots-')));
  home = join(base, 'home');
  extra = join(base, 'work');
  outside = join(base, 'elsewhere');
  for (const dir of [join(home, 'code', 'shop'), join(home, 'code', 'shop-api'), join(home, 'code', '.cache'), extra, outside]) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(join(home, 'code', 'shopping-list.txt'), 'milk');
  symlinkSync(outside, join(home, 'code', 'shortcut'));
  symlinkSync(join(home, 'code', 'shop'), join(extra, 'shop-link'));
  roots = new FolderRoots([home, extra, join(home, 'code')], home);
});

describe('FolderRoots.resolveFolder', () => {
  it('opens a folder within a root, with ~ expanded', () => {
    expect(roots.resolveFolder('~/code/shop')).toBe(join(home, 'code', 'shop'));
    expect(roots.resolveFolder(join(extra, 'shop-link'))).toBe(join(home, 'code', 'shop'));
  });

  it('refuses a folder outside every root, also through .. and through a symlink, naming where it resolves', () => {
    expect(() => roots.resolveFolder(outside)).toThrow(/is outside the folders Switchboard may open here\. Allowed: /);
    expect(() => roots.resolveFolder(`${home}/../elsewhere`)).toThrow(`(it resolves to ${outside})`);
    expect(() => roots.resolveFolder('~/code/shortcut')).toThrow(`(it resolves to ${outside})`);
  });

  it('says plainly what is wrong with a missing folder, a file, or a relative path', () => {
    expect(() => roots.resolveFolder('~/code/nope')).toThrow('No such folder: ~/code/nope');
    expect(() => roots.resolveFolder('~/code/shopping-list.txt')).toThrow('Not a folder: ~/code/shopping-list.txt');
    expect(() => roots.resolveFolder('code/shop')).toThrow('Type a full path (starting with / or ~): code/shop');
  });

  it('keeps only the outermost of nested roots', () => {
    expect(roots.roots).toEqual([home, extra]);
  });
});

describe('FolderRoots.complete', () => {
  it('lists sub-folders starting with the typed name, not files, not hidden ones unless asked', () => {
    expect(roots.complete('~/code/sho').folders).toEqual([join(home, 'code', 'shop'), join(home, 'code', 'shop-api')]);
    expect(roots.complete('~/code/').folders).toEqual([join(home, 'code', 'shop'), join(home, 'code', 'shop-api')]);
    expect(roots.complete('~/code/.c').folders).toEqual([join(home, 'code', '.cache')]);
  });

  it('never offers a folder outside the roots, nor a symlink leading out of them', () => {
    expect(roots.complete('~/code/shor').folders).toEqual([]);
    expect(roots.complete(`${outside}/`).folders).toEqual([]);
    // `..` climbs out of home: only the roots themselves are offered there, never their neighbour.
    expect(roots.complete(`${home}/../`).folders).toEqual([home, extra]);
  });

  it('outside the roots completes towards them; an empty field lists them', () => {
    expect(roots.complete(`${base}/wo`).folders).toEqual([extra]);
    expect(roots.complete('').folders).toEqual([home, extra]);
  });

  it('answers a relative path with the same clear error as opening it', () => {
    expect(() => roots.complete('code')).toThrow(/Type a full path/);
  });
});
