import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_UI_STATE } from '../../../shared/uiState';
import { FileUiStateStore, applyUiStatePatch } from './index';

describe('FileUiStateStore', () => {
  it('keeps one file per project and reads back what was saved', () => {
    const data = mkdtempSync(join(tmpdir(), 'sb-ui-'));
    const a = FileUiStateStore.forProject(data, '/projects/a');
    const b = FileUiStateStore.forProject(data, '/projects/b');
    expect(a.path).not.toBe(b.path);
    a.save(applyUiStatePatch(a.load(), { theme: 'light', order: ['processes.web'], sidebarWidth: 320 }));
    expect(new FileUiStateStore(a.path).load()).toMatchObject({ theme: 'light', order: ['processes.web'], sidebarWidth: 320 });
    expect(b.load()).toEqual(DEFAULT_UI_STATE);
  });

  it('keeps the valid fields of a hand-edited file and defaults the rest', () => {
    const data = mkdtempSync(join(tmpdir(), 'sb-ui-'));
    const store = FileUiStateStore.forProject(data, '/projects/a');
    store.save(DEFAULT_UI_STATE);
    writeFileSync(store.path, JSON.stringify({ theme: 'dark', fontSize: 999, order: 'not a list' }));
    expect(store.load()).toEqual({ ...DEFAULT_UI_STATE, theme: 'dark' });
  });

  it('moves an unparsable file aside instead of failing', () => {
    const data = mkdtempSync(join(tmpdir(), 'sb-ui-'));
    const store = FileUiStateStore.forProject(data, '/projects/a');
    store.save(DEFAULT_UI_STATE);
    writeFileSync(store.path, '{ broken');
    expect(store.load()).toEqual(DEFAULT_UI_STATE);
    expect(existsSync(store.path)).toBe(false);
    expect(readdirSync(dirname(store.path)).some((f) => f.includes('.corrupt-'))).toBe(true);
  });
});
