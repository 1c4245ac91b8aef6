/**
 * Programs that are ready without a server (watchers: a compile finished and they wait for
 * changes), and the lines that say a compile or build is still under way. Same shape and rules as
 * frameworkPatterns.ts: every entry carries a real line and its source.
 */
import { PRIORITY, type FrameworkPattern } from './patternTypes';
import { TSC_WATCH_MESSAGES } from './tscWatchMessages';

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const TSC_LOCALES = Object.values(TSC_WATCH_MESSAGES);
/** 6194 with its count placeholder replaced: "Found 0 errors. …" or "Found 3 errors. …". */
const tscFound = (count: string) => TSC_LOCALES.map((m) => escapeRegex(m.found).replace('\\{0\\}', count)).join('|');
const TSC_CLEAN = new RegExp(`(?:${tscFound('0')})`);
const TSC_ERRORS = new RegExp(`(?<detail>${tscFound('[1-9]\\d*')}|${TSC_LOCALES.map((m) => escapeRegex(m.foundOne)).join('|')})`);
const TSC_COMPILING = new RegExp(TSC_LOCALES.flatMap((m) => [escapeRegex(m.started), escapeRegex(m.changed)]).join('|'));
const TSC_SOURCE = 'typescript 5.9.3 lib/diagnosticMessages, quoted';

// ---- TypeScript `tsc --watch` (all 14 shipped languages) ------------------------------------
const TSC: FrameworkPattern[] = [
  {
    id: 'tsc-watch-clean',
    framework: 'generic',
    tool: 'TypeScript',
    kind: 'ready',
    watching: true,
    priority: PRIORITY.frameworkReady,
    regex: TSC_CLEAN,
    sample: '[10:15:02 PM] Found 0 errors. Watching for file changes.',
    source: 'typescript 5.9.3 `tsc --watch` (pretty output), captured here',
    moreSamples: [
      { line: '22:15:02 - Found 0 errors. Watching for file changes.', source: 'typescript 5.9.3 `tsc --watch --pretty false`, quoted' },
      { line: '[22:15:02] 0 Fehler gefunden. Es wird auf Dateiänderungen überwacht.', source: `${TSC_SOURCE} (de)` },
      { line: '[22:15:02] 0 erreurs trouvées. Changements de fichier sous surveillance.', source: `${TSC_SOURCE} (fr)` },
      { line: `[22:15:02] ${TSC_WATCH_MESSAGES.ja.found.replace('{0}', '0')}`, source: `${TSC_SOURCE} (ja)` },
      { line: `[22:15:02] ${TSC_WATCH_MESSAGES['zh-cn'].found.replace('{0}', '0')}`, source: `${TSC_SOURCE} (zh-cn)` },
    ],
  },
  {
    id: 'tsc-watch-errors',
    framework: 'generic',
    tool: 'TypeScript',
    kind: 'error',
    priority: PRIORITY.frameworkError,
    regex: TSC_ERRORS,
    message: 'TypeScript: {detail}',
    sample: '[10:15:02 PM] Found 1 error. Watching for file changes.',
    source: 'typescript 5.9.3 `tsc --watch` with a type error, captured here',
    moreSamples: [
      { line: '22:15:02 - Found 3 errors. Watching for file changes.', source: TSC_SOURCE },
      { line: '[22:15:02] 3 Fehler gefunden. Es wird auf Dateiänderungen überwacht.', source: `${TSC_SOURCE} (de)` },
    ],
  },
  {
    id: 'tsc-watch-compiling',
    framework: 'generic',
    tool: 'TypeScript',
    kind: 'building',
    priority: PRIORITY.building,
    regex: TSC_COMPILING,
    sample: '[10:15:01 PM] Starting compilation in watch mode...',
    source: 'typescript 5.9.3 `tsc --watch`, captured here',
    moreSamples: [
      { line: '[10:15:09 PM] File change detected. Starting incremental compilation...', source: TSC_SOURCE },
      { line: '[22:15:01] Kompilierung im Überwachungsmodus wird gestartet...', source: `${TSC_SOURCE} (de)` },
    ],
  },
];

// ---- bundlers and test runners in watch mode ------------------------------------------------
const WATCH_MODE: FrameworkPattern[] = [
  {
    id: 'esbuild-watch-finished',
    framework: 'generic',
    tool: 'esbuild',
    kind: 'ready',
    watching: true,
    priority: PRIORITY.frameworkReady,
    regex: /\[watch\] build finished\b/,
    sample: '[watch] build finished, watching for changes...',
    source: 'esbuild 0.25.9 `--watch` (binary string "%s[watch] build finished, watching for changes%s...%s"), quoted',
    moreSamples: [{ line: '[watch] build finished', source: 'esbuild 0.25.9 after a rebuild, quoted' }],
  },
  {
    id: 'esbuild-watch-started',
    framework: 'generic',
    tool: 'esbuild',
    kind: 'building',
    priority: PRIORITY.building,
    regex: /\[watch\] build started\b/,
    sample: '[watch] build started (change: "src/app.ts")',
    source: 'esbuild 0.25.9 `--watch` ("%s[watch] build started (change: %q)%s"), quoted',
  },
  {
    id: 'vite-build-watch-started',
    framework: 'vite',
    kind: 'building',
    priority: PRIORITY.building,
    regex: /^\s*build started\.\.\.\s*$/,
    sample: 'build started...',
    source: 'vite 7.3.8 `vite build --watch` (dist/node/chunks, BUNDLE_START), quoted',
  },
  {
    id: 'vite-build-watch-built',
    framework: 'vite',
    kind: 'ready',
    watching: true,
    priority: PRIORITY.frameworkReady,
    // Not "✓ built in 1.2s" (a one-shot `vite build`): the watch mode prints it bare, with "ms.".
    regex: /^\s*built in \d+(?:\.\d+)?ms\.\s*$/,
    sample: 'built in 1234ms.',
    source: 'vite 7.3.8 `vite build --watch` ("built in ${event.duration}ms.", BUNDLE_END), quoted',
  },
  {
    id: 'vitest-watch-waiting',
    framework: 'generic',
    tool: 'Vitest',
    kind: 'ready',
    watching: true,
    priority: PRIORITY.frameworkReady,
    regex: /^\s*Waiting for file changes\.\.\./,
    sample: 'Waiting for file changes...',
    source: 'vitest 3.2.7 watch mode (dist/chunks), quoted',
  },
  {
    id: 'jest-watch-usage',
    framework: 'generic',
    tool: 'Jest',
    kind: 'ready',
    watching: true,
    priority: PRIORITY.frameworkReady,
    regex: /^\s*Watch Usage\b/,
    sample: 'Watch Usage: Press w to show more.',
    source: 'jest 29 `jest --watch` (jest-core watch.ts), quoted',
    moreSamples: [{ line: 'Watch Usage', source: 'jest 29 `jest --watch`, full usage, quoted' }],
  },
  {
    id: 'nodemon-clean-exit',
    framework: 'generic',
    tool: 'nodemon',
    kind: 'ready',
    watching: true,
    priority: PRIORITY.frameworkReady,
    // Only once its command finished: while the command runs (a server), that command's lines decide.
    regex: /\[nodemon\] clean exit - waiting for changes before restart/,
    sample: '[nodemon] clean exit - waiting for changes before restart',
    source: 'nodemon 3.1 lib/monitor/run.js, quoted',
  },
  {
    id: 'jekyll-auto-regeneration',
    framework: 'generic',
    tool: 'Jekyll',
    kind: 'ready',
    watching: true,
    priority: PRIORITY.frameworkReady,
    regex: /^\s*Auto-regeneration: enabled for\b/,
    sample: "      Auto-regeneration: enabled for '/srv/jekyll'",
    source: 'jekyll 4.3 `jekyll build --watch` (lib/jekyll/commands/build.rb), quoted',
  },
];

// ---- compile events that stand in for a ready line, and compiles under way ------------------
const COMPILE_EVENTS: FrameworkPattern[] = [
  {
    id: 'nextjs-compiling',
    framework: 'nextjs',
    kind: 'building',
    priority: PRIORITY.building,
    regex: /^\s*(?:○ Compiling\b|(?:wait\s+-|- wait) compiling\b)/,
    sample: '○ Compiling / ...',
    source: 'next 16.4.6 `next dev` on the first request (log.wait), captured here',
    moreSamples: [
      { line: 'wait  - compiling...', source: 'next 12.3, quoted' },
      { line: '- wait compiling /page (client and server)...', source: 'next 13.4, quoted' },
    ],
  },
  {
    id: 'nextjs-compiled',
    framework: 'nextjs',
    kind: 'ready',
    priority: PRIORITY.frameworkReady,
    regex: /^\s*(?:✓ Compiled\b(?! with warnings)|(?:event -|- event) compiled (?:client and server )?successfully\b)/,
    sample: '✓ Compiled / in 2.3s',
    source: 'next 16.4.6 `next dev` after the first request (log.event), captured here',
    moreSamples: [
      { line: ' ✓ Compiled in 312ms (254 modules)', source: 'next 14.2, quoted' },
      { line: 'event - compiled client and server successfully in 1254 ms (163 modules)', source: 'next 12.3, quoted' },
      { line: '- event compiled client and server successfully in 421 ms (20 modules)', source: 'next 13.4, quoted' },
    ],
  },
  {
    id: 'cra-starting',
    framework: 'cra',
    kind: 'building',
    priority: PRIORITY.building,
    // Not a bare "Compiling..." (react-dev-utils after an edit): a worker may print that too.
    regex: /^\s*Starting the development server\.\.\.\s*$/,
    sample: 'Starting the development server...',
    source: 'react-scripts 5.0.1 scripts/start.js, quoted',
  },
  {
    id: 'webpack-compiling',
    framework: 'webpack-dev-server',
    kind: 'building',
    priority: PRIORITY.building,
    regex: /｢wdm｣: Compiling\.\.\.|^\s*<i> \[webpack-dev-middleware\] wait until bundle finished\b/,
    sample: 'ℹ ｢wdm｣: Compiling...',
    source: 'webpack-dev-server 3.11 / webpack-dev-middleware 3, quoted',
    moreSamples: [{ line: '<i> [webpack-dev-middleware] wait until bundle finished: /', source: 'webpack-dev-middleware 5, quoted' }],
  },
];

export const WATCHER_PATTERNS: readonly FrameworkPattern[] = [...TSC, ...WATCH_MODE, ...COMPILE_EVENTS];
