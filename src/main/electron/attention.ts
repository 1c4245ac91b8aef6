/** Desktop notifications and the dock/taskbar badge for entries that need a person. */
import { app, Notification } from 'electron';
import type { SwitchboardCore } from '../core/app';
import type { WaitingAgent } from '../../shared/inbox';

/**
 * Notification buttons exist on macOS only (Electron's `actions`); elsewhere a click focuses the
 * pane and the inbox answers.
 */
const SUPPORTS_ACTIONS = process.platform === 'darwin';

/** Works with no window open: a click opens (or focuses) one and selects the entry. */
export function installAttention(core: SwitchboardCore, showWindow: () => void): () => void {
  const focusEntry = (id: string) => {
    showWindow();
    // The entry may have closed since the notification was shown: showing the window is enough.
    if (core.sessions.find(id)) core.selectProcess(id);
  };
  const notify = (id: string, title: string, body: string) => {
    if (!Notification.isSupported()) return;
    const prompt = SUPPORTS_ACTIONS ? answerablePrompt(core, id) : undefined;
    const choices = prompt?.choices ?? [];
    const notification = new Notification({ title, body, actions: choices.map((c) => ({ type: 'button' as const, text: c.label })) });
    notification.on('click', () => focusEntry(id));
    notification.on('action', (_event, index) => {
      const choice = choices[index];
      if (!prompt?.fingerprint || !choice) return;
      // The same core method as the inbox: a prompt that changed meanwhile is refused; say so and show the pane.
      try {
        core.answerPrompt({ id, fingerprint: prompt.fingerprint, choice: choice.id });
      } catch (err) {
        new Notification({ title, body: err instanceof Error ? err.message : String(err) }).show();
        focusEntry(id);
      }
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

function answerablePrompt(core: SwitchboardCore, id: string): WaitingAgent | undefined {
  return core.listWaiting().find((w) => w.id === id && w.fingerprint !== undefined && w.choices.length > 0);
}
