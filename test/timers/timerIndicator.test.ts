/**
 * The UI's timer indicator (src/renderer/src/timers/TimerIndicator.tsx): what it says for each
 * kind and state, and the controls it renders (server-side markup; the buttons call the same
 * control API commands tested in timerTools.test.ts).
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TimerIndicator, formatDuration, timerText } from '../../src/renderer/src/timers/TimerIndicator';
import type { ProcessInfo, TimerSummary } from '../../src/shared/model';

const NOW = Date.UTC(2026, 0, 1);

function timer(extra: Partial<TimerSummary>): TimerSummary {
  return {
    id: 't_000001',
    kind: 'delay',
    state: 'pending',
    ownerId: 'p_1',
    bodyPreview: 'check the build',
    createdBy: 'external',
    createdAt: NOW,
    ...extra,
  };
}

describe('timer indicator', () => {
  it('formats durations as m:ss or h:mm:ss, rounding up and never negative', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(1)).toBe('0:01');
    expect(formatDuration(65_000)).toBe('1:05');
    expect(formatDuration(3_723_000)).toBe('1:02:03');
    expect(formatDuration(-5)).toBe('0:00');
  });

  it('says a countdown, a paused remainder, "waiting on N idle" (with its max wait) or "due"', () => {
    expect(timerText(timer({ firesAt: NOW + 90_000, remainingMs: 90_000 }), NOW)).toBe('1:30');
    expect(timerText(timer({ state: 'paused', remainingMs: 12_000 }), NOW)).toBe('0:12');
    expect(timerText(timer({ kind: 'idle_all', watched: ['p_2', 'p_3'], waitingOn: ['p_3'] }), NOW)).toBe('waiting on 1 idle');
    expect(timerText(timer({ kind: 'idle_any', watched: ['p_2'], waitingOn: ['p_2'], firesAt: NOW + 60_000 }), NOW)).toBe(
      'waiting on 1 idle · max 1:00',
    );
    expect(timerText(timer({ state: 'due' }), NOW)).toBe('due');
  });

  it('renders the nearest timer with pause, fire-now and cancel, and resume when paused', () => {
    const process = { id: 'p_1', timers: [timer({ firesAt: Date.now() + 30_000 }), timer({ id: 't_000002' })] } as ProcessInfo;
    const html = renderToStaticMarkup(createElement(TimerIndicator, { process }));
    expect(html).toContain('data-timer-id="t_000001"');
    expect(html).toMatch(/data-testid="timer-pause"/);
    expect(html).toMatch(/data-testid="timer-fire"/);
    expect(html).toMatch(/data-testid="timer-cancel"/);
    expect(html).toContain('+1');
    const paused = renderToStaticMarkup(
      createElement(TimerIndicator, { process: { ...process, timers: [timer({ state: 'paused', remainingMs: 5_000 })] } }),
    );
    expect(paused).toMatch(/data-testid="timer-resume"/);
    expect(paused).toContain('0:05');
    expect(renderToStaticMarkup(createElement(TimerIndicator, { process: { ...process, timers: undefined } }))).toBe('');
  });
});
