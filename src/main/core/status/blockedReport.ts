/**
 * What a blocked or retrying agent's CLI said, read from its own line on screen by the rule that
 * recognised it (its `report` regex): the message, the limit's reset time as an instant, the
 * retry counter. docs/agent-status.md, "Blocked agents".
 */
import type { BlockedInfo } from '../../../shared/status';
import { RegionReader, type ScreenSnapshot } from './regions';
import { parseResetTime } from './resetTime';
import type { StatusRule } from './ruleSchema';

/** A scrollbar (track or thumb) or box side ending a row of the CLI's line (Copilot's transcript once it overflows): never its words. */
const SCROLLBAR_AT_ROW_END = /\s*[┃│█]$/gmu;

/** The report of `rule` on this screen, or undefined when the rule reads none or its line is gone. */
export function readBlockedReport(rule: StatusRule, snapshot: ScreenSnapshot, now: number, timeZone?: string): BlockedInfo | undefined {
  if (!rule.report) return undefined;
  const text = new RegionReader(snapshot).text(rule.region);
  const flags = rule.report.flags.includes('g') ? rule.report.flags : rule.report.flags + 'g';
  const last = [...text.matchAll(new RegExp(rule.report.source, flags))].at(-1);
  if (!last) return undefined;
  const g = last.groups ?? {};
  const message = (g.message ?? last[0]).replace(SCROLLBAR_AT_ROW_END, '').replace(/\s+/gu, ' ').trim();
  const resetsAt = g.reset === undefined ? undefined : parseResetTime(g.reset, now, timeZone);
  return {
    message,
    ...(resetsAt !== undefined && { resetsAt }),
    ...(g.attempt !== undefined && { attempt: Number(g.attempt) }),
    ...(g.max !== undefined && { maxAttempts: Number(g.max) }),
    ...(rule.retriesByItself && { retriesByItself: true as const }),
  };
}
