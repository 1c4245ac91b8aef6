/**
 * Readiness as every side sees it. Owned by core/ready. `running`: up without a readiness check
 * (or a ready server reporting an error); `unhealthy`: was ready, liveness probes now fail;
 * `completed`: a job that exited 0.
 */
export type ReadinessPhase = 'stopped' | 'starting' | 'ready' | 'running' | 'unhealthy' | 'completed' | 'error';

/**
 * Frameworks with built-in knowledge (core/ready/frameworkPatterns.ts). `generic` means none was
 * detected: only the generic rules, custom patterns and port signals apply.
 */
export const FRAMEWORK_IDS = [
  'nextjs',
  'vite',
  'cra',
  'webpack-dev-server',
  'angular',
  'vue-cli',
  'nuxt',
  'astro',
  'sveltekit',
  'remix',
  'gatsby',
  'storybook',
  'parcel',
  'convex',
  'django',
  'flask',
  'uvicorn',
  'rails',
  'phoenix',
  'laravel',
  'spring-boot',
  'express',
  'generic',
] as const;
export type FrameworkId = (typeof FRAMEWORK_IDS)[number];

export interface ReadinessInfo {
  phase: ReadinessPhase;
  /** Human message: "Vite ready on http://localhost:5173", "Port 3000 already in use". */
  message: string;
  /** Framework id in use (detected or configured), e.g. "vite", "nextjs". */
  framework?: string;
  url?: string;
  port?: number;
  /** Epoch ms the current run started waiting for readiness. */
  since?: number;
  /** Epoch ms readiness was reached. */
  readyAt?: number;
  /**
   * Ready, but within its settle window (`stabilityDelay`), when an error line still means the
   * ready line was premature: waits and `dependsOn: "ready"` answer once this turns false.
   */
  settling?: boolean;
  /** Which rule or signal decided the phase ("pattern vite-ready + port 5173 open"). */
  reason?: string;
  /** Last lines of output when the phase is error. */
  logs?: string[];
  /** Run the phase belongs to (the session's runId); 0 before the first run. */
  runId?: number;
  /** Exit code of the run when the phase came from its exit. */
  exitCode?: number;
  /** Epoch ms the run ended (completed jobs show their duration). */
  endedAt?: number;
  /** Whether the entry waits for a readiness signal (false: `running` once stable). */
  expectsReadiness?: boolean;
}

/** Result of a restart or readiness wait (docs/readiness.md). */
export interface ReadinessResult {
  success: boolean;
  state: ReadinessPhase;
  message: string;
  duration_ms: number;
  url?: string;
  port?: number;
  logs?: string[];
  /** One-shot jobs: the exit code of the run the wait followed to its end. */
  exit_code?: number;
}

/** Answer of `check_process_ready`. `waiting`: its dependencies are not there yet. */
export interface ReadinessCheck {
  ready: boolean;
  state: ReadinessPhase | 'waiting';
  message: string;
  url?: string;
  port?: number;
}

/** Reported while a readiness wait is pending (MCP progress notifications). */
export interface ReadinessProgress {
  state: ReadinessPhase;
  message: string;
  elapsed_ms: number;
}

/** Ready, and past its settle window: what a wait, `dependsOn: "ready"` and a green badge count as ready. */
export function isSettledReady(info: Pick<ReadinessInfo, 'phase' | 'settling'>): boolean {
  return info.phase === 'ready' && info.settling !== true;
}
