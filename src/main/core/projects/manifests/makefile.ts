/** Makefile targets named like servers (`make dev`, `make serve`, …). */
import type { ProposedEntry } from '../../../../shared/proposal';
import type { ProjectFiles } from '../projectFiles';

/** Target names that conventionally start a long-running dev process. */
const SERVER_TARGETS: readonly string[] = [
  'dev',
  'develop',
  'serve',
  'server',
  'runserver',
  'run-server',
  'dev-server',
  'start',
  'start-dev',
  'run',
  'watch',
  'up',
];

const TARGET_LINE = /^([A-Za-z0-9][\w.-]*)\s*:(?!=)/;

export function proposeFromMakefile(files: ProjectFiles): ProposedEntry[] {
  const file = files.firstOf(['GNUmakefile', 'makefile', 'Makefile']);
  const text = file ? files.text(file) : undefined;
  if (!file || text === undefined) return [];
  const targets = new Set(
    text
      .split(/\r?\n/)
      .map((line) => TARGET_LINE.exec(line)?.[1])
      .filter((t): t is string => t !== undefined),
  );
  return SERVER_TARGETS.filter((target) => targets.has(target)).map((target) => ({
    section: 'processes' as const,
    name: `make-${target}`,
    source: `${file} target "${target}"`,
    selected: false,
    note: 'Check that this target keeps running (a server or a watcher)',
    config: { command: 'make', args: [target] },
  }));
}
