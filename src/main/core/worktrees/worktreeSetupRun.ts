/**
 * Runs a new worktree's `worktrees.setup` commands as one-shot entries, one after another, each
 * shown like any job. They run only once a person trusted exactly these commands (the project's
 * trust, under the key `worktrees.setup`): the first failing or untrusted step stops the rest.
 */
import { waitForEvent } from '../base';
import type { HeldEntry } from '../trust';
import type { ExitInfo, ProcessSpec } from '../../../shared/model';
import type { SetupOutcome, WorktreeInfo } from '../../../shared/worktree';
import type { WorktreeHost, WorktreeOrigin } from './worktreeHost';

const SETUP_TRUST_KEY = 'worktrees.setup';

export async function runSetup(
  core: WorktreeHost,
  worktree: WorktreeInfo,
  commands: readonly string[],
  origin: WorktreeOrigin,
): Promise<SetupOutcome> {
  if (commands.length === 0) return { ok: true, entries: [] };
  if (!core.trust.admit(setupTrustRequest(commands)!))
    return {
      ok: false,
      entries: [],
      message: `The worktree set-up commands (${commands.join('; ')}) are not trusted yet: a person trusts "${SETUP_TRUST_KEY}" in Switchboard, then set-up runs on the next worktree.`,
    };
  const entries: string[] = [];
  for (const command of commands) {
    const info = await core.spawnProcess(
      { kind: 'command', shell: command, name: `setup ${worktree.id}: ${command}`, cwd: worktree.path, worktree: worktree.id },
      origin,
    );
    entries.push(info.id);
    const exit = await exitOf(core, info.id);
    if (exit.exitCode !== 0 || exit.signal !== undefined)
      return {
        ok: false,
        entries,
        message: `Set-up command "${command}" in worktree "${worktree.id}" failed (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.exitCode}`}); see entry ${info.id}. The agent's instructions were not typed.`,
      };
  }
  return { ok: true, entries };
}

/** What trust is asked for a project's `worktrees.setup` (nothing when it declares none); the config reload keeps it held. */
export function setupTrustRequest(commands: readonly string[]): HeldEntry | undefined {
  return commands.length === 0 ? undefined : { key: SETUP_TRUST_KEY, spec: setupTrustSpec(commands), autoStart: false };
}

/** The set-up as one trusted definition: the commands and nothing else (the folder differs per worktree). */
function setupTrustSpec(commands: readonly string[]): ProcessSpec {
  return { name: SETUP_TRUST_KEY, kind: 'command', argv: ['/bin/sh', '-c', commands.join('\n')], cwd: '${worktree}' };
}

/** A short job may be over before spawnProcess returns: its last exit is then the answer. */
function exitOf(core: WorktreeHost, id: string): Promise<ExitInfo> {
  const entry = core.entry(id);
  if (!entry.isRunning && entry.lastExit) return Promise.resolve(entry.lastExit);
  return waitForEvent(entry.onDidExitRun);
}
