import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { buildMenuTemplate, MAX_RECENT_IN_MENU, type MenuActions, type MenuModel } from './menuTemplate';
import { isTerminalChord, type KeymapPlatform } from '../../shared/keymap';

const model = (over: Partial<MenuModel> = {}): MenuModel => ({
  platform: 'linux',
  appName: 'Switchboard',
  isDevelopment: false,
  hasOpenProject: true,
  recentProjects: [{ name: 'shop', dir: '/home/me/shop' }],
  ...over,
});

function actions() {
  return {
    openFolder: vi.fn(),
    openRecent: vi.fn(),
    closeProject: vi.fn(),
    showSettings: vi.fn(),
    sendToWindow: vi.fn(),
    copyMcpConnectLine: vi.fn(),
    openDocs: vi.fn(),
  } satisfies MenuActions;
}

/** "File › Open Folder…", "Edit › (copy)" — labels, or roles in parentheses, one line per item. */
function outline(items: readonly MenuItemConstructorOptions[], prefix = ''): string[] {
  return items.flatMap((item) => {
    if (item.type === 'separator') return [];
    const name = `${prefix}${item.label ?? `(${item.role})`}`;
    const children = Array.isArray(item.submenu) ? outline(item.submenu, `${name} › `) : [];
    return [name, ...children];
  });
}

function find(items: readonly MenuItemConstructorOptions[], path: string): MenuItemConstructorOptions {
  const [head, ...rest] = path.split(' › ');
  const item = items.find((i) => (i.label ?? `(${i.role})`) === head);
  if (!item) throw new Error(`no menu item ${head}`);
  return rest.length ? find(item.submenu as MenuItemConstructorOptions[], rest.join(' › ')) : item;
}

const click = (item: MenuItemConstructorOptions) => (item.click as () => void)();

describe('buildMenuTemplate', () => {
  it('has the standard menus with the platform roles on Linux/Windows (settings and quit under File)', () => {
    const menu = buildMenuTemplate(model(), actions());
    expect(menu.map((m) => m.label ?? `(${m.role})`)).toEqual(['File', 'Edit', 'View', '(windowMenu)', '(help)']);
    expect(outline(menu)).toEqual(
      expect.arrayContaining([
        'File › Open Folder…',
        'File › Open Recent › shop — /home/me/shop',
        'File › Close Project',
        'File › Settings…',
        'File › (quit)',
      ]),
    );
    expect(outline(menu).filter((l) => l.startsWith('Edit › '))).toEqual([
      'Edit › (undo)',
      'Edit › (redo)',
      'Edit › (cut)',
      'Edit › (copy)',
      'Edit › (paste)',
      'Edit › Select All',
    ]);
  });

  it('puts about, settings and quit in the app menu on macOS', () => {
    const menu = buildMenuTemplate(model({ platform: 'darwin' }), actions());
    expect(menu[0].label).toBe('Switchboard');
    expect(outline([menu[0]])).toEqual(
      expect.arrayContaining(['Switchboard › (about)', 'Switchboard › Settings…', 'Switchboard › (quit)', 'Switchboard › (hide)']),
    );
    expect(outline(menu)).not.toContain('File › (quit)');
    expect(outline(menu)).not.toContain('File › Settings…');
  });

  it('offers developer tools only in development builds', () => {
    expect(outline(buildMenuTemplate(model(), actions()))).not.toContain('View › (toggleDevTools)');
    expect(outline(buildMenuTemplate(model({ isDevelopment: true }), actions()))).toContain('View › (toggleDevTools)');
  });

  it('wires commands to their actions: terminal select-all and zoom go to the window', () => {
    const a = actions();
    const menu = buildMenuTemplate(model(), a);
    click(find(menu, 'File › Open Folder…'));
    click(find(menu, 'File › Open Recent › shop — /home/me/shop'));
    click(find(menu, 'File › Close Project'));
    click(find(menu, 'Edit › Select All'));
    click(find(menu, 'View › Zoom In'));
    click(find(menu, 'View › Zoom Out'));
    click(find(menu, 'View › Actual Size'));
    click(find(menu, 'View › Toggle Sidebar'));
    click(find(menu, '(help) › Copy MCP Connection Line'));
    click(find(menu, '(help) › Switchboard Documentation'));
    expect(a.openFolder).toHaveBeenCalledTimes(1);
    expect(a.openRecent).toHaveBeenCalledWith('/home/me/shop');
    expect(a.closeProject).toHaveBeenCalledTimes(1);
    expect(a.sendToWindow.mock.calls.map((c) => c[0])).toEqual([
      'terminalSelectAll',
      'terminalZoomIn',
      'terminalZoomOut',
      'terminalZoomReset',
      'toggleSidebar',
    ]);
    expect(a.copyMcpConnectLine).toHaveBeenCalledTimes(1);
    expect(a.openDocs).toHaveBeenCalledTimes(1);
  });

  it('disables Open Recent with no history and Close Project with no project; caps the recent list', () => {
    const empty = buildMenuTemplate(model({ recentProjects: [], hasOpenProject: false }), actions());
    expect(find(empty, 'File › Open Recent').enabled).toBe(false);
    expect(find(empty, 'File › Close Project').enabled).toBe(false);
    const many = Array.from({ length: 25 }, (_, i) => ({ name: `p${i}`, dir: `/p${i}` }));
    const menu = buildMenuTemplate(model({ recentProjects: many }), actions());
    expect((find(menu, 'File › Open Recent').submenu as unknown[]).length).toBe(MAX_RECENT_IN_MENU);
  });

  it('gives zoom and sidebar accelerators that use the platform modifier (Ctrl+Shift off macOS), never an Alt combination', () => {
    const paths = ['View › Zoom In', 'View › Zoom Out', 'View › Actual Size', 'View › Toggle Sidebar', 'Edit › Select All'];
    const accelerators = (platform: NodeJS.Platform) =>
      paths.map((p) => find(buildMenuTemplate(model({ platform }), actions()), p).accelerator);
    for (const accelerator of accelerators('darwin')) expect(accelerator).toMatch(/^Cmd\+(?!.*Alt)/);
    // Zoom Out has no chord off macOS: Ctrl+- is the terminal's and Ctrl+Shift+- types Ctrl+_ (readline's undo).
    for (const platform of ['linux', 'win32'] as const) {
      expect(accelerators(platform)).toEqual(['Ctrl+Shift+=', undefined, 'Ctrl+Shift+0', 'Ctrl+Shift+B', 'Ctrl+Shift+A']);
    }
  });
});

/**
 * Electron's role defaults: the accelerator a role item gets when it names none, and the items a
 * submenu role gets when it has no submenu. Source: electron/electron
 * lib/browser/api/menu-item-roles.ts (main of 2026-08-22, the 45.x line; Switchboard ships 45.4.1).
 */
function roleAccelerator(role: string, platform: KeymapPlatform): string | undefined {
  const defaults: Record<string, string | undefined> = {
    close: 'CommandOrControl+W',
    copy: 'CommandOrControl+C',
    cut: 'CommandOrControl+X',
    forcereload: 'Shift+CmdOrCtrl+R',
    hide: 'Command+H',
    hideothers: 'Command+Alt+H',
    minimize: 'CommandOrControl+M',
    paste: 'CommandOrControl+V',
    pasteandmatchstyle: 'Shift+CommandOrControl+V',
    quit: platform === 'win32' ? undefined : 'CommandOrControl+Q',
    redo: platform === 'win32' ? 'Control+Y' : 'Shift+CommandOrControl+Z',
    reload: 'CmdOrCtrl+R',
    resetzoom: 'CommandOrControl+0',
    selectall: 'CommandOrControl+A',
    toggledevtools: 'Ctrl+Shift+I',
    togglefullscreen: 'F11',
    undo: 'CommandOrControl+Z',
    zoomin: 'CommandOrControl+Plus',
    zoomout: 'CommandOrControl+-',
  };
  return defaults[role.toLowerCase()];
}

const ROLE_SUBMENUS: Record<string, MenuItemConstructorOptions[]> = {
  filemenu: [{ role: 'quit' }],
  editmenu: [
    { role: 'undo' },
    { role: 'redo' },
    { role: 'cut' },
    { role: 'copy' },
    { role: 'paste' },
    { role: 'delete' },
    { role: 'selectAll' },
  ],
  viewmenu: [
    { role: 'reload' },
    { role: 'forceReload' },
    { role: 'toggleDevTools' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { role: 'togglefullscreen' },
  ],
  windowmenu: [{ role: 'minimize' }, { role: 'zoom' }, { role: 'close' }],
};

/**
 * "Edit › (copy) Ctrl+C" for every item whose chord the window would take, role defaults included.
 * Electron leaves its copy / cut / paste roles unregistered by default, yet Windows builds of other
 * apps reported exactly those eating Ctrl+C / Ctrl+V, so a chord counts as registered unless the
 * item itself says `registerAccelerator: false`.
 */
function registeredChords(items: readonly MenuItemConstructorOptions[], platform: KeymapPlatform, prefix = ''): string[] {
  return items.flatMap((item) => {
    if (item.type === 'separator') return [];
    const name = `${prefix}${item.label ?? `(${item.role})`}`;
    const accelerator = item.accelerator ?? (item.role ? roleAccelerator(item.role, platform) : undefined);
    const own = accelerator && item.registerAccelerator !== false ? [`${name} ${String(accelerator)}`] : [];
    const submenu = Array.isArray(item.submenu) ? item.submenu : item.role ? ROLE_SUBMENUS[item.role.toLowerCase()] : undefined;
    return [...own, ...(submenu ? registeredChords(submenu, platform, `${name} › `) : [])];
  });
}

describe('the menu leaves terminal chords to the terminal on Linux and Windows', () => {
  for (const platform of ['linux', 'win32'] as const) {
    for (const isDevelopment of [false, true]) {
      it(`${platform}${isDevelopment ? ' (development build)' : ''}: no registered chord is Ctrl or Alt with a letter, digit or - _ = [ ] \\`, () => {
        const menu = buildMenuTemplate(model({ platform, isDevelopment }), actions());
        const registered = registeredChords(menu, platform);
        expect(registered.length).toBeGreaterThan(0); // the walk sees the menu's own chords (Open Folder, Quit)
        expect(registered.filter((line) => isTerminalChord(line.slice(line.lastIndexOf(' ') + 1), platform))).toEqual([]);
      });
    }
  }

  it('counts role defaults: a bare Copy role or Window menu role is caught', () => {
    const bare: MenuItemConstructorOptions[] = [{ label: 'Edit', submenu: [{ role: 'copy' }] }, { role: 'windowMenu' }];
    expect(registeredChords(bare, 'linux').filter((l) => isTerminalChord(l.slice(l.lastIndexOf(' ') + 1), 'linux'))).toEqual([
      'Edit › (copy) CommandOrControl+C',
      '(windowMenu) › (minimize) CommandOrControl+M',
      '(windowMenu) › (close) CommandOrControl+W',
    ]);
  });

  it('shows the chord the app uses: the terminal’s Ctrl+Shift ones, unregistered where the renderer acts on them', () => {
    const menu = buildMenuTemplate(model(), actions());
    const keys = (path: string) => {
      const { accelerator, registerAccelerator } = find(menu, path);
      return { accelerator, registerAccelerator };
    };
    expect(keys('Edit › (copy)')).toEqual({ accelerator: 'Ctrl+Shift+C', registerAccelerator: false });
    expect(keys('Edit › (paste)')).toEqual({ accelerator: 'Ctrl+Shift+V', registerAccelerator: false });
    expect(keys('Edit › (undo)')).toEqual({ accelerator: 'Ctrl+Z', registerAccelerator: false });
    expect(keys('Edit › Select All')).toEqual({ accelerator: 'Ctrl+Shift+A', registerAccelerator: false });
    expect(keys('View › Zoom In')).toEqual({ accelerator: 'Ctrl+Shift+=', registerAccelerator: false });
    expect(keys('File › Open Folder…')).toEqual({ accelerator: 'Ctrl+Shift+O', registerAccelerator: true });
    expect(keys('File › (quit)')).toEqual({ accelerator: 'Ctrl+Shift+Q', registerAccelerator: true });
    expect(keys('(windowMenu) › Minimize')).toEqual({ accelerator: undefined, registerAccelerator: true });
    expect(keys('(windowMenu) › (close)')).toEqual({ accelerator: 'Ctrl+Shift+W', registerAccelerator: true });
  });

  it('keeps the Cmd chords and the role defaults on macOS', () => {
    const menu = buildMenuTemplate(model({ platform: 'darwin' }), actions());
    expect(find(menu, 'File › Open Folder…').accelerator).toBe('Cmd+O');
    expect(find(menu, 'Edit › (copy)').accelerator).toBe('Cmd+C');
    expect(find(menu, 'Edit › Select All').accelerator).toBe('Cmd+A');
    expect(find(menu, '(windowMenu)').submenu).toBeUndefined();
    expect(registeredChords(menu, 'darwin').some((l) => /\bCtrl\+/.test(l) && !/Cmd/.test(l))).toBe(false);
  });
});
