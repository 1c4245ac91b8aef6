/**
 * A user turn to an idle agent whose CLI drops the Enter (the text stays in its composer) gets Enter
 * once more; one that takes the turn gets exactly one. The stand-in draws Claude Code 2.1.197's idle
 * title and prompt box, and on a taken Enter its busy title and "esc to interrupt" bar (the claude
 * rules `title-idle` / `idle-prompt` and `title-spinner` / `esc-to-interrupt`), like the real TUI.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCore } from '../composition';
import { waitForEvent } from '../base';
import type { SwitchboardCore } from './switchboardCore';

const STAND_IN = String.raw`
const dropFirst = process.env.DROP_FIRST_ENTER === '1';
const rule = '─'.repeat(100);
let text = '';
let enters = 0;
let received = [];
const draw = (busy) => {
  process.stdout.write('\x1b]0;' + (busy ? '⠂' : '✳') + ' Claude Code\x07\x1b[2J\x1b[H');
  for (const line of received) process.stdout.write('received: ' + line + '\r\n');
  process.stdout.write('enters: ' + enters + '\r\n' + rule + '\r\n❯ ' + text + '\r\n' + rule + '\r\n');
  process.stdout.write(busy ? '  esc to interrupt\r\n' : '  ? for shortcuts\r\n');
};
process.stdin.setRawMode(true);
process.stdout.write('\x1b[?2004h');
draw(false);
process.stdin.on('data', (data) => {
  for (const ch of data.toString().replace(/\x1b\[20[01]~/g, '')) {
    if (ch !== '\r') { text += ch; continue; }
    enters += 1;
    if (dropFirst && enters === 1) continue;
    if (text === '') continue;
    received.push(text);
    text = '';
    draw(true);
    setTimeout(() => draw(false), 1000);
    return;
  }
  draw(false);
});
`;

let core: SwitchboardCore | undefined;
afterEach(async () => {
  await core?.dispose();
  core = undefined;
});

async function standIn(dropFirstEnter: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'sb-turn-'));
  // A script file, not `node -e`: the claude preset appends its own flags (--session-id, …), which node would read as its own.
  const script = join(dir, 'stand-in.cjs');
  writeFileSync(script, STAND_IN);
  core = buildCore({ projectDir: dir, watchConfig: false, killGraceMs: 300 });
  await core.init();
  const info = await core.spawnAgent({
    preset: 'claude',
    name: 'stand-in',
    argv: ['node', script],
    env: { DROP_FIRST_ENTER: dropFirstEnter ? '1' : '0' },
  });
  const tracker = core.statusTrackerOf(info.id);
  if (tracker.status.primary !== 'idle') await waitForEvent(tracker.onDidChangeStatus, (s) => s.primary === 'idle', 20_000);
  const screen = () => core!.entry(info.id).screen.getVisibleLines().join('\n');
  return { id: info.id, tracker, screen };
}

describe('sendUserTurn to an idle agent', () => {
  it('regression: an Enter the CLI dropped left the turn in its composer; Enter is pressed once more', async () => {
    const { id, screen } = await standIn(true);
    await core!.sendUserTurn(id, 'review the parser');
    await expect.poll(screen, { timeout: 10_000 }).toContain('received: review the parser');
    expect(screen()).toContain('enters: 2');
  }, 30_000);

  it('an agent that takes the turn gets exactly one Enter', async () => {
    const { id, tracker, screen } = await standIn(false);
    await core!.sendUserTurn(id, 'review the parser');
    expect(screen()).toContain('received: review the parser');
    await waitForEvent(tracker.onDidChangeStatus, (s) => s.primary === 'idle', 10_000);
    expect(screen()).toContain('enters: 1');
  }, 30_000);
});
