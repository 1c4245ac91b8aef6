/**
 * Which framework a command entry runs, from the command and the project (docs/readiness.md): the
 * command itself ("vite", "manage.py runserver"), the package.json script it runs ("npm run
 * dev" → "next dev"), then the project's files and dependencies. `framework` in the config wins.
 * Detection names the server in messages; the pattern table applies whatever it says.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { FrameworkId } from '../../../shared/ready';

export interface FrameworkDetection {
  framework: FrameworkId;
  /** How it was decided: "configured", "command: next dev", "package.json dependency vite". */
  reason: string;
  /**
   * Configured, or named by the command line (or the package.json script it runs): the entry is
   * that framework's server. A project file or dependency alone says nothing about this command
   * (a queue worker in a Vite project is not a Vite server).
   */
  isFromCommand: boolean;
}

interface DetectFrameworkInput {
  argv: readonly string[];
  /** The entry's working directory, looked at first. */
  cwd: string;
  /** The project root (where switchboard.json lives), looked at second. */
  projectDir?: string;
  configured?: FrameworkId;
}

/** Commands (after script resolution) that name their framework. First match wins. */
const COMMAND_HINTS: ReadonlyArray<{ framework: FrameworkId; pattern: RegExp }> = [
  { framework: 'storybook', pattern: /(?:^|[\s/])(?:storybook\s+dev|start-storybook)\b/ },
  { framework: 'nextjs', pattern: /(?:^|[\s/])next(?:\s+(?:dev|start)\b|\s*$|\s+-)/ },
  { framework: 'nuxt', pattern: /(?:^|[\s/])(?:nuxt|nuxi)(?:\s+dev\b|\s*$)/ },
  { framework: 'astro', pattern: /(?:^|[\s/])astro\s+dev\b/ },
  { framework: 'remix', pattern: /(?:^|[\s/])(?:remix(?:\s+(?:dev|vite:dev)\b)|remix-serve\b)/ },
  { framework: 'sveltekit', pattern: /(?:^|[\s/])svelte-kit\s+dev\b/ },
  { framework: 'gatsby', pattern: /(?:^|[\s/])gatsby\s+develop\b/ },
  { framework: 'angular', pattern: /(?:^|[\s/])ng\s+serve\b/ },
  { framework: 'vue-cli', pattern: /(?:^|[\s/])vue-cli-service\s+serve\b/ },
  { framework: 'cra', pattern: /(?:^|[\s/])react-scripts\s+start\b/ },
  { framework: 'webpack-dev-server', pattern: /(?:^|[\s/])(?:webpack-dev-server\b|webpack\s+(?:serve|s)\b)/ },
  { framework: 'parcel', pattern: /(?:^|[\s/])parcel(?:\s+serve)?\s+\S+\.html?\b|(?:^|[\s/])parcel\s*$/ },
  { framework: 'convex', pattern: /(?:^|[\s/])convex\s+dev\b/ },
  { framework: 'vite', pattern: /(?:^|[\s/])vite(?:\s+(?:dev|serve)\b|\s*$|\s+-|\s+(?!build\b)[.\w/])/ },
  { framework: 'django', pattern: /(?:^|[\s/])manage\.py\s+runserver\b|django-admin\s+runserver\b/ },
  { framework: 'flask', pattern: /(?:^|[\s/])flask\b.*\brun\b/ },
  { framework: 'uvicorn', pattern: /(?:^|[\s/])(?:uvicorn|fastapi\s+(?:dev|run))\b/ },
  { framework: 'rails', pattern: /(?:^|[\s/])(?:rails\s+(?:s|server)\b|puma\b|rackup\b)/ },
  { framework: 'phoenix', pattern: /(?:^|[\s/])mix\s+phx\.server\b/ },
  { framework: 'laravel', pattern: /(?:^|[\s/])artisan\s+serve\b/ },
  { framework: 'spring-boot', pattern: /spring-boot:run\b|(?:^|[\s/])(?:gradlew?|gradle)\s+(?:.*\s)?bootRun\b/ },
];

/** package.json dependencies, most specific first (Next.js projects also depend on react). */
const DEPENDENCY_HINTS: ReadonlyArray<{ framework: FrameworkId; packages: readonly string[] }> = [
  { framework: 'nextjs', packages: ['next'] },
  { framework: 'nuxt', packages: ['nuxt', 'nuxt3'] },
  { framework: 'sveltekit', packages: ['@sveltejs/kit'] },
  { framework: 'remix', packages: ['@remix-run/dev', '@remix-run/serve'] },
  { framework: 'astro', packages: ['astro'] },
  { framework: 'gatsby', packages: ['gatsby'] },
  { framework: 'angular', packages: ['@angular/core', '@angular/cli'] },
  { framework: 'vue-cli', packages: ['@vue/cli-service'] },
  { framework: 'cra', packages: ['react-scripts'] },
  { framework: 'parcel', packages: ['parcel', 'parcel-bundler'] },
  { framework: 'vite', packages: ['vite'] },
  { framework: 'webpack-dev-server', packages: ['webpack-dev-server'] },
  { framework: 'convex', packages: ['convex'] },
  { framework: 'storybook', packages: ['storybook', '@storybook/cli'] },
  { framework: 'express', packages: ['express', 'fastify', 'koa', '@nestjs/core', '@hapi/hapi'] },
];

/** Files that mark a project of a given framework, with an optional content check. */
const PROJECT_FILE_HINTS: ReadonlyArray<{ framework: FrameworkId; file: string; contains?: RegExp }> = [
  { framework: 'django', file: 'manage.py' },
  { framework: 'rails', file: 'bin/rails' },
  { framework: 'rails', file: 'Gemfile', contains: /^\s*gem\s+["']rails["']/m },
  { framework: 'phoenix', file: 'mix.exs', contains: /:phoenix\b/ },
  { framework: 'laravel', file: 'artisan' },
  { framework: 'spring-boot', file: 'pom.xml', contains: /spring-boot/ },
  { framework: 'spring-boot', file: 'build.gradle', contains: /org\.springframework\.boot/ },
  { framework: 'spring-boot', file: 'build.gradle.kts', contains: /org\.springframework\.boot/ },
  { framework: 'uvicorn', file: 'requirements.txt', contains: /^\s*(?:fastapi|uvicorn)\b/im },
  { framework: 'uvicorn', file: 'pyproject.toml', contains: /["']?(?:fastapi|uvicorn)\b/i },
  { framework: 'flask', file: 'requirements.txt', contains: /^\s*flask\b/im },
  { framework: 'flask', file: 'pyproject.toml', contains: /["']?flask\b/i },
];

export const PACKAGE_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const PACKAGE_EXECUTORS = new Set(['npx', 'pnpx', 'bunx']);
/** Runner subcommands that are not script names (`yarn dev` runs "dev"; `yarn add` does not). */
const RUNNER_BUILTINS = new Set(['install', 'i', 'add', 'remove', 'exec', 'dlx', 'x', 'create', 'init', 'ci', 'test', 't']);
/** The command's ecosystem decides which project files are relevant. */
const NODE_COMMANDS = new Set(['node', 'nodemon', 'tsx', 'ts-node', 'deno', ...PACKAGE_RUNNERS, ...PACKAGE_EXECUTORS]);

export function detectFramework(input: DetectFrameworkInput): FrameworkDetection {
  if (input.configured) return { framework: input.configured, reason: 'configured', isFromCommand: true };
  const dirs = [...new Set([input.cwd, input.projectDir].filter((d): d is string => !!d))];
  const packageJson = readFirstPackageJson(dirs);
  const command = resolveCommandLine(input.argv, packageJson);

  for (const hint of COMMAND_HINTS) {
    if (hint.pattern.test(command)) {
      // `vite dev` in a SvelteKit/Remix/Astro project is that framework's dev server.
      if (hint.framework === 'vite' && packageJson) {
        const viaDeps = detectFromDependencies(packageJson);
        if (viaDeps && ['sveltekit', 'remix', 'astro', 'nuxt'].includes(viaDeps.framework)) return { ...viaDeps, isFromCommand: true };
      }
      return { framework: hint.framework, reason: `command: ${command}`, isFromCommand: true };
    }
  }

  const program = basename(input.argv[0] ?? '');
  const isNodeCommand = NODE_COMMANDS.has(program);
  if (!isNodeCommand) {
    for (const dir of dirs) {
      const viaFiles = detectFromProjectFiles(dir);
      if (viaFiles) return viaFiles;
    }
  }
  if (packageJson) {
    const viaDeps = detectFromDependencies(packageJson);
    if (viaDeps) return { ...viaDeps, isFromCommand: runsServerScript(input.argv) };
  }
  return { framework: 'generic', reason: 'no framework recognised', isFromCommand: false };
}

interface PackageJson {
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/**
 * The command line that actually runs: `npm run dev` → the "dev" script's text, `npx next dev`
 * → "next dev"; anything else as typed.
 */
export function resolveCommandLine(argv: readonly string[], packageJson: PackageJson | undefined): string {
  const [program = '', ...args] = argv;
  const name = basename(program);
  if (PACKAGE_EXECUTORS.has(name)) return args.filter((a) => !a.startsWith('-')).join(' ');
  if (PACKAGE_RUNNERS.has(name)) {
    const script = scriptNameOf(name, args);
    if (script && packageJson?.scripts?.[script]) return packageJson.scripts[script];
    if (args[0] === 'exec' || args[0] === 'dlx' || args[0] === 'x') return args.slice(1).join(' ');
    return args.join(' ');
  }
  // `sh -c "npm run dev"` and friends: look inside the string.
  if ((name === 'sh' || name === 'bash' || name === 'zsh') && args[0] === '-c' && args[1]) {
    return resolveCommandLine(args[1].split(/\s+/), packageJson);
  }
  return [name, ...args].join(' ');
}

/** Script names that conventionally start the project's dev server (`npm run dev`, `yarn start`). */
const SERVER_SCRIPT_NAMES = new Set(['dev', 'start', 'serve', 'develop', 'preview']);

function runsServerScript(argv: readonly string[]): boolean {
  const [program = '', ...args] = argv;
  const name = basename(program);
  if ((name === 'sh' || name === 'bash' || name === 'zsh') && args[0] === '-c' && args[1])
    return runsServerScript(args[1].trim().split(/\s+/));
  if (!PACKAGE_RUNNERS.has(name)) return false;
  const script = scriptNameOf(name, args);
  return script !== undefined && SERVER_SCRIPT_NAMES.has(script);
}

export function scriptNameOf(runner: string, args: readonly string[]): string | undefined {
  const [first, second] = args;
  if (first === undefined) return runner === 'npm' ? undefined : 'start';
  if (first === 'run' || first === 'run-script') return second;
  if (first === 'start') return 'start';
  if (runner !== 'npm' && !RUNNER_BUILTINS.has(first) && !first.startsWith('-')) return first;
  return undefined;
}

function detectFromDependencies(pkg: PackageJson): FrameworkDetection | undefined {
  const deps = { ...pkg.devDependencies, ...pkg.dependencies };
  for (const hint of DEPENDENCY_HINTS) {
    const found = hint.packages.find((p) => p in deps);
    if (found) return { framework: hint.framework, reason: `package.json dependency ${found}`, isFromCommand: false };
  }
  return undefined;
}

function detectFromProjectFiles(dir: string): FrameworkDetection | undefined {
  for (const hint of PROJECT_FILE_HINTS) {
    const path = join(dir, hint.file);
    if (!existsSync(path)) continue;
    if (hint.contains && !hint.contains.test(readSmallFile(path))) continue;
    return { framework: hint.framework, reason: `project file ${hint.file}`, isFromCommand: false };
  }
  return undefined;
}

export function readFirstPackageJson(dirs: readonly string[]): PackageJson | undefined {
  for (const dir of dirs) {
    const text = readSmallFile(join(dir, 'package.json'));
    if (!text) continue;
    try {
      return JSON.parse(text) as PackageJson;
    } catch {
      return undefined; // a broken package.json: the command line alone has to do
    }
  }
  return undefined;
}

/** Project marker files are small; a huge one is not worth reading on the main thread. */
const MAX_MARKER_FILE_BYTES = 256 * 1024;

function readSmallFile(path: string): string {
  try {
    const text = readFileSync(path, 'utf8');
    return text.length > MAX_MARKER_FILE_BYTES ? text.slice(0, MAX_MARKER_FILE_BYTES) : text;
  } catch {
    return ''; // absent or unreadable: not a marker
  }
}
