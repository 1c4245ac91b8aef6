/**
 * The task pane, above a task entry's terminal: phase and current tool, elapsed time,
 * stall warnings as they happen, the streamed text, and the end — result with turns and cost, or
 * the error — with every watchdog decision and its reason. Ended tasks stay here to inspect, to
 * run again (the pane's ↻) or to continue with a follow-up in the same session.
 * Styled inline on the app's CSS variables so the component carries its own look.
 */
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import type { ProcessInfo } from '../../../shared/model';
import type { TaskDecision, TaskInfo, TaskPhase, TaskRequest } from '../../../shared/task';
import { run, useUi } from '../app/store';
import { useNow } from '../common/sharedClock';

const PHASE_LOOK: Record<TaskPhase, { glyph: string; color: string }> = {
  starting: { glyph: '◌', color: 'var(--busy)' },
  generating: { glyph: '◐', color: 'var(--busy)' },
  tool_executing: { glyph: '⚙', color: 'var(--busy)' },
  done: { glyph: '✓', color: 'var(--ok)' },
  failed: { glyph: '✕', color: 'var(--err)' },
  stalled: { glyph: '⏸', color: 'var(--warn)' },
  cancelled: { glyph: '■', color: 'var(--muted)' },
};

const DECISION_COLORS: Partial<Record<TaskDecision['kind'], string>> = {
  extended: 'var(--warn)',
  stalled: 'var(--warn)',
  timed_out: 'var(--err)',
  failed: 'var(--err)',
  killed: 'var(--muted)',
  finished: 'var(--ok)',
};

const S = {
  panel: {
    display: 'flex',
    flexDirection: 'column',
    gap: 4,
    padding: '4px 6px',
    borderBottom: '1px solid var(--border)',
    maxHeight: '60%',
    overflow: 'auto',
    flex: '0 1 auto',
  },
  row: { display: 'flex', gap: 8, alignItems: 'baseline', flexWrap: 'wrap' },
  muted: { color: 'var(--muted)' },
  mono: { fontFamily: 'ui-monospace, monospace', fontSize: 12 },
  text: {
    margin: 0,
    whiteSpace: 'pre-wrap',
    maxHeight: 160,
    overflow: 'auto',
    fontFamily: 'ui-monospace, monospace',
    fontSize: 12,
    background: 'var(--bg)',
    padding: 4,
    borderRadius: 4,
  },
  warning: { background: '#3a321a', color: 'var(--warn)', padding: '2px 6px', borderRadius: 4 },
  box: (color: string): CSSProperties => ({
    borderLeft: `3px solid ${color}`,
    padding: '2px 6px',
    background: 'var(--bg)',
    borderRadius: 4,
  }),
  input: { background: 'var(--panel)', color: 'var(--text)', border: '1px solid var(--border)', borderRadius: 4, padding: 4 },
} satisfies Record<string, CSSProperties | ((c: string) => CSSProperties)>;

export function TaskPanel({ process }: { process: ProcessInfo }) {
  return process.task ? <TaskDetails process={process} task={process.task} /> : null;
}

function TaskDetails({ process, task }: { process: ProcessInfo; task: TaskInfo }) {
  const look = PHASE_LOOK[task.phase];
  const elapsed = useElapsedMs(task.startedAt, task.endedAt, !task.isEnded);
  return (
    <div style={S.panel} data-testid="task-panel" data-phase={task.phase}>
      <div style={S.row}>
        <span style={{ color: look.color, fontWeight: 600 }} data-testid="task-phase">
          {look.glyph} {task.phase.replace('_', ' ')}
        </span>
        <span data-testid="task-message">{task.message}</span>
        {elapsed !== undefined && (
          <span style={S.muted} data-testid="task-elapsed">
            {formatDuration(elapsed)}
          </span>
        )}
        <span style={S.muted}>
          {plural(task.turns, 'turn')}
          {task.costUsd !== undefined && ` · $${task.costUsd.toFixed(4)}`}
          {task.model && ` · ${task.model}`}
        </span>
        <span style={{ marginLeft: 'auto', display: 'flex', gap: 4 }}>
          {!task.isEnded && (
            <button
              data-testid="task-cancel"
              title="Cancel: end the whole process tree"
              onClick={() => void run((c) => c.call('cancelTask', { id: process.id }))}
            >
              Cancel
            </button>
          )}
        </span>
      </div>
      <div style={{ ...S.muted, ...S.mono }} title={task.prompt}>
        ❯ {task.prompt.length > 200 ? `${task.prompt.slice(0, 199)}…` : task.prompt}
      </div>
      {task.currentTools.length > 0 && (
        <div style={S.row} data-testid="task-tools">
          {task.currentTools.map((t) => (
            <span key={t.id} style={S.mono}>
              ▶ {t.name}
              {t.summary && <span style={S.muted}> {t.summary}</span>} <ToolClock since={t.startedAt} />
            </span>
          ))}
        </div>
      )}
      {task.stallWarning && !task.isEnded && (
        <div style={S.warning} data-testid="task-stall-warning">
          ⚠ {task.stallWarning}
        </div>
      )}
      <StreamedText text={task.text} />
      <TaskOutcome task={task} />
      <Decisions decisions={task.decisions} />
      {task.isEnded && <FollowUp process={process} task={task} />}
    </div>
  );
}

function StreamedText({ text }: { text: string }) {
  const ref = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight; // follow the stream like a terminal
  }, [text]);
  if (!text) return null;
  return (
    <pre ref={ref} style={S.text} data-testid="task-text">
      {text}
    </pre>
  );
}

function TaskOutcome({ task }: { task: TaskInfo }) {
  const [isNoiseOpen, setNoiseOpen] = useState(false);
  if (task.phase === 'done' && task.result) {
    return (
      <div style={S.box('var(--ok)')} data-testid="task-result">
        <div style={S.muted}>
          Result · {plural(task.result.numTurns ?? task.turns, 'turn')}
          {task.result.costUsd !== undefined && ` · $${task.result.costUsd.toFixed(4)}`}
          {task.result.durationMs !== undefined && ` · ${formatDuration(task.result.durationMs)}`}
          {task.usage && ` · ${task.usage.inputTokens} in / ${task.usage.outputTokens} out tokens`}
        </div>
        {task.result.text && <div style={{ whiteSpace: 'pre-wrap' }}>{task.result.text}</div>}
      </div>
    );
  }
  if (!task.error) return null;
  const color = task.phase === 'cancelled' ? 'var(--muted)' : task.phase === 'stalled' ? 'var(--warn)' : 'var(--err)';
  return (
    <div style={S.box(color)} data-testid="task-error">
      <div>{task.error}</div>
      {task.lastActivity && (
        <div style={S.muted}>
          Last activity {new Date(task.lastActivity.at).toLocaleTimeString()}: {task.lastActivity.description}
        </div>
      )}
      {(task.costUsd !== undefined || task.turns > 0) && (
        <div style={S.muted}>
          {plural(task.turns, 'turn')}
          {task.costUsd !== undefined && ` · $${task.costUsd.toFixed(4)}`}
        </div>
      )}
      {task.noiseTail.length > 0 && (
        <>
          <button onClick={() => setNoiseOpen(!isNoiseOpen)} data-testid="task-noise-toggle">
            {isNoiseOpen ? 'hide other output' : `other output (${task.noiseLineCount} lines)`}
          </button>
          {isNoiseOpen && <pre style={S.text}>{task.noiseTail.join('\n')}</pre>}
        </>
      )}
    </div>
  );
}

function Decisions({ decisions }: { decisions: TaskDecision[] }) {
  const [isOpen, setOpen] = useState(false);
  if (decisions.length === 0) return null;
  const shown = isOpen ? decisions : decisions.slice(-1);
  return (
    <div data-testid="task-decisions">
      {shown.map((d, i) => (
        <div
          key={`${d.at}-${i}`}
          style={{ ...S.mono, color: DECISION_COLORS[d.kind] ?? 'var(--text)' }}
          title={d.rule ? `rule: ${d.rule}` : undefined}
        >
          {new Date(d.at).toLocaleTimeString()} {d.kind}
          {d.trigger && ` (${d.trigger.replace('_', ' ')})`}: <span style={{ color: 'var(--text)' }}>{d.reason}</span>
        </div>
      ))}
      {decisions.length > 1 && (
        <button onClick={() => setOpen(!isOpen)} data-testid="task-decisions-toggle">
          {isOpen ? 'last decision only' : `all ${decisions.length} decisions`}
        </button>
      )}
    </div>
  );
}

/** Continue the conversation of an ended task (same session), as a new task entry. */
function FollowUp({ process, task }: { process: ProcessInfo; task: TaskInfo }) {
  const [prompt, setPrompt] = useState('');
  if (!task.sessionId) return null;
  const submit = async () => {
    if (!prompt.trim()) return;
    const request: TaskRequest = {
      prompt: prompt.trim(),
      cwd: task.cwd,
      resumeSessionId: task.sessionId,
      ...(task.maxTurns !== undefined ? { maxTurns: task.maxTurns } : {}),
      ...(task.maxBudgetUsd !== undefined ? { maxBudgetUsd: task.maxBudgetUsd } : {}),
      ...(task.allowedTools ? { allowedTools: task.allowedTools } : {}),
      ...(task.permissionMode ? { permissionMode: task.permissionMode } : {}),
      timeouts: {
        idleSeconds: task.timeouts.idleMs / 1000,
        turnSeconds: task.timeouts.turnMs / 1000,
        wallClockSeconds: task.timeouts.wallClockMs / 1000,
      },
      name: `${process.name} (follow-up)`,
    };
    const created = await run((c) => c.call('startTask', request));
    if (created) {
      setPrompt('');
      useUi.getState().focus(created.taskId);
    }
  };
  return (
    <form
      style={S.row}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      data-testid="task-follow-up"
    >
      <input
        style={{ ...S.input, flex: 1 }}
        placeholder="Follow-up in the same session…"
        value={prompt}
        onChange={(e) => setPrompt(e.target.value)}
      />
      <button type="submit" disabled={!prompt.trim()}>
        Continue
      </button>
    </form>
  );
}

/**
 * A form to start a new task (prompt, working directory, limits, watchdog timeouts, opt-in second
 * opinion). Ready to mount wherever the app offers "add"; calls the same startTask as MCP.
 */
export function NewTaskForm({ onStarted }: { onStarted?: (taskId: string) => void }) {
  const [prompt, setPrompt] = useState('');
  const [cwd, setCwd] = useState('');
  const [maxTurns, setMaxTurns] = useState('');
  const [idleSeconds, setIdleSeconds] = useState('');
  const [isSecondOpinion, setSecondOpinion] = useState(false);
  const submit = async () => {
    const request: TaskRequest = {
      prompt: prompt.trim(),
      ...(cwd.trim() ? { cwd: cwd.trim() } : {}),
      ...(Number(maxTurns) > 0 ? { maxTurns: Math.floor(Number(maxTurns)) } : {}),
      ...(Number(idleSeconds) > 0 ? { timeouts: { idleSeconds: Number(idleSeconds) } } : {}),
      ...(isSecondOpinion ? { secondOpinion: { enabled: true } } : {}),
    };
    const created = await run((c) => c.call('startTask', request));
    if (created) {
      setPrompt('');
      useUi.getState().focus(created.taskId);
      onStarted?.(created.taskId);
    }
  };
  return (
    <form
      style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      data-testid="new-task"
    >
      <textarea
        style={S.input}
        rows={3}
        placeholder="Task for a headless Claude Code run…"
        value={prompt}
        onChange={(e) => setPrompt(e.target.value)}
      />
      <div style={S.row}>
        <input style={{ ...S.input, flex: 1 }} placeholder="working dir (project)" value={cwd} onChange={(e) => setCwd(e.target.value)} />
        <input style={{ ...S.input, width: 70 }} placeholder="max turns" value={maxTurns} onChange={(e) => setMaxTurns(e.target.value)} />
        <input
          style={{ ...S.input, width: 70 }}
          placeholder="idle s (180)"
          value={idleSeconds}
          onChange={(e) => setIdleSeconds(e.target.value)}
        />
        <label title="Ask a fast model before declaring a stall (off by default)">
          <input type="checkbox" checked={isSecondOpinion} onChange={(e) => setSecondOpinion(e.target.checked)} /> 2nd opinion
        </label>
        <button type="submit" disabled={!prompt.trim()}>
          Start task
        </button>
      </div>
    </form>
  );
}

function ToolClock({ since }: { since: number }) {
  const elapsed = useElapsedMs(since, undefined, true);
  return <span style={{ color: 'var(--muted)' }}>{formatDuration(elapsed ?? 0)}</span>;
}

/** Milliseconds from `since` to `until` (or now, ticking every second while `isLive`). */
function useElapsedMs(since: number | undefined, until: number | undefined, isLive: boolean): number | undefined {
  const now = useNow(isLive);
  if (since === undefined) return undefined;
  return Math.max(0, (until ?? (isLive ? now : Date.now())) - since);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function formatDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}
