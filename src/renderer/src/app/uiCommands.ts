/** Menu commands from the desktop shell, acted on in the window's own view state. */
import type { UiCommand } from '../../../shared/uiCommand';
import { useUi } from './store';
import { panes } from '../terminal/terminalPane';
import { DEFAULT_TERMINAL_FONT_SIZE_PX, clampFontSize, fontSizeOf, layoutKeyOf } from '../panes/view';

export function applyUiCommand(command: UiCommand): void {
  const ui = useUi.getState();
  switch (command) {
    case 'terminalSelectAll': {
      // Select All acts where the keyboard is: on macOS Cmd+A in a text field reaches the menu.
      const field = focusedTextField();
      if (field) field.select();
      else if (ui.focusedId) panes.get(ui.focusedId)?.term.selectAll();
      break;
    }
    case 'terminalZoomIn':
      return setGlobalFontSize(ui.view.fontSize + 1);
    case 'terminalZoomOut':
      return setGlobalFontSize(ui.view.fontSize - 1);
    case 'terminalZoomReset':
      return setGlobalFontSize(DEFAULT_TERMINAL_FONT_SIZE_PX);
    case 'toggleSidebar':
      useUi.setState({ isSidebarHidden: !ui.isSidebarHidden });
      break;
  }
}

/** The app's own text field that has the keyboard (find, palette, forms), not a terminal's input. */
function focusedTextField(): HTMLInputElement | HTMLTextAreaElement | undefined {
  const active = document.activeElement;
  const isField = active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement;
  return isField && !active.closest('.xterm') ? active : undefined;
}

/** Every terminal without a zoom of its own follows the global size. */
function setGlobalFontSize(size: number): void {
  useUi.getState().updateView({ fontSize: clampFontSize(size) });
  applyFontSizes();
}

/** One pane's zoom; `undefined` returns it to the global size. */
export function setPaneFontSize(id: string, size: number | undefined): void {
  const { processes, view, updateView } = useUi.getState();
  const process = processes[id];
  if (!process) return;
  const { [layoutKeyOf(process)]: _previous, ...others } = view.paneFontSizes;
  updateView({ paneFontSizes: size === undefined ? others : { ...others, [layoutKeyOf(process)]: clampFontSize(size) } });
  applyFontSizes();
}

function applyFontSizes(): void {
  const { processes, view } = useUi.getState();
  for (const [id, pane] of panes) {
    const process = processes[id];
    if (process) pane.setFontSize(fontSizeOf(view, layoutKeyOf(process)));
  }
}
