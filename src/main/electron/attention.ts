/**
 * Desktop notifications and the dock/taskbar badge for entries that need a person, across every
 * open project: the badge counts all of them; a click shows the window (opening one when none is
 * open), switches to the project and selects its pane.
 */
import { app, Notification } from 'electron';
import { DisposableStore } from '../core/base';
import type { OpenProject, Workspace } from '../core/workspace';
import type { WaitingAgent } from '../../shared/inbox';

/**
 * Notification buttons exist on macOS only (Electron's `actions`); elsewhere a click focuses the
 * pane and the inbox answers.
 */
const SUPPORTS_ACTIONS = process.platform === 'darwin';

export function installAttention(workspace: Workspace, showWindow: () => void): () => void {
  const store = new DisposableStore();
  const perProject = new Map<string, DisposableStore>();
  const focusEntry = (project: OpenProject, id: string) => {
    showWindow();
    // The project or the entry may have closed since the notification was shown: showing the window is enough.
    if (!workspace.list().includes(project)) return;
    workspace.focus(project.id);
    if (project.handle.core.findEntry(id)) project.handle.core.selectProcess(id);
  };
  const notify = (project: OpenProject, id: string, title: string, body: string) => {
    if (!Notification.isSupported()) return;
    const core = project.handle.core;
    const prompt = SUPPORTS_ACTIONS ? answerablePrompt(core.listWaiting(), id) : undefined;
    // A notification button cannot carry typed text: those answers stay in the inbox.
    const choices = (prompt?.choices ?? []).filter((c) => !c.takesText);
    const actions = choices.map((c) => ({ type: 'button' as const, text: c.label }));
    const notification = new Notification({ title, body, ...(actions.length > 0 && { actions }) });
    notification.on('click', () => focusEntry(project, id));
    notification.on('action', (_event, index) => {
      const choice = choices[index];
      if (!prompt?.fingerprint || !choice) return;
      // The same core method as the inbox: a prompt that changed meanwhile is refused; say so and show the pane.
      core.answerPrompt({ id, fingerprint: prompt.fingerprint, choice: choice.id }).catch((err: unknown) => {
        new Notification({ title, body: err instanceof Error ? err.message : String(err) }).show();
        focusEntry(project, id);
      });
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

function answerablePrompt(waiting: readonly WaitingAgent[], id: string): WaitingAgent | undefined {
  return waiting.find((w) => w.id === id && w.fingerprint !== undefined && w.choices.length > 0);
}
