/**
 * What gets installed on a host: the built app (`out/`), `package.json` and the production
 * dependencies' folders (the closure of `dependencies` and `optionalDependencies`, resolved the way
 * Node resolves them), as one gzipped tar stream made by the system's `tar`. Its version is the
 * package version plus a hash of the built files, so two builds of one version are two servers.
 * node-pty goes as built here: a host of the same OS, architecture and libc loads it; others must
 * rebuild it there (see docs/remote.md).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Readable } from 'node:stream';

interface PackageJson {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

export interface ServerBundle {
  /** `<package version>-<12 hex of the built files' hash>`: the folder name on the host. */
  version: string;
  root: string;
  /** Paths relative to `root` that the tar holds. */
  paths: string[];
  /** A fresh gzipped tar stream of `paths`. */
  stream(): Readable;
}

/** The bundle of the app at `root` (the folder holding `package.json` and the built `out/`). */
export function serverBundle(root: string): ServerBundle {
  const serveJs = join(root, 'out', 'main', 'serve.js');
  if (!existsSync(serveJs)) throw new Error(`No built server at ${serveJs}: run npm run build first`);
  const pkg = readJson(join(root, 'package.json'));
  const version = `${pkg.version ?? '0.0.0'}-${hashTree(join(root, 'out')).slice(0, 12)}`;
  const paths = ['package.json', 'out', ...productionPackages(root, pkg).map((dir) => relative(root, dir))];
  return {
    version,
    root,
    paths,
    stream() {
      const tar = spawn('tar', ['-czf', '-', '-C', root, '--', ...paths], { stdio: ['ignore', 'pipe', 'inherit'] });
      return tar.stdout;
    },
  };
}

function readJson(file: string): PackageJson {
  return JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
}

/** Every package folder the production dependencies need, found as Node's resolution would. */
function productionPackages(root: string, pkg: PackageJson): string[] {
  const found = new Set<string>();
  const visit = (fromDir: string, deps: PackageJson) => {
    for (const name of Object.keys({ ...deps.dependencies, ...deps.optionalDependencies })) {
      const dir = resolvePackageDir(root, fromDir, name);
      if (!dir || found.has(dir)) continue; // an optional dependency for another platform is absent
      found.add(dir);
      visit(dir, readJson(join(dir, 'package.json')));
    }
  };
  visit(root, pkg);
  // A folder inside another one's node_modules travels with it.
  return [...found].filter((dir) => ![...found].some((other) => other !== dir && dir.startsWith(`${other}/`))).sort();
}

function resolvePackageDir(root: string, fromDir: string, name: string): string | undefined {
  for (let dir = fromDir; dir.startsWith(root); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root) break;
  }
  return undefined;
}

function hashTree(dir: string): string {
  const hash = createHash('sha256');
  const walk = (current: string) => {
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path);
      else hash.update(relative(dir, path)).update('\0').update(readFileSync(path));
    }
  };
  walk(dir);
  return hash.digest('hex');
}
