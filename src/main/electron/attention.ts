/**
 * Desktop notifications and the dock/taskbar badge for entries that need a person, across every
 * open project: the badge counts all of them; a click switches to the project and its pane.
 */
import { app, Notification, type BrowserWindow } from 'electron';
import { DisposableStore } from '../core/base';
import type { OpenProject, Workspace } from '../core/workspace';

export function installAttention(workspace: Workspace, win: BrowserWindow): () => void {
  const store = new DisposableStore();
  const perProject = new Map<string, DisposableStore>();
  const notify = (project: OpenProject, id: string, title: string, body: string) => {
    if (!Notification.isSupported()) return;
    const notification = new Notification({ title, body });
    notification.on('click', () => {
      if (win.isDestroyed()) return;
      if (win.isMinimized()) win.restore();
      win.focus();
      // The project or the entry may have closed since the notification was shown: focusing the window is enough.
      if (!workspace.list().includes(project)) return;
      workspace.focus(project.id);
      if (project.handle.core.listProcesses().some((p) => p.id === id)) project.handle.core.selectProcess(id);
    });
    notification.show();
  };
  const follow = (project: OpenProject) => {
    const subscriptions = new DisposableStore();
    subscriptions.add(
      project.handle.core.onEvent((event) => {
        // Agents that start waiting arrive here too: the core announces them as attention requests.
        if (event.type === 'attentionRequested') notify(project, event.id, `${event.title} needs you`, event.reason);
      }),
    );
    perProject.set(project.id, subscriptions);
  };
  const unfollow = (project: OpenProject) => {
    perProject.get(project.id)?.dispose();
    perProject.delete(project.id);
  };
  for (const project of workspace.list()) follow(project);
  store.add(workspace.onProjectOpened(follow));
  store.add(workspace.onProjectClosing(unfollow));
  store.add(workspace.onChanged(() => app.setBadgeCount(workspace.needsAttentionCount())));
  return () => {
    for (const subscriptions of perProject.values()) subscriptions.dispose();
    perProject.clear();
    store.dispose();
  };
}
