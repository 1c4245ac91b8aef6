/**
 * Frameworks whose dev server is started by a well-known command rather than a package script.
 * Each entry says how the project is recognised, what starts its server, and which command lines
 * already start it (a Procfile.dev entry running `bin/rails s` makes a second Rails entry redundant).
 */
import type { ProposedEntry } from '../../../../shared/proposal';
import type { ProjectFiles } from '../projectFiles';
import type { ProposalContext } from './context';

interface FrameworkServer {
  name: string;
  /** Whether the project uses this framework, from its files. */
  isUsedBy(files: ProjectFiles): boolean;
  command(files: ProjectFiles, ctx: ProposalContext): string;
  /** A command line that already runs this server. */
  alreadyRunBy: RegExp;
  source: string;
}

const FRAMEWORK_SERVERS: readonly FrameworkServer[] = [
  {
    name: 'django',
    isUsedBy: (files) => files.exists('manage.py'),
    command: (_files, ctx) => `${ctx.isOnPath('python') ? 'python' : 'python3'} manage.py runserver`,
    alreadyRunBy: /manage\.py\s+runserver|\bgunicorn\b|\buvicorn\b|\bdaphne\b/,
    source: 'manage.py (Django: "python manage.py runserver")',
  },
  {
    name: 'rails',
    isUsedBy: (files) => /^\s*gem\s+["']rails["']/m.test(files.text('Gemfile') ?? ''),
    command: (files) => (files.exists('bin/rails') ? 'bin/rails server' : 'bundle exec rails server'),
    alreadyRunBy: /\brails\s+(s|server)\b|\bpuma\b|\bbin\/dev\b/,
    source: 'Gemfile with rails ("bin/rails server")',
  },
  {
    name: 'phoenix',
    isUsedBy: (files) => /\{\s*:phoenix\s*,/.test(files.text('mix.exs') ?? ''),
    command: () => 'mix phx.server',
    alreadyRunBy: /phx\.server/,
    source: 'mix.exs with phoenix ("mix phx.server")',
  },
  {
    name: 'laravel',
    isUsedBy: (files) => files.exists('artisan'),
    command: () => 'php artisan serve',
    alreadyRunBy: /artisan\s+serve|\bphp\s+-S\b/,
    source: 'artisan (Laravel: "php artisan serve")',
  },
];

export function proposeFrameworkServers(files: ProjectFiles, ctx: ProposalContext, declared: readonly ProposedEntry[]): ProposedEntry[] {
  const declaredCommands = declared.map(commandLine);
  return FRAMEWORK_SERVERS.filter((fw) => fw.isUsedBy(files))
    .filter((fw) => !declaredCommands.some((line) => fw.alreadyRunBy.test(line)))
    .map((fw) => ({
      section: 'processes' as const,
      name: fw.name,
      source: fw.source,
      selected: true,
      config: { command: fw.command(files, ctx) },
    }));
}

function commandLine(entry: ProposedEntry): string {
  if (entry.section !== 'processes') return '';
  return [entry.config.command, ...(entry.config.args ?? [])].join(' ');
}
