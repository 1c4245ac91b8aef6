/** Desktop notifications and the dock/taskbar badge for entries that need a person. */
import { app, Notification } from 'electron';
import type { SwitchboardCore } from '../core/app';

/** Works with no window open: a click opens (or focuses) one and selects the entry. */
export function installAttention(core: SwitchboardCore, showWindow: () => void): () => void {
  const notify = (id: string, title: string, body: string) => {
    if (!Notification.isSupported()) return;
    const notification = new Notification({ title, body });
    notification.on('click', () => {
      showWindow();
      if (core.sessions.find(id)) core.selectProcess(id);
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
