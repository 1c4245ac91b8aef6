/**
 * Claude Code's `statusLine` setting for an agent run: a command that posts Claude Code's
 * status-line input (its JSON on stdin, with the subscription's usage windows) to Switchboard's
 * status-line receiver with the run's token from the environment (hookPostCommand.ts), and prints
 * the line Claude Code shows under its prompt.
 *
 * Switchboard's `--settings` outrank the user's and the project's, so a status line the user set
 * would be lost: theirs is found where Claude Code would find it and still runs, on the same
 * input, and prints the line; the post then only feeds Switchboard. Their command goes into a
 * Switchboard-owned file (0600) run with `.` by the shell Claude Code started, so it is in no argv.
 * A status line set by managed (enterprise) settings outranks `--settings`: Switchboard's is then
 * not run and the windows stay unknown (docs/usage.md).
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { RunEnv } from './agentPreset';
import { HOOK_STDIN_BODY, hookPostCommand } from './hookPostCommand';
import { ownedSettingsFile } from './ownedSettingsFile';

/** Claude Code's `statusLine` setting (a `command` one; the only kind it runs). */
interface ClaudeStatusLine {
  type: 'command';
  command: string;
  padding?: number;
  refreshInterval?: number;
}

/**
 * The status line the user configured, as Claude Code 2.1.332 picks it among the files
 * `--settings` outranks: the folder's `.claude/settings.local.json`, then `.claude/settings.json`,
 * then the user's `settings.json` (`$CLAUDE_CONFIG_DIR`, else `~/.claude`); the first that sets one.
 */
export function usersClaudeStatusLine(runEnv: RunEnv, cwd: string | undefined): ClaudeStatusLine | undefined {
  const home = runEnv.HOME ?? homedir();
  const files = [
    ...(cwd ? [path.join(cwd, '.claude', 'settings.local.json'), path.join(cwd, '.claude', 'settings.json')] : []),
    path.join(runEnv.CLAUDE_CONFIG_DIR ?? path.join(home, '.claude'), 'settings.json'),
  ];
  for (const file of files) {
    const found = statusLineIn(file);
    if (found) return found;
  }
  return undefined;
}

function statusLineIn(file: string): ClaudeStatusLine | undefined {
  let settings: unknown;
  try {
    settings = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // Missing or not JSON: Claude Code finds no status line there either.
    return undefined;
  }
  const line = (settings as { statusLine?: unknown } | null)?.statusLine as Record<string, unknown> | undefined;
  if (typeof line !== 'object' || line === null || line.type !== 'command' || typeof line.command !== 'string' || !line.command.trim()) {
    return undefined;
  }
  return {
    type: 'command',
    command: line.command,
    ...(typeof line.padding === 'number' ? { padding: line.padding } : {}),
    ...(typeof line.refreshInterval === 'number' ? { refreshInterval: line.refreshInterval } : {}),
  };
}

/**
 * The `statusLine` for a run posting to `statusLineUrl`. Without the user's own, the receiver's
 * answer is the line; with it, the input is read once, posted in the background and given to theirs.
 */
export function claudeStatusLine(statusLineUrl: string, theirs?: ClaudeStatusLine): ClaudeStatusLine {
  if (!theirs) return { type: 'command', command: hookPostCommand(statusLineUrl, HOOK_STDIN_BODY, 'print') };
  const script = ownedSettingsFile('claude-status-line', `${theirs.command}\n`, 'sh');
  const post = hookPostCommand(statusLineUrl, HOOK_STDIN_BODY);
  const command = `input=$(cat); printf '%s' "$input" | ${post} & printf '%s' "$input" | . '${script}'; wait`;
  return { ...theirs, command };
}
