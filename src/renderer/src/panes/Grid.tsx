import { useRef, type DragEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useUi } from '../app/store';
import { Pane } from './Pane';
import { FirstRun } from '../projects/FirstRun';
import { GroupTabs } from './GroupTabs';
import { arrangedIds, isInGroup } from './view';

export function Grid() {
  const ids = useUi(useShallow((s) => arrangedIds(s.order, s.processes, s.view).filter((id) => isShown(id, s))));
  const hasEntries = useUi((s) => s.order.length > 0);
  const maximizedId = useUi((s) => s.maximizedId);
  const columnWeights = useUi((s) => s.view.columnWeights);
  if (!hasEntries) return <FirstRun />;
  const columns = columnWeights.length > 0 && !maximizedId ? columnWeights.map((w) => `minmax(0, ${w}fr)`).join(' ') : undefined;
  // Maximising hides the other panes; hidden panes detach their terminals and attach again when shown.
  return (
    <div className="grid-area">
      <GroupTabs />
      <div className="grid-frame">
        <main
          className={`grid${maximizedId ? ' has-maximized' : ''}`}
          data-testid="grid"
          style={columns ? { gridTemplateColumns: columns } : undefined}
        >
          {ids.map((id) => (
            <div key={id} className={`cell${maximizedId === id ? ' maximized' : ''}${maximizedId && maximizedId !== id ? ' hidden' : ''}`}>
              <Pane id={id} />
            </div>
          ))}
        </main>
        {columns && <ColumnSplitters weights={columnWeights} />}
      </div>
    </div>
  );
}

function isShown(id: string, s: ReturnType<typeof useUi.getState>): boolean {
  const process = s.processes[id];
  return process !== undefined && isInGroup(process, s.view.group, s.view);
}

/** Narrowest a column may be dragged, as a share of the grid. */
const MIN_COLUMN_SHARE = 0.1;

/** Handles between fixed columns: dragging one moves width between its two neighbours. */
function ColumnSplitters({ weights }: { weights: number[] }) {
  const frame = useRef<HTMLDivElement>(null);
  const total = weights.reduce((a, b) => a + b, 0);
  let running = 0;
  const positions = weights.slice(0, -1).map((w) => (running += w) / total);
  const startDrag = (index: number) => (event: ReactPointerEvent) => {
    const width = frame.current?.parentElement?.getBoundingClientRect().width ?? 0;
    if (width <= 0) return;
    event.preventDefault();
    const startX = event.clientX;
    const start = [...weights];
    const onMove = (move: PointerEvent) => {
      const pair = (start[index] ?? 0) + (start[index + 1] ?? 0);
      const shift = ((move.clientX - startX) / width) * total;
      const minWeight = MIN_COLUMN_SHARE * total;
      const left = Math.min(pair - minWeight, Math.max(minWeight, (start[index] ?? 0) + shift));
      const next = [...start];
      next[index] = round(left);
      next[index + 1] = round(pair - left);
      useUi.getState().updateView({ columnWeights: next });
    };
    const onUp = () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
  };
  return (
    <div className="column-splitters" ref={frame}>
      {positions.map((at, i) => (
        <div
          key={i}
          className="column-splitter"
          role="separator"
          aria-orientation="vertical"
          aria-label={`Resize columns ${i + 1} and ${i + 2}`}
          data-testid="column-splitter"
          style={{ left: `${at * 100}%` }}
          onPointerDown={startDrag(i)}
          onDragOver={(e: DragEvent) => e.preventDefault()}
        />
      ))}
    </div>
  );
}

function round(weight: number): number {
  return Math.round(weight * 1000) / 1000;
}
