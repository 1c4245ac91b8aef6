/**
 * package.json scripts that start something a developer keeps running, at the root and in every
 * workspace package (npm/yarn/bun `workspaces`, pnpm-workspace.yaml).
 */
import { basename } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { ProposedEntry } from '../../../../shared/proposal';
import type { ProjectFiles } from '../projectFiles';

/**
 * Script names that start a long-running dev process, in order of preference. `dev` is the
 * convention of Vite, Next.js, Nuxt, Astro, SvelteKit and Remix templates; `start` is CRA's and
 * Express's (and often production, hence second); `develop` is Gatsby's; `storybook` and
 * `docs:dev`-style helpers are auxiliary and proposed unticked.
 */
const SERVER_SCRIPTS: ReadonlyArray<{ name: string; main: boolean }> = [
  { name: 'dev', main: true },
  { name: 'develop', main: true },
  { name: 'start', main: true },
  { name: 'serve', main: true },
  { name: 'storybook', main: false },
];

/** Lock file → the package manager that runs the scripts (npm when none is found). */
const PACKAGE_MANAGERS: ReadonlyArray<{ lockFile: string; command: string }> = [
  { lockFile: 'pnpm-lock.yaml', command: 'pnpm' },
  { lockFile: 'yarn.lock', command: 'yarn' },
  { lockFile: 'bun.lock', command: 'bun' },
  { lockFile: 'bun.lockb', command: 'bun' },
  { lockFile: 'package-lock.json', command: 'npm' },
];

interface PackageJson {
  scripts?: Record<string, unknown>;
  workspaces?: unknown;
  packageManager?: unknown;
}

function packageManagerOf(files: ProjectFiles, pkg: PackageJson | undefined): string {
  const declared = typeof pkg?.packageManager === 'string' ? pkg.packageManager.split('@')[0] : undefined;
  if (declared && ['npm', 'pnpm', 'yarn', 'bun'].includes(declared)) return declared;
  return PACKAGE_MANAGERS.find((pm) => files.exists(pm.lockFile))?.command ?? 'npm';
}

export function proposeFromPackageScripts(files: ProjectFiles): ProposedEntry[] {
  const root = asPackage(files.json('package.json'));
  if (!root) return [];
  const pm = packageManagerOf(files, root);
  const rootEntries = scriptEntries(root, pm, '', 'package.json');
  const hasRootServer = rootEntries.some((e) => e.selected);
  const workspaceEntries = workspaceDirs(files, root).flatMap((dir) => {
    const pkg = asPackage(files.json(`${dir}/package.json`));
    if (!pkg) return [];
    return scriptEntries(pkg, pm, dir, `${dir}/package.json`).map((entry) =>
      hasRootServer && entry.selected ? { ...entry, selected: false, note: 'The root package.json already starts a dev process' } : entry,
    );
  });
  return [...rootEntries, ...workspaceEntries];
}

function scriptEntries(pkg: PackageJson, pm: string, dir: string, manifest: string): ProposedEntry[] {
  const scripts = pkg.scripts ?? {};
  const present = SERVER_SCRIPTS.filter((s) => typeof scripts[s.name] === 'string');
  const firstMain = present.find((s) => s.main);
  return present.map((script) => {
    const isChosen = script === firstMain;
    // A workspace package's dev process is named after the package folder (web, api); others add the script.
    const label = dir ? (isChosen ? basename(dir) : `${basename(dir)}-${script.name}`) : script.name;
    return {
      section: 'processes' as const,
      name: label,
      source: `${manifest} script "${script.name}": ${String(scripts[script.name])}`,
      selected: isChosen,
      ...(isChosen ? {} : { note: script.main ? `"${firstMain?.name}" is proposed as this package's dev process` : 'Auxiliary tool' }),
      config: { command: pm, args: ['run', script.name], ...(dir ? { cwd: dir } : {}) },
    };
  });
}

/** Workspace package directories, from `workspaces` (array or `{packages}`) or pnpm-workspace.yaml. */
function workspaceDirs(files: ProjectFiles, root: PackageJson): string[] {
  const patterns = [...workspacePatterns(root.workspaces), ...pnpmPatterns(files)];
  const dirs = patterns.filter((p) => !p.startsWith('!')).flatMap((pattern) => expand(files, pattern));
  return [...new Set(dirs)].filter((dir) => files.exists(`${dir}/package.json`));
}

function workspacePatterns(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (value && typeof value === 'object' && Array.isArray((value as { packages?: unknown }).packages)) {
    return workspacePatterns((value as { packages: unknown }).packages);
  }
  return [];
}

function pnpmPatterns(files: ProjectFiles): string[] {
  const text = files.text('pnpm-workspace.yaml');
  if (!text) return [];
  try {
    return workspacePatterns((parseYaml(text) as { packages?: unknown } | null)?.packages);
  } catch {
    // A workspace file that does not parse lists no packages; the proposal goes on without them.
    return [];
  }
}

/** `packages/*` and `apps/**` list sub-directories; anything else is taken as a directory. */
function expand(files: ProjectFiles, pattern: string): string[] {
  const clean = pattern.replace(/^\.\//, '').replace(/\/+$/, '');
  const star = clean.match(/^(.*?)\/?\*\*?$/);
  if (star) return files.subdirs(star[1] || '.');
  if (clean.includes('*')) return []; // other globs are rare in workspace lists; skipped rather than guessed
  return [clean];
}

function asPackage(value: unknown): PackageJson | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}
