/**
 * Set-up shared by the live tests of agent CLIs that speak the mock Chat Completions API: one
 * cleanup stack per file, the agent spawned on a real core under its preset, or spawned over MCP by
 * an external client of `serve`. The tests themselves keep every step and assertion.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, expect } from 'vitest';
import type { SwitchboardCore } from '../../src/main/core/app';
import { buildCore } from '../../src/main/core/composition';
import type { AgentStatusInfo } from '../../src/shared/status';
import { startMockChatCompletions, type ChatTurn, type MockChatCompletions } from '../fixtures/openaiChat/mockChatCompletions';
import { callOk, connectClient, firstLine, startSwitchboard } from '../mcp/mcpHarness';
import { statusWaiter, type StatusWaiter } from './agentStatusWaiter';
import { stopServe } from './serveAgent';

const ROOT = resolve(__dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

type Cleanup = () => Promise<void> | void;
type Client = Awaited<ReturnType<typeof connectClient>>;

/** What a CLI harness hands the spawner (every harness in test/fixtures has these). */
interface LaunchSpec {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
}

/** A stack of cleanups run (last first) after each test of the calling file. */
export function cleanupsAfterEach(): (cleanup: Cleanup) => void {
  const cleanups: Cleanup[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });
  return (cleanup) => cleanups.push(cleanup);
}

/** A status predicate: `primary`, and `detail` when given. */
export const is = (primary: string, detail?: string) => (s: AgentStatusInfo) =>
  s.primary === primary && (detail === undefined || s.detail === detail);

/** A greeting answered as text, then a deploy hook the CLI's shell tool must ask about. */
export function greetThenDeployTurns(greeting: string, shellTool: string): ChatTurn[] {
  return [
    [{ text: greeting, firstTokenDelayMs: 1_500, chunkDelayMs: 80 }],
    [
      {
        toolCall: {
          name: shellTool,
          arguments: { command: 'curl -X POST http://127.0.0.1:9/deploy', description: 'Post the deploy hook' },
        },
      },
    ],
  ];
}

/** The mock Chat Completions API with `turns` (none: scripted later) and the CLI's harness pointed at it, both cleaned up after the test. */
export async function mockAndHarness<Harness extends { cleanup(): Promise<void> }>(
  cleanup: (c: Cleanup) => void,
  turns: ChatTurn[] | undefined,
  createHarness: (baseUrl: string) => Promise<Harness>,
): Promise<{ mock: MockChatCompletions; harness: Harness }> {
  const mock = await startMockChatCompletions({ turns });
  cleanup(() => mock.close());
  const harness = await createHarness(mock.url);
  cleanup(() => harness.cleanup());
  return { mock, harness };
}

export interface AgentOnCore {
  core: SwitchboardCore;
  id: string;
  status: StatusWaiter;
  /** Wait options for the mock that print the status history and screen on a miss. */
  ctx: { timeoutMs: number; context: () => string };
  /** With hooks: the secrets a hook could leak (the run's token, the app token) and where hooks post. */
  endpoint?: { secrets: string[]; hooksUrl: string };
}

/**
 * Sends a greeting and follows its turn: the model request carries it, the agent turns active and is
 * idle again after the answer. Returns the active status for the test to check.
 */
export async function greetAndAnswer(agent: AgentOnCore, mock: MockChatCompletions): Promise<AgentStatusInfo> {
  const { core, id, status, ctx } = agent;
  await core.sendUserTurn(id, 'Say hello to Switchboard');
  const request = await mock.waitFor('request', (e) => e.kind === 'main', ctx);
  expect(request.userText).toContain('Say hello to Switchboard');
  const active = await status(is('active'), 'active');
  await mock.waitFor('stream_end', (e) => e.kind === 'main', ctx);
  await status(is('idle', 'ready'), 'idle after the answer');
  return active;
}

/**
 * Asks for the deploy hook, waits until the agent asks permission for it, and denies it with
 * Escape until the agent is idle again. Returns what the test checks: the waiting status, and the
 * model calls made from the ask on (a denial must not have cost another one).
 */
export async function askThenDenyDeploy(
  agent: AgentOnCore,
  mock: MockChatCompletions,
): Promise<{ waiting: AgentStatusInfo; mainRequestsSinceAsk: number }> {
  const { core, id, status, ctx } = agent;
  const mark = mock.mark();
  await core.sendUserTurn(id, 'Trigger the deploy hook');
  await mock.waitFor('tool_call', undefined, { ...ctx, after: mark });
  const waiting = await status(is('waiting', 'permission'), 'waiting/permission');
  core.entry(id).write('\x1b');
  await status(is('idle', 'ready'), 'idle after rejecting the tool');
  const mainRequestsSinceAsk = mock.events.filter((e) => e.type === 'request' && e.kind === 'main' && e.seq >= mark).length;
  return { waiting, mainRequestsSinceAsk };
}

/**
 * A real core in a temp project with the agent spawned under `preset` (its name is the preset's).
 * `withHooks`: a core with its MCP endpoint, so the preset's wiring (the CLI's hooks) is installed.
 */
export async function spawnOnCore(
  cleanup: (c: Cleanup) => void,
  o: { preset: string; label: string; launch: LaunchSpec; waitMs: number; withHooks?: boolean },
): Promise<AgentOnCore> {
  const sb = o.withHooks ? await switchboardWithEndpoint(cleanup, o.launch.cwd) : undefined;
  const core =
    sb?.handle.core ?? buildCore({ projectDir: mkdtempSync(join(tmpdir(), `sb-${o.preset}-`)), watchConfig: false, killGraceMs: 1_000 });
  if (!sb) {
    await core.init();
    cleanup(() => core.dispose());
  }
  const info = await core.spawnAgent({ preset: o.preset, name: o.preset, argv: o.launch.argv, env: o.launch.env, cwd: o.launch.cwd });
  const status = statusWaiter(core, info.id, o.label, o.waitMs);
  const service = sb?.handle.mcp.service;
  const endpoint = service && { secrets: [service.identity.tokenFor(info.id), service.token], hooksUrl: service.hooksUrl };
  return { core, id: info.id, status, ctx: { timeoutMs: o.waitMs, context: status.describe }, ...(endpoint ? { endpoint } : {}) };
}

async function switchboardWithEndpoint(cleanup: (c: Cleanup) => void, projectDir: string) {
  const sb = await startSwitchboard({ projectDir });
  cleanup(() => sb.close());
  return sb;
}

/** `serve` on a temp project, an MCP client connected to it, and the agent spawned through `spawn_agent`. */
export async function spawnUnderServe(
  cleanup: (c: Cleanup) => void,
  o: { agent: string; name: string; launch: LaunchSpec; waitMs: number },
): Promise<{ client: Client; id: string }> {
  const root = mkdtempSync(join(tmpdir(), `sb-${o.agent}-serve-`));
  cleanup(() => rmSync(root, { recursive: true, force: true }));
  const project = join(root, 'project');
  mkdirSync(project);
  const serve = spawn(
    TSX,
    [join(ROOT, 'src/main/serve.ts'), '--project', project, '--data-dir', join(root, 'data'), '--static-dir', root, '--trust'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  cleanup(() => stopServe(serve));
  const endpoint = JSON.parse(await firstLine(serve, o.waitMs)) as { url: string; token: string };
  const client = await connectClient(endpoint.url, endpoint.token, `${o.agent}-live-test`);
  cleanup(() => client.close());
  const spawned = await callOk<{ id: string }>(client, 'spawn_agent', {
    agent: o.agent,
    name: o.name,
    argv: o.launch.argv,
    env: o.launch.env,
    working_dir: o.launch.cwd,
  });
  return { client, id: spawned.id };
}
