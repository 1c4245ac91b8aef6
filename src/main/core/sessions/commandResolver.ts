/**
 * Checks a spawn before node-pty sees it, so a missing command, a bad cwd or a missing execute
 * bit become a clear message instead of a child that dies with an obscure exit code.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { SpawnError } from '../../../shared/errors';

export function checkCwd(cwd: string): void {
  let stat;
  try {
    stat = statSync(cwd);
  } catch {
    throw new SpawnError(`Working directory does not exist: ${cwd}`, 'bad_cwd');
  }
  if (!stat.isDirectory()) throw new SpawnError(`Working directory is not a directory: ${cwd}`, 'bad_cwd');
}

/** Absolute path of the executable `command` would run, or a SpawnError saying why not. */
export function resolveCommand(command: string, cwd: string, env: Record<string, string | undefined>): string {
  if (!command) throw new SpawnError('No command given', 'command_not_found');
  if (command.includes('/')) {
    const path = isAbsolute(command) ? command : resolve(cwd, command);
    return checkExecutable(path, command);
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const path = join(dir, command);
    if (isFile(path)) return checkExecutable(path, command);
  }
  throw new SpawnError(`Command not found: ${command}`, 'command_not_found');
}

function checkExecutable(path: string, shown: string): string {
  if (!isFile(path)) throw new SpawnError(`No such file: ${shown}`, 'command_not_found');
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new SpawnError(`Permission denied: ${shown} is not executable`, 'permission_denied');
  }
  return path;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
