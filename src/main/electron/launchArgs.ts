/** Which project a launch asks for: `--project DIR`, or a folder passed as an argument (dock drop, `open -a`, a file manager). */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * `firstUserArg` skips the launcher's own arguments: 1 in a packaged app (`[exe, …]`), 2 in
 * development (`[electron, appPath, …]`). Undefined when the launch names no project.
 */
export function projectFromArgv(argv: readonly string[], cwd: string, firstUserArg: number): string | undefined {
  const flag = argv.lastIndexOf('--project');
  if (flag >= 0 && argv[flag + 1]) return resolve(cwd, argv[flag + 1]);
  const folders = argv
    .slice(firstUserArg)
    .filter((arg, i, all) => !arg.startsWith('-') && all[i - 1] !== '--project' && isDirectory(resolve(cwd, arg)));
  return folders.length ? resolve(cwd, folders[folders.length - 1]) : undefined;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
