import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { buildMenuTemplate, MAX_RECENT_IN_MENU, type MenuActions, type MenuModel } from './menuTemplate';

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

  it('gives zoom and sidebar accelerators that use the platform modifier, never a bare Alt combination', () => {
    const menu = buildMenuTemplate(model(), actions());
    const accelerators = ['View › Zoom In', 'View › Zoom Out', 'View › Actual Size', 'View › Toggle Sidebar', 'Edit › Select All'].map(
      (p) => find(menu, p).accelerator,
    );
    for (const accelerator of accelerators) expect(accelerator).toMatch(/^CmdOrCtrl\+/);
  });
});
