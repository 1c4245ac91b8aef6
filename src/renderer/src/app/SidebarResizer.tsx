import type { KeyboardEvent, PointerEvent as ReactPointerEvent } from 'react';
import { MAX_SIDEBAR_WIDTH_PX, MIN_SIDEBAR_WIDTH_PX } from '../../../shared/uiState';
import { useUi } from './store';

/** Arrow keys move the edge by this much. */
const KEY_STEP_PX = 16;

function setWidth(width: number): void {
  useUi.getState().updateView({ sidebarWidth: Math.round(Math.min(MAX_SIDEBAR_WIDTH_PX, Math.max(MIN_SIDEBAR_WIDTH_PX, width))) });
}

/** The sidebar's right edge: drag it (or focus it and use the arrow keys) to resize. */
export function SidebarResizer() {
  const width = useUi((s) => s.view.sidebarWidth);
  const startDrag = (event: ReactPointerEvent) => {
    event.preventDefault();
    const startX = event.clientX;
    const onMove = (move: PointerEvent) => setWidth(width + move.clientX - startX);
    const onUp = () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowLeft') setWidth(width - KEY_STEP_PX);
    else if (event.key === 'ArrowRight') setWidth(width + KEY_STEP_PX);
  };
  return (
    <div
      className="sidebar-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label="Sidebar width"
      aria-valuenow={width}
      aria-valuemin={MIN_SIDEBAR_WIDTH_PX}
      aria-valuemax={MAX_SIDEBAR_WIDTH_PX}
      tabIndex={0}
      data-testid="sidebar-resizer"
      onPointerDown={startDrag}
      onKeyDown={onKey}
    />
  );
}
