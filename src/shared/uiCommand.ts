/**
 * Commands the desktop shell's menu sends to the window (the renderer acts on its own view state:
 * the focused terminal, font size, sidebar). They travel as a `uiCommand` control event.
 */
export type UiCommand = 'terminalSelectAll' | 'terminalZoomIn' | 'terminalZoomOut' | 'terminalZoomReset' | 'toggleSidebar';
