/** answerPrompt types only into the agent it names, and only while the prompt the person saw is on its screen. */
import { describe, expect, it } from 'vitest';
import type { AgentStatusInfo } from '../../../shared/status';
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

function fakeAgent(name: string, lines: string[], since: number): InboxAgent & { lines: string[]; written: string[] } {
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
    lines,
    written: [] as string[],
    screen: {
      title: '✳ Claude Code',
      cols: 100,
      getVisibleLines: () => agent.lines,
    },
    write: (data: string) => void agent.written.push(data),
  };
  return agent;
}

describe('attention inbox', () => {
  it('lists waiting agents oldest first with the question, and answers only the one named', () => {
    const newer = fakeAgent('newer', dialog('curl -X POST http://x/b'), 2_000);
    const older = fakeAgent('older', dialog('curl -X POST http://x/a'), 1_000);
    const rows = listWaiting([newer, older]);
    expect(rows.map((r) => r.name)).toEqual(['older', 'newer']);
    expect(rows[0].question).toContain('curl -X POST http://x/a');
    expect(rows[0].choices).toEqual([
      { id: 'approve', label: 'Yes' },
      { id: 'deny', label: 'No' },
    ]);
    expect(answerPrompt(older, { id: older.id, fingerprint: rows[0].fingerprint!, choice: 'approve' })).toMatchObject({ label: 'Yes' });
    expect(older.written).toEqual(['\r']);
    expect(newer.written).toEqual([]);
  });

  it('refuses a stale click: the prompt was answered in the pane, or replaced by another', () => {
    const agent = fakeAgent('a', dialog('curl -X POST http://x/a'), 1_000);
    const [seen] = listWaiting([agent]);
    agent.lines = idle;
    expect(() => answerPrompt(agent, { id: agent.id, fingerprint: seen.fingerprint!, choice: 'approve' })).toThrow(
      expect.objectContaining({ code: 'stale_prompt', message: expect.stringMatching(/no longer shows a prompt.*nothing was sent/) }),
    );
    agent.lines = dialog('rm -rf /tmp/other');
    expect(() => answerPrompt(agent, { id: agent.id, fingerprint: seen.fingerprint!, choice: 'approve' })).toThrow(
      expect.objectContaining({ code: 'stale_prompt', message: expect.stringMatching(/different prompt/) }),
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
