/**
 * Opening a project file in the configured editor (editorCommand.ts). The renderer names only the
 * file; the command is the core's own, so a page cannot run anything else through this.
 */
import { spawn } from 'node:child_process';
import { relative } from 'node:path';
import { InvalidArgumentError, SwitchboardError } from '../../../shared/errors';
import type { CommandArgsOf } from '../../../shared/api';
import { editorLaunchFor } from './editorCommand';
import { resolveProjectFile } from './projectPath';

/** What opening a file needs of the core. */
interface EditorHost {
  readonly projectDir: string;
  /** The entry a path was printed by: the path is relative to its cwd. */
  entry(id: string): { readonly definition: { readonly cwd: string } };
  /** A terminal editor (vim, nano) runs in a new terminal entry. */
  spawnProcess(args: CommandArgsOf<'spawnProcess'>): Promise<unknown>;
}

export async function openInEditor(
  host: EditorHost,
  request: CommandArgsOf<'openInEditor'>,
  env: Record<string, string | undefined>,
): Promise<{ file: string; editor: string }> {
  const baseDir = request.id ? host.entry(request.id).definition.cwd : host.projectDir;
  const file = resolveProjectFile(host.projectDir, baseDir, request.path);
  const launch = editorLaunchFor({ file, line: request.line, column: request.column }, env);
  if (!launch) {
    throw new InvalidArgumentError('No editor configured: set SWITCHBOARD_EDITOR (e.g. "code -g {file}:{line}:{column}") or EDITOR');
  }
  const name = `edit ${relative(host.projectDir, file)}`;
  if (launch.inTerminal) await host.spawnProcess({ kind: 'terminal', argv: launch.argv, name, cwd: host.projectDir });
  else await launchDetached(launch.argv, host.projectDir);
  return { file, editor: launch.source };
}

/** A GUI editor (or its launcher, like `code`) runs on its own: the app waits only until it started. */
function launchDetached(argv: string[], cwd: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const [command = '', ...args] = argv;
    const child = spawn(command, args, { cwd, detached: true, stdio: 'ignore' });
    child.once('error', (err) => reject(new SwitchboardError('spawn_failed', `Editor ${argv[0]} could not start: ${err.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolvePromise();
    });
  });
}
