/**
 * What gets installed on a host: the built app (`out/`), `package.json` and the production
 * dependencies' folders (the closure of `dependencies` and `optionalDependencies`, resolved the way
 * Node resolves them), as one gzipped tar stream made in-process from a BundleSource (the app's
 * folder, or its asar archive when packaged). Its version is the package version plus a hash of
 * the built files, so two builds of one version are two servers. node-pty goes as built here; a
 * host where it does not load builds it there (hostAgent.ts).
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import { appBundleSource, type BundleSource } from './bundleSource';
import { tarStream } from './tarStream';

interface PackageJson {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

export interface ServerBundle {
  /** `<package version>-<12 hex of the built files' hash>`: the folder name on the host. */
  version: string;
  /** Paths (relative to the source's root) that the tar holds. */
  paths: string[];
  /** A fresh gzipped tar stream of `paths`; for a known host, without other platforms' native prebuilds. */
  stream(host?: HostPlatform): Readable;
}

/** `process.platform` and `process.arch` of the host. */
export interface HostPlatform {
  platform: string;
  arch: string;
}

/** The bundle of the app at `appRoot` (its folder, or its `app.asar`), or of any source. */
export function serverBundle(from: string | BundleSource): ServerBundle {
  const source = typeof from === 'string' ? appBundleSource(from) : from;
  if (source.entry('out/main/serve.js')?.type !== 'file') {
    throw new Error(`No built server at ${source.location}/out/main/serve.js: run npm run build first`);
  }
  const pkg = readJson(source, 'package.json');
  const version = `${pkg.version ?? '0.0.0'}-${hashTree(source, 'out').slice(0, 12)}`;
  const paths = ['package.json', 'out', ...productionPackages(source, pkg)];
  return { version, paths, stream: (host) => tarStream(source, paths, host ? (path) => isOtherPlatformPrebuild(path, host) : () => false) };
}

/** Node's `process.platform` values: the first part of a prebuild folder's name. */
const PLATFORMS = ['aix', 'android', 'darwin', 'freebsd', 'haiku', 'linux', 'openbsd', 'netbsd', 'sunos', 'win32', 'cygwin'];

/**
 * A package's `prebuilds/<platform>-<arch…>` folder (the prebuildify layout node-pty and others
 * load from) for another OS than the host's: most of node-pty's size, of no use there. Other
 * architectures of the host's OS still go (names like `darwin-x64+arm64` combine them).
 */
function isOtherPlatformPrebuild(path: string, { platform }: HostPlatform): boolean {
  const name = /(?:^|\/)node_modules\/(?:@[^/]+\/)?[^/]+\/prebuilds\/([^/]+)$/.exec(path)?.[1];
  const os = name?.split('-')[0];
  return os !== undefined && PLATFORMS.includes(os) && os !== platform;
}

function readJson(source: BundleSource, path: string): PackageJson {
  return JSON.parse(source.read(path).toString('utf8')) as PackageJson;
}

/** Every package folder the production dependencies need, found as Node's resolution would. */
function productionPackages(source: BundleSource, pkg: PackageJson): string[] {
  const found = new Set<string>();
  const visit = (fromDir: string, deps: PackageJson) => {
    for (const name of Object.keys({ ...deps.dependencies, ...deps.optionalDependencies })) {
      const dir = resolvePackageDir(source, fromDir, name);
      if (dir === undefined || found.has(dir)) continue; // an optional dependency for another platform is absent
      found.add(dir);
      visit(dir, readJson(source, `${dir}/package.json`));
    }
  };
  visit('', pkg);
  // A folder inside another one's node_modules travels with it.
  return [...found].filter((dir) => ![...found].some((other) => other !== dir && dir.startsWith(`${other}/`))).sort();
}

/** `fromDir`'s nearest `node_modules/<name>`, walking up to the root. */
function resolvePackageDir(source: BundleSource, fromDir: string, name: string): string | undefined {
  for (let dir = fromDir; ; dir = parentOf(dir)) {
    const candidate = posix.join(dir, 'node_modules', name);
    if (source.entry(`${candidate}/package.json`)) return candidate;
    if (dir === '') return undefined;
  }
}

function parentOf(dir: string): string {
  const parent = posix.dirname(dir);
  return parent === '.' ? '' : parent;
}

function hashTree(source: BundleSource, root: string): string {
  const hash = createHash('sha256');
  const walk = (current: string) => {
    for (const name of source.list(current)) {
      const path = `${current}/${name}`;
      const entry = source.entry(path);
      if (entry?.type === 'dir') walk(path);
      else
        hash
          .update(posix.relative(root, path))
          .update('\0')
          .update(entry?.type === 'link' ? entry.target : source.read(path));
    }
  };
  walk(root);
  return hash.digest('hex');
}
