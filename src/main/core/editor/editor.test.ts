import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editorLaunchFor, resolveProjectFile } from './index';

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-editor-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'app.ts'), 'x');
  return dir;
}

describe('resolveProjectFile', () => {
  it('resolves a path relative to the entry directory inside the project', () => {
    const dir = project();
    expect(resolveProjectFile(dir, join(dir, 'src'), './app.ts')).toMatch(/src\/app\.ts$/);
    expect(resolveProjectFile(dir, dir, 'src/app.ts')).toMatch(/src\/app\.ts$/);
  });

  it('refuses files outside the project, through .. or a symlink', () => {
    const dir = project();
    const outside = mkdtempSync(join(tmpdir(), 'sb-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 's');
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'link.txt'));
    expect(() => resolveProjectFile(dir, dir, `../${outside.split('/').pop()}/secret.txt`)).toThrow(/outside the project/);
    expect(() => resolveProjectFile(dir, dir, join(outside, 'secret.txt'))).toThrow(/outside the project/);
    expect(() => resolveProjectFile(dir, dir, 'link.txt')).toThrow(/outside the project/);
  });

  it('says clearly when the file does not exist or is a directory', () => {
    const dir = project();
    expect(() => resolveProjectFile(dir, dir, 'nope.ts')).toThrow(/No file nope.ts/);
    expect(() => resolveProjectFile(dir, dir, 'src')).toThrow(/not a file/);
  });
});

describe('editorLaunchFor', () => {
  const at = { file: '/p/src/app.ts', line: 42, column: 5 };

  it('fills the SWITCHBOARD_EDITOR template first', () => {
    expect(editorLaunchFor(at, { SWITCHBOARD_EDITOR: 'subl {file}:{line}:{column}', EDITOR: 'vim', PATH: '' })).toEqual({
      argv: ['subl', '/p/src/app.ts:42:5'],
      inTerminal: false,
      source: 'SWITCHBOARD_EDITOR',
    });
    expect(editorLaunchFor(at, { SWITCHBOARD_EDITOR: 'gedit', PATH: '' })?.argv).toEqual(['gedit', '/p/src/app.ts']);
  });

  it('runs $EDITOR at the line in a terminal pane when no GUI editor is known', () => {
    expect(editorLaunchFor(at, { EDITOR: 'nvim -p', PATH: '' })).toEqual({
      argv: ['nvim', '-p', '+42', '/p/src/app.ts'],
      inTerminal: true,
      source: 'EDITOR',
    });
  });

  it('has nothing to run when nothing is configured', () => {
    expect(editorLaunchFor(at, { PATH: '' })).toBeUndefined();
  });
});
