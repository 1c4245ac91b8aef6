/**
 * Which renderer the window loads and which pages count as ours, plus the permission policy:
 * plain functions so the rules are tested without Electron.
 */
import type { Session } from 'electron';

/** The dev server URL (electron-vite sets ELECTRON_RENDERER_URL) only in a development build. */
export function devRendererUrl(env: Readonly<Record<string, string | undefined>>, isPackaged: boolean): string | undefined {
  if (isPackaged) return undefined; // a packaged app never loads code from a URL in its environment
  return env.ELECTRON_RENDERER_URL || undefined;
}

/** A page is ours when its origin equals the dev server's (`localhost:5173` is not `localhost:51730`), else when it is a file: page. */
export function isTrustedRendererUrl(url: string, rendererUrl: string | undefined): boolean {
  let page: URL;
  try {
    page = new URL(url);
  } catch {
    return false;
  }
  if (!rendererUrl) return page.protocol === 'file:';
  try {
    return page.origin === new URL(rendererUrl).origin;
  } catch {
    return false;
  }
}

/** Permissions the app uses; everything else (camera, microphone, geolocation, …) is denied. */
const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['notifications']);

export function installPermissionPolicy(session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => callback(ALLOWED_PERMISSIONS.has(permission)));
  session.setPermissionCheckHandler((_contents, permission) => ALLOWED_PERMISSIONS.has(permission));
}
