/** answerPrompt types only into the agent it names, and only while the prompt the person saw is on its screen. */
import { describe, expect, it } from 'vitest';
import type { AgentStatusInfo } from '../../../shared/status';
import type { TimerSummary } from '../../../shared/model';
import { promptAnswersFor, resolvePreset } from '../agents';
import { answerPrompt, listWaiting, type InboxAgent } from './inbox';

const HR = '─'.repeat(100);
const dialog = (command: string) => [
  `● Bash(${command})`,
  '  ⎿  Waiting…',
  HR,
  ' Bash command',
  `   ${command}`,
  ' Do you want to proceed?',
  ' ❯ 1. Yes',
  '   2. Yes, and don’t ask again for: curl *',
  '   3. No',
  ' Esc to cancel · Tab to amend',
];
const idle = [HR, '❯', HR, '  ? for shortcuts'];

/** Claude Code 2.1.197's AskUserQuestion menu as drawn live (the status rule's own sample). */
const askUserQuestion = resolvePreset('claude')
  .rules.rules.find((rule) => rule.id === 'ask-user-question')!
  .sample.split('\n');

function fakeAgent(
  name: string,
  lines: string[],
  since: number,
): InboxAgent & {
  lines: string[];
  written: string[];
  dropsKeys: number;
  movesCursor: (test: (rows: string) => boolean) => boolean;
} {
  const status: AgentStatusInfo = {
    preset: 'claude',
    verified: 'unverified',
    confidence: 'high',
    primary: 'waiting',
    detail: 'permission',
    health: 'ALIVE',
    reason: 'claude/permission-prompt',
    since,
  };
  const agent = {
    id: `p_${name}`,
    name,
    preset: 'claude',
    rules: resolvePreset('claude').rules,
    answers: promptAnswersFor('claude'),
    status,
    timers: [] as TimerSummary[],
    lines,
    written: [] as string[],
    screen: {
      title: '✳ Claude Code',
      cols: 100,
      getVisibleLines: () => agent.lines,
    },
    /** How many answers the fake CLI drops before it takes one (a dialog drawn a moment ago). */
    dropsKeys: 0,
    /** An answer's keys close the dialog (cursor moves do not), unless the CLI drops them. */
    write: (data: string) => {
      agent.written.push(data);
      if (data === '' || data.startsWith('\x1b[')) return;
      if (agent.dropsKeys > 0) agent.dropsKeys--;
      else agent.lines = ['❯ '];
    },
    typeTurn: (text: string) => {
      agent.written.push(`turn:${text}`);
      return Promise.resolve();
    },
    /** The fake menu moves its cursor as the keys arrive. */
    waitForScreen: (test: (rows: string) => boolean) => Promise.resolve(test(agent.lines.join('\n')) || agent.movesCursor(test)),
    movesCursor: (test: (rows: string) => boolean) => {
      const downs = agent.written.join('').split('\x1b[B').length - 1;
      const moved = agent.lines.map((line) =>
        line.replace(/^(\s*)❯ /u, '$1  ').replace(new RegExp(`^(\\s*)  (${1 + downs})\\. `, 'u'), '$1❯ $2. '),
      );
      return test(moved.join('\n'));
    },
  };
  return agent;
}

describe('attention inbox', () => {
  it('a CLI that keeps retrying by itself is offered no continue: its pane, and a row that says so', () => {
    const agent = fakeAgent('reconnecting', ['❯ '], 1_000);
    const blocked = { message: 'Connection failed: error sending request', retriesByItself: true as const };
    agent.status = { ...agent.status, detail: 'network', reason: 'codex/waiting-for-network', blocked };
    expect(listWaiting([agent])[0].blocked).toEqual({
      detail: 'network',
      message: 'Connection failed: error sending request',
      action: 'open_pane',
      retriesByItself: true,
    });
    agent.status = { ...agent.status, blocked: { message: 'Unable to connect to API' } };
    expect(listWaiting([agent])[0].blocked?.action).toBe('retry_now');
  });

  it("a blocked agent's row names the continue already armed for it (a pending or paused continue timer), and only that", () => {
    const agent = fakeAgent('limited', ['❯ '], 1_000);
    const resetsAt = Date.UTC(2026, 10, 28, 15, 0);
    agent.status = {
      ...agent.status,
      detail: 'limit',
      reason: 'claude/limit-reached',
      blocked: { message: 'API Error: Request rejected (429) · rate limited', resetsAt },
    };
    const continueTimer: TimerSummary = {
      id: 't_7',
      kind: 'delay',
      label: 'continue at reset (usage limit, resets 15:00)',
      state: 'pending',
      ownerId: agent.id,
      firesAt: resetsAt + 5_000,
      whenBlocked: true,
      bodyPreview: 'continue',
      createdBy: 'switchboard',
      createdAt: 0,
    };
    const otherTimer: TimerSummary = { ...continueTimer, id: 't_8', label: 'remind me', whenBlocked: undefined };
    expect(listWaiting([agent])[0].blocked).toEqual({
      detail: 'limit',
      message: 'API Error: Request rejected (429) · rate limited',
      resetsAt,
      action: 'continue_at_reset',
    });
    agent.timers = [otherTimer, continueTimer];
    expect(listWaiting([agent])[0].blocked?.continues).toEqual({
      timerId: 't_7',
      label: 'continue at reset (usage limit, resets 15:00)',
      firesAt: resetsAt + 5_000,
    });
    agent.timers = [otherTimer, { ...continueTimer, state: 'paused', firesAt: undefined, remainingMs: 60_000 }];
    expect(listWaiting([agent])[0].blocked?.continues).toEqual({
      timerId: 't_7',
      label: 'continue at reset (usage limit, resets 15:00)',
      paused: true,
    });
    agent.timers = [otherTimer];
    expect(listWaiting([agent])[0].blocked?.continues).toBeUndefined();
  });

  it('lists waiting agents oldest first with the question, and answers only the one named', async () => {
    const newer = fakeAgent('newer', dialog('curl -X POST http://x/b'), 2_000);
    const older = fakeAgent('older', dialog('curl -X POST http://x/a'), 1_000);
    const rows = listWaiting([newer, older]);
    expect(rows.map((r) => r.name)).toEqual(['older', 'newer']);
    expect(rows[0].question).toContain('curl -X POST http://x/a');
    expect(rows[0].choices).toEqual([
      { id: 'approve', label: 'Yes' },
      { id: 'deny', label: 'No' },
    ]);
    await expect(answerPrompt(older, { id: older.id, fingerprint: rows[0].fingerprint!, choice: 'approve' })).resolves.toMatchObject({
      label: 'Yes',
    });
    expect(older.written).toEqual(['\r']);
    expect(newer.written).toEqual([]);
  });

  it('sends the keys once more when the CLI dropped them (the same prompt still shown), and only once', async () => {
    const agent = fakeAgent('fresh', dialog('curl -X POST http://x/a'), 1_000);
    const [row] = listWaiting([agent]);
    agent.dropsKeys = 1;
    await answerPrompt(agent, { id: agent.id, fingerprint: row.fingerprint!, choice: 'approve' });
    expect(agent.written).toEqual(['\r', '\r']);
    expect(listWaiting([agent])[0].fingerprint).toBeUndefined(); // the dialog took the second

    // A CLI that drops every key: one resend, then the prompt is left for the person.
    const deaf = fakeAgent('deaf', dialog('curl -X POST http://x/b'), 1_000);
    const [deafRow] = listWaiting([deaf]);
    deaf.dropsKeys = Infinity;
    await answerPrompt(deaf, { id: deaf.id, fingerprint: deafRow.fingerprint!, choice: 'approve' });
    expect(deaf.written).toEqual(['\r', '\r']);
  });

  it('refuses a stale click: the prompt was answered in the pane, or replaced by another', async () => {
    const agent = fakeAgent('a', dialog('curl -X POST http://x/a'), 1_000);
    const [seen] = listWaiting([agent]);
    agent.lines = idle;
    await expect(answerPrompt(agent, { id: agent.id, fingerprint: seen.fingerprint!, choice: 'approve' })).rejects.toThrow(
      expect.objectContaining({ code: 'stale_prompt', message: expect.stringMatching(/no longer shows a prompt.*nothing was sent/) }),
    );
    agent.lines = dialog('rm -rf /tmp/other');
    await expect(answerPrompt(agent, { id: agent.id, fingerprint: seen.fingerprint!, choice: 'approve' })).rejects.toThrow(
      expect.objectContaining({ code: 'stale_prompt', message: expect.stringMatching(/different prompt/) }),
    );
    expect(agent.written).toEqual([]);
  });

  it('answers a question in words: the cursor moves to the free-text option, the text goes as a user turn, and only while the question is shown', async () => {
    const agent = fakeAgent('asker', askUserQuestion, 1_000);
    agent.status = { ...agent.status, detail: 'question', reason: 'claude/ask-user-question' };
    const [row] = listWaiting([agent]);
    expect(row).toMatchObject({ detail: 'question', question: expect.stringContaining('Which database should the service use?') });
    expect(row.choices).toEqual([
      { id: 'answer', label: 'Answer', takesText: true },
      { id: 'deny', label: 'Cancel' },
    ]);
    await expect(answerPrompt(agent, { id: agent.id, fingerprint: row.fingerprint!, choice: 'answer' })).rejects.toThrow(
      /needs the answer's text/,
    );
    await expect(answerPrompt(agent, { id: agent.id, fingerprint: row.fingerprint!, choice: 'deny', text: 'x' })).rejects.toThrow(
      /takes no text/,
    );
    expect(agent.written).toEqual([]);
    await answerPrompt(agent, { id: agent.id, fingerprint: row.fingerprint!, choice: 'answer', text: 'Use MySQL' });
    expect(agent.written).toEqual(['\x1b[B\x1b[B', 'turn:Use MySQL']);

    agent.written = [];
    agent.lines = idle;
    await expect(answerPrompt(agent, { id: agent.id, fingerprint: row.fingerprint!, choice: 'answer', text: 'late' })).rejects.toThrow(
      expect.objectContaining({ code: 'stale_prompt' }),
    );
    expect(agent.written).toEqual([]);
  });

  it('a waiting agent with no prompt on screen (hook only) is listed with its reason and nothing to click', () => {
    const agent = fakeAgent('hooked', idle, 1_000);
    agent.status = { ...agent.status, reason: 'hook:Notification' };
    expect(listWaiting([agent])).toMatchObject([{ name: 'hooked', question: 'hook:Notification', choices: [] }]);
    expect(listWaiting([agent])[0].fingerprint).toBeUndefined();
  });
});

describe('an unrecognised dialog in the inbox', () => {
  it('shows the dialog its rules do not know, with no answer keys to guess, and refuses an answer', async () => {
    // The permission dialog under a rule set that has never seen it (a CLI update's new dialog).
    const agent = fakeAgent('drifted', dialog('curl -X POST http://x/c'), 1_000);
    agent.rules = { ...agent.rules, rules: agent.rules.rules.filter((r) => r.implies.primary !== 'waiting') };
    agent.status = { ...agent.status, detail: 'question', reason: 'claude/unrecognised-dialog', confidence: 'low' };
    const [row] = listWaiting([agent]);
    expect(row.question.split('\n')).toEqual([
      'Bash command',
      '  curl -X POST http://x/c',
      'Do you want to proceed?',
      '❯ 1. Yes',
      '  2. Yes, and don’t ask again for: curl *',
      '  3. No',
    ]);
    expect(row.choices).toEqual([]);
    await expect(answerPrompt(agent, { id: agent.id, choice: 'approve', fingerprint: row.fingerprint! })).rejects.toThrow();
    expect(agent.written).toEqual([]);
  });
});
