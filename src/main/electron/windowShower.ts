/** One way to bring the app to the front, used by the tray, notifications, the dock and a second launch. */
import type { BrowserWindow } from 'electron';

/**
 * Returns a function that shows the open window (restored when minimized, focused), or opens a new
 * one onto the running project when none is open: closing the window does not end the app.
 */
export function windowShower(current: () => BrowserWindow | undefined, openWindow: () => void): () => void {
  return () => {
    const win = current();
    if (win && !win.isDestroyed()) {
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
      return;
    }
    openWindow();
  };
}
