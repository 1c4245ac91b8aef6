/**
 * The Electron shell's wiring with the `electron` module mocked (its binary is not installable on
 * the build machines; e2e/electron.spec.ts runs the real app where it is).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const electron = vi.hoisted(() => {
  // vi.hoisted runs before imports are bound, so the module is required here.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { EventEmitter: Emitter } = require('node:events') as typeof import('node:events');
  class FakeWebContents extends Emitter {
    windowOpenHandler?: (details: { url: string }) => { action: string };
    sent: Array<[string, unknown]> = [];
    url = 'file:///app/out/renderer/index.html';
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
      this.windowOpenHandler = handler;
    }
    getURL() {
      return this.url;
    }
    send(channel: string, payload: unknown) {
      this.sent.push([channel, payload]);
    }
  }
  class FakeBrowserWindow extends Emitter {
    static last: FakeBrowserWindow | undefined;
    webContents = new FakeWebContents();
    constructor(readonly options: Record<string, unknown>) {
      super();
      FakeBrowserWindow.last = this;
    }
    isDestroyed() {
      return false;
    }
    isMinimized() {
      return false;
    }
    restore() {}
    focus() {}
    show() {}
  }
  const handlers = new Map<string, (...args: unknown[]) => unknown>();
  return {
    FakeBrowserWindow,
    handlers,
    module: {
      BrowserWindow: FakeBrowserWindow,
      shell: { openExternal: vi.fn(async () => undefined) },
      dialog: { showMessageBox: vi.fn(async () => ({ response: 1 })) },
      ipcMain: {
        handle: (channel: string, fn: (...args: unknown[]) => unknown) => handlers.set(channel, fn),
        removeHandler: (channel: string) => handlers.delete(channel),
      },
      app: { setBadgeCount: vi.fn() },
      Notification: class extends Emitter {
        static supported = false;
        static shown: Array<InstanceType<typeof Emitter>> = [];
        static isSupported() {
          return this.supported;
        }
        show() {
          (this.constructor as unknown as { shown: unknown[] }).shown.push(this);
        }
      },
    },
  };
});
vi.mock('electron', () => electron.module);

import { createMainWindow, isExternalWebUrl, openExternalLink, SECURE_WEB_PREFERENCES } from './secureWindow';
import { installIpcBridge } from './ipcBridge';
import { installAttention } from './attention';
import { windowShower } from './windowShower';
import type { SwitchboardCore } from '../core/app';
import { createHostWorkspace, type HostWorkspace } from '../core/workspace';
import { IPC_CALL_CHANNEL } from '../../shared/ipc';

describe('secure main window', () => {
  it('is sandboxed and isolated, with only our preload', () => {
    const win = createMainWindow('/app/out/preload') as unknown as InstanceType<typeof electron.FakeBrowserWindow>;
    const prefs = win.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect(prefs.preload).toBe('/app/out/preload/index.js');
    expect(SECURE_WEB_PREFERENCES.nodeIntegrationInWorker).toBe(false);
  });

  it('denies new windows and sends only http(s) links to the system browser', () => {
    const win = createMainWindow('/p') as unknown as InstanceType<typeof electron.FakeBrowserWindow>;
    const open = win.webContents.windowOpenHandler!;
    expect(open({ url: 'http://localhost:3000/' })).toEqual({ action: 'deny' });
    expect(electron.module.shell.openExternal).toHaveBeenCalledWith('http://localhost:3000/');
    electron.module.shell.openExternal.mockClear();
    expect(open({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(open({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(electron.module.shell.openExternal).not.toHaveBeenCalled();
    expect(isExternalWebUrl('https://example.com')).toBe(true);
  });

  it('opens loopback links at once and asks, showing the full URL, before any other host', async () => {
    const opened: string[] = [];
    const asked: string[] = [];
    const open = async (url: string) => void opened.push(url);
    const answer = (yes: boolean) => async (url: string) => (asked.push(url), yes);
    expect(await openExternalLink('http://localhost:3000/', answer(false), open)).toBe(true);
    expect(await openExternalLink('http://127.0.0.1:5173/x', answer(false), open)).toBe(true);
    expect(asked).toEqual([]);
    expect(await openExternalLink('https://evil.example/phish?x=1', answer(false), open)).toBe(false);
    expect(await openExternalLink('http://localhost.evil.example/', answer(true), open)).toBe(true);
    expect(await openExternalLink('file:///etc/passwd', answer(true), open)).toBe(false);
    expect(asked).toEqual(['https://evil.example/phish?x=1', 'http://localhost.evil.example/']);
    expect(opened).toEqual(['http://localhost:3000/', 'http://127.0.0.1:5173/x', 'http://localhost.evil.example/']);
  });

  it('prevents navigation away from the app', () => {
    const win = createMainWindow('/p') as unknown as InstanceType<typeof electron.FakeBrowserWindow>;
    const event = { preventDefault: vi.fn() };
    win.webContents.emit('will-navigate', event, 'https://evil.example/');
    expect(event.preventDefault).toHaveBeenCalled();
  });
});

/** A workspace with one open project (a fresh folder), as the app has after a launch with --project. */
async function oneProjectWorkspace(prefix: string): Promise<{ host: HostWorkspace; core: SwitchboardCore }> {
  const host = createHostWorkspace({ dataDir: mkdtempSync(join(tmpdir(), `${prefix}data-`)), roots: [tmpdir()] });
  const project = await host.workspace.open(mkdtempSync(join(tmpdir(), prefix)));
  return { host, core: project.handle.core };
}

describe('IPC bridge', () => {
  let core: SwitchboardCore;
  let host: HostWorkspace;
  let uninstall: () => void;
  let win: InstanceType<typeof electron.FakeBrowserWindow>;

  beforeEach(async () => {
    ({ host, core } = await oneProjectWorkspace('sb-shell-'));
    win = new electron.FakeBrowserWindow({});
    uninstall = installIpcBridge(host.workspace, win as never, (url) => url.startsWith('file://'));
  });
  afterEach(async () => {
    uninstall();
    await host.dispose();
  });

  const call = (sender: unknown, frameUrl: string, cmd: string, args: unknown) =>
    electron.handlers.get(IPC_CALL_CHANNEL)!({ sender, senderFrame: { url: frameUrl } }, cmd, args) as Promise<{
      ok: boolean;
      value?: unknown;
      error?: { code: string; message: string };
    }>;

  it('serves the control API to our window', async () => {
    const reply = await call(win.webContents, 'file:///app/index.html', 'getSnapshot', {});
    expect(reply.ok).toBe(true);
    expect((reply.value as { processes: unknown[] }).processes).toEqual([]);
  });

  it('refuses other senders and other frames', async () => {
    const stranger = new EventEmitter();
    expect(await call(stranger, 'file:///app/index.html', 'getSnapshot', {})).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect(await call(win.webContents, 'https://evil.example/', 'getSnapshot', {})).toMatchObject({
      ok: false,
      error: { code: 'unauthorized' },
    });
  });

  it('answers bad input with a precise error and keeps serving', async () => {
    expect(await call(win.webContents, 'file:///x', 'noSuchCommand', {})).toMatchObject({
      ok: false,
      error: { message: 'Unknown command "noSuchCommand"' },
    });
    const bad = await call(win.webContents, 'file:///x', 'resizeProcess', { id: 'p_000000', cols: 'wide', rows: 10 });
    expect(bad.error?.message).toMatch(/Invalid arguments for resizeProcess: cols:/);
    expect(await call(win.webContents, 'file:///x', 'startProcess', { id: 'p_ffffff' })).toMatchObject({
      ok: false,
      error: { code: 'unknown_process' },
    });
    expect((await call(win.webContents, 'file:///x', 'getSnapshot', {})).ok).toBe(true);
  });

  it('pushes state events to the window', async () => {
    await core.spawnProcess({ kind: 'command', argv: ['true'], name: 'quick' });
    expect(win.webContents.sent.some(([, e]) => (e as { type: string }).type === 'processAdded')).toBe(true);
  });
});

describe('attention notifications', () => {
  type FakeWindow = InstanceType<typeof electron.FakeBrowserWindow>;
  const Notification = electron.module.Notification as unknown as { supported: boolean; shown: EventEmitter[] };
  let host: HostWorkspace;
  let core: SwitchboardCore;
  let uninstall: () => void;
  beforeEach(async () => {
    ({ host, core } = await oneProjectWorkspace('sb-notify-'));
    Notification.supported = true;
  });
  afterEach(async () => {
    Notification.supported = false;
    uninstall?.();
    await host.dispose();
  });

  /** Installs attention with `currentWindow` as the window to show and raises one notification about a new entry. */
  async function notifyAboutAnEntry(currentWindow: () => FakeWindow | undefined) {
    const openWindow = vi.fn();
    uninstall = installAttention(
      host.workspace,
      windowShower(() => currentWindow() as never, openWindow),
    );
    const entry = await core.spawnProcess({ kind: 'command', argv: ['sleep', '30'], name: 'reviewer' });
    core.requestAttention(entry.id, 'please look', 'test');
    return { openWindow, entry };
  }

  it('a notification clicked after its entry closed focuses the window and does not throw', async () => {
    const win = new electron.FakeBrowserWindow({});
    const focus = vi.spyOn(win, 'focus');
    const { openWindow, entry } = await notifyAboutAnEntry(() => win);
    const notification = Notification.shown.at(-1)!;
    await core.closeProcess(entry.id);
    expect(() => notification.emit('click')).not.toThrow();
    expect(focus).toHaveBeenCalled();
    expect(openWindow).not.toHaveBeenCalled();
  });

  it('a minimized window is restored and focused; with no window open a click opens one and selects the entry', async () => {
    let win: FakeWindow | undefined = new electron.FakeBrowserWindow({});
    vi.spyOn(win, 'isMinimized').mockReturnValue(true);
    const restore = vi.spyOn(win, 'restore');
    const { openWindow, entry } = await notifyAboutAnEntry(() => win);
    Notification.shown.at(-1)!.emit('click');
    expect(restore).toHaveBeenCalled();

    win = undefined; // the window was closed; the app (and its entries) still run
    core.requestAttention(entry.id, 'still waiting', 'test');
    Notification.shown.at(-1)!.emit('click');
    expect(openWindow).toHaveBeenCalledTimes(1);
    expect(core.snapshot().selectedId).toBe(entry.id);
  });
});
