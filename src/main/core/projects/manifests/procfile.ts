/**
 * Procfile process types (foreman, overmind, Heroku). Procfile.dev is the project's own list of dev
 * processes (Rails 7's `bin/dev` runs it). A plain Procfile is usually what production runs
 * (`web: uwsgi …`, `web: gunicorn …`), so it is read only without a Procfile.dev, and its entries
 * are proposed unticked when the project's framework has a dev server of its own.
 */
import type { ProposedEntry } from '../../../../shared/proposal';
import type { ProjectFiles } from '../projectFiles';

/** Heroku's release phase runs once per deploy (migrations), never in development. */
const SKIPPED_TYPES = new Set(['release']);
const LINE = /^([A-Za-z0-9][\w-]*)\s*:\s*(.+?)\s*$/;

/** Procfile.dev's entries, ticked: the project's own list of what runs in development. */
export function proposeFromDevProcfile(files: ProjectFiles): ProposedEntry[] {
  return procfileEntries(files, 'Procfile.dev', true);
}

/** A plain Procfile's entries, when there is no Procfile.dev; `selected` says whether to tick them. */
export function proposeFromProcfile(files: ProjectFiles, selected: boolean): ProposedEntry[] {
  if (files.exists('Procfile.dev')) return [];
  return procfileEntries(files, 'Procfile', selected).map((entry) =>
    selected ? entry : { ...entry, note: 'Procfile usually describes production; the dev server is proposed instead' },
  );
}

function procfileEntries(files: ProjectFiles, file: string, selected: boolean): ProposedEntry[] {
  const text = files.text(file);
  if (text === undefined) return [];
  return parseProcfile(text)
    .filter(({ type }) => !SKIPPED_TYPES.has(type))
    .map(({ type, command }) => ({
      section: 'processes' as const,
      name: type,
      source: `${file} "${type}": ${command}`,
      selected,
      config: { command },
    }));
}

function parseProcfile(text: string): Array<{ type: string; command: string }> {
  return text
    .split(/\r?\n/)
    .filter((line) => !line.trimStart().startsWith('#'))
    .map((line) => LINE.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ type: m[1], command: m[2] }));
}
