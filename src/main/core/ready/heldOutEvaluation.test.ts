/**
 * Held-out style evaluation: transcripts (lines with their timing, which ports answer and how,
 * the exit) of the classes of miss that gave false "ready" verdicts or timeouts, several variants
 * each, through the whole tracker (line reader → table → machine) with a fake clock. The verdict
 * is the phase (and message) after the transcript settled. A false "ready" is the worst error: the
 * user opens a broken app.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReadinessConfig } from '../../../shared/readyConfig';
import type { ReadinessPhase } from '../../../shared/ready';
import { ReadinessTracker } from './readinessTracker';
import { FakeSession } from './testing/fakeSession';
import { FakeNetwork } from './testing/fakeNetwork';

/** What happens at `at` ms after the start. */
type Step =
  | { at: number; print: string }
  /** The entry's own tree starts listening; `http: false` = accepts but never answers HTTP. */
  | { at: number; listen: number; http?: boolean }
  /** Another program already answers on this port (not in the tree). */
  | { at: number; foreign: number }
  | { at: number; exit: number };

interface EvalCase {
  name: string;
  argv: string[];
  config?: Partial<ReadinessConfig>;
  /** A project whose package.json depends on Next.js (the framework of the project, not of the command). */
  inNextProject?: boolean;
  steps: Step[];
  /** When the verdict is read (ms after start). */
  verdictAt: number;
  phase: ReadinessPhase;
  message?: string | RegExp;
}

const NEVER_READY: ReadinessPhase[] = ['starting', 'error', 'running', 'stopped', 'completed', 'unhealthy'];

const CASES: EvalCase[] = [
  // ---- a ready line, then the failure ----------------------------------------------------------
  {
    name: 'ready-then-fail: Next.js "✓ Ready", bound but not serving, then a config error and the exit',
    argv: ['next', 'dev'],
    steps: [
      { at: 0, print: '   ▲ Next.js 16.4.6\n   - Local:        http://localhost:3000\n\n ✓ Starting...\n' },
      { at: 300, listen: 3000, http: false },
      { at: 350, print: ' ✓ Ready in 1163ms\n' },
      { at: 900, print: ' ⨯ Failed to load next.config.mjs, see more info here https://nextjs.org/docs/messages/next-config-error\n' },
      { at: 910, print: "SyntaxError: Unexpected token '}'\n" },
      { at: 950, exit: 1 },
    ],
    verdictAt: 5_000,
    phase: 'error',
    message: /next\.config\.mjs/,
  },
  {
    name: 'ready-then-fail: Next.js "✓ Ready" and the port accepts, but it dies before answering',
    argv: ['npx', 'next', 'dev', '-p', '3100'],
    steps: [
      { at: 0, print: '   - Local:        http://localhost:3100\n' },
      { at: 100, listen: 3100, http: false },
      { at: 120, print: ' ✓ Ready in 812ms\n' },
      { at: 2_500, exit: 1 },
    ],
    verdictAt: 4_000,
    phase: 'error',
  },
  {
    name: 'ready-then-fail: php -S "Development Server … started", then "Failed to listen … Address already in use"',
    argv: ['php', '-S', 'localhost:8000'],
    steps: [
      { at: 0, foreign: 8000 },
      { at: 50, print: '[Mon Nov 23 22:00:00 2026] PHP 8.3.6 Development Server (http://localhost:8000) started\n' },
      { at: 60, print: '[Mon Nov 23 22:00:00 2026] Failed to listen on localhost:8000 (reason: Address already in use)\n' },
    ],
    verdictAt: 3_000,
    phase: 'starting',
  },
  {
    name: 'ready-then-fail: php -S on a taken port exits: the error names the port, not only the exit',
    argv: ['php', '-S', 'localhost:8000'],
    steps: [
      { at: 0, foreign: 8000 },
      { at: 50, print: '[Mon Nov 23 22:00:00 2026] PHP 8.3.6 Development Server (http://localhost:8000) started\n' },
      { at: 60, print: '[Mon Nov 23 22:00:00 2026] Failed to listen on localhost:8000 (reason: Address already in use)\n' },
      { at: 70, exit: 1 },
    ],
    verdictAt: 3_000,
    phase: 'error',
    message: 'Port 8000 already in use (exited with code 1)',
  },
  {
    name: 'ready-then-fail: php -S with a timeout configured ends in error, never ready',
    argv: ['php', '-S', '127.0.0.1:8080'],
    config: { timeout: 5_000 },
    steps: [
      { at: 0, foreign: 8080 },
      { at: 50, print: '[Mon Nov 23 22:00:00 2026] PHP 8.3.6 Development Server (http://127.0.0.1:8080) started\n' },
      { at: 60, print: '[Mon Nov 23 22:00:00 2026] Failed to listen on 127.0.0.1:8080 (reason: Address already in use)\n' },
    ],
    verdictAt: 8_000,
    phase: 'error',
  },
  {
    name: 'ready-then-fail: Vite ready, then "error when starting dev server" within the settle window',
    argv: ['vite'],
    steps: [
      { at: 0, listen: 5173 },
      { at: 10, print: '  VITE v7.3.8  ready in 300 ms\n  ➜  Local:   http://localhost:5173/\n' },
      { at: 200, print: 'error when starting dev server:\nError: listen EADDRINUSE: address already in use 127.0.0.1:24678\n' },
    ],
    verdictAt: 3_000,
    phase: 'error',
    message: 'Port 24678 already in use',
  },
  {
    name: 'ready-then-fail: Django "Starting development server", then "That port is already in use."',
    argv: ['python', 'manage.py', 'runserver', '8001'],
    steps: [
      { at: 0, foreign: 8001 },
      { at: 30, print: 'Starting development server at http://127.0.0.1:8001/\nQuit the server with CONTROL-C.\n' },
      { at: 40, print: 'Error: That port is already in use.\n' },
      { at: 60, exit: 1 },
    ],
    verdictAt: 3_000,
    phase: 'error',
  },
  // ---- a watch-mode build still compiling ------------------------------------------------------
  {
    name: 'compiling: vite build --watch between "build started..." and "built in"',
    argv: ['vite', 'build', '--watch'],
    steps: [{ at: 0, print: '\nwatching for file changes...\n\nbuild started...\ntransforming (412) src/App.tsx\n' }],
    verdictAt: 8_000,
    phase: 'starting',
  },
  {
    name: 'compiling: esbuild --watch still on its first build, readiness declared',
    argv: ['esbuild', 'src/app.ts', '--bundle', '--watch', '--outdir=dist'],
    config: { timeout: 30_000 },
    steps: [{ at: 0, print: '[watch] build started (change: "src/app.ts")\n' }],
    verdictAt: 5_000,
    phase: 'starting',
  },
  {
    name: 'compiling: tsc --watch still compiling, readiness declared',
    argv: ['tsc', '--watch'],
    config: { timeout: 30_000 },
    steps: [{ at: 0, print: '[10:15:01 PM] Starting compilation in watch mode...\n\n' }],
    verdictAt: 6_000,
    phase: 'starting',
  },
  {
    name: 'compiling: create-react-app bound its port but "Compiled successfully!" has not come',
    argv: ['react-scripts', 'start'],
    config: { timeout: 60_000 },
    steps: [
      { at: 0, print: 'Starting the development server...\n\n' },
      { at: 400, listen: 3000 },
    ],
    verdictAt: 8_000,
    phase: 'starting',
  },
  {
    name: 'compiling: webpack-dev-server 3 bound its port while "｢wdm｣: Compiling..."',
    argv: ['webpack-dev-server'],
    steps: [
      { at: 0, print: 'ℹ ｢wds｣: Project is running at http://localhost:8080/\n' },
      { at: 50, listen: 8080 },
      { at: 60, print: 'ℹ ｢wdm｣: Compiling...\n' },
    ],
    verdictAt: 8_000,
    phase: 'starting',
  },
  {
    name: 'compiling: create-react-app becomes ready at "Compiled successfully!"',
    argv: ['react-scripts', 'start'],
    steps: [
      { at: 0, print: 'Starting the development server...\n\n' },
      { at: 400, listen: 3000 },
      {
        at: 6_000,
        print: 'Compiled successfully!\n\nYou can now view my-app in the browser.\n\n  Local:            http://localhost:3000\n',
      },
    ],
    verdictAt: 8_000,
    phase: 'ready',
    message: 'Create React App ready on http://localhost:3000',
  },
  // ---- watchers that are ready without a server ------------------------------------------------
  {
    name: 'watching: tsc --watch (pretty, 12-hour clock), readiness declared',
    argv: ['tsc', '--watch'],
    config: { timeout: 30_000 },
    steps: [
      { at: 0, print: '\x1bc[\x1b[90m10:15:01 PM\x1b[0m] Starting compilation in watch mode...\n\n' },
      { at: 2_500, print: '[\x1b[90m10:15:03 PM\x1b[0m] Found 0 errors. Watching for file changes.\n\n' },
    ],
    verdictAt: 6_000,
    phase: 'ready',
    message: 'TypeScript watching for changes',
  },
  {
    name: 'watching: tsc --watch --pretty false (24-hour clock "22:15:03 - ")',
    argv: ['npx', 'tsc', '-w', '--pretty', 'false'],
    config: { timeout: 30_000 },
    steps: [
      { at: 0, print: '22:15:01 - Starting compilation in watch mode...\n' },
      { at: 3_000, print: '\n22:15:04 - Found 0 errors. Watching for file changes.\n' },
    ],
    verdictAt: 6_000,
    phase: 'ready',
  },
  {
    name: 'watching: tsc --watch in German (--locale de)',
    argv: ['tsc', '--watch', '--locale', 'de'],
    config: { timeout: 30_000 },
    steps: [
      { at: 0, print: '[22:15:01] Kompilierung im Überwachungsmodus wird gestartet...\n' },
      { at: 2_000, print: '[22:15:03] 0 Fehler gefunden. Es wird auf Dateiänderungen überwacht.\n' },
    ],
    verdictAt: 6_000,
    phase: 'ready',
  },
  {
    name: 'watching: tsc --watch with no readiness field is ready too, after a slow first compile',
    argv: ['tsc', '--watch'],
    steps: [
      { at: 0, print: '[10:15:01 PM] Starting compilation in watch mode...\n' },
      { at: 4_000, print: '[10:15:05 PM] Found 0 errors. Watching for file changes.\n' },
    ],
    verdictAt: 7_000,
    phase: 'ready',
    message: 'TypeScript watching for changes',
  },
  {
    name: 'watching: tsc --watch with type errors is an error, not ready',
    argv: ['tsc', '--watch'],
    config: { timeout: 30_000 },
    steps: [
      { at: 0, print: '[10:15:01 PM] Starting compilation in watch mode...\n' },
      { at: 1_500, print: "src/a.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.\n" },
      { at: 1_510, print: '[10:15:03 PM] Found 1 error. Watching for file changes.\n' },
    ],
    verdictAt: 6_000,
    phase: 'error',
    message: 'TypeScript: Found 1 error. Watching for file changes.',
  },
  {
    name: 'watching: esbuild --watch finished its first build',
    argv: ['esbuild', 'src/app.ts', '--bundle', '--watch', '--outdir=dist'],
    config: { timeout: 30_000 },
    steps: [{ at: 200, print: '[watch] build finished, watching for changes...\n' }],
    verdictAt: 4_000,
    phase: 'ready',
    message: 'esbuild watching for changes',
  },
  {
    name: 'watching: esbuild --watch whose first build fails still prints "[watch] build finished": an error',
    argv: ['esbuild', 'src/app.js', '--bundle', '--watch', '--outdir=dist'],
    steps: [
      {
        at: 300,
        print:
          '✘ [ERROR] Expected identifier but found "="\n\n    src/app.js:3:13:\n      3 │ export const =;\n\n1 error\n[watch] build finished, watching for changes...\n',
      },
    ],
    verdictAt: 5_000,
    phase: 'error',
    message: 'Expected identifier but found "="',
  },
  {
    name: 'watching: esbuild --watch whose first build fails, then an edit fixes it',
    argv: ['esbuild', 'src/app.js', '--bundle', '--watch', '--outdir=dist'],
    steps: [
      { at: 300, print: '✘ [ERROR] Expected identifier but found "="\n\n1 error\n[watch] build finished, watching for changes...\n' },
      { at: 5_000, print: '[watch] build started (change: "src/app.js")\n[watch] build finished\n' },
    ],
    verdictAt: 8_000,
    phase: 'ready',
    message: 'esbuild watching for changes',
  },
  {
    name: 'watching: esbuild --watch ready, then a failed rebuild is reported and its "build finished" does not hide it',
    argv: ['esbuild', 'src/app.js', '--bundle', '--watch', '--outdir=dist'],
    steps: [
      { at: 300, print: '[watch] build finished, watching for changes...\n' },
      {
        at: 5_000,
        print:
          '[watch] build started (change: "src/app.js")\n✘ [ERROR] Expected identifier but found "="\n1 error\n[watch] build finished\n',
      },
    ],
    verdictAt: 8_000,
    phase: 'running',
    message: 'Expected identifier but found "="',
  },
  {
    name: 'watching: parcel watch after "✨ Built in"',
    argv: ['parcel', 'watch', 'src/index.html'],
    steps: [
      { at: 0, print: 'Building...\nBundling...\n' },
      { at: 1_000, print: 'Packaging & Optimizing...\n✨ Built in 1.06s\n' },
    ],
    verdictAt: 4_000,
    phase: 'ready',
  },
  {
    name: 'watching: parcel watch whose first build fails',
    argv: ['parcel', 'watch', 'src/index.html'],
    steps: [
      { at: 0, print: 'Building...\n' },
      { at: 800, print: '🚨 Build failed.\n@parcel/transformer-js: Unexpected token `=`. Expected yield, an identifier, [ \n' },
    ],
    verdictAt: 4_000,
    phase: 'error',
  },
  {
    name: 'watching: vite build --watch after "built in"',
    argv: ['vite', 'build', '--watch'],
    steps: [
      { at: 0, print: '\nwatching for file changes...\n\nbuild started...\n' },
      { at: 1_800, print: 'dist/index.html  0.46 kB │ gzip: 0.30 kB\nbuilt in 1734ms.\n' },
    ],
    verdictAt: 5_000,
    phase: 'ready',
    message: 'Vite watching for changes',
  },
  {
    name: 'watching: vitest in watch mode',
    argv: ['vitest'],
    config: { timeout: 30_000 },
    steps: [
      {
        at: 900,
        print:
          ' ✓ a.test.js (1 test) 27ms\n Test Files  1 passed (1)\n      Tests  1 passed (1)\n\n PASS  Waiting for file changes...\n       press h to show help, press q to quit\n',
      },
    ],
    verdictAt: 4_000,
    phase: 'ready',
  },
  {
    name: 'watching: jest --watch',
    argv: ['jest', '--watch'],
    config: { timeout: 30_000 },
    steps: [{ at: 900, print: 'Tests:       12 passed, 12 total\n\nWatch Usage: Press w to show more.\n' }],
    verdictAt: 4_000,
    phase: 'ready',
  },
  {
    name: 'watching: jekyll build --watch',
    argv: ['bundle', 'exec', 'jekyll', 'build', '--watch'],
    config: { timeout: 30_000 },
    steps: [
      { at: 0, print: '            Source: /srv/site\n       Destination: /srv/site/_site\n            Generating... \n' },
      { at: 1_200, print: "                    done in 1.021 seconds.\n Auto-regeneration: enabled for '/srv/site'\n" },
    ],
    verdictAt: 5_000,
    phase: 'ready',
  },
  {
    name: 'watching: a watcher whose config names a port still waits for that port',
    argv: ['tsc', '--watch'],
    config: { port: 4010, timeout: 30_000 },
    steps: [{ at: 0, print: '[10:15:01 PM] Found 0 errors. Watching for file changes.\n' }],
    verdictAt: 5_000,
    phase: 'starting',
  },
  // ---- watch-mode builders (lines captured from the real tools or quoted from their source) ----
  {
    name: 'watching: rollup -c -w after its first bundle',
    argv: ['rollup', '-c', '-w'],
    steps: [
      { at: 0, print: 'rollup v4.68.7\nbundles src/index.js → dist/b.js...\n' },
      { at: 700, print: 'created dist/b.js in 186ms\n\n[2026-11-24 04:38:12] waiting for changes...\n' },
    ],
    verdictAt: 4_000,
    phase: 'ready',
    message: 'Rollup watching for changes',
  },
  {
    name: 'watching: rollup -w whose first build fails prints "waiting for changes..." too: an error, not ready',
    argv: ['npx', 'rollup', '-c', '--watch'],
    steps: [
      { at: 0, print: 'rollup v4.68.7\nbundles src/index.js → dist/b.js...\n' },
      {
        at: 400,
        print: '[!] RollupError: src/index.js (3:13): Unexpected token `=`. Expected yield, an identifier, [ or {\nsrc/index.js (3:13)\n',
      },
      { at: 410, print: '[2026-11-24 04:38:26] waiting for changes...\n' },
    ],
    verdictAt: 5_000,
    phase: 'error',
    message: /^Rollup: RollupError: src\/index\.js \(3:13\)/,
  },
  {
    name: 'watching: rollup -w whose first build fails, then an edit fixes it',
    argv: ['rollup', '-c', '-w'],
    steps: [
      { at: 0, print: 'bundles src/index.js → dist/b.js...\n' },
      { at: 400, print: '[!] RollupError: src/index.js (3:13): Unexpected token `=`.\n[2026-11-24 04:38:26] waiting for changes...\n' },
      { at: 6_000, print: 'bundles src/index.js → dist/b.js...\ncreated dist/b.js in 9ms\n[2026-11-24 04:38:34] waiting for changes...\n' },
    ],
    verdictAt: 9_000,
    phase: 'ready',
    message: 'Rollup watching for changes',
  },
  {
    name: 'one-shot: rollup -c prints the same success line and exits 0: a completed job, not a failed start',
    argv: ['rollup', '-c'],
    steps: [
      { at: 0, print: 'bundles src/index.js → dist/b.js...\n' },
      { at: 300, print: 'created dist/b.js in 186ms\n' },
      { at: 320, exit: 0 },
    ],
    verdictAt: 2_000,
    phase: 'completed',
  },
  {
    name: 'watching: webpack --watch whose first build fails, then compiles after an edit',
    argv: ['webpack', '--watch'],
    steps: [
      {
        at: 0,
        print:
          'ERROR in ./src/index.js 3:13\nModule parse failed: Unexpected token (3:13)\nwebpack 5.112.2 compiled with 1 error in 101 ms\n',
      },
      { at: 5_000, print: 'asset main.js 2.71 KiB [emitted] (name: main)\nwebpack 5.112.2 compiled successfully in 15 ms\n' },
    ],
    verdictAt: 8_000,
    phase: 'ready',
  },
  {
    name: 'compiling: tsup --watch between "Build start" and its end',
    argv: ['tsup', 'src/index.ts', '--watch'],
    steps: [
      {
        at: 0,
        print: 'CLI Building entry: src/index.ts\nCLI tsup v8.5.1\nCLI Running in watch mode\nCLI Target: node16\nCJS Build start\n',
      },
    ],
    verdictAt: 6_000,
    phase: 'starting',
  },
  {
    name: 'watching: tsup --watch after "Build success"',
    argv: ['tsup', 'src/index.ts', '--watch'],
    steps: [
      { at: 0, print: 'CLI Running in watch mode\nCJS Build start\n' },
      { at: 900, print: 'CJS dist/index.js 1.03 KB\nCJS ⚡️ Build success in 355ms\nCLI Watching for changes in "."\n' },
    ],
    verdictAt: 4_000,
    phase: 'ready',
    message: 'tsup watching for changes',
  },
  {
    name: 'watching: tsup --watch whose first build fails',
    argv: ['tsup', 'src/index.ts', '--watch'],
    steps: [
      { at: 0, print: 'CJS Build start\n' },
      {
        at: 600,
        print: '✘ [ERROR] Expected identifier but found "="\n\n    src/index.ts:3:13:\nCJS Build failed\nCLI Watching for changes in "."\n',
      },
    ],
    verdictAt: 5_000,
    phase: 'error',
    message: 'tsup: CJS build failed',
  },
  {
    name: 'watching: swc --watch whose first build fails prints "Watching for file changes." anyway',
    argv: ['swc', 'src', '-d', 'dist', '--watch'],
    steps: [{ at: 800, print: '  x Unexpected token `=`.\nFailed to compile 1 file with swc.\nWatching for file changes.\n' }],
    verdictAt: 5_000,
    phase: 'error',
    message: 'swc: Failed to compile 1 file with swc',
  },
  {
    name: 'watching: swc --watch after its first build',
    argv: ['swc', 'src', '-d', 'dist', '-w'],
    steps: [{ at: 900, print: 'Successfully compiled: 1 file with swc (945.46ms)\nWatching for file changes.\n' }],
    verdictAt: 4_000,
    phase: 'ready',
    message: 'swc watching for changes',
  },
  {
    name: 'watching: babel --watch after its first build',
    argv: ['babel', 'src', '-d', 'dist', '--watch'],
    steps: [{ at: 2_800, print: 'Successfully compiled 1 file with Babel (2839ms).\nThe watcher is ready.\n' }],
    verdictAt: 6_000,
    phase: 'ready',
    message: 'Babel watching for changes',
  },
  {
    name: 'watching: babel --watch whose only file fails: "compiled 0 files" is no success',
    argv: ['babel', 'src', '-d', 'dist', '--watch'],
    steps: [
      { at: 900, print: 'SyntaxError: /srv/app/src/index.js: Unexpected token (3:13)\n  1 | export const a = 1;\n> 3 | export const =;\n' },
      { at: 950, print: 'Successfully compiled 0 files with Babel (218ms).\nThe watcher is ready.\n' },
    ],
    verdictAt: 5_000,
    phase: 'error',
    message: 'Babel: Unexpected token (3:13) in /srv/app/src/index.js',
  },
  {
    name: 'watching: sass --watch after its first compile',
    argv: ['sass', '--watch', 'src/s.scss', 'out.css'],
    steps: [
      { at: 600, print: '[2026-11-24 04:39] Compiled src/s.scss to out.css.\nSass is watching for changes. Press Ctrl-C to stop.\n' },
    ],
    verdictAt: 4_000,
    phase: 'ready',
    message: 'Sass watching for changes',
  },
  {
    name: 'watching: sass --watch whose first compile fails is never ready',
    argv: ['sass', '--watch', 'src/s.scss:out.css'],
    steps: [
      {
        at: 600,
        print:
          'Error: Undefined variable.\n  ╷\n3 │ c { color: $nope; }\n  ╵\n  src/s.scss 3:12  root stylesheet\nSass is watching for changes. Press Ctrl-C to stop.\n',
      },
    ],
    verdictAt: 5_000,
    phase: 'running',
  },
  {
    name: 'compiling: tailwindcss v3 --watch still "Rebuilding..."',
    argv: ['tailwindcss', '-i', 'in.css', '-o', 'out.css', '--watch'],
    steps: [
      { at: 0, print: 'Browserslist: caniuse-lite is outdated. Please run:\n  npx update-browserslist-db@latest\n\nRebuilding...\n' },
    ],
    verdictAt: 5_000,
    phase: 'starting',
  },
  {
    name: 'watching: tailwindcss v3 --watch after "Done in"',
    argv: ['tailwindcss', '-i', 'in.css', '-o', 'out.css', '--watch'],
    steps: [
      { at: 0, print: '\nRebuilding...\n' },
      { at: 1_600, print: '\nDone in 1598ms.\n' },
    ],
    verdictAt: 5_000,
    phase: 'ready',
    message: 'Tailwind CSS watching for changes',
  },
  {
    name: 'watching: @tailwindcss/cli v4 --watch after "Done in"',
    argv: ['npx', '@tailwindcss/cli', '-i', 'src/in.css', '-o', 'out.css', '--watch'],
    steps: [
      { at: 0, print: '≈ tailwindcss v4.3.5\n\n' },
      { at: 300, print: 'Done in 85ms\n' },
    ],
    verdictAt: 4_000,
    phase: 'ready',
  },
  {
    name: 'watching: eleventy --watch after it wrote the site',
    argv: ['npx', '@11ty/eleventy', '--watch'],
    steps: [
      { at: 0, print: '[11ty] Writing ./_site/index.html from ./index.md (liquid)\n' },
      { at: 1_250, print: '[11ty] Wrote 1 file in 1.25 seconds (v3.1.8)\n[11ty] Watching…\n' },
    ],
    verdictAt: 5_000,
    phase: 'ready',
    message: 'Eleventy watching for changes',
  },
  {
    name: 'watching: eleventy --watch that cannot write its templates',
    argv: ['eleventy', '--watch'],
    steps: [
      {
        at: 900,
        print:
          '[11ty] Problem writing Eleventy templates:\n[11ty] 1. Having trouble reading front matter from template ./bad.md (via TemplateContentFrontMatterError)\n[11ty] Watching…\n',
      },
    ],
    verdictAt: 5_000,
    phase: 'error',
  },
  {
    name: 'watching: hugo --watch (no server) after "Built in"',
    argv: ['hugo', '--watch'],
    steps: [
      { at: 0, print: 'Start building sites … \nhugo v0.165.0+extended linux/amd64 BuildDate=unknown\n\n' },
      {
        at: 700,
        print:
          '                   | EN\n-------------------+-----\n  Pages            | 10\nBuilt in 123 ms\nWatching for changes in /srv/site/{archetypes,content,layouts}\nPress Ctrl+C to stop\n',
      },
    ],
    verdictAt: 4_000,
    phase: 'ready',
    message: 'Hugo watching for changes',
  },
  {
    name: 'watching: hugo --watch whose rebuild fails: its "Total in" does not hide the error',
    argv: ['hugo', '--watch'],
    steps: [
      { at: 0, print: 'Start building sites … \n' },
      { at: 700, print: 'Built in 123 ms\nWatching for changes in /srv/site/{content,layouts}\n' },
      { at: 4_000, print: '\nChange detected, rebuilding site (#1).\n2026-11-24 04:39:12.345 +0000\n' },
      { at: 4_050, print: 'ERROR Rebuild failed: template: index.html:3: unexpected EOF\nTotal in 12 ms\n' },
    ],
    verdictAt: 7_000,
    phase: 'running',
    message: 'Hugo: template: index.html:3: unexpected EOF',
  },
  {
    name: 'watching: eleventy --watch recovers when the broken template is fixed',
    argv: ['eleventy', '--watch'],
    steps: [
      {
        at: 0,
        print: '[11ty] Problem writing Eleventy templates:\n[11ty] 1. Having trouble reading front matter from template ./bad.md\n',
      },
      { at: 10, print: '[11ty] Wrote 0 files in 0.17 seconds (v3.1.8)\n[11ty] Watching…\n' },
      { at: 5_000, print: '[11ty] File deleted: ./bad.md\n[11ty] Wrote 1 file in 0.05 seconds (v3.1.8)\n[11ty] Watching…\n' },
    ],
    verdictAt: 8_000,
    phase: 'ready',
    message: 'Eleventy watching for changes',
  },
  {
    name: 'watching: eleventy --watch whose first build fails prints "Wrote 0 files" too: not ready',
    argv: ['eleventy', '--watch'],
    steps: [
      {
        at: 0,
        print: '[11ty] Problem writing Eleventy templates:\n[11ty] 1. Having trouble reading front matter from template ./bad.md\n',
      },
      { at: 10, print: '[11ty] Wrote 0 files in 0.17 seconds (v3.1.8)\n[11ty] Watching…\n' },
    ],
    verdictAt: 5_000,
    phase: 'error',
  },
  {
    name: 'watching: hugo --watch whose first build fails exits with its error',
    argv: ['hugo', '--watch'],
    steps: [
      { at: 0, print: 'Start building sites … \n' },
      { at: 300, print: 'Error: error building site: render: failed to render pages: template: index.html:3: unexpected EOF\n' },
      { at: 320, exit: 1 },
    ],
    verdictAt: 3_000,
    phase: 'error',
    message: /^Hugo: render: failed to render pages/,
  },
  {
    name: 'urls: hugo server is a server: "Built in" does not make it ready before its port answers',
    argv: ['hugo', 'server'],
    steps: [
      { at: 0, print: 'Watching for changes in /srv/site/{content,layouts}\nStart building sites … \n' },
      {
        at: 500,
        print:
          'Built in 47 ms\nEnvironment: "development"\nWeb Server is available at http://localhost:1313/ (bind address 127.0.0.1)\nPress Ctrl+C to stop\n',
      },
    ],
    verdictAt: 5_000,
    phase: 'starting',
  },
  {
    name: 'urls: hugo server ready once its port answers',
    argv: ['hugo', 'server'],
    steps: [
      { at: 0, print: 'Watching for changes in /srv/site/{content,layouts}\nStart building sites … \n' },
      {
        at: 500,
        print: 'Built in 47 ms\nWeb Server is available at http://localhost:1313/ (bind address 127.0.0.1)\nPress Ctrl+C to stop\n',
      },
      { at: 510, listen: 1313 },
    ],
    verdictAt: 4_000,
    phase: 'ready',
    message: 'Hugo ready on http://localhost:1313',
  },
  {
    name: 'watching: cargo watch -x check after a clean check',
    argv: ['cargo', 'watch', '-x', 'check'],
    steps: [
      { at: 0, print: "[Running 'cargo check']\n    Checking app v0.1.0 (/srv/app)\n" },
      { at: 2_000, print: '    Finished `dev` profile [unoptimized + debuginfo] target(s) in 1.92s\n[Finished running. Exit status: 0]\n' },
    ],
    verdictAt: 5_000,
    phase: 'ready',
    message: 'cargo watch watching for changes',
  },
  {
    name: 'watching: cargo watch -x check with a compile error',
    argv: ['cargo', 'watch', '-x', 'check'],
    steps: [
      { at: 0, print: "[Running 'cargo check']\n" },
      {
        at: 1_500,
        print:
          'error[E0425]: cannot find value `x` in this scope\nerror: could not compile `app` (bin "app") due to 1 previous error\n[Finished running. Exit status: 101]\n',
      },
    ],
    verdictAt: 5_000,
    phase: 'error',
  },
  {
    name: 'watching: cargo watch -x run is a server: its build line holds nothing, the port decides',
    argv: ['cargo', 'watch', '-x', 'run'],
    config: { port: 8088 },
    steps: [
      { at: 0, print: "[Running 'cargo run']\n   Compiling app v0.1.0 (/srv/app)\n" },
      { at: 2_000, print: '     Running `target/debug/app`\n' },
      { at: 2_100, listen: 8088 },
    ],
    verdictAt: 5_000,
    phase: 'ready',
    message: 'Server ready on http://localhost:8088',
  },
  {
    name: 'watching: deno run --watch of a script that finished',
    argv: ['deno', 'run', '--watch', 'main.ts'],
    steps: [{ at: 300, print: 'Watcher Process started.\nhello\nWatcher Process finished. Restarting on file change...\n' }],
    verdictAt: 4_000,
    phase: 'ready',
    message: 'Deno watching for changes',
  },
  {
    name: 'watching: deno run --watch of a script that threw',
    argv: ['deno', 'run', '--watch', 'main.ts'],
    steps: [
      {
        at: 300,
        print: 'Watcher Process started.\nerror: Uncaught (in promise) Error: boom\nWatcher Process failed. Restarting on file change...\n',
      },
    ],
    verdictAt: 4_000,
    phase: 'error',
  },
  {
    name: 'watching: air whose Go build fails',
    argv: ['air'],
    steps: [
      { at: 200, print: 'watching .\n!exclude tmp\nbuilding...\n./main.go:5:2: undefined: x\nfailed to build, error: exit status 1\n' },
    ],
    verdictAt: 4_000,
    phase: 'error',
    message: 'air: build failed (exit status 1)',
  },
  {
    name: 'watching: nodemon whose script crashed waits for changes: an error',
    argv: ['nodemon', 'job.js'],
    steps: [
      { at: 0, print: '[nodemon] 3.1.14\n[nodemon] watching path(s): *.*\n[nodemon] starting `node job.js`\n' },
      { at: 300, print: 'Error: boom\n\nNode.js v20.20.2\n[nodemon] app crashed - waiting for file changes before starting...\n' },
    ],
    verdictAt: 4_000,
    phase: 'error',
  },
  {
    name: "watching: a server's own log line that looks like a build is no watcher",
    argv: ['node', 'server.js'],
    config: { timeout: 10_000 },
    steps: [{ at: 0, print: 'created pool in 5ms\nwatching config.json for changes\n' }],
    verdictAt: 5_000,
    phase: 'starting',
  },
  // ---- URL forms -------------------------------------------------------------------------------
  {
    name: 'urls: Flask on 0.0.0.0 prints "all addresses" and the loopback URL on its own line',
    argv: ['flask', 'run', '--host', '0.0.0.0'],
    steps: [
      { at: 0, print: ' * Serving Flask app "app"\n * Debug mode: off\n' },
      { at: 10, listen: 5000 },
      {
        at: 20,
        print: ' * Running on all addresses (0.0.0.0)\n * Running on http://127.0.0.1:5000\n * Running on http://192.168.1.5:5000\n',
      },
    ],
    verdictAt: 3_000,
    phase: 'ready',
    message: 'Flask ready on http://127.0.0.1:5000',
  },
  {
    name: 'urls: uvicorn on 0.0.0.0 is probed on the loopback',
    argv: ['uvicorn', 'main:app', '--host', '0.0.0.0', '--port', '8002'],
    steps: [
      { at: 0, listen: 8002 },
      { at: 10, print: 'INFO:     Uvicorn running on http://0.0.0.0:8002 (Press CTRL+C to quit)\n' },
    ],
    verdictAt: 3_000,
    phase: 'ready',
    message: 'Uvicorn ready on http://localhost:8002',
  },
  {
    name: 'urls: a placeholder URL before the real one',
    argv: ['node', 'server.js'],
    config: { timeout: 10_000 },
    steps: [
      { at: 0, print: 'Server will be available at http://localhost:3000 once the database is up\n' },
      { at: 800, listen: 3007 },
      { at: 810, print: 'Server listening on http://localhost:3007\n' },
    ],
    verdictAt: 3_000,
    phase: 'ready',
    message: 'Server ready on http://localhost:3007',
  },
  {
    name: 'urls: a debugger websocket before the server does not replace it',
    argv: ['node', '--inspect', 'server.js'],
    config: { timeout: 10_000 },
    steps: [
      { at: 0, listen: 9229 },
      { at: 5, print: 'Debugger listening on ws://127.0.0.1:9229/0f2c6d1e-1b2a-4c3d-9e8f-7a6b5c4d3e2f\n' },
      { at: 6, print: 'For help, see: https://nodejs.org/en/docs/inspector\n' },
      { at: 700, listen: 4000 },
      { at: 710, print: 'Listening on port 4000\n' },
    ],
    verdictAt: 3_000,
    phase: 'ready',
    message: 'Server ready on http://localhost:4000',
  },
  {
    name: "urls: Vite's Network line and its HMR port do not replace the Local URL",
    argv: ['vite', '--host'],
    steps: [
      { at: 0, listen: 5173 },
      { at: 0, listen: 24678 },
      {
        at: 10,
        print:
          '  VITE v7.3.8  ready in 300 ms\n\n  ➜  Local:   http://localhost:5173/\n  ➜  Network: http://192.168.1.5:5173/\n  ➜  Network: http://172.17.0.1:5173/\n',
      },
    ],
    verdictAt: 3_000,
    phase: 'ready',
    message: 'Vite ready on http://localhost:5173',
  },
  {
    name: 'urls: a second server URL on another port (Storybook preview) does not replace the first',
    argv: ['storybook', 'dev', '-p', '6006'],
    steps: [
      { at: 0, listen: 6006 },
      { at: 0, listen: 6007 },
      {
        at: 10,
        print:
          '│   Storybook 8.0.5 for react-vite started                     │\n│   Local:            http://localhost:6006/                   │\n',
      },
      { at: 20, print: '│   Local:            http://localhost:6007/                   │\n' },
    ],
    verdictAt: 3_000,
    phase: 'ready',
    message: 'Storybook ready on http://localhost:6006',
  },
  {
    name: 'urls: "Port 3000 is in use, trying 3001 instead" with the new URL on a later line',
    argv: ['next', 'dev'],
    steps: [
      { at: 0, foreign: 3000 },
      { at: 10, print: ' ⚠ Port 3000 is in use, trying 3001 instead.\n' },
      { at: 50, listen: 3001 },
      { at: 60, print: '   ▲ Next.js 14.2.3\n   - Local:        http://localhost:3001\n\n ✓ Ready in 1.9s\n' },
    ],
    verdictAt: 3_000,
    phase: 'ready',
    message: 'Next.js ready on http://localhost:3001',
  },
  {
    name: 'urls: "Port 5173 is in use, trying another one..." names no new port; the next Local URL does',
    argv: ['vite'],
    steps: [
      { at: 0, foreign: 5173 },
      { at: 10, print: 'Port 5173 is in use, trying another one...\n' },
      { at: 20, listen: 5174 },
      { at: 30, print: '  VITE v5.4.2  ready in 412 ms\n\n  ➜  Local:   http://localhost:5174/\n' },
    ],
    verdictAt: 3_000,
    phase: 'ready',
    message: 'Vite ready on http://localhost:5174',
  },
  {
    name: 'urls: a ready line about the taken port before the move is not ready on the new one until it answers',
    argv: ['php', 'artisan', 'serve'],
    steps: [
      { at: 0, foreign: 8000 },
      { at: 10, print: '   INFO  Server running on [http://127.0.0.1:8000].  \n' },
      { at: 20, print: '[Mon Nov 23 22:00:00 2026] Failed to listen on 127.0.0.1:8000 (reason: Address already in use)\n' },
    ],
    verdictAt: 3_000,
    phase: 'starting',
  },
  {
    name: 'compile events: Next.js "✓ Compiled" in place of the Ready line',
    argv: ['next', 'dev'],
    steps: [
      { at: 0, print: '   - Local:        http://localhost:3000\n' },
      { at: 100, listen: 3000 },
      { at: 900, print: ' ○ Compiling / ...\n' },
      { at: 2_000, print: ' ✓ Compiled / in 1.1s (512 modules)\n' },
    ],
    verdictAt: 4_000,
    phase: 'ready',
    message: 'Next.js ready on http://localhost:3000',
  },
  {
    name: 'compile events: Next.js 12 "event - compiled client and server successfully"',
    argv: ['next', 'dev'],
    steps: [
      { at: 0, print: 'wait  - compiling...\n' },
      { at: 100, listen: 3000 },
      { at: 1_500, print: 'event - compiled client and server successfully in 1254 ms (163 modules)\n' },
    ],
    verdictAt: 4_000,
    phase: 'ready',
    message: 'Next.js ready on http://localhost:3000',
  },
  {
    name: 'compile events: "webpack compiled successfully" (CRA on webpack-dev-server 4)',
    argv: ['react-scripts', 'start'],
    steps: [
      { at: 0, print: 'Starting the development server...\n' },
      { at: 100, listen: 3000 },
      { at: 3_000, print: 'webpack compiled successfully\n' },
    ],
    verdictAt: 5_000,
    phase: 'ready',
  },
  // ---- the framework named is the one this command runs ---------------------------------------
  {
    name: 'naming: php -S in a Next.js project is a PHP server',
    argv: ['php', '-S', 'localhost:8000'],
    inNextProject: true,
    steps: [
      { at: 0, listen: 8000 },
      { at: 10, print: '[Mon Nov 23 22:00:00 2026] PHP 8.3.6 Development Server (http://localhost:8000) started\n' },
    ],
    verdictAt: 3_000,
    phase: 'ready',
    message: 'PHP ready on http://localhost:8000',
  },
  {
    name: 'naming: a hand-written server in a Next.js project is "Server", not Next.js',
    argv: ['node', 'api/server.js'],
    inNextProject: true,
    config: { timeout: 10_000 },
    steps: [
      { at: 0, listen: 4000 },
      { at: 10, print: 'API listening on port 4000\n' },
    ],
    verdictAt: 3_000,
    phase: 'ready',
    message: 'Server ready on http://localhost:4000',
  },
  {
    name: 'naming: a port opened without any line in a Next.js project is "Server"',
    argv: ['python3', '-m', 'http.server', '8111'],
    inNextProject: true,
    config: { port: 8111 },
    steps: [{ at: 0, listen: 8111 }],
    verdictAt: 3_000,
    phase: 'ready',
    message: 'Server ready on http://localhost:8111',
  },
  {
    name: 'naming: npm run dev that runs next in a Next.js project is Next.js',
    argv: ['next', 'dev'],
    inNextProject: true,
    steps: [
      { at: 0, listen: 3000 },
      { at: 10, print: '   - Local:        http://localhost:3000\n ✓ Ready in 900ms\n' },
    ],
    verdictAt: 3_000,
    phase: 'ready',
    message: 'Next.js ready on http://localhost:3000',
  },
];

const projectDirs: string[] = [];
function nextProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-heldout-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', dependencies: { next: '16.4.6', react: '19.0.0' } }));
  projectDirs.push(dir);
  return dir;
}

const trackers: ReadinessTracker[] = [];
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  trackers.splice(0).forEach((t) => t.dispose());
  vi.useRealTimers();
});
afterAll(() => projectDirs.splice(0));

async function verdictOf(c: EvalCase): Promise<{ phase: ReadinessPhase; message: string }> {
  const projectDir = c.inNextProject ? nextProject() : undefined;
  const session = new FakeSession(c.argv, projectDir ?? '/nonexistent/project');
  const network = new FakeNetwork();
  const tracker = new ReadinessTracker(session, c.config ?? {}, projectDir, network.probes);
  trackers.push(tracker);
  session.start();
  let now = 0;
  for (const step of [...c.steps].sort((a, b) => a.at - b.at)) {
    await vi.advanceTimersByTimeAsync(step.at - now);
    now = step.at;
    if ('print' in step) session.print(step.print);
    else if ('listen' in step) {
      network.listening.add(step.listen);
      if (step.http === false) network.mute.add(step.listen);
    } else if ('foreign' in step) network.foreign.add(step.foreign);
    else session.exit(step.exit);
  }
  await vi.advanceTimersByTimeAsync(c.verdictAt - now);
  return { phase: tracker.info.phase, message: tracker.info.message };
}

describe('held-out style evaluation', () => {
  it.each(CASES)('$name → $phase', async (c) => {
    const verdict = await verdictOf(c);
    expect(verdict.phase).toBe(c.phase);
    if (typeof c.message === 'string') expect(verdict.message).toBe(c.message);
    else if (c.message) expect(verdict.message).toMatch(c.message);
  });

  it('has no false "ready" and at least 99 % right over the whole table', async () => {
    let right = 0;
    const falseReady: string[] = [];
    for (const c of CASES) {
      const verdict = await verdictOf(c);
      trackers.splice(0).forEach((t) => t.dispose());
      if (verdict.phase === 'ready' && NEVER_READY.includes(c.phase)) falseReady.push(`${c.name}: ${verdict.message}`);
      if (verdict.phase === c.phase) right += 1;
    }
    expect(falseReady).toEqual([]);
    expect(right / CASES.length).toBeGreaterThanOrEqual(0.99);
  });
});
