/**
 * The application menu, built from plain data so it can be tested without Electron: the platform's
 * standard roles (Edit roles make Cmd+C / Cmd+V work at all on macOS) plus Switchboard's commands.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { UiCommand } from '../../shared/uiCommand';

export interface RecentProject {
  name: string;
  dir: string;
}

export interface MenuModel {
  platform: NodeJS.Platform;
  appName: string;
  /** Developer tools only in development builds. */
  isDevelopment: boolean;
  hasOpenProject: boolean;
  recentProjects: readonly RecentProject[];
}

export interface MenuActions {
  openFolder(): void;
  openRecent(dir: string): void;
  closeProject(): void;
  showSettings(): void;
  /** A command for the window: terminal selection and zoom, sidebar. */
  sendToWindow(command: UiCommand): void;
  copyMcpConnectLine(): void;
  openDocs(): void;
}

/** Most recent projects listed under File › Open Recent. */
export const MAX_RECENT_IN_MENU = 10;

export function buildMenuTemplate(model: MenuModel, actions: MenuActions): MenuItemConstructorOptions[] {
  const isMac = model.platform === 'darwin';
  return [
    ...(isMac ? [appMenu(model, actions)] : []),
    fileMenu(model, actions, isMac),
    editMenu(actions),
    viewMenu(model, actions),
    { role: 'windowMenu' },
    helpMenu(actions),
  ];
}

function appMenu(model: MenuModel, actions: MenuActions): MenuItemConstructorOptions {
  return {
    label: model.appName,
    submenu: [
      { role: 'about' },
      { type: 'separator' },
      { label: 'Settings…', accelerator: 'CmdOrCtrl+,', click: () => actions.showSettings() },
      { type: 'separator' },
      { role: 'services' },
      { type: 'separator' },
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      { type: 'separator' },
      { role: 'quit' },
    ],
  };
}

function fileMenu(model: MenuModel, actions: MenuActions, isMac: boolean): MenuItemConstructorOptions {
  const recent = model.recentProjects.slice(0, MAX_RECENT_IN_MENU);
  return {
    label: 'File',
    submenu: [
      { label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', click: () => actions.openFolder() },
      {
        label: 'Open Recent',
        enabled: recent.length > 0,
        submenu: recent.map((p) => ({ label: `${p.name} — ${p.dir}`, click: () => actions.openRecent(p.dir) })),
      },
      { type: 'separator' },
      { label: 'Close Project', enabled: model.hasOpenProject, click: () => actions.closeProject() },
      ...(isMac
        ? []
        : ([
            { type: 'separator' },
            { label: 'Settings…', accelerator: 'Ctrl+,', click: () => actions.showSettings() },
            { type: 'separator' },
            { role: 'quit' },
          ] as const)),
    ],
  };
}

/** Cut/copy/paste act on the focused terminal (xterm handles the DOM copy and paste events,
 *  paste as a bracketed paste); Select All selects the terminal's buffer, not the page. */
function editMenu(actions: MenuActions): MenuItemConstructorOptions {
  return {
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { label: 'Select All', accelerator: 'CmdOrCtrl+A', click: () => actions.sendToWindow('terminalSelectAll') },
    ],
  };
}

function viewMenu(model: MenuModel, actions: MenuActions): MenuItemConstructorOptions {
  return {
    label: 'View',
    submenu: [
      { label: 'Zoom In', accelerator: 'CmdOrCtrl+=', click: () => actions.sendToWindow('terminalZoomIn') },
      { label: 'Zoom Out', accelerator: 'CmdOrCtrl+-', click: () => actions.sendToWindow('terminalZoomOut') },
      { label: 'Actual Size', accelerator: 'CmdOrCtrl+0', click: () => actions.sendToWindow('terminalZoomReset') },
      { type: 'separator' },
      { label: 'Toggle Sidebar', accelerator: 'CmdOrCtrl+Shift+B', click: () => actions.sendToWindow('toggleSidebar') },
      { role: 'togglefullscreen' },
      ...(model.isDevelopment ? ([{ type: 'separator' }, { role: 'reload' }, { role: 'toggleDevTools' }] as const) : []),
    ],
  };
}

function helpMenu(actions: MenuActions): MenuItemConstructorOptions {
  return {
    role: 'help',
    submenu: [
      { label: 'Switchboard Documentation', click: () => actions.openDocs() },
      { label: 'Copy MCP Connection Line', click: () => actions.copyMcpConnectLine() },
    ],
  };
}
