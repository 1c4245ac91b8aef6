/** Menu commands from the desktop shell, acted on in the window's own view state. */
import type { UiCommand } from '../../shared/uiCommand';
import { useUi } from './store';
import { panes } from './terminalPane';

export const DEFAULT_TERMINAL_FONT_SIZE = 13;
/** Readable bounds: below 8 px glyphs blur, above 32 px a pane holds a few words per line. */
export const MIN_TERMINAL_FONT_SIZE = 8;
export const MAX_TERMINAL_FONT_SIZE = 32;

export function applyUiCommand(command: UiCommand): void {
  const ui = useUi.getState();
  switch (command) {
    case 'terminalSelectAll':
      if (ui.focusedId) panes.get(ui.focusedId)?.term.selectAll();
      break;
    case 'terminalZoomIn':
      return setFontSize(ui.terminalFontSize + 1);
    case 'terminalZoomOut':
      return setFontSize(ui.terminalFontSize - 1);
    case 'terminalZoomReset':
      return setFontSize(DEFAULT_TERMINAL_FONT_SIZE);
    case 'toggleSidebar':
      useUi.setState({ isSidebarHidden: !ui.isSidebarHidden });
      break;
  }
}

function setFontSize(size: number): void {
  const clamped = Math.min(MAX_TERMINAL_FONT_SIZE, Math.max(MIN_TERMINAL_FONT_SIZE, size));
  useUi.setState({ terminalFontSize: clamped });
  for (const pane of panes.values()) pane.setFontSize(clamped);
}
