/**
 * A limit's reset time as a CLI prints it, turned into an instant. CLIs print wall-clock times in
 * the zone of the CLI's process ("10:53pm", "Nov 28, 3pm", "Nov 28th, 2026 3:04 PM"), sometimes
 * naming it ("3pm (America/New_York)", "3:34 AM UTC"): a named zone wins, else the agent's zone, else this
 * machine's. A time without a date is the next such time (CLIs show the date once the reset is
 * more than a day away).
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MS_PER_DAY = 86_400_000;
/** A time just printed may already have passed by a few seconds when it is read. */
const JUST_PASSED_MS = 60_000;

const RESET_TEXT =
  /^(?:(?<month>[A-Za-z]{3})[a-z]*\.? (?<day>\d{1,2})(?:st|nd|rd|th)?,? (?:(?<year>\d{4}),? )?(?:at )?)?(?<hour>\d{1,2})(?::(?<minute>\d{2}))?[ \u202f]?(?<ampm>[ap]\.?m\.?)?(?: \((?<zone>[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*)\)| (?<abbr>[A-Z]{2,5}(?:[+-]\d{1,2})?))?$/iu;

interface WallTime {
  year: number;
  /** 0-based. */
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/**
 * The instant `text` names, or undefined when it is not a time this parser knows (the status then
 * carries the CLI's words without a timestamp).
 */
export function parseResetTime(text: string, now: number, timeZone?: string): number | undefined {
  // A time wrapped over two rows reads as one line.
  const m = RESET_TEXT.exec(text.replace(/\s+/gu, ' ').trim());
  if (!m?.groups) return undefined;
  const g = m.groups;
  const zone = validZone(g.zone) ?? zoneOfAbbreviation(g.abbr) ?? validZone(timeZone) ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const hour = to24h(Number(g.hour), g.ampm);
  const minute = g.minute === undefined ? 0 : Number(g.minute);
  if (hour === undefined || minute > 59) return undefined;
  const today = wallTimeIn(now, zone);
  if (g.month === undefined) {
    const at = instantOf({ ...today, hour, minute }, zone);
    return at < now - JUST_PASSED_MS ? instantOf(wallTimeIn(at + MS_PER_DAY, zone), zone) : at;
  }
  const month = MONTHS.indexOf(g.month.toLowerCase());
  if (month < 0) return undefined;
  const year = g.year === undefined ? today.year : Number(g.year);
  const at = instantOf({ year, month, day: Number(g.day), hour, minute }, zone);
  // "Jan 2" read on Dec 30 is next year's.
  return g.year === undefined && at < now - JUST_PASSED_MS
    ? instantOf({ year: year + 1, month, day: Number(g.day), hour, minute }, zone)
    : at;
}

function to24h(hour: number, ampm: string | undefined): number | undefined {
  if (ampm === undefined) return hour <= 23 ? hour : undefined;
  if (hour < 1 || hour > 12) return undefined;
  const isPm = ampm.toLowerCase().startsWith('p');
  return (hour % 12) + (isPm ? 12 : 0);
}

/**
 * The zone a short name printed after the time stands for (`Intl`'s `timeZoneName: 'short'`, as
 * Gemini CLI prints it): UTC and GMT offsets are exact; other abbreviations (EST, CET) are the CLI's
 * own zone, which is the agent's, so they add nothing.
 */
function zoneOfAbbreviation(abbr: string | undefined): string | undefined {
  const m = abbr === undefined ? null : /^(?:UTC|GMT)(?:(?<sign>[+-])(?<hours>\d{1,2}))?$/iu.exec(abbr);
  if (!m) return undefined;
  if (!m.groups?.sign || Number(m.groups.hours) === 0) return 'UTC';
  // IANA's Etc zones count the other way: GMT+2 is Etc/GMT-2.
  return validZone(`Etc/GMT${m.groups.sign === '+' ? '-' : '+'}${Number(m.groups.hours)}`);
}

function validZone(zone: string | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}

/** The wall-clock reading of `at` in `zone`. */
function wallTimeIn(at: number, zone: string): WallTime {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month') - 1, day: part('day'), hour: part('hour'), minute: part('minute') };
}

/** The instant whose wall-clock reading in `zone` is `t` (the zone's offset at that instant, DST included). */
function instantOf(t: WallTime, zone: string): number {
  const asUtc = Date.UTC(t.year, t.month, t.day, t.hour, t.minute);
  let at = asUtc - offsetOf(asUtc, zone);
  // Once more with the offset in force at the first guess (a DST change between the two).
  at = asUtc - offsetOf(at, zone);
  return at;
}

function offsetOf(at: number, zone: string): number {
  const w = wallTimeIn(at, zone);
  return Date.UTC(w.year, w.month, w.day, w.hour, w.minute) - Math.floor(at / 60_000) * 60_000;
}
