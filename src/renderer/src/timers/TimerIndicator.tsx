/**
 * The nearest timer an entry owns, in its pane header and sidebar row: a countdown for a delay,
 * "waiting on N idle" for an idle timer, "due" once fired and waiting for the agent's prompt;
 * with pause / resume, fire now and cancel. The list comes sorted nearest first from the core
 * (ProcessInfo.timers); actions go through the control API like every other UI action.
 */
import type { MouseEvent } from 'react';
import type { CommandName } from '../../../shared/api';
import type { ProcessInfo, TimerSummary } from '../../../shared/model';
import { run } from '../app/store';
import { useNow } from '../common/sharedClock';

/**
 * Glyphs from the Geometric Shapes and General Punctuation blocks: ⏱ and ⏸ (Misc Technical) are
 * missing from common Linux UI fonts and show as empty boxes there.
 */
const TIMER_GLYPH = '◷';
const PAUSED_GLYPH = '‖';

const STYLE = {
  wrap: { display: 'inline-flex', alignItems: 'center', gap: 2, whiteSpace: 'nowrap' },
  label: { fontVariantNumeric: 'tabular-nums' },
  due: { color: 'var(--warn, #d7a84a)' },
  more: { opacity: 0.7, fontSize: '0.85em' },
  button: { padding: '0 3px', fontSize: '0.8em', lineHeight: 1.2 },
} as const;

/** "4:05", "1:02:03"; never negative. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** What the indicator says for a timer at `now` (epoch ms). */
export function timerText(t: TimerSummary, now: number): string {
  const left = t.state === 'pending' && t.firesAt !== undefined ? t.firesAt - now : t.remainingMs;
  if (t.state === 'due') return 'due';
  if (t.kind === 'delay') return formatDuration(left ?? 0);
  const waiting = `waiting on ${(t.waitingOn ?? t.watched ?? []).length} idle`;
  return left !== undefined ? `${waiting} · max ${formatDuration(left)}` : waiting;
}

function tooltip(t: TimerSummary): string {
  const kind = {
    delay: 'Delay timer',
    idle_any: 'Fires when any watched agent finishes a turn',
    idle_all: 'Fires when all watched agents are idle',
  }[t.kind];
  const state = {
    pending: '',
    paused: ' (paused)',
    due: ' (fired; typed in once the agent is at its prompt)',
    fired: '',
    cancelled: '',
    dropped: '',
  }[t.state];
  const held = t.heldForOwner ? ' (held: continues once the agent runs again)' : '';
  const waiting = t.waitingOn?.length ? `\nWaiting on: ${t.waitingOn.join(', ')}` : '';
  return `${t.label ? `${t.label} — ` : ''}${kind}${state}${held}\nBody: ${t.bodyPreview}${waiting}\nSet by ${t.createdBy}`;
}

export function TimerIndicator({ process }: { process: ProcessInfo }) {
  const timers = process.timers ?? [];
  const nearest = timers[0];
  const now = useNow(nearest?.state === 'pending' && nearest.firesAt !== undefined);
  if (!nearest) return null;
  const act = (cmd: Extract<CommandName, 'pauseTimer' | 'resumeTimer' | 'cancelTimer' | 'fireTimerNow'>) => (e: MouseEvent) => {
    e.stopPropagation(); // the row or pane behind focuses on click; an action is not a focus
    void run((c) => c.call(cmd, { timerId: nearest.id }));
  };
  const isPaused = nearest.state === 'paused';
  return (
    <span
      className="timer"
      data-testid="timer-indicator"
      data-timer-id={nearest.id}
      data-state={nearest.state}
      title={tooltip(nearest)}
      style={STYLE.wrap}
    >
      <span style={{ ...STYLE.label, ...(nearest.state === 'due' ? STYLE.due : {}) }} data-testid="timer-text">
        {isPaused ? PAUSED_GLYPH : TIMER_GLYPH} {timerText(nearest, now)}
      </span>
      {timers.length > 1 && (
        <span style={STYLE.more} title={`${timers.length} timers`}>
          +{timers.length - 1}
        </span>
      )}
      {nearest.state !== 'due' && (
        <button
          style={STYLE.button}
          data-testid={isPaused ? 'timer-resume' : 'timer-pause'}
          title={isPaused ? 'Resume timer' : 'Pause timer'}
          aria-label={isPaused ? 'Resume timer' : 'Pause timer'}
          onClick={act(isPaused ? 'resumeTimer' : 'pauseTimer')}
        >
          {isPaused ? '▶' : PAUSED_GLYPH}
        </button>
      )}
      {nearest.state !== 'due' && (
        <button
          style={STYLE.button}
          data-testid="timer-fire"
          title="Fire now (typed in once the agent is at its prompt)"
          aria-label="Fire timer now"
          onClick={act('fireTimerNow')}
        >
          ⚡
        </button>
      )}
      <button style={STYLE.button} data-testid="timer-cancel" title="Cancel timer" aria-label="Cancel timer" onClick={act('cancelTimer')}>
        ✕
      </button>
    </span>
  );
}
