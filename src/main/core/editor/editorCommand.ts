/**
 * Which editor opens a clicked `file:line:column`, decided by the core's own environment (never by
 * the renderer, which only names the file):
 * 1. `SWITCHBOARD_EDITOR`, a command template with `{file}`, `{line}`, `{column}` (split on spaces),
 *    launched in the background like a GUI editor;
 * 2. VS Code's `code -g file:line:column` when `code` is on PATH;
 * 3. `$VISUAL` / `$EDITOR` with `+line file`, run in a new terminal pane (vim, nano, emacs -nw need one).
 */
import { resolveCommand } from '../sessions';

interface EditorLaunch {
  argv: string[];
  /** Runs inside a Switchboard terminal pane instead of in the background. */
  inTerminal: boolean;
  /** Where the choice came from, for error messages and docs. */
  source: 'SWITCHBOARD_EDITOR' | 'code' | 'VISUAL' | 'EDITOR';
}

interface FilePosition {
  file: string;
  line?: number;
  column?: number;
}

type Env = Record<string, string | undefined>;

export function editorLaunchFor(position: FilePosition, env: Env = process.env): EditorLaunch | undefined {
  const line = String(position.line ?? 1);
  const column = String(position.column ?? 1);
  const template = env.SWITCHBOARD_EDITOR?.trim();
  if (template) {
    const words = template.split(/\s+/);
    const hasFile = words.some((w) => w.includes('{file}'));
    const argv = words.map((w) => w.replaceAll('{file}', position.file).replaceAll('{line}', line).replaceAll('{column}', column));
    return { argv: hasFile ? argv : [...argv, position.file], inTerminal: false, source: 'SWITCHBOARD_EDITOR' };
  }
  if (isOnPath('code', env)) return { argv: ['code', '-g', `${position.file}:${line}:${column}`], inTerminal: false, source: 'code' };
  for (const source of ['VISUAL', 'EDITOR'] as const) {
    const editor = env[source]?.trim();
    if (editor) return { argv: [...editor.split(/\s+/), `+${line}`, position.file], inTerminal: true, source };
  }
  return undefined;
}

function isOnPath(command: string, env: Env): boolean {
  try {
    resolveCommand(command, process.cwd(), env);
    return true;
  } catch {
    return false;
  }
}
