/** The main window with the security settings of docs/app.md, and navigation locked down. */
import { BrowserWindow, dialog, shell, type WebContents } from 'electron';
import { join } from 'node:path';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // xterm.js positions its rows with inline styles.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURE_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  spellcheck: false,
} as const;

export function createMainWindow(preloadDir: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    show: false,
    title: 'Switchboard',
    backgroundColor: '#0f1115',
    webPreferences: { ...SECURE_WEB_PREFERENCES, preload: join(preloadDir, 'index.js') },
  });
  lockDownNavigation(win.webContents);
  win.once('ready-to-show', () => win.show());
  return win;
}

/** No new windows, no navigation away from the app; http(s) links open in the system browser. */
function lockDownNavigation(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    void openExternalLink(url, confirmInDialog, (target) => shell.openExternal(target));
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (url !== contents.getURL()) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

export function isExternalWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Opens an http(s) link in the system browser. Links come from process output (port sightings),
 * which any program can print, so a host other than loopback opens only after the person saw the
 * full URL and said yes. Resolves whether it opened.
 */
export async function openExternalLink(
  url: string,
  confirm: (url: string) => Promise<boolean>,
  open: (url: string) => Promise<void>,
): Promise<boolean> {
  if (!isExternalWebUrl(url)) return false;
  if (!LOOPBACK_HOST.test(new URL(url).hostname) && !(await confirm(url))) return false;
  await open(url);
  return true;
}

async function confirmInDialog(url: string): Promise<boolean> {
  const { response } = await dialog.showMessageBox({
    type: 'question',
    buttons: ['Open', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    message: 'Open this address in your browser?',
    detail: url,
  });
  return response === 0;
}
