/**
 * Which failed start an error line shows (`startFailure` in patternTypes.ts). An entry can say so
 * itself; besides, every error line of a watcher tool (a tool with a `watching` ready line: rollup,
 * tsc, swc, Eleventy…) is a failed build. Such a tool prints its first build's verdict whenever the
 * build ends: on a loaded machine that is after `stabilityDelay`, when an entry without readiness
 * fields already shows `running`, and the verdict must not depend on that timing.
 */
import type { FrameworkPattern } from './patternTypes';

type StartFailure = NonNullable<FrameworkPattern['startFailure']>;

export function startFailureRule(patterns: readonly FrameworkPattern[]): (pattern: FrameworkPattern) => StartFailure | undefined {
  const watcherTools = new Set(patterns.filter((p) => p.kind === 'ready' && p.watching && p.tool).map((p) => p.tool));
  return (pattern) => {
    if (pattern.kind !== 'error') return undefined;
    if (pattern.startFailure) return pattern.startFailure;
    return pattern.tool !== undefined && watcherTools.has(pattern.tool) ? 'build' : undefined;
  };
}
