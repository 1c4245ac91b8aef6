/**
 * The desktop window tells the presence board whether the person is at it: its focus, and the
 * time of each keystroke into it (read in the main process, so the page reports nothing). The
 * "only while I am away" rule itself is `mayNotifyNow`, a plain function tested without Electron.
 */
import type { BrowserWindow } from 'electron';
import type { PresenceBoard } from '../core/attention';

export function feedPresence(win: BrowserWindow, board: PresenceBoard): () => void {
  const viewer = `window-${win.id}`;
  const onFocus = () => board.report(viewer, { focused: true });
  const onBlur = () => board.report(viewer, { focused: false });
  const onInput = (_event: unknown, input: { type: string }) => {
    if (input.type === 'keyDown') board.report(viewer, { inputAt: Date.now() });
  };
  board.report(viewer, { focused: win.isFocused() });
  win.on('focus', onFocus);
  win.on('blur', onBlur);
  win.webContents.on('before-input-event', onInput);
  return () => {
    board.forget(viewer);
    if (win.isDestroyed()) return;
    win.off('focus', onFocus);
    win.off('blur', onBlur);
    win.webContents.off('before-input-event', onInput);
  };
}
