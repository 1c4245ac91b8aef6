/** Helpers for restart tests: the agent entry through MCP, user turns at the prompt, files written by the agent CLIs. */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callOk } from '../mcp/mcpHarness';
import type { ServeChild } from './serveChild';

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
export async function ask(serve: ServeChild, id: string, text: string): Promise<void> {
  await callOk(serve.client, 'timer_set', { seconds: 0, body: text, owner_process_id: id });
}

export function cmdline(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
}

/**
 * A project for one agent entry in `cwd` and a fresh data dir under a temp root (removed through
 * `cleanups`): the set-up every restart test of a real agent CLI shares.
 */
export function agentRestartProject(
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
