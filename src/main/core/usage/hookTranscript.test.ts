import { describe, expect, it } from 'vitest';
import { Emitter } from '../base';
import type { AgentHookEvent } from '../../../shared/status';
import { HookTranscript } from './hookTranscript';
import { USAGE_SOURCES } from './usageSources';

const CHAT = '/home/dev/.gemini/tmp/project/chats/session-2026-11-29T14-36-41d0b54f.jsonl';

function setUp() {
  const runStarted = new Emitter<void>();
  const hooks = new Emitter<AgentHookEvent>();
  const transcript = new HookTranscript(runStarted.event, hooks.event, USAGE_SOURCES.gemini.hookTranscript!);
  const hook = (transcriptPath?: string) =>
    hooks.fire({ event: 'Stop', at: 1, ...(transcriptPath !== undefined ? { transcriptPath } : {}) });
  return { transcript, hook, startRun: () => runStarted.fire() };
}

describe('HookTranscript (Gemini CLI)', () => {
  it('takes the last chat file a hook named and forgets it when a new run starts', () => {
    const { transcript, hook, startRun } = setUp();
    expect(transcript.id).toBeUndefined();
    hook(CHAT);
    hook(); // a hook without a path (Gemini's BeforeModel posts its name alone) keeps it
    expect(transcript.id).toBe(CHAT);
    const cleared = CHAT.replace('41d0b54f', '9a8b7c6d');
    hook(cleared);
    expect(transcript.id).toBe(cleared);
    startRun();
    expect(transcript.id).toBeUndefined();
  });

  it('ignores a relative path and any file that is not a main session chat file', () => {
    const { transcript, hook } = setUp();
    for (const path of [
      'chats/session-1.jsonl',
      '/etc/passwd',
      '/home/dev/.gemini/tmp/project/chats/session-1.json',
      '/home/dev/.gemini/tmp/project/chats/5f0c2a8e/sub-agent.jsonl',
      '',
    ])
      hook(path);
    expect(transcript.id).toBeUndefined();
  });
});
