/**
 * Start-up shared by the real-CLI smoke tests: a mock model server, a throw-away harness and
 * the agent's TUI in a 120x40 PTY, each stopped after the test (newest first); and a headless
 * run to completion.
 */
import { spawn } from 'node:child_process';
import { afterEach } from 'vitest';
import { PtyScreen } from './ptyScreen';

/** The fields of a mock model server a session uses. */
interface ClosableMock {
  url: string;
  close(): Promise<void>;
}

/** What a session needs from an agent's fixtures. */
interface AgentFixtures<Turn, Mock extends ClosableMock, Options extends { baseUrl: string }, Harness> {
  startMock(turns: Turn[]): Promise<Mock>;
  createHarness(options: Options): Promise<Harness>;
}

/** The fields of a harness a session spawns from. */
interface SpawnableHarness {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  cleanup(): Promise<void>;
}

interface AgentSession<Mock, Harness> {
  mock: Mock;
  harness: Harness;
  screen: PtyScreen;
  /** Wait options that put the current screen into timeout messages. */
  ctx: { context: () => string };
}

/** Registers the clean-up hook of one test file and returns its start functions. */
export function useAgentSessions<Turn, Mock extends ClosableMock, Options extends { baseUrl: string }, Harness extends SpawnableHarness>(
  fixtures: AgentFixtures<Turn, Mock, Options, Harness>,
) {
  const cleanups: Array<() => Promise<void>> = [];

  afterEach(async () => {
    while (cleanups.length > 0) await (cleanups.pop() as () => Promise<void>)();
  });

  async function startMock(turns: Turn[]): Promise<Mock> {
    const mock = await fixtures.startMock(turns);
    cleanups.push(() => mock.close());
    return mock;
  }

  async function startHarness(options: Options): Promise<Harness> {
    const harness = await fixtures.createHarness(options);
    cleanups.push(() => harness.cleanup());
    return harness;
  }

  /** Mock + config + the real TUI in a 120x40 PTY. */
  async function startSession(turns: Turn[], options: Partial<Options> = {}): Promise<AgentSession<Mock, Harness>> {
    const mock = await startMock(turns);
    const harness = await startHarness({ baseUrl: mock.url, ...options } as Options);
    const screen = PtyScreen.spawn({ argv: harness.argv, env: harness.env, cwd: harness.cwd });
    cleanups.push(() => screen.kill());
    return { mock, harness, screen, ctx: { context: () => screen.describe() } };
  }

  return { startMock, startHarness, startSession };
}

/**
 * Runs a headless command (`claude -p`, `codex exec`) in the harness's folder and environment to
 * completion (no PTY, stdin closed), killing it if it overruns; `label` names it in that error.
 */
export function runHeadless(
  argv: string[],
  harness: { cwd: string; env: Record<string, string> },
  label: string,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd: harness.cwd, env: harness.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${label} did not finish within ${timeoutMs} ms.\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
