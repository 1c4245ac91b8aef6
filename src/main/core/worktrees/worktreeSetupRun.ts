/**
 * Runs a new worktree's `worktrees.setup` commands as one-shot entries, one after another, each
 * shown like any job. The caller runs them only once a person trusted the project's `worktrees`
 * section (worktreeTrust.ts); the first failing step stops the rest.
 */
import { waitForEvent } from '../base';
import type { ExitInfo } from '../../../shared/model';
import type { SetupOutcome, WorktreeInfo } from '../../../shared/worktree';
import type { WorktreeHost, WorktreeOrigin } from './worktreeHost';

export async function runSetup(
  core: WorktreeHost,
  worktree: WorktreeInfo,
  commands: readonly string[],
  origin: WorktreeOrigin,
): Promise<SetupOutcome> {
  if (commands.length === 0) return { ok: true, entries: [] };
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

/** A short job may be over before spawnProcess returns: its last exit is then the answer. */
function exitOf(core: WorktreeHost, id: string): Promise<ExitInfo> {
  const entry = core.entry(id);
  if (!entry.isRunning && entry.lastExit) return Promise.resolve(entry.lastExit);
  return waitForEvent(entry.onDidExitRun);
}
