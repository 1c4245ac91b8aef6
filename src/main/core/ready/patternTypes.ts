/**
 * The shape of readiness knowledge: one entry per thing a framework prints that tells us
 * something (ready, failed, where it listens, that it moved to another port, that a line is only
 * a warning). Entries are data (frameworkPatterns.ts); lineClassifier.ts applies them.
 */
import type { LinePattern } from '../../../shared/userPattern';
import type { FrameworkId } from '../../../shared/ready';

export type PatternKind =
  /** The server says it is up ("✓ Ready in 1163ms"); with `watching`, a watcher is done and waits. */
  | 'ready'
  /**
   * A compile or build is under way ("○ Compiling / ...", "build started..."): while starting,
   * nothing counts as ready until a ready line follows (an open port alone does not).
   */
  | 'building'
  /** The start failed, or the server reports a failure ("Port 3000 already in use"). */
  | 'error'
  /** Where to reach it ("- Local: http://localhost:3000"); named group `url` or `port`. */
  | 'url'
  /** The preferred port was taken and it moves on (group `from`, and `to` when printed). */
  | 'portMoved'
  /**
   * The line is a warning: error entries of lower priority do not count on it (nor, with
   * `guardsBlock`, on the lines of the same block, up to the next blank line).
   */
  | 'warning-guard'
  /** The line reports a failure, so a ready entry matching it is a coincidence ("Error: … ready"). */
  | 'ready-guard';

/** Where a message continues when the matched line is only a headline. */
export type DetailSource =
  /** The next line with words ("error when starting dev server:" → "Error: Port 5173 is …"). */
  | 'nextLine'
  /** The exception line that ends a Python traceback ("ModuleNotFoundError: No module …"). */
  | 'exceptionLine';

interface PatternSample {
  /** A line as the program prints it (escape sequences removed). */
  line: string;
  /** Program and version it was taken from, and how ("vite 7.3.8, captured here"). */
  source: string;
}

export interface FrameworkPattern {
  /** Unique, stable, shown in `reason`: "vite-ready", "generic-eaddrinuse-node". */
  id: string;
  /** Whose output it is; `generic` entries apply to any program. */
  framework: FrameworkId;
  kind: PatternKind;
  /** Higher wins when several entries match a line (see PRIORITY). */
  priority: number;
  /**
   * Tested against one line without escape sequences. Named groups feed the message and the
   * port logic: url, port, from, to, file, module, command, script, detail.
   */
  regex: LinePattern;
  /**
   * Message template(s) for error and portMoved entries: the first whose placeholders are all
   * known is used. Placeholders: named groups, {framework}, {port} (falls back to the known
   * port), {url}, {line}, {detail}, {previous} (the error message so far), {lastException}.
   */
  message?: string | readonly string[];
  detail?: DetailSource;
  /**
   * Apply only when this entry's framework is the detected (or configured) one: for lines that
   * mean something else in other programs (Parcel's early "Server running at …").
   */
  onlyWhenDetected?: boolean;
  /**
   * ready only: a program that is ready without a server (a watcher: `tsc --watch`, `esbuild
   * --watch`, vitest): ready with no port, unless the config names one.
   */
  watching?: boolean;
  /**
   * ready only: the program prints this line after a failed build too (esbuild's "[watch] build
   * finished"): it counts only when no error line came since the build started.
   */
  followsFailures?: boolean;
  /**
   * ready only: the line ends a build under way and means nothing otherwise (hugo 0.111 prints
   * "Watching for changes in …" after its first build, hugo 0.165 before it; Vite's "watching for
   * file changes..." comes before "build started...").
   */
  endsBuild?: boolean;
  /**
   * error only: only a server that could not listen (`listen`) or a build that failed (`build`)
   * prints this line: an entry that expected no readiness adopts it here, so the failed start is an
   * error, not a job still running (a dev server that exits 0 after EADDRINUSE is no finished job).
   */
  startFailure?: 'listen' | 'build';
  /**
   * error only: the line fails a start only if the process then exits. A shell's missing command
   * (`git: command not found`) in a script that goes on to start its server is a warning.
   */
  confirmedByExit?: boolean;
  /** The program's name when it is not one of the frameworks ("TypeScript", "esbuild"). */
  tool?: string;
  /** warning-guard only: the lines after it, up to a blank line, belong to the warning. */
  guardsBlock?: boolean;
  /** A real line this entry must match. */
  sample: string;
  /** Where `sample` comes from: program, version, and whether captured here or quoted. */
  source: string;
  /** Further real lines from other versions that differ in print. */
  moreSamples?: readonly PatternSample[];
}

/**
 * Priority bands. Ties go to the earlier entry in the table. The order encodes three rules:
 * a user's own patterns beat built-in knowledge; on one line an error beats a ready signal;
 * a framework's specific error beats the generic one, and a warning outranks only generic errors.
 */
export const PRIORITY = {
  customError: 1_000,
  customReady: 950,
  portMoved: 900,
  frameworkErrorSpecific: 850,
  frameworkError: 800,
  frameworkReady: 700,
  building: 650,
  warningGuard: 600,
  genericErrorSpecific: 550,
  genericError: 500,
  /** Catch-alls that only speak when nothing more specific did ("Node.js v20…" after a crash). */
  genericFallbackError: 450,
  genericReady: 300,
  url: 100,
  readyGuard: 50,
} as const;
