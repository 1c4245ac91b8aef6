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
    followsFailures: true,
    regex: /\[watch\] build finished\b/,
    sample: '[watch] build finished, watching for changes...',
    source: 'esbuild 0.25.9 `--watch`, captured here',
    moreSamples: [{ line: '[watch] build finished', source: 'esbuild 0.25.9 after a rebuild (a failed one too), captured here' }],
  },
  {
    id: 'esbuild-watch-started',
    framework: 'generic',
    tool: 'esbuild',
    kind: 'building',
    priority: PRIORITY.building,
    regex: /\[watch\] build started\b/,
    sample: '[watch] build started (change: "src/app.ts")',
    source: 'esbuild 0.25.9 `--watch`, captured here',
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
    // After a run its reporter prints a " PASS " badge first; with failing tests the watcher is at work too.
    regex:
      /^\s*(?:PASS\s+Waiting for file changes\.\.\.|FAIL\s+Tests failed\. Watching for file changes\.\.\.|Waiting for file changes\.\.\.)/,
    sample: ' PASS  Waiting for file changes...',
    source: 'vitest 3.2.7 watch mode in a terminal, captured here',
    moreSamples: [
      {
        line: ' FAIL  Tests failed. Watching for file changes...',
        source: 'vitest 3.2.7 dist/chunks/index.VByaPkjc.js:330 (withLabel "FAIL"), quoted',
      },
      { line: 'Waiting for file changes...', source: 'vitest 3.2.7 without colours, quoted' },
    ],
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
    source: 'nodemon 3.1.14 `nodemon job.js`, captured here',
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

// ---- more watch-mode builders ----------------------------------------------------------------
// A ready line here is the tool's own success line, never its "watching" line: rollup, swc, babel,
// sass and eleventy print the latter after a failed build too. Where the success line is the same in
// a one-shot run, the machine ends a clean exit of such an entry as a completed job.
const BUILDERS: FrameworkPattern[] = [
  {
    id: 'rollup-watch-created',
    framework: 'generic',
    tool: 'Rollup',
    kind: 'ready',
    watching: true,
    priority: PRIORITY.frameworkReady,
    // Its outputs are files or directories ("created pool in 5ms" in an app's log is not one).
    regex: /^\s*created (?:[^\s,]+(?:\.\w+|\/))(?:, [^\s,]+(?:\.\w+|\/))* in \d+(?:\.\d+)?(?:ms|s|m)\s*$/,
    sample: 'created dist/b.js in 186ms',
    source: 'rollup 4.68.7 `rollup -c -w`, captured here',
    moreSamples: [
      {
        line: 'created dist/bundle.js, dist/bundle.cjs in 1.2s',
        source: 'rollup 4 cli/run/watch-cli.ts ("created ${dests} in ${ms(duration)}"), quoted',
      },
    ],
  },
  {
    id: 'rollup-error',
    framework: 'generic',
    tool: 'Rollup',
    kind: 'error',
    priority: PRIORITY.frameworkError,
    regex: /^\[!\] (?<detail>.+)$/,
    message: 'Rollup: {detail}',
    sample: '[!] RollupError: src/index.js (3:13): Unexpected token `=`. Expected yield, an identifier, [ or {',
    source: 'rollup 4.68.7 `rollup -c -w` with a syntax error, captured here',
    moreSamples: [
      {
        line: "[!] Error: Could not resolve './missing' from src/index.js",
        source: 'rollup 2–3 cli/logging.ts ("[!] ${name}: ${message}"), quoted',
      },
    ],
  },
  {
    id: 'tsup-build-start',
    framework: 'generic',
    tool: 'tsup',
    kind: 'building',
    priority: PRIORITY.building,
    regex: /^\s*(?:CJS|ESM|IIFE|DTS) Build start\s*$/,
    sample: 'CJS Build start',
    source: 'tsup 8.5.1 `tsup src/index.ts --watch`, captured here',
  },
  {
    id: 'tsup-build-success',
    framework: 'generic',
    tool: 'tsup',
    kind: 'ready',
    watching: true,
    priority: PRIORITY.frameworkReady,
    regex: /^\s*(?:CJS|ESM|IIFE|DTS) (?:⚡️\s*)?Build success in \d+(?:\.\d+)?m?s\s*$/,
    sample: 'CJS ⚡️ Build success in 355ms',
    source: 'tsup 8.5.1 `tsup src/index.ts --watch`, captured here',
    moreSamples: [{ line: 'ESM ⚡️ Build success in 12ms', source: 'tsup 8.5.1 with --format esm, quoted' }],
  },
  {
    id: 'tsup-build-failed',
    framework: 'generic',
    tool: 'tsup',
    kind: 'error',
    startFailure: 'build',
    priority: PRIORITY.frameworkError,
    regex: /^\s*(?<format>CJS|ESM|IIFE|DTS) Build failed\s*$/,
    message: 'tsup: {format} build failed',
    sample: 'CJS Build failed',
    source: 'tsup 8.5.1 `tsup src/index.ts --watch` with a syntax error, captured here',
  },
  {
    id: 'swc-compiled',
    framework: 'generic',
    tool: 'swc',
    kind: 'ready',
    watching: true,
    priority: PRIORITY.frameworkReady,
    // The summary of the first build, or one file rebuilt in watch mode; never "Failed to compile".
    regex: /^\s*Successfully compiled(?::? [1-9]\d* files?|(?! \d) \S+)(?:, copied \d+ files?)? with swc\b/,
    sample: 'Successfully compiled: 1 file with swc (945.46ms)',
    source: '@swc/cli 0.8.1 `swc src -d dist --watch`, captured here',
    moreSamples: [
      {
        line: 'Successfully compiled src/index.js with swc (216.93ms)',
        source: '@swc/cli 0.8.1 after an edit in watch mode, captured here',
      },
    ],
  },
  {
    id: 'swc-failed',
    framework: 'generic',
    tool: 'swc',
    kind: 'error',
    priority: PRIORITY.frameworkError,
    regex: /^\s*(?<detail>Failed to compile \d+ files? with swc)\b/,
    message: 'swc: {detail}',
    sample: 'Failed to compile 1 file with swc.',
    source: '@swc/cli 0.8.1 lib/swc/dir.js:162 ("Failed to compile ${failed} ${…} with swc."), quoted',
  },
  {
    id: 'babel-compiled',
    framework: 'generic',
    tool: 'Babel',
    kind: 'ready',
    watching: true,
    priority: PRIORITY.frameworkReady,
    // Not "Successfully compiled 0 files": babel prints that after a file failed to compile.
    // After a file failed it still reports the others it compiled.
    followsFailures: true,
    regex: /^\s*Successfully compiled [1-9]\d* files? with Babel\b/,
    sample: 'Successfully compiled 1 file with Babel (2839ms).',
    source: '@babel/cli 7.29.7 `babel src -d dist --watch`, captured here',
  },
  {
    id: 'babel-syntax-error',
    framework: 'generic',
    tool: 'Babel',
    kind: 'error',
    priority: PRIORITY.frameworkError,
    regex: /^SyntaxError: (?<file>\S+\.[cm]?[jt]sx?): (?<detail>.+ \(\d+:\d+\))\s*$/,
    message: 'Babel: {detail} in {file}',
    sample: 'SyntaxError: /tmp/w2/a/ba/src/index.js: Unexpected token (3:13)',
    source: '@babel/cli 7.29.7 `babel src -d dist --watch` with a syntax error, captured here',
  },
  {
    id: 'sass-compiled',
    framework: 'generic',
    tool: 'Sass',
    kind: 'ready',
    watching: true,
    priority: PRIORITY.frameworkReady,
    regex: /^\s*(?:\[[\d\- :]+\] )?Compiled \S+ to \S+\.\s*$/,
    sample: '[2026-11-24 04:39] Compiled src/s.scss to out.css.',
    source: 'sass 1.108.2 `sass --watch src/s.scss out.css`, captured here',
  },
  {
    id: 'tailwind-rebuilding',
    framework: 'generic',
    tool: 'Tailwind CSS',
    kind: 'building',
    priority: PRIORITY.building,
    regex: /^\s*Rebuilding\.\.\.\s*$/,
    sample: 'Rebuilding...',
    source: 'tailwindcss 3.4.19 `tailwindcss -i in.css -o out.css --watch`, captured here',
  },
  {
    id: 'tailwind-done',
    framework: 'generic',
    tool: 'Tailwind CSS',
    kind: 'ready',
    watching: true,
    priority: PRIORITY.frameworkReady,
    // Whole units only: yarn 1's "Done in 2.34s." (two decimals) ends a script, it is no build.
    // v4 prints it after a failed rebuild too (dist/index.mjs: the catch falls through to it).
    followsFailures: true,
    regex: /^\s*Done in \d+(?:ms\.|ns|µs|ms|s|m|h|d)\s*$/,
    sample: 'Done in 1598ms.',
    source: 'tailwindcss 3.4.19 `--watch`, captured here',
    moreSamples: [
      { line: 'Done in 85ms', source: '@tailwindcss/cli 4.3.5 dist/index.mjs ("Done in ${formatDuration(…)}"), quoted' },
      { line: 'Done in 950µs', source: '@tailwindcss/cli 4.3.5 dist/index.mjs (durations from ns to d), quoted' },
    ],
  },
  {
    id: 'eleventy-wrote',
    framework: 'generic',
    tool: 'Eleventy',
    kind: 'ready',
    watching: true,
    priority: PRIORITY.frameworkReady,
    // Printed after "Problem writing Eleventy templates" too ("Wrote 0 files …").
    followsFailures: true,
    regex: /^\[11ty\] (?:Copied \d+ files? \/ )?Wrote \d+ files? in \d+(?:\.\d+)? seconds?\b/,
    sample: '[11ty] Wrote 1 file in 1.25 seconds (v3.1.8)',
    source: '@11ty/eleventy 3.1.8 `eleventy --watch`, captured here',
    moreSamples: [
      {
        line: '[11ty] Copied 3 files / Wrote 12 files in 0.21 seconds (17.5ms each, v2.0.1)',
        source: '@11ty/eleventy 2.0.1 src/Eleventy.js logFinished, quoted',
      },
    ],
  },
  {
    id: 'eleventy-file-changed',
    framework: 'generic',
    tool: 'Eleventy',
    kind: 'building',
    priority: PRIORITY.building,
    regex: /^\[11ty\] File (?:changed|added|deleted): /,
    sample: '[11ty] File added: ./bad.md',
    source: '@11ty/eleventy 3.1.8 `eleventy --watch`, captured here',
    moreSamples: [{ line: '[11ty] File changed: index.md', source: '@11ty/eleventy 2.0.1, quoted' }],
  },
  {
    id: 'eleventy-problem',
    framework: 'generic',
    tool: 'Eleventy',
    kind: 'error',
    priority: PRIORITY.frameworkError,
    regex: /^\[11ty\] Problem writing Eleventy templates/,
    message: ['Eleventy: {detail}', 'Eleventy could not write the templates'],
    detail: 'nextLine',
    sample: '[11ty] Problem writing Eleventy templates:',
    source: '@11ty/eleventy 3.1.8 `eleventy --watch` with broken front matter, captured here',
  },
  {
    id: 'hugo-built',
    framework: 'generic',
    tool: 'Hugo',
    kind: 'ready',
    watching: true,
    priority: PRIORITY.frameworkReady,
    // "Built" only in watch mode (commandeer.go timeTrack), "Total" after each rebuild; `hugo server`
    // prints its "Web Server is available at" line right after, and that server line decides.
    // A failed rebuild ends with "Total in …" too (postBuild is deferred).
    followsFailures: true,
    regex: /^\s*(?:Built|Total) in \d+ ms\s*$/,
    sample: 'Built in 123 ms',
    source: 'hugo 0.165.0 commands/commandeer.go:650 ("%s in %v ms"), quoted',
    moreSamples: [{ line: 'Total in 34 ms', source: 'hugo 0.165.0 commands/hugobuilder.go postBuild("Total"), quoted' }],
  },
  {
    // Any watcher: "watching for changes" after a build started is that build's clean end.
    id: 'generic-watching-after-build',
    framework: 'generic',
    kind: 'ready',
    watching: true,
    endsBuild: true,
    followsFailures: true,
    priority: PRIORITY.genericReady,
    regex: /^\s*(?:\[[^\]]*\]\s*)?Watching for (?:file )?changes in\b/i,
    sample: 'Watching for changes in /srv/site/{content,layouts}',
    source: 'hugo 0.165.0 commands/server.go ("Watching for changes in %s"), quoted',
  },
  {
    id: 'hugo-start-building',
    framework: 'generic',
    tool: 'Hugo',
    kind: 'building',
    priority: PRIORITY.building,
    regex: /^\s*Start building sites … ?$/,
    sample: 'Start building sites … ',
    source: 'hugo 0.165.0 commands/hugobuilder.go:565, quoted',
  },
  {
    id: 'hugo-rebuilding',
    framework: 'generic',
    tool: 'Hugo',
    kind: 'building',
    priority: PRIORITY.building,
    regex: /^\s*Change(?: of [\w ]+)? detected, rebuilding site \(#\d+\)\.\s*$/,
    sample: 'Change detected, rebuilding site (#1).',
    source: 'hugo 0.165.0 commands/hugobuilder.go:1124 (printChangeDetected), quoted',
    moreSamples: [
      {
        line: 'Change of config file detected, rebuilding site (#2).',
        source: 'hugo 0.165.0 commands/hugobuilder.go printChangeDetected("config file"), quoted',
      },
    ],
  },
  {
    id: 'hugo-build-error',
    framework: 'generic',
    tool: 'Hugo',
    kind: 'error',
    startFailure: 'build',
    priority: PRIORITY.frameworkError,
    regex: /^(?:Error: error building site: |ERROR Rebuild failed: )(?<detail>.+)$/,
    message: 'Hugo: {detail}',
    sample: 'Error: error building site: render: failed to render pages: template: index.html:3: unexpected EOF',
    source: 'hugo 0.165.0 commands/hugobuilder.go:584 ("error building site: %w"), quoted',
    moreSamples: [
      { line: 'ERROR Rebuild failed: template: index.html:3: unexpected EOF', source: 'hugo 0.165.0 commands/hugobuilder.go:688, quoted' },
    ],
  },
  {
    id: 'hugo-server-available',
    framework: 'generic',
    tool: 'Hugo',
    kind: 'ready',
    priority: PRIORITY.frameworkReady,
    regex: /^\s*Web Server is available at (?<url>https?:\/\/\S+)/,
    sample: 'Web Server is available at http://localhost:1313/ (bind address 127.0.0.1)',
    source: 'hugo 0.165.0 commands/server.go:973, quoted',
  },
  {
    id: 'cargo-watch-running',
    framework: 'generic',
    tool: 'cargo watch',
    kind: 'building',
    priority: PRIORITY.building,
    // Checks, builds and tests end with "[Finished running …]"; `cargo run` starts a server whose own
    // lines (or port) decide, so it holds nothing.
    regex: /^\[Running '(?![^']*\bcargo r(?:un)?\b)cargo (?:check|build|test|clippy|doc|nextest|b|c|t)\b[^']*'\]\s*$/,
    sample: "[Running 'cargo check']",
    source: 'cargo-watch 8.5.2 src/watch.rs:81 ("[Running \'{}\']"), quoted',
    moreSamples: [
      { line: "[Running 'cargo check && cargo test']", source: 'cargo-watch 8.5.2 with `-x check -x test` (joined by " && "), quoted' },
    ],
  },
  {
    id: 'cargo-watch-finished',
    framework: 'generic',
    tool: 'cargo watch',
    kind: 'ready',
    watching: true,
    priority: PRIORITY.frameworkReady,
    regex: /^\[Finished running\. Exit status: 0\]\s*$/,
    sample: '[Finished running. Exit status: 0]',
    source: 'cargo-watch 8.5.2 src/watch.rs:58, quoted',
  },
  {
    id: 'cargo-watch-failed',
    framework: 'generic',
    tool: 'cargo watch',
    kind: 'error',
    priority: PRIORITY.frameworkError,
    regex: /^\[Finished running\. Exit status: (?<code>[1-9]\d*)\]\s*$/,
    message: 'cargo watch: the command failed (exit status {code})',
    sample: '[Finished running. Exit status: 101]',
    source: 'cargo-watch 8.5.2 src/watch.rs:58 (cargo exits 101 on a compile error), quoted',
  },
  {
    id: 'air-build-failed',
    framework: 'generic',
    tool: 'air',
    kind: 'error',
    startFailure: 'build',
    priority: PRIORITY.frameworkError,
    regex: /^\s*(?:\[\d\d:\d\d:\d\d\] )?failed to build, error: (?<detail>.+)$/,
    message: 'air: build failed ({detail})',
    sample: 'failed to build, error: exit status 1',
    source: 'air 1.67.2 runner/engine.go:600, quoted',
  },
  {
    id: 'deno-watcher-finished',
    framework: 'generic',
    tool: 'Deno',
    kind: 'ready',
    watching: true,
    priority: PRIORITY.frameworkReady,
    // A test run whose tests failed still waits for changes, as vitest and jest do.
    regex: /^Watcher (?:\w+ finished|Test failed|Bench failed)\. Restarting on file change\.\.\./,
    sample: 'Watcher Process finished. Restarting on file change...',
    source: 'deno 2 cli/util/file_watcher.rs ("{} {} {}. Restarting on file change..."), quoted',
    moreSamples: [{ line: 'Watcher Test finished. Restarting on file change...', source: 'deno 2 `deno test --watch`, quoted' }],
  },
  {
    id: 'deno-watcher-failed',
    framework: 'generic',
    tool: 'Deno',
    kind: 'error',
    priority: PRIORITY.frameworkError,
    regex: /^Watcher (?<job>Process|Task) failed\. Restarting on file change\.\.\./,
    message: 'Deno: the {job} failed (waiting for a file change)',
    sample: 'Watcher Process failed. Restarting on file change...',
    source: 'deno 2 cli/util/file_watcher.rs, quoted',
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

export const WATCHER_PATTERNS: readonly FrameworkPattern[] = [...TSC, ...WATCH_MODE, ...BUILDERS, ...COMPILE_EVENTS];
