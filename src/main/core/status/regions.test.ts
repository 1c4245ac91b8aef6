import { describe, expect, it } from 'vitest';
import { isHorizontalRule, parseRegion, RegionReader } from './regions';

const HR = '─'.repeat(40);
// A Claude Code-like screen, 40 columns wide.
const screen = [
  '╭─── Claude Code ───────────────────────╮',
  '│ ───────────────────────────────────── │',
  '╰───────────────────────────────────────╯',
  '',
  '❯ What does a mock server do?',
  '',
  '● A mock server answers like a real one.',
  '',
  HR,
  '❯ next question\u00a0 ',
  HR,
  '  ? for shortcuts',
  '',
  '',
];
const reader = () => new RegionReader({ lines: screen, title: '✳ Claude Code', cols: 40 });

describe('regions', () => {
  it('whole_screen: every row, trailing blank rows dropped, rows right-trimmed (NBSP too)', () => {
    const rows = reader().read('whole_screen');
    expect(rows).toHaveLength(12);
    expect(rows[9]).toBe('❯ next question');
  });

  it('bottom_non_empty_lines(n): the last n non-blank rows', () => {
    expect(reader().read('bottom_non_empty_lines(3)')).toEqual(['❯ next question', HR, '  ? for shortcuts']);
  });

  it('prompt_box: the rows between the last two horizontal rules', () => {
    expect(reader().read('prompt_box')).toEqual(['❯ next question']);
  });

  it('prompt_box is empty with fewer than two rules (a dialog replaced the prompt)', () => {
    const r = new RegionReader({ lines: ['● Bash(ls)', HR, ' Do you want to proceed?', ' ❯ 1. Yes'], title: '', cols: 40 });
    expect(r.read('prompt_box')).toEqual([]);
  });

  it('above_prompt_box: rows above the prompt box; with n, its last n non-blank rows', () => {
    const r = reader();
    expect(r.read('above_prompt_box').at(-1)).toBe('● A mock server answers like a real one.');
    expect(r.read('above_prompt_box')[0]).toMatch(/^╭/);
    expect(r.read('above_prompt_box(2)')).toEqual(['❯ What does a mock server do?', '● A mock server answers like a real one.']);
  });

  it('above_prompt_box with a single rule: rows above it', () => {
    const r = new RegionReader({ lines: ['● Bash(ls)', '  ⎿  Waiting…', HR, ' Do you want to proceed?'], title: '', cols: 40 });
    expect(r.read('above_prompt_box')).toEqual(['● Bash(ls)', '  ⎿  Waiting…']);
  });

  it('a composer drawn as a filled bar has its top and bottom edges as rules; a turn boxed the same way without the bar does not', () => {
    // Copilot CLI 1.0.102 on a pane that reports its colours (rules/copilotFilledComposer.test.ts), 40 columns.
    const r = new RegionReader({
      lines: [
        ' ▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄',
        '  ❯ Say hello                     21:53',
        ' ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀',
        ' ● Hello there.',
        ' ~/project [⎇ main]',
        `╻${'▄'.repeat(39)}`,
        '┃  typed',
        `╹${'▀'.repeat(39)}`,
        ' Interactive · / commands',
      ],
      title: '',
      cols: 40,
    });
    expect(r.read('prompt_box')).toEqual(['┃  typed']);
    expect(r.read('above_prompt_box(2)')).toEqual([' ● Hello there.', ' ~/project [⎇ main]']);
    expect(r.read('after_last_horizontal_rule')).toEqual([' Interactive · / commands']);
  });

  it('after_last_horizontal_rule: rows below the last rule; empty without rules', () => {
    expect(reader().read('after_last_horizontal_rule')).toEqual(['  ? for shortcuts']);
    expect(new RegionReader({ lines: ['$ ls'], title: '', cols: 40 }).read('after_last_horizontal_rule')).toEqual([]);
  });

  it('osc_title: the window title as one row', () => {
    expect(reader().read('osc_title')).toEqual(['✳ Claude Code']);
    expect(reader().text('osc_title')).toBe('✳ Claude Code');
  });

  it("osc_state: the program's own state report as one row; empty when it sent none", () => {
    const state = 'state=blocked:app=codex:kind=permission';
    expect(new RegionReader({ lines: ['$ ls'], title: '', agentState: state, cols: 40 }).read('osc_state')).toEqual([state]);
    expect(reader().text('osc_state')).toBe('');
  });

  it('horizontal rules: pure rule characters spanning at least half the width', () => {
    expect(isHorizontalRule(HR, 40)).toBe(true);
    expect(isHorizontalRule('─'.repeat(12), 40)).toBe(false); // short run inside content
    expect(isHorizontalRule('│ ───────────────────────────────────── │', 40)).toBe(false); // boxed
    expect(isHorizontalRule('╰───────────────────────────────────────╯', 40)).toBe(false); // box corner
  });

  it('parseRegion refuses unknown names and bad parameters with a clear message', () => {
    expect(parseRegion('prompt_box')).toEqual({ name: 'prompt_box' });
    expect(parseRegion('bottom_non_empty_lines(12)')).toEqual({ name: 'bottom_non_empty_lines', param: 12 });
    expect(parseRegion('prompt_box_body')).toEqual({ error: expect.stringContaining('unknown region "prompt_box_body"') });
    expect(parseRegion('bottom_non_empty_lines')).toEqual({ error: expect.stringContaining('needs a line count') });
    expect(parseRegion('osc_title(3)')).toEqual({ error: expect.stringContaining('takes no parameter') });
    expect(parseRegion('bottom_non_empty_lines(0)')).toEqual({ error: expect.stringContaining('1..') });
  });
});
