/**
 * Rules read screens at any width, not only the 120 columns the recordings were made at. In a
 * narrow pane (56 columns, a grid of three) Qwen Code 0.24.4 wraps its spinner row: the
 * "(Ns · esc to cancel)" parenthesis goes to the next row. The screens below are the core's
 * screen of the real Qwen Code at 56x18, driven through Switchboard against the mock Chat
 * Completions API (blank rows dropped, the tracker had read them as thinking throughout).
 */
import { describe, expect, it } from 'vitest';
import { classify } from '../classifier';
import { ProgressDetector } from '../progress';
import { BUILTIN_RULE_SETS } from './index';

const RULE_56 = '─'.repeat(56);
const COMPOSER_56 = [RULE_56, '>   Type your message or @path/to/file', RULE_56];
const BUSY_FOOTER_56 = ['  ➜ project · git:(main) · switchboard-mock', '  Enter to steer · Ctrl+Q to queue · ⏸ Ask permission…'];

const thinking56 = (glyph: string, seconds: number, phrase = 'Petting the cat...') => [
  '  ●︎ Read context files: ~/.qwen/output-language.md',
  '  > What does Switchboard do?',
  `  ${glyph} ${phrase}`,
  `  (${seconds}s · esc to cancel)`,
  ...COMPOSER_56,
  ...BUSY_FOOTER_56,
];

const responding56 = [
  '  > What does Switchboard do?                          █',
  '  ◆︎ Switchboard keeps every pane honest: this answer   █',
  '  ⠹ Petting the cat...',
  '  (5s · esc to cancel)',
  ...COMPOSER_56,
  ...BUSY_FOOTER_56,
];

const qwen = BUILTIN_RULE_SETS.get('qwen')!;
const read = (lines: string[]) => classify(lines, 'Qwen - project', { rules: qwen, now: 0 });

describe('Qwen Code in a 56-column pane (wrapped spinner row)', () => {
  it('reads thinking from the spinner whose parenthesis wrapped', () => {
    const result = read(thinking56('⠴', 1));
    expect({ primary: result.primary, detail: result.detail }).toEqual({ primary: 'active', detail: 'thinking' });
    expect(result.reason).toBe('qwen/spinner');
  });

  it('reads responding once answer text is above the wrapped spinner', () => {
    const result = read(responding56);
    expect({ primary: result.primary, detail: result.detail }).toEqual({ primary: 'active', detail: 'responding' });
  });

  it('a turning spinner, a counting timer and a rotating phrase on two rows are not progress', () => {
    const progress = new ProgressDetector(qwen.progressNormalizers ?? []);
    expect(progress.observe(thinking56('⠴', 1))).toBe(true);
    expect(progress.observe(thinking56('⠏', 3))).toBe(false);
    // A phrase seen in a 56-column pane in Chromium; it does not end in an ellipsis.
    expect(progress.observe(thinking56('⠼', 6, "It's not a bug, it's a feature... of this loading screen."))).toBe(false);
  });

  it('a phrase wrapped over two rows above the parenthesis is animation too', () => {
    const progress = new ProgressDetector(qwen.progressNormalizers ?? []);
    // As drawn in a 56-column pane in Chromium: the phrase itself needs two rows.
    const wrapped = (glyph: string, seconds: number, phrase: string[]) => [
      '  > Summarise the README',
      '  ◆︎ The README describes',
      `  ${glyph} ${phrase[0]}`,
      ...phrase.slice(1),
      `  (${seconds}s · esc to cancel)`,
      ...COMPOSER_56,
      ...BUSY_FOOTER_56,
    ];
    const first = wrapped('⠏', 6, ['Have you tried turning it off and on again? (The loading screen, not me', '.)']);
    expect(read(first).detail).toBe('responding');
    expect(progress.observe(first)).toBe(true);
    expect(progress.observe(wrapped('⠋', 8, ['Counting electrons in the', 'loading screen...']))).toBe(false);
  });
});

/**
 * opencode 1.18.33 in a 56-column pane: its idle hint row wraps (the directory over two rows,
 * `ctrl+p` and `commands` apart); at 44 columns the busy row wraps too and breaks `esc interrupt`.
 * The screens are the core's screen of the real opencode at 56x18,
 * driven through Switchboard against the mock Chat Completions API (blank rows dropped); before,
 * the idle row matched no rule and the finished turn read active until the quiet fallback.
 */
/** opencode's prompt box (empty prompt, agent and model line, bottom edge) in a pane `columns` wide. */
const opencodeBox = (columns: number) => ['  ┃', '  ┃', '  ┃', '  ┃  Build · Switchboard Mock Mock', `  ╹${'▀'.repeat(columns - 5)}`];
const BOX_56 = opencodeBox(56);
const opencodeIdle56 = [
  '  ┃  Say hello to Switchboard please',
  '  ┃',
  '     Hello from the mock, streamed word by word so',
  '     the answer takes a few seconds to arrive in full',
  '     here.',
  '     ▣  Build · Switchboard Mock · 7.1s',
  ...BOX_56,
  '   /tmp/switchboard-opencode-RPOp5o/  2.5Kctrl+p',
  '   home/project                           commands',
];
const opencodeBusy56 = [
  '  ┃  Run the wait command',
  '  ┃',
  '     ▣  Build · Switchboard Mock',
  ...BOX_56,
  '   ■⬝⬝⬝⬝⬝⬝⬝  esc interrupt       2.5K  ctrl+p commands',
];
const opencodeStart56 = [
  '         ▀▀▀▀ █▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀',
  '  ┃',
  '  ┃  Ask anything… "Fix a TODO in the codebase"',
  '  ┃',
  '  ┃  Build · Switchboard Mock Mock',
  `  ╹${'▀'.repeat(51)}`,
  '                           tab agents  ctrl+p commands',
  '  ~/project:main                               1.18.33',
];

describe('opencode in a narrow pane (wrapped hint row)', () => {
  const opencode = BUILTIN_RULE_SETS.get('opencode')!;
  const readOpencode = (lines: string[]) => classify(lines, 'OC | Greeting', { rules: opencode, now: 0 });

  it('reads idle from the hint row that wrapped over two rows', () => {
    const result = readOpencode(opencodeIdle56);
    expect({ primary: result.primary, detail: result.detail, reason: result.reason }).toEqual({
      primary: 'idle',
      detail: 'ready',
      reason: 'opencode/idle-hint-row',
    });
  });

  it('still reads the busy hint row as active', () => {
    expect(readOpencode(opencodeBusy56)).toMatchObject({ primary: 'active', reason: 'opencode/esc-interrupt' });
  });

  it('at 44 columns the busy row breaks `esc interrupt` apart: the spinner still says busy, never idle', () => {
    const busy44 = [
      '  ┃',
      '  ┃  Say hello to Switchboard please',
      '  ┃',
      '     ▣  Build · Switchboard Mock',
      ...opencodeBox(44),
      '   ■■⬝⬝⬝⬝⬝⬝  esc     tab      ctrl+p',
      '             interrupagents   commands',
      '             t',
    ];
    expect(readOpencode(busy44)).toMatchObject({ primary: 'active', reason: 'opencode/esc-interrupt' });
    const idle44 = [
      '     seconds to arrive in full here.',
      '     ▣  Build · Switchboard Mock · 6.3s',
      ...opencodeBox(44),
      '   /tmp/switchboard-opencode-.5K ctrl+p',
      '   t0D5w4/home/project           commands',
    ];
    expect(readOpencode(idle44)).toMatchObject({ primary: 'idle', reason: 'opencode/idle-hint-row' });
  });

  it('reads the start screen as idle by its own rule', () => {
    expect(readOpencode(opencodeStart56)).toMatchObject({ primary: 'idle', detail: 'ready', reason: 'opencode/start-screen' });
  });
});

/**
 * Codex CLI 0.169.0 in a 56-column pane: the Working row is cut with `…`, so a background
 * terminal's `running` is not on screen. The screen is the core's screen of the real Codex at 56x18
 * while `exec_command` ran a 4 s command (mock Responses API); before, it read thinking throughout.
 */
describe('Codex in a 56-column pane (cut Working row)', () => {
  const codex = BUILTIN_RULE_SETS.get('codex')!;
  const screen = (workingRow: string) => [
    '• Hello from the mock, streamed word by word so the',
    '  answer takes a few seconds to arrive in full here.',
    '  Worked for 4s • 06:37',
    '› Run the wait command',
    workingRow,
    '› Ask Codex to do anything',
    '  switchboard-mock default · ~/project · Mock task',
    '  ← for agents                ⚠ 2 warnings · f2 to view',
  ];

  it('reads using_tools from the cut background-terminal suffix', () => {
    const result = classify(screen('• Working (1s • esc to interrupt) · 1 background termin…'), '⠋ project', { rules: codex, now: 0 });
    expect({ primary: result.primary, detail: result.detail, reason: result.reason }).toEqual({
      primary: 'active',
      detail: 'using_tools',
      reason: 'codex/running-command',
    });
  });

  it('a Working row with no background terminal stays thinking', () => {
    const result = classify(screen('• Working (1s • esc to interrupt)'), '⠋ project', { rules: codex, now: 0 });
    expect(result.detail).toBe('thinking');
  });
});

/**
 * GitHub Copilot CLI 1.0.102 in a narrow pane: its footer drops `← open sidebar ·` and cuts the
 * key hints (`/ com` at 56 columns, none left at 48 and 40), and the transcript gains a scrollbar column. The screens are the core's
 * screen of the real Copilot at 56x18 (mock Chat Completions API); before, the footer matched no
 * rule and the agent stayed `starting` for good, so no user turn was ever typed into it.
 */
describe('GitHub Copilot CLI in a 56-column pane (cut footer)', () => {
  const copilot = BUILTIN_RULE_SETS.get('copilot')!;
  const readCopilot = (lines: string[]) => classify(lines, 'GitHub Copilot', { rules: copilot, now: 0 });
  const bar = (text: string) => `${text.padEnd(55)}┃`;
  const bottom = (footer: string) => [' ~/project [⎇ main]', '─'.repeat(56), '❯', '─'.repeat(56), footer];
  const transcript = [
    ' [Current]  Sessions   Issues   Pull requests  →',
    bar(''),
    bar(' ❯ Say hello to Switchboard please               07:36'),
    bar(''),
    bar(' ● Hello from the mock, streamed word by word so the'),
    bar('   answer takes a few seconds to arrive in full here.'),
    bar(''),
    bar(' ❯ Run the wait command                          07:36'),
    bar(''),
  ];

  it('reads idle from the cut key-hint footer', () => {
    const idle = [
      ...transcript,
      bar(' ● The command printed waited.'),
      bar(''),
      ...bottom(' Interactive · Manual Approval · / com switchboard-mock'),
    ];
    expect(readCopilot(idle)).toMatchObject({ primary: 'idle', detail: 'ready', reason: 'copilot/composer-idle' });
  });

  it('reads a running tool under the Working footer', () => {
    const running = [
      ...transcript,
      bar(' $ Shell wait'),
      bar(`   node -e "setTimeout(() => console.log('waited'), 4…`),
      bar(''),
      ...bottom(' ◉ Working · 96 B esc esc interrupt'),
    ];
    expect(readCopilot(running)).toMatchObject({ primary: 'active', detail: 'using_tools', reason: 'copilot/tool-running' });
  });

  it('reads idle from the mode labels alone when the hints are cut away (48 columns and less)', () => {
    for (const footer of [' Interactive · Manual Approval switchboard-mock', ' Interactive · Manual  switchboard-mock']) {
      const idle = [...transcript, bar(' ● OK.'), bar(''), ...bottom(footer)];
      expect(readCopilot(idle)).toMatchObject({ primary: 'idle', detail: 'ready', reason: 'copilot/footer-labels' });
    }
  });

  it('text in the composer cuts the picker hints too, and still reads idle', () => {
    const typed = [...transcript, ...bottom(' Interactive · Manual Approval · @ fil switchboard-mock')];
    expect(readCopilot(typed)).toMatchObject({ primary: 'idle', reason: 'copilot/composer-typed' });
  });
});
