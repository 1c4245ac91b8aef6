import { describe, expect, it } from 'vitest';
import { parseResetTime } from './resetTime';

/** 2026-11-27 19:53 UTC = 14:53 in New York (EST, UTC-5). */
const NOW = Date.UTC(2026, 10, 27, 19, 53);

describe('parseResetTime', () => {
  it.each([
    // Claude Code 2.1.197's retry row: "Retrying in 1s (10:53pm)", the CLI's zone.
    ['10:53pm', 'UTC', Date.UTC(2026, 10, 27, 22, 53)],
    ['3pm', 'UTC', Date.UTC(2026, 10, 28, 15, 0)],
    ['3pm', 'America/New_York', Date.UTC(2026, 10, 27, 20, 0)],
    ['3pm (America/New_York)', 'Europe/Berlin', Date.UTC(2026, 10, 27, 20, 0)],
    ['Nov 28, 3pm', 'UTC', Date.UTC(2026, 10, 28, 15, 0)],
    ['Nov 28, 3:30pm', 'Asia/Tokyo', Date.UTC(2026, 10, 28, 6, 30)],
    // Codex 0.169.0's "Try again at %b %-d, %Y %-I:%M %p".
    ['Dec 1, 2026 3:04 PM', 'UTC', Date.UTC(2026, 11, 1, 15, 4)],
    // Codex 0.171.0's "Try again at %b %-d{suffix}, %Y %-I:%M %p", here wrapped where the pane ended.
    ['Nov 29th, 2026\n3:04 PM', 'UTC', Date.UTC(2026, 10, 29, 15, 4)],
    ['Dec 2nd, 2026 9:00 AM', 'America/New_York', Date.UTC(2026, 11, 2, 14, 0)],
    ['Jan 2, 9am', 'UTC', Date.UTC(2027, 0, 2, 9, 0)],
    ['15:00', 'UTC', Date.UTC(2026, 10, 28, 15, 0)],
    // Gemini CLI 0.61.0's "Access resets at 3:34 AM UTC." (Intl, timeZoneName: 'short').
    ['3:34 AM UTC', 'America/New_York', Date.UTC(2026, 10, 28, 3, 34)],
    ['9:00\u202fPM GMT+1', 'UTC', Date.UTC(2026, 10, 27, 20, 0)],
    ['3:00 PM EST', 'America/New_York', Date.UTC(2026, 10, 27, 20, 0)],
  ])('%s in %s', (text, zone, expected) => {
    expect(parseResetTime(text, NOW, zone)).toBe(expected);
  });

  it('honours daylight saving time of the date named', () => {
    // New York is on EDT (UTC-4) in July.
    expect(parseResetTime('Jul 4, 2027 9:00 AM', Date.UTC(2027, 6, 1), 'America/New_York')).toBe(Date.UTC(2027, 6, 4, 13, 0));
  });

  it.each(['soon', '25pm', '10:75pm', 'Foo 3, 3pm', ''])('refuses %j', (text) => {
    expect(parseResetTime(text, NOW, 'UTC')).toBeUndefined();
  });

  it('falls back to the machine zone for a zone it does not know', () => {
    expect(parseResetTime('10:53pm', NOW, 'Not/AZone')).toBe(parseResetTime('10:53pm', NOW));
  });
});
