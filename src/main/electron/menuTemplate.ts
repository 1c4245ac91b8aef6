/**
 * The application menu, built from plain data so it can be tested without Electron: the platform's
 * standard roles (Edit roles make Cmd+C / Cmd+V work at all on macOS) plus Switchboard's commands.
 * Every chord comes from the keymap (src/shared/keymap.ts); off macOS only the keymap's `menu`
 * chords are registered, so every other key reaches the page and the terminal in it.
 */
import type { MenuItemConstructorOptions } from 'electron';
import { bindingOf, keymapPlatformOf, type KeyCommand, type KeymapPlatform } from '../../shared/keymap';
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
  const keys = keysFor(keymapPlatformOf(model.platform));
  const isMac = model.platform === 'darwin';
  return [
    ...(isMac ? [appMenu(model, actions, keys)] : []),
    fileMenu(model, actions, keys, isMac),
    editMenu(actions, keys),
    viewMenu(model, actions, keys),
    windowMenu(keys, isMac),
    helpMenu(actions),
  ];
}

type MenuKeys = (command: KeyCommand) => Pick<MenuItemConstructorOptions, 'accelerator' | 'registerAccelerator'>;

/**
 * A menu item's chord from the keymap. Off macOS it is shown, but registered only when the menu is
 * what acts on it (the renderer or the text field acts on the others, where the key arrives);
 * macOS ignores `registerAccelerator` and has no terminal chords among its Cmd ones.
 */
function keysFor(platform: KeymapPlatform): MenuKeys {
  return (command) => {
    const { chords, handler } = bindingOf(platform, command);
    return {
      ...(chords[0] ? { accelerator: chords[0] } : {}),
      ...(platform === 'darwin' ? {} : { registerAccelerator: handler === 'menu' }),
    };
  };
}

function appMenu(model: MenuModel, actions: MenuActions, keys: MenuKeys): MenuItemConstructorOptions {
  return {
    label: model.appName,
    submenu: [
      { role: 'about' },
      { type: 'separator' },
      { label: 'Settings…', ...keys('settings'), click: () => actions.showSettings() },
      { type: 'separator' },
      { role: 'services' },
      { type: 'separator' },
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      { type: 'separator' },
      { role: 'quit', ...keys('quit') },
    ],
  };
}

function fileMenu(model: MenuModel, actions: MenuActions, keys: MenuKeys, isMac: boolean): MenuItemConstructorOptions {
  const recent = model.recentProjects.slice(0, MAX_RECENT_IN_MENU);
  return {
    label: 'File',
    submenu: [
      { label: 'Open Folder…', ...keys('openFolder'), click: () => actions.openFolder() },
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
            { label: 'Settings…', ...keys('settings'), click: () => actions.showSettings() },
            { type: 'separator' },
            { role: 'quit', ...keys('quit') },
          ] as const)),
    ],
  };
}

/** Cut/copy/paste act on the focused terminal (xterm handles the DOM copy and paste events,
 *  paste as a bracketed paste); Select All selects the terminal's buffer, not the page. Copy and
 *  paste show the terminal's chords; undo, redo and cut the text fields' (the terminal has none). */
function editMenu(actions: MenuActions, keys: MenuKeys): MenuItemConstructorOptions {
  return {
    label: 'Edit',
    submenu: [
      { role: 'undo', ...keys('textUndo') },
      { role: 'redo', ...keys('textRedo') },
      { type: 'separator' },
      { role: 'cut', ...keys('textCut') },
      { role: 'copy', ...keys('copy') },
      { role: 'paste', ...keys('paste') },
      { label: 'Select All', ...keys('selectAll'), click: () => actions.sendToWindow('terminalSelectAll') },
    ],
  };
}

function viewMenu(model: MenuModel, actions: MenuActions, keys: MenuKeys): MenuItemConstructorOptions {
  return {
    label: 'View',
    submenu: [
      { label: 'Zoom In', ...keys('zoomIn'), click: () => actions.sendToWindow('terminalZoomIn') },
      { label: 'Zoom Out', ...keys('zoomOut'), click: () => actions.sendToWindow('terminalZoomOut') },
      { label: 'Actual Size', ...keys('zoomReset'), click: () => actions.sendToWindow('terminalZoomReset') },
      { type: 'separator' },
      { label: 'Toggle Sidebar', ...keys('toggleSidebar'), click: () => actions.sendToWindow('toggleSidebar') },
      { role: 'togglefullscreen', ...keys('fullScreen') },
      ...(model.isDevelopment
        ? ([{ type: 'separator' }, { role: 'reload', ...keys('reload') }, { role: 'toggleDevTools', ...keys('devTools') }] as const)
        : []),
    ],
  };
}

/** macOS keeps the role's own Window menu; elsewhere its defaults (Ctrl+M, Ctrl+W) are terminal chords. */
function windowMenu(keys: MenuKeys, isMac: boolean): MenuItemConstructorOptions {
  if (isMac) return { role: 'windowMenu' };
  return {
    role: 'windowMenu',
    submenu: [
      // Not the minimize role: a role without an accelerator of its own falls back to its default.
      { label: 'Minimize', ...keys('minimize'), click: (_item, window) => window?.minimize() },
      { role: 'close', ...keys('closeWindow') },
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
