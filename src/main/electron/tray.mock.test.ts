/** The tray and notification wiring with `electron` mocked (its binary is not installable here). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const electron = vi.hoisted(() => {
  type Item = { label?: string; type?: string; enabled?: boolean; click?: () => void };
  class FakeTray {
    static last: FakeTray | undefined;
    tooltip = '';
    menu: Item[] = [];
    destroyed = false;
    private listeners = new Map<string, () => void>();
    constructor(readonly image: unknown) {
      FakeTray.last = this;
    }
    setToolTip(text: string) {
      this.tooltip = text;
    }
    setContextMenu(menu: Item[]) {
      this.menu = menu;
    }
    on(event: string, fn: () => void) {
      this.listeners.set(event, fn);
    }
    emit(event: string) {
      this.listeners.get(event)?.();
    }
    destroy() {
      this.destroyed = true;
    }
  }
  class FakeNotification {
    static shown: FakeNotification[] = [];
    private readonly handlers = new Map<string, () => void>();
    constructor(readonly options: { title: string; body: string }) {}
    static isSupported() {
      return true;
    }
    on(event: string, fn: () => void) {
      this.handlers.set(event, fn);
    }
    show() {
      FakeNotification.shown.push(this);
    }
    click() {
      this.handlers.get('click')?.();
    }
  }
  return {
    FakeTray,
    FakeNotification,
    module: {
      Tray: FakeTray,
      Menu: { buildFromTemplate: (items: Item[]) => items },
      nativeImage: { createFromBuffer: (b: Buffer) => ({ size: b.length }) },
      Notification: FakeNotification,
      app: { setBadgeCount: vi.fn() },
    },
  };
});
vi.mock('electron', () => electron.module);

import { installTray } from './tray';
import { installAttention } from './attention';
import type { SwitchboardCore } from '../core/app';
import { createHostWorkspace, type HostWorkspace } from '../core/workspace';
import { waitForEvent } from '../core/base/lifecycle';

describe('tray and notifications without a window', () => {
  let host: HostWorkspace;
  let core: SwitchboardCore;
  beforeEach(async () => {
    host = createHostWorkspace({ dataDir: mkdtempSync(join(tmpdir(), 'sb-tray-data-')), roots: [tmpdir()], killGraceMs: 500 });
    core = (await host.workspace.open(mkdtempSync(join(tmpdir(), 'sb-tray-')))).handle.core;
  });
  afterEach(async () => {
    await host.dispose();
  });

  it('shows what runs, follows the core, opens the window and quits from its menu', async () => {
    const open = vi.fn();
    const quit = vi.fn();
    const uninstall = installTray(host.workspace, { open, quit });
    const tray = electron.FakeTray.last!;
    expect(tray.menu[0]).toMatchObject({ label: 'Nothing running', enabled: false });
    const changed = waitForEvent(core.onEvent, (e) => e.type === 'processChanged' && e.process.pid !== undefined, 5_000);
    await core.spawnProcess({ kind: 'command', argv: ['sleep', '30'], name: 'sleeper' });
    await changed;
    expect(tray.menu[0].label).toBe('1 process running');
    expect(tray.tooltip).toBe('Switchboard — 1 process running');
    tray.menu.find((i) => i.label === 'Open Switchboard')!.click!();
    expect(open).toHaveBeenCalledTimes(1);
    tray.emit('click');
    expect(open).toHaveBeenCalledTimes(2);
    tray.menu.find((i) => i.label === 'Quit Switchboard')!.click!();
    expect(quit).toHaveBeenCalledTimes(1);
    uninstall();
    expect(tray.destroyed).toBe(true);
  });

  it('an attention request notifies with no window; clicking opens one and selects the entry', async () => {
    const showWindow = vi.fn();
    const uninstall = installAttention(host.workspace, showWindow);
    const p = await core.spawnProcess({ kind: 'command', argv: ['sleep', '30'], name: 'needs-you' });
    core.requestAttention(p.id, 'Look at this', 'switchboard');
    const note = electron.FakeNotification.shown.at(-1)!;
    expect(note.options).toEqual({ title: 'needs-you needs you', body: 'Look at this' });
    note.click();
    expect(showWindow).toHaveBeenCalled();
    expect(core.snapshot().selectedId).toBe(p.id);
    uninstall();
  });
});
