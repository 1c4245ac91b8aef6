/** Desktop notifications and the dock/taskbar badge for entries that need a person. */
import { app, Notification, type BrowserWindow } from 'electron';
import type { SwitchboardCore } from '../core/app';

export function installAttention(core: SwitchboardCore, win: BrowserWindow): () => void {
  const notify = (id: string, title: string, body: string) => {
    if (!Notification.isSupported()) return;
    const notification = new Notification({ title, body });
    notification.on('click', () => {
      if (win.isDestroyed()) return;
      if (win.isMinimized()) win.restore();
      win.focus();
      // The entry may have closed since the notification was shown: focusing the window is enough.
      if (core.listProcesses().some((p) => p.id === id)) core.selectProcess(id);
    });
    notification.show();
  };
  const sub = core.onEvent((event) => {
    if (event.type === 'attentionRequested') notify(event.id, `${event.title} needs you`, event.reason);
    // Agents that start waiting arrive here too: the core announces them as attention requests.
    if (event.type === 'processChanged' || event.type === 'processRemoved') app.setBadgeCount(core.needsAttentionCount());
  });
  return () => sub.dispose();
}
