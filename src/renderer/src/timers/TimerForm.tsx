/**
 * A new timer for an entry, from its pane or the palette: a delay, or when agents are idle (any of
 * them finishing a turn, or all at once) with an optional max wait. It calls `setTimer`, which
 * runs the same TimerManager methods as the MCP timer tools.
 */
import { useId, useState } from 'react';
import type { CommandArgsOf } from '../../../shared/api';
import { useUi } from '../app/store';
import { OverlayDialog } from '../common/Overlay';

type Kind = 'delay' | 'idle_any' | 'idle_all';

const KIND_LABELS: Record<Kind, string> = {
  delay: 'After a delay',
  idle_any: 'When any watched agent finishes a turn',
  idle_all: 'When all watched agents are idle',
};

export function TimerForm({ ownerId }: { ownerId: string }) {
  const owner = useUi((s) => s.processes[ownerId]);
  const processes = useUi((s) => s.processes);
  const order = useUi((s) => s.order);
  const client = useUi((s) => s.client);
  const agents = order.map((id) => processes[id]).filter((p) => p?.kind === 'agent' && p.id !== ownerId);
  const [kind, setKind] = useState<Kind>('delay');
  const [body, setBody] = useState('');
  const [label, setLabel] = useState('');
  const [minutes, setMinutes] = useState('5');
  const [watched, setWatched] = useState<string[]>([]);
  const [maxWaitMinutes, setMaxWaitMinutes] = useState('');
  const [problem, setProblem] = useState<string>();
  const ids = { body: useId(), label: useId(), delay: useId(), maxWait: useId(), kind: useId() };
  if (!owner) return null;

  const submit = async () => {
    if (!client) return;
    const common = { ownerId, body, ...(label.trim() ? { label: label.trim() } : {}) };
    const args: CommandArgsOf<'setTimer'> =
      kind === 'delay'
        ? { kind, ...common, seconds: Number(minutes) * 60 }
        : { kind, ...common, watched, ...(maxWaitMinutes.trim() ? { maxWaitSeconds: Number(maxWaitMinutes) * 60 } : {}) };
    try {
      await client.call('setTimer', args);
      useUi.getState().setOverlay(undefined);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : String(err));
    }
  };

  return (
    <OverlayDialog label={`New timer for ${owner.name}`} testId="timer-form" className="timer-form">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <header className="overlay-header">
          <h2>New timer for {owner.name}</h2>
        </header>
        <p className="form-hint">The body is typed into {owner.name} as a user turn when the timer fires, once it is at its prompt.</p>
        <label htmlFor={ids.kind}>Fires</label>
        <select id={ids.kind} data-testid="timer-kind" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
          {(Object.keys(KIND_LABELS) as Kind[]).map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k]}
            </option>
          ))}
        </select>
        {kind === 'delay' ? (
          <>
            <label htmlFor={ids.delay}>Delay (minutes)</label>
            <input
              id={ids.delay}
              data-testid="timer-delay"
              type="number"
              min="0"
              step="any"
              required
              value={minutes}
              onChange={(e) => setMinutes(e.target.value)}
            />
          </>
        ) : (
          <>
            <fieldset data-testid="timer-watched">
              <legend>Watched agents</legend>
              {agents.length === 0 && <p className="form-hint">No other agent to watch.</p>}
              {agents.map((a) => (
                <label key={a.id} className="check">
                  <input
                    type="checkbox"
                    checked={watched.includes(a.id)}
                    onChange={(e) => setWatched(e.target.checked ? [...watched, a.id] : watched.filter((w) => w !== a.id))}
                  />
                  {a.name}
                </label>
              ))}
            </fieldset>
            <label htmlFor={ids.maxWait}>Max wait (minutes, optional)</label>
            <input
              id={ids.maxWait}
              data-testid="timer-max-wait"
              type="number"
              min="0"
              step="any"
              value={maxWaitMinutes}
              onChange={(e) => setMaxWaitMinutes(e.target.value)}
            />
          </>
        )}
        <label htmlFor={ids.body}>Body</label>
        <textarea id={ids.body} data-testid="timer-body" required rows={4} value={body} onChange={(e) => setBody(e.target.value)} />
        <label htmlFor={ids.label}>Label (optional)</label>
        <input id={ids.label} data-testid="timer-label" value={label} onChange={(e) => setLabel(e.target.value)} />
        {problem && (
          <p role="alert" className="form-problem" data-testid="timer-problem">
            {problem}
          </p>
        )}
        <div className="form-actions">
          <button type="button" onClick={() => useUi.getState().setOverlay(undefined)}>
            Cancel
          </button>
          <button type="submit" data-testid="timer-submit">
            Set timer
          </button>
        </div>
      </form>
    </OverlayDialog>
  );
}
