/** Helpers for restart tests: the agent entry through MCP, user turns at the prompt, files written by the agent CLIs. */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { callOk } from '../mcp/mcpHarness';
import { startServe, type ServeChild } from './serveChild';
import type { RequestRef } from '../fixtures/mockModelServer';
import type { WaitOptions } from '../fixtures/anthropic/mockCore';

/** An agent CLI's turn: the model answers within this (a real CLI on a shared 2-core box). */
export const AGENT_TURN_TIMEOUT_MS = 90_000;

/** What the turn helpers need of a mock model server (any of them). */
interface TurnMock {
  readonly events: ReadonlyArray<unknown>;
  mark(): number;
  waitFor(
    predicate: (event: { type: string; userText?: string | null } & Partial<RequestRef>) => boolean,
    opts?: WaitOptions,
  ): Promise<unknown>;
}

/** Wait options for a turn: a timeout shows the mock's last events. */
function turnWait(mock: TurnMock): WaitOptions {
  return { timeoutMs: AGENT_TURN_TIMEOUT_MS, context: () => JSON.stringify(mock.events.slice(-5)) };
}

/** Types `question` at the agent's prompt and waits until the model streamed its answer, scripted turn `turn`. */
export async function askAndAwaitAnswer(serve: ServeChild, id: string, question: string, mock: TurnMock, turn: number): Promise<void> {
  await ask(serve, id, question);
  await withAgentReport(
    serve,
    id,
    mock.waitFor((e) => e.type === 'stream_end' && e.kind === 'main' && e.turn === turn, turnWait(mock)),
  );
}

/** `wait`'s result; if it fails, its error with the agent's status and screen as serve has them (what a person would look at). */
async function withAgentReport<T>(serve: ServeChild, id: string, wait: Promise<T>): Promise<T> {
  try {
    return await wait;
  } catch (error) {
    const status = await callOk(serve.client, 'get_process_status', { process_id: id }).catch(String);
    const screen = await callOk<{ text: string }>(serve.client, 'get_process_output', { process_id: id }).then((o) => o.text, String);
    throw new Error(`${(error as Error).message}\nAgent status: ${JSON.stringify(status)}\nAgent screen:\n${screen}`, { cause: error });
  }
}

export interface Proc {
  id: string;
  name: string;
  state: string;
  pid?: number;
  session?: { id?: string; resumable: boolean; reason?: string };
  restoredAt?: number;
}

export async function agentOf(serve: ServeChild): Promise<Proc> {
  const { processes } = await callOk<{ processes: Proc[] }>(serve.client, 'list_processes');
  return callOk<Proc>(serve.client, 'get_process_status', { process_id: processes[0].id });
}

/** Types a user turn once the agent is at its prompt (a zero-second timer waits for the prompt: no polling). */
async function ask(serve: ServeChild, id: string, text: string): Promise<void> {
  await callOk(serve.client, 'timer_set', { seconds: 0, body: text, owner_process_id: id });
}

export function cmdline(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
}

/**
 * A project for one agent entry in `cwd` and a fresh data dir under a temp root (removed through
 * `cleanups`): the set-up every restart test of a real agent CLI shares.
 */
function agentRestartProject(
  prefix: string,
  cwd: string,
  name: string,
  entry: Record<string, unknown>,
  cleanups: Array<() => Promise<void>>,
): { root: string; dataDir: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  cleanups.push(async () => rmSync(root, { recursive: true, force: true }));
  const dataDir = join(root, 'data');
  mkdirSync(dataDir);
  writeFileSync(join(cwd, 'switchboard.json'), JSON.stringify({ agents: { [name]: entry } }));
  return { root, dataDir };
}

/** A real agent CLI as the one switchboard.json agent of its harness's project, served by a real `serve` child on a fresh data dir. */
interface ServedAgent {
  /** The serve that runs now (stopped with SIGKILL at cleanup if a test left it up). */
  first: ServeChild;
  /** A new serve on the same project and data dir (stopped with SIGTERM at cleanup). */
  restart(): Promise<ServeChild>;
  /** The app's data folder both serves share. */
  dataDir: string;
}

export async function serveAgentProject(
  agent: { preset: string; command: string },
  harness: { cwd: string; env: Record<string, string> },
  cleanups: Array<() => Promise<void>>,
): Promise<ServedAgent> {
  const { root, dataDir } = agentRestartProject(
    `continuity-${agent.preset}-`,
    harness.cwd,
    agent.preset,
    { preset: agent.preset, command: agent.command, env: harness.env },
    cleanups,
  );
  const first = await startServe(harness.cwd, dataDir, root);
  cleanups.push(async () => void (await first.stop('SIGKILL')));
  return {
    first,
    dataDir,
    async restart() {
      const next = await startServe(harness.cwd, dataDir, root);
      cleanups.push(async () => void (await next.stop('SIGTERM')));
      return next;
    },
  };
}

/**
 * After a restart: the agent is back under its id, stopped, with its session resumable; Resume
 * relaunches it and `question` reaches the model. Returns the resumed entry and that request's id.
 */
export async function resumeAndAsk(
  serve: ServeChild,
  before: Proc,
  question: string,
  mock: TurnMock,
): Promise<{ resumed: Proc; requestId: string }> {
  const restored = await agentOf(serve);
  expect(restored).toMatchObject({ id: before.id, state: 'stopped', session: { id: before.session!.id, resumable: true } });
  expect(restored.restoredAt).toBeGreaterThan(0);
  const resumed = await callOk<Proc>(serve.client, 'resume_process', { process_id: restored.id });
  expect(resumed.state).not.toBe('stopped');
  const mark = mock.mark();
  await ask(serve, restored.id, question);
  const request = (await withAgentReport(
    serve,
    restored.id,
    mock.waitFor((e) => e.type === 'request' && e.kind === 'main' && (e.userText ?? '').includes(question), {
      after: mark,
      ...turnWait(mock),
    }),
  )) as RequestRef;
  return { resumed, requestId: request.requestId };
}
