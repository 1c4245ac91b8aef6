/** Desktop notifications and the dock/taskbar badge for entries that need a person. */
import { app, Notification, type BrowserWindow } from 'electron';
import type { SwitchboardCore } from '../core/app/switchboardCore';

export function installAttention(core: SwitchboardCore, win: BrowserWindow): () => void {
  const waitingNotified = new Set<string>();
  const notify = (id: string, title: string, body: string) => {
    if (!Notification.isSupported()) return;
    const notification = new Notification({ title, body });
    notification.on('click', () => {
      if (win.isDestroyed()) return;
      if (win.isMinimized()) win.restore();
      win.focus();
      core.selectProcess(id);
    });
    notification.show();
  };
  const sub = core.onEvent((event) => {
    if (event.type === 'attentionRequested') notify(event.id, `${event.title} needs you`, event.reason);
    if (event.type === 'processChanged') {
      const { id, name, agent } = event.process;
      if (agent?.primary === 'waiting' && !waitingNotified.has(id)) {
        waitingNotified.add(id);
        notify(id, `${name} is waiting`, agent.detail === 'permission' ? 'Permission needed' : 'A question needs an answer');
      } else if (agent?.primary !== 'waiting') waitingNotified.delete(id);
      app.setBadgeCount(core.needsAttentionCount());
    }
  });
  return () => sub.dispose();
}
