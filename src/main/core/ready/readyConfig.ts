/**
 * Readiness settings with every default and clamp in one place (after process-compose's
 * ValidateAndSetDefaults). Input is the switchboard.json fields (src/shared/readyConfig.ts), or
 * the same shape from an MCP `spawn_process` call; output is what the state machine runs on.
 */
import { compileUserPattern, DEFAULT_READY_TIMEOUT_MS, type AutoRestartPolicy, type ReadinessConfig } from '../../../shared/readyConfig';
import type { LinePattern } from '../../../shared/userPattern';
import { FRAMEWORK_IDS, type FrameworkId } from '../../../shared/ready';
import { isValidPort } from '../ports';
import {
  DEFAULT_LIVENESS_FAILURE_THRESHOLD,
  DEFAULT_LIVENESS_PERIOD_MS,
  DEFAULT_LIVENESS_TIMEOUT_MS,
  type LivenessSettings,
} from './livenessProbes';

/**
 * How long a ready line without a known port, or an open port without a ready line, must hold
 * before it counts. pm2 uses the same 1 s as `min_uptime`: long enough to catch a server that
 * prints its banner and then dies on a config error or a second port, short enough that nobody
 * notices the wait.
 */
export const DEFAULT_STABILITY_DELAY_MS = 1_000;
/**
 * After a ready line, how long the known port may take to accept connections. Servers print
 * their ready line within milliseconds of binding (Django just before, Next.js just after), so
 * 10 s without a listener means the line and the port disagree (wrong port configured).
 */
export const DEFAULT_PORT_TIMEOUT_MS = 10_000;
/**
 * TCP connect probes of the known port while starting. A refused loopback connect costs
 * microseconds, and the loop stops once ready; 100 ms keeps the "port opened → ready" latency
 * well under wait-on's 250 ms default polling.
 */
export const DEFAULT_PROBE_INTERVAL_MS = 100;
/** Process-tree listening-port scans while starting (a /proc walk; lsof on macOS). */
export const STARTUP_SCAN_INTERVAL_MS = 250;
/** No readiness wait, delay or port wait may exceed this: it would only hide a hang. */
export const MAX_WAIT_MS = 30 * 60_000;
/** A stability delay beyond this is a misunderstanding of the field, not a wish. */
export const MAX_STABILITY_DELAY_MS = 60_000;

export interface ResolvedReadinessConfig {
  framework?: FrameworkId;
  port?: number;
  url?: string;
  readyPatterns: LinePattern[];
  errorPatterns: LinePattern[];
  stabilityDelayMs: number;
  timeoutMs: number;
  portTimeoutMs: number;
  probeIntervalMs: number;
  autoRestart: AutoRestartPolicy;
  /** A job run to its end: `completed` on exit 0, no readiness awaited. */
  isOneShot: boolean;
  /** The config or spawn call gave a field that only makes sense for a server that gets ready. */
  declaresReadiness: boolean;
  /** Probes after ready; undefined when turned off (`liveness: false`). */
  liveness: LivenessSettings | undefined;
  /** Fields that were ignored and why ("readyPatterns[1]: invalid regular expression …"). */
  warnings: string[];
}

/** Any input (validated config, MCP arguments, nothing) → complete settings, never throws. */
export function resolveReadinessConfig(input: Partial<ReadinessConfig> | undefined = {}): ResolvedReadinessConfig {
  const config = input ?? {};
  const warnings: string[] = [];
  const timeoutMs = clampMs(config.timeout, DEFAULT_READY_TIMEOUT_MS, 1, MAX_WAIT_MS);
  return {
    framework: isFrameworkId(config.framework) ? config.framework : undefined,
    port: isValidPort(config.port) ? config.port : undefined,
    url: isHttpUrl(config.url) ? config.url : undefined,
    readyPatterns: compilePatterns('readyPatterns', config.readyPatterns, warnings),
    errorPatterns: compilePatterns('errorPatterns', config.errorPatterns, warnings),
    stabilityDelayMs: clampMs(config.stabilityDelay, DEFAULT_STABILITY_DELAY_MS, 0, MAX_STABILITY_DELAY_MS),
    timeoutMs,
    // A port wait longer than the whole start would never be reached.
    portTimeoutMs: clampMs(config.portTimeout, Math.min(DEFAULT_PORT_TIMEOUT_MS, timeoutMs), 0, timeoutMs),
    probeIntervalMs: DEFAULT_PROBE_INTERVAL_MS,
    autoRestart: isAutoRestartPolicy(config.autoRestart) ? config.autoRestart : 'no',
    isOneShot: config.oneShot === true,
    declaresReadiness: READINESS_FIELDS.some((field) => config[field] !== undefined),
    liveness: resolveLiveness(config.liveness),
    warnings,
  };
}

/** Fields that declare "this is a server: wait for it" (not errorPatterns, stabilityDelay, autoRestart). */
const READINESS_FIELDS = ['port', 'url', 'readyPatterns', 'framework', 'timeout', 'portTimeout'] as const;

/** Shortest liveness period: a probe storm is no better at finding a hang. */
const MIN_LIVENESS_PERIOD_MS = 100;

function resolveLiveness(input: ReadinessConfig['liveness']): LivenessSettings | undefined {
  if (input === false) return undefined;
  const config = input ?? {};
  const threshold = config.failureThreshold;
  return {
    periodMs: clampMs(config.period, DEFAULT_LIVENESS_PERIOD_MS, MIN_LIVENESS_PERIOD_MS, MAX_WAIT_MS),
    failureThreshold:
      typeof threshold === 'number' && Number.isInteger(threshold) && threshold >= 1
        ? Math.min(threshold, 100)
        : DEFAULT_LIVENESS_FAILURE_THRESHOLD,
    timeoutMs: clampMs(config.timeout, DEFAULT_LIVENESS_TIMEOUT_MS, 1, MAX_WAIT_MS),
  };
}

function isAutoRestartPolicy(value: unknown): value is AutoRestartPolicy {
  return value === 'on-failure' || value === 'always' || value === 'unhealthy';
}

function clampMs(value: unknown, fallback: number, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return fallback;
  return Math.min(Math.max(Math.round(value), min), max);
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function isFrameworkId(value: unknown): value is FrameworkId {
  return typeof value === 'string' && (FRAMEWORK_IDS as readonly string[]).includes(value);
}

function compilePatterns(field: string, sources: unknown, warnings: string[]): LinePattern[] {
  if (!Array.isArray(sources)) return [];
  const compiled: LinePattern[] = [];
  sources.forEach((source, index) => {
    if (typeof source !== 'string' || source.length === 0) {
      warnings.push(`${field}[${index}]: not a pattern`);
      return;
    }
    try {
      compiled.push(compileUserPattern(source));
    } catch (err) {
      warnings.push(`${field}[${index}]: ${(err as Error).message}`);
    }
  });
  return compiled;
}
