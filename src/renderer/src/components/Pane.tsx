import { useEffect, useRef, useState } from 'react';
import { panes, TerminalPane } from '../terminalPane';
import { run, useUi } from '../store';
import { StatusBadges } from './StatusBadges';
import { TaskPanel } from './TaskPanel';
import { ScopeButton, ScopePanel } from './ScopeMenu';
import { MOD_LABEL } from '../shortcuts';

export function Pane({ id }: { id: string }) {
  const process = useUi((s) => s.processes[id]);
  const client = useUi((s) => s.client);
  const isFocused = useUi((s) => s.focusedId === id);
  const isMaximized = useUi((s) => s.maximizedId === id);
  const screenReaderMode = useUi((s) => s.screenReaderMode);
  const container = useRef<HTMLDivElement>(null);
  const [showScopes, setShowScopes] = useState(false);

  useEffect(() => {
    if (!client || !container.current) return;
    const pane = new TerminalPane(id, client);
    panes.set(id, pane);
    void pane.mount(container.current);
    return () => {
      panes.delete(id);
      pane.dispose();
    };
  }, [id, client]);

  useEffect(() => {
    if (isFocused) panes.get(id)?.focus();
  }, [isFocused, id]);

  useEffect(() => {
    const pane = panes.get(id);
    if (pane) pane.term.options.screenReaderMode = screenReaderMode;
  }, [screenReaderMode, id]);

  if (!process) return null;
  const isRunning = process.pid !== undefined;
  const key = process.configName ? `${process.kind === 'agent' ? 'agents' : 'processes'}.${process.configName}` : undefined;
  // An untrusted entry's Start shows what it would run first; trusting there starts it.
  const start = () =>
    process.trust && key ? useUi.getState().openTrustPrompt({ keys: [key], startId: id }) : void run((c) => c.call('startProcess', { id }));
  const acknowledge = () => process.attention && void run((c) => c.call('acknowledgeAttention', { id }));
  return (
    <section
      className={`pane${isFocused ? ' focused' : ''}${process.attention ? ' needs-attention' : ''}`}
      aria-label={`${process.name} (${process.kind})`}
      data-testid="pane"
      data-id={id}
      data-name={process.name}
      onMouseDown={() => {
        useUi.getState().focus(id);
        acknowledge();
      }}
    >
      <header className="pane-header">
        <span className="pane-name" title={process.argv.join(' ')}>
          {process.name}
        </span>
        <span className="pane-kind">{process.kind}</span>
        <StatusBadges process={process} />
        <ScopeButton process={process} isOpen={showScopes} onToggle={() => setShowScopes(!showScopes)} />
        <span className="pane-actions">
          {isRunning ? (
            <button
              title="Stop"
              aria-label={`Stop ${process.name}`}
              data-testid="stop"
              onClick={() => void run((c) => c.call('stopProcess', { id }))}
            >
              ■
            </button>
          ) : (
            <>
              {process.session?.resumable && (
                <button
                  className="resume"
                  title="Resume the last conversation"
                  aria-label={`Resume ${process.name}`}
                  data-testid="resume"
                  onClick={() => void run((c) => c.call('resumeProcess', { id }))}
                >
                  Resume
                </button>
              )}
              <button
                title={process.trust ? 'Review and start' : process.session?.resumable ? 'Start a new conversation' : 'Start'}
                aria-label={`${process.trust ? 'Review and start' : process.session?.resumable ? 'Start a new conversation for' : 'Start'} ${process.name}`}
                data-testid="start"
                onClick={start}
              >
                ▶
              </button>
            </>
          )}
          {isRunning && process.kind !== 'task' && (
            <button
              title="New timer"
              aria-label={`New timer for ${process.name}`}
              data-testid="new-timer"
              onClick={() => useUi.getState().setOverlay({ kind: 'timer', ownerId: id })}
            >
              ◷+
            </button>
          )}
          <button
            title="Restart"
            aria-label={`Restart ${process.name}`}
            data-testid="restart"
            disabled={process.trust !== undefined}
            onClick={() => void run((c) => c.call('restartProcess', { id }))}
          >
            ↻
          </button>
          <button
            title={`${isMaximized ? 'Restore' : 'Maximise'} (${MOD_LABEL}+Shift+Enter)`}
            aria-label={`${isMaximized ? 'Restore' : 'Maximise'} ${process.name}`}
            aria-pressed={isMaximized}
            data-testid="maximize"
            onClick={() => useUi.getState().toggleMaximize(id)}
          >
            {isMaximized ? '⤡' : '⤢'}
          </button>
          <button
            title="Close"
            aria-label={`Close ${process.name}`}
            data-testid="close"
            onClick={() => void run((c) => c.call('closeProcess', { id }))}
          >
            ✕
          </button>
        </span>
      </header>
      {process.state === 'error' && (
        <ErrorBar message={process.message} logs={process.readiness?.phase === 'error' ? process.readiness.logs : undefined} />
      )}
      {showScopes && <ScopePanel process={process} />}
      {process.kind === 'task' && <TaskPanel process={process} />}
      <div className="pane-terminal" ref={container} aria-label={`Terminal of ${process.name}`} role="group" />
    </section>
  );
}

/** The failure in one line; the last lines of output one click away. */
function ErrorBar({ message, logs }: { message: string; logs?: string[] }) {
  const [isOpen, setOpen] = useState(false);
  return (
    <div className="pane-error" data-testid="pane-error">
      <span>{message}</span>
      {logs && logs.length > 0 && (
        <button className="logs-toggle" data-testid="logs-toggle" onClick={() => setOpen(!isOpen)}>
          {isOpen ? 'hide lines' : 'last lines'}
        </button>
      )}
      {isOpen && logs && (
        <pre className="pane-logs" data-testid="pane-logs">
          {logs.join('\n')}
        </pre>
      )}
    </div>
  );
}
