/**
 * Proves the GitHub Copilot CLI fixtures drive the REAL `copilot` (1.0.102) offline, without a
 * GitHub sign-in: its BYOK provider variables point it at the mock Chat Completions API. Only the
 * headless mode here; the TUI is driven by test/status/copilotLive.test.ts and the recordings.
 */
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockChatCompletions, type MockChatCompletions } from '../fixtures/openaiChat/mockChatCompletions';
import { COPILOT_VERSION, createCopilotHarness } from '../fixtures/openaiChat/copilotHarness';
import { runHeadless } from './agentSessions';

/** `copilot -p` answers in about 12 s here, 10 s more on the first run (it unpacks itself). */
const PROMPT_TIMEOUT_MS = 120_000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function mockAndHarness(
  text: string,
): Promise<{ mock: MockChatCompletions; harness: Awaited<ReturnType<typeof createCopilotHarness>> }> {
  const mock = await startMockChatCompletions({ turns: [[{ text }]] });
  cleanups.push(() => mock.close());
  const harness = await createCopilotHarness({ baseUrl: mock.url });
  cleanups.push(() => harness.cleanup());
  return { mock, harness };
}

describe('GitHub Copilot CLI (real CLI) against the mock Chat Completions API', () => {
  it('is the version the fixtures were written against', async () => {
    const { harness } = await mockAndHarness('unused');
    const version = execFileSync(harness.argv[0], ['--version'], { cwd: harness.cwd, env: harness.env, encoding: 'utf8' });
    expect(version).toContain(COPILOT_VERSION);
  });

  it(
    'copilot -p answers from the mock with no GitHub sign-in (BYOK, offline)',
    async () => {
      const { mock, harness } = await mockAndHarness('Hello from the mock to Copilot.');
      const run = await runHeadless(harness.printArgv('Say hello'), harness, 'copilot -p', PROMPT_TIMEOUT_MS);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('Hello from the mock to Copilot.');
      const main = mock.events.filter((e) => e.type === 'request' && e.kind === 'main');
      expect(main).toHaveLength(1);
      expect(main[0]).toMatchObject({ userText: expect.stringContaining('Say hello') as unknown });
    },
    PROMPT_TIMEOUT_MS + 10_000,
  );
});
