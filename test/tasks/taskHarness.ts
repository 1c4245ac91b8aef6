/**
 * Real tasks for tests: a SwitchboardCore (real PTYs, real tree kill) running the REAL Claude Code
 * (`node_modules/.bin/claude`) headless against the mock Messages API. Every wait is on an event
 * (task end, mock timeline, a file appearing), never a sleep.
 */
import { existsSync, readFileSync, watch } from 'node:fs';
import path from 'node:path';
import type { SwitchboardCore } from '../../src/main/core/app';
import { buildCore } from '../../src/main/core/composition';
import { findByEnvMarker, isAlive } from '../../src/main/core/sessions/processTree';
import { CLAUDE_BIN, createClaudeHarness, type ClaudeHarness, type ClaudeHarnessOptions } from '../fixtures/anthropic/claudeHarness';
import { startMockAnthropic, type AnthropicTurn, type MockAnthropic, type MockAnthropicOptions } from '../fixtures/anthropic/mockAnthropic';
import type { TaskRequest, TaskView } from '../../src/shared/task';

/** Generous bound on one task's end for a busy 2-core machine (a clean run takes ~3 s). */
const TASK_END_TIMEOUT_MS = 45_000;
/** Short grace so kill tests do not wait 3 s per tree. */
const TEST_KILL_GRACE_MS = 1_000;

export interface TaskWorld {
  mock: MockAnthropic;
  harness: ClaudeHarness;
  core: SwitchboardCore;
  /** Starts a task running the real Claude Code with the harness's config and environment. */
  start(prompt: string, extra?: Partial<TaskRequest>): Promise<TaskView>;
  /** Waits until the task ended (terminal phase, tree gone) and returns it. */
  waitEnd(id: string, timeoutMs?: number): Promise<TaskView>;
  close(): Promise<void>;
}

export async function createTaskWorld(
  turns: AnthropicTurn[],
  options: { mock?: MockAnthropicOptions; harness?: Partial<ClaudeHarnessOptions> } = {},
): Promise<TaskWorld> {
  const mock = await startMockAnthropic({ turns, ...options.mock });
  const harness = await createClaudeHarness({ baseUrl: mock.url, allow: ['Bash'], ...options.harness });
  const core = buildCore({ projectDir: harness.cwd, watchConfig: false, killGraceMs: TEST_KILL_GRACE_MS });
  return {
    mock,
    harness,
    core,
    start: (prompt, extra = {}) => core.startTask({ prompt, argv: [CLAUDE_BIN], env: harness.env, cwd: harness.cwd, ...extra }),
    async waitEnd(id, timeoutMs = TASK_END_TIMEOUT_MS) {
      const result = await core.waitForTask(id, timeoutMs);
      if (!result.isEnded) {
        const task = core.getTask(id);
        throw new Error(
          `Task ${id} did not end within ${timeoutMs} ms: ${result.message}\n${describeTask(task)}\nmock: ${lastEvents(mock)}`,
        );
      }
      return core.getTask(id);
    },
    async close() {
      await core.dispose();
      await mock.close();
      await harness.cleanup();
    },
  };
}

/** Processes still carrying the entry's id in their environment (every descendant inherits it). */
export function survivorsOf(entryId: string): number[] {
  return [...findByEnvMarker('SWITCHBOARD_PROCESS_ID', entryId)];
}

export function alive(pids: number[]): number[] {
  return pids.filter(isAlive);
}

/** Resolves with the file's content once it exists and is non-empty (fs.watch on its directory). */
export function waitForFile(file: string, timeoutMs = TASK_END_TIMEOUT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    const read = (): string | undefined => {
      if (!existsSync(file)) return undefined;
      const text = readFileSync(file, 'utf8').trim();
      return text === '' ? undefined : text;
    };
    const now = read();
    if (now !== undefined) return resolve(now);
    const watcher = watch(path.dirname(file), () => {
      const text = read();
      if (text === undefined) return;
      clearTimeout(timer);
      watcher.close();
      resolve(text);
    });
    const timer = setTimeout(() => {
      watcher.close();
      reject(new Error(`${file} did not appear within ${timeoutMs} ms`));
    }, timeoutMs);
  });
}

export function describeTask(task: TaskView): string {
  return JSON.stringify(
    {
      phase: task.phase,
      message: task.message,
      error: task.error,
      lastActivity: task.lastActivity,
      decisions: task.decisions,
      noiseTail: task.noiseTail,
      text: task.text.slice(-300),
    },
    null,
    2,
  );
}

function lastEvents(mock: MockAnthropic): string {
  return mock.events
    .slice(-8)
    .map((e) => `${Math.round(e.t)} ${e.type}`)
    .join(', ');
}
