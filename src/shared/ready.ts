/** Dev-server readiness as every side sees it (SPEC §3). Owned by core/ready. */
export type ReadinessPhase = 'stopped' | 'starting' | 'ready' | 'running' | 'error';

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
  /** Which rule or signal decided the phase ("pattern vite-ready + port 5173 open"). */
  reason?: string;
  /** Last lines of output when the phase is error. */
  logs?: string[];
}

/** Result of a restart or readiness wait (SPEC §3.5). */
export interface ReadinessResult {
  success: boolean;
  state: ReadinessPhase;
  message: string;
  duration_ms: number;
  url?: string;
  port?: number;
  logs?: string[];
}
