/**
 * A real agent CLI spawned by a core WITH its MCP endpoint, so the preset's whole
 * wiring (MCP server, the CLI's own hooks or status plugin) is installed: used by the live tests
 * that prove the CLI's events reach the tracker. `turnWithHooks` runs one turn and resolves with
 * the status history once the answer streamed and the agent went idle from its own Stop event.
 */
import type { AgentStatusInfo } from '../../src/shared/status';
import type { startMockChatCompletions } from '../fixtures/openaiChat/mockChatCompletions';
import { startSwitchboard } from '../mcp/mcpHarness';
import type { SwitchboardCore } from '../../src/main/core/app';
import { statusWaiter, type StatusWaiter } from './agentStatusWaiter';

type ChatMock = Awaited<ReturnType<typeof startMockChatCompletions>>;

interface HookedTurn {
  preset: string;
  mock: ChatMock;
  harness: { argv: string[]; env: Record<string, string>; cwd: string };
  /** The agent shows its prompt (a status its own screen decided). */
  ready: (s: AgentStatusInfo) => boolean;
  timeoutMs: number;
  /** Registers what to undo after the test. */
  cleanup: (undo: () => Promise<void> | void) => void;
}

export async function turnWithHooks(o: HookedTurn): Promise<string[]> {
  const { core, id, status } = await agentWithHooks(o);
  await core.sendUserTurn(id, 'Say hello to Switchboard');
  await o.mock.waitFor('stream_end', (e) => e.kind === 'main', { timeoutMs: o.timeoutMs, context: status.describe });
  await status(idleFromStop, 'idle from its own Stop event');
  return status.history;
}

/** The agent's own Stop event made it idle. */
export const idleFromStop = (s: AgentStatusInfo): boolean => s.primary === 'idle' && s.reason === 'hook:Stop';

/** The agent spawned with the preset's whole wiring, at its prompt. */
export async function agentWithHooks(o: HookedTurn): Promise<{ core: SwitchboardCore; id: string; status: StatusWaiter }> {
  const sb = await startSwitchboard({ projectDir: o.harness.cwd });
  o.cleanup(() => sb.close());
  const core = sb.handle.core;
  const info = await core.spawnAgent({ preset: o.preset, name: o.preset, argv: o.harness.argv, env: o.harness.env, cwd: o.harness.cwd });
  const status = statusWaiter(core, info.id, o.preset, o.timeoutMs);
  await status(o.ready, 'at its prompt');
  return { core, id: info.id, status };
}
