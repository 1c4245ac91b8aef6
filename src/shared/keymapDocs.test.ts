/** docs/ui.md's keyboard table is the keymap's: regenerate it with keymapMarkdown() when the keymap changes. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEYMAP_DOC_END, KEYMAP_DOC_START, keymapMarkdown } from './keymapDocs';

/** A Markdown table's cells, whatever padding a formatter gave its columns. */
const cells = (table: string) =>
  table
    .trim()
    .split('\n')
    .map((row) => row.split('|').map((cell) => cell.trim().replace(/^-+$/, '---')));

describe('docs/ui.md keyboard table', () => {
  it('is exactly the table generated from src/shared/keymap.ts', () => {
    const doc = readFileSync(resolve(__dirname, '../../docs/ui.md'), 'utf8');
    const start = doc.indexOf(KEYMAP_DOC_START);
    const end = doc.indexOf(KEYMAP_DOC_END);
    expect(start, 'docs/ui.md has no keymap start marker').toBeGreaterThanOrEqual(0);
    expect(end, 'docs/ui.md has no keymap end marker after the start').toBeGreaterThan(start);
    expect(cells(doc.slice(start + KEYMAP_DOC_START.length, end))).toEqual(cells(keymapMarkdown()));
  });

  it('lists the Linux chords that replace the terminal’s keys', () => {
    expect(keymapMarkdown()).toContain('| copy the terminal selection | Ctrl+Shift+C | Cmd+C / Cmd+Shift+C | focused terminal |');
    expect(keymapMarkdown()).toContain('| open a folder | Ctrl+Shift+O | Cmd+O | menu |');
  });
});
