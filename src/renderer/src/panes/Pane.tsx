import { useEffect, useRef, useState, type DragEvent } from 'react';
import { panes, TerminalPane } from '../terminal/terminalPane';
import { run, useUi } from '../app/store';
import { StatusBadges } from './StatusBadges';
import { TaskPanel } from '../tasks/TaskPanel';
import { ContinueAtResetToggle } from './ContinueAtResetToggle';
import { BudgetButton } from '../budget/BudgetButton';
import { ScopeButton, ScopePanel } from '../trust/ScopeMenu';
import { FindBar } from '../terminal/FindBar';
import { GlyphLabel } from '../common/GlyphLabel';
import { fontSizeOf, layoutKeyOf } from './view';
import { setPaneFontSize } from '../app/uiCommands';
import { currentThemeName } from '../terminal/themeController';
import { PANE_DRAG_TYPE, dropPaneOn } from './paneDrag';

/** Panes this far outside the visible grid keep their terminal, so scrolling does not thrash. */
const ATTACH_MARGIN = '50% 0px';
import { withChord } from '../app/shortcuts';
import { configKeyOf } from '../../../shared/configKey';
import { useWorktrees } from '../worktrees/worktrees';

export function Pane({ id }: { id: string }) {
  const process = useUi((s) => s.processes[id]);
  const client = useUi((s) => s.client);
  const isFocused = useUi((s) => s.focusedId === id);
  const isMaximized = useUi((s) => s.maximizedId === id);
  const layoutKey = process ? layoutKeyOf(process) : id;
  const isCollapsed = useUi((s) => s.view.collapsed.includes(layoutKey));
  const fontSize = useUi((s) => fontSizeOf(s.view, layoutKey));
  const hasOwnZoom = useUi((s) => s.view.paneFontSizes[layoutKey] !== undefined);
  const isFindOpen = useUi((s) => s.findPaneId === id);
  const keepMounted = useUi((s) => s.keepAllPanesMounted);
  const section = useRef<HTMLElement>(null);
  const screenReaderMode = useUi((s) => s.screenReaderMode);
  const container = useRef<HTMLDivElement>(null);
  const [showScopes, setShowScopes] = useState(false);
  const isNearView = useNearViewport(section, !keepMounted);
  const hasTerminal = !isCollapsed && (keepMounted || isNearView);

  // A pane out of view has no terminal: the core keeps its screen, and showing it attaches again.
  useEffect(() => {
    if (!client || !container.current || !hasTerminal) return;
    const ui = useUi.getState();
    const entry = ui.processes[id];
    const pane = new TerminalPane(id, client, {
      fontSize: entry ? fontSizeOf(ui.view, layoutKeyOf(entry)) : ui.view.fontSize,
      theme: currentThemeName(),
      copyOnSelect: () => useUi.getState().view.copyOnSelect,
    });
    panes.set(id, pane);
    void pane.mount(container.current);
    // A focused pane that comes back into view takes the keyboard again.
    if (useUi.getState().focusedId === id) pane.focus();
    return () => {
      panes.delete(id);
      pane.dispose();
    };
  }, [id, client, hasTerminal]);

  useEffect(() => {
    if (isFocused) panes.get(id)?.focus();
  }, [isFocused, id]);

  useEffect(() => {
    const pane = panes.get(id);
    if (pane) pane.term.options.screenReaderMode = screenReaderMode;
  }, [screenReaderMode, id]);

  if (!process) return null;
  const { updateView } = useUi.getState();
  const toggleCollapsed = () => {
    const collapsed = useUi.getState().view.collapsed;
    updateView({ collapsed: isCollapsed ? collapsed.filter((k) => k !== layoutKey) : [...collapsed, layoutKey] });
  };
  const isRunning = process.pid !== undefined;
  const key = process.configName ? configKeyOf(process.kind, process.configName) : undefined;
  // An untrusted entry's Start shows what it would run first; trusting there starts it.
  const start = () =>
    process.trust && key ? useUi.getState().openTrustPrompt({ keys: [key], startId: id }) : void run((c) => c.call('startProcess', { id }));
  const acknowledge = () => process.attention && void run((c) => c.call('acknowledgeAttention', { id }));
  return (
    <section
      ref={section}
      className={`pane${isFocused ? ' focused' : ''}${process.attention ? ' needs-attention' : ''}${isCollapsed ? ' collapsed' : ''}`}
      data-testid="pane"
      data-id={id}
      data-name={process.name}
      data-key={layoutKey}
      data-attached={hasTerminal}
      aria-label={`${process.name} (${process.kind})`}
      onMouseDown={() => {
        useUi.getState().focus(id);
        acknowledge();
      }}
      onDragOver={(e: DragEvent) => {
        if (e.dataTransfer.types.includes(PANE_DRAG_TYPE)) e.preventDefault();
      }}
      onDrop={(e: DragEvent) => {
        const moved = e.dataTransfer.getData(PANE_DRAG_TYPE);
        if (!moved) return;
        e.preventDefault();
        dropPaneOn(moved, layoutKey);
      }}
    >
      <header
        className="pane-header"
        draggable
        title="Drag to move this pane"
        data-testid="pane-header"
        onDragStart={(e: DragEvent) => {
          e.dataTransfer.setData(PANE_DRAG_TYPE, layoutKey);
          e.dataTransfer.effectAllowed = 'move';
        }}
      >
        <button
          className="collapse-toggle"
          aria-expanded={!isCollapsed}
          aria-label={isCollapsed ? `Expand ${process.name}` : `Collapse ${process.name} to its header`}
          title={isCollapsed ? 'Expand' : 'Collapse to header'}
          data-testid="collapse"
          onClick={toggleCollapsed}
        >
          {isCollapsed ? '▸' : '▾'}
        </button>
        <span className="pane-name" title={process.argv.join(' ')}>
          {process.name}
        </span>
        {process.worktree && <PaneWorktree worktree={process.worktree} />}
        <span className="pane-kind">{process.kind}</span>
        {process.host && (
          <span className="pane-host" data-testid="pane-host" title={`Runs on ${process.host} (over ssh)`}>
            {process.host}
          </span>
        )}
        <StatusBadges process={process} />
        <ScopeButton process={process} isOpen={showScopes} onToggle={() => setShowScopes(!showScopes)} />
        <span className="pane-actions">
          <button
            aria-label={`Find in ${process.name}`}
            title={withChord('Find', 'find')}
            data-testid="find"
            disabled={!hasTerminal}
            onClick={() => useUi.setState({ findPaneId: isFindOpen ? undefined : id })}
          >
            ⌕
          </button>
          <button title="Zoom out this pane" data-testid="zoom-out" onClick={() => setPaneFontSize(id, fontSize - 1)}>
            <GlyphLabel glyph="A−" label={`Smaller text in ${process.name}`} />
          </button>
          <button
            aria-label={
              hasOwnZoom
                ? `Text size ${fontSize} in ${process.name}: back to the global size`
                : `Text size ${fontSize} in ${process.name} (global)`
            }
            title={hasOwnZoom ? 'This pane has its own zoom: click for the global size' : 'Global text size'}
            className={hasOwnZoom ? 'zoom-size own' : 'zoom-size'}
            data-testid="zoom-size"
            onClick={() => setPaneFontSize(id, undefined)}
          >
            {fontSize}
          </button>
          <button title="Zoom in this pane" data-testid="zoom-in" onClick={() => setPaneFontSize(id, fontSize + 1)}>
            <GlyphLabel glyph="A+" label={`Larger text in ${process.name}`} />
          </button>
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
          <ContinueAtResetToggle process={process} />
          <BudgetButton process={process} />
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
            title={withChord(isMaximized ? 'Restore' : 'Maximise', 'maximize')}
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
      {isFindOpen && hasTerminal && <FindBar id={id} />}
      {showScopes && <ScopePanel process={process} />}
      {!isCollapsed && process.kind === 'task' && <TaskPanel process={process} />}
      {!isCollapsed && (
        <div
          className="pane-terminal"
          ref={container}
          data-testid="pane-terminal"
          aria-label={`Terminal of ${process.name}`}
          role="group"
        />
      )}
    </section>
  );
}

/** Whether the element is on screen or within ATTACH_MARGIN of it (always true when not `enabled`). */
function useNearViewport(element: React.RefObject<HTMLElement | null>, enabled: boolean): boolean {
  const [isNear, setNear] = useState(false);
  useEffect(() => {
    const target = element.current;
    if (!enabled || !target) return;
    // The grid scrolls, so the margin is measured around it (the viewport's margin would be clipped by it).
    const root = target.closest('.grid');
    // The last entry is the current state when the pane crossed the margin more than once between callbacks.
    const observer = new IntersectionObserver((entries) => setNear(entries.at(-1)?.isIntersecting ?? false), {
      root,
      rootMargin: ATTACH_MARGIN,
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [element, enabled]);
  return isNear;
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

/** The worktree an entry runs in, so two panes named `web` are told apart; its branch on hover. */
function PaneWorktree({ worktree }: { worktree: string }) {
  const branch = useWorktrees((s) => s.list.find((w) => w.id === worktree)?.branch);
  return (
    <span
      className="pane-worktree"
      data-testid="pane-worktree"
      title={`Runs in worktree ${worktree}${branch ? ` (branch ${branch})` : ''}`}
    >
      ⎇ {worktree}
    </span>
  );
}
