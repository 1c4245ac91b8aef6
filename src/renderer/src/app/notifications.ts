/**
 * Human attention in a browser (serve): the Notification API when the person allows it, an
 * in-page card otherwise. Clicking either focuses the pane; looking at the pane clears its flag
 * (Pane acknowledges). In Electron the main process raises native notifications instead
 * (src/main/electron/attention.ts), so this stays silent there.
 */
import { useUi } from './store';
import { focusProject } from '../projects/projects';
import type { ControlEvent, WorkspaceClient } from '../../../shared/api';

/** An in-page card stays this long unless the flag is cleared or it is clicked first. */
const CARD_LIFETIME_MS = 30_000;

export function installNotifications(): () => void {
  if (window.switchboard) return () => undefined;
  let unsubscribeEvents: (() => void) | undefined;
  // Every open project's requests, not only the active one's: a click switches to the project.
  const attach = (client: WorkspaceClient | undefined) => {
    if (!client || unsubscribeEvents) return;
    unsubscribeEvents = client.onEvent((event, project) => {
      if (event.type === 'attentionRequested') announce(event, project);
    });
  };
  attach(useUi.getState().workspaceClient);
  const unsubscribeStore = useUi.subscribe((s) => attach(s.workspaceClient));
  // Browsers only grant the permission from a user gesture: ask on the first click in the page.
  const askOnce = () => {
    if ('Notification' in window && Notification.permission === 'default') void Notification.requestPermission();
  };
  window.addEventListener('pointerdown', askOnce, { once: true });
  return () => {
    unsubscribeEvents?.();
    unsubscribeStore();
    window.removeEventListener('pointerdown', askOnce);
  };
}

type AttentionEvent = Extract<ControlEvent, { type: 'attentionRequested' }>;

function focusPane(id: string, project: string | undefined): void {
  window.focus();
  if (project && project !== useUi.getState().activeProjectId) {
    // The pane shows once the project's snapshot is in; focus it then.
    const unsubscribe = useUi.subscribe((s) => {
      if (s.activeProjectId === project && s.processes[id]) {
        unsubscribe();
        s.focus(id);
      }
    });
    void focusProject(project);
    return;
  }
  useUi.getState().focus(id);
}

function announce(event: AttentionEvent, project: string | undefined): void {
  const title = `${event.title} needs you`;
  if ('Notification' in window && Notification.permission === 'granted' && document.visibilityState !== 'visible') {
    const notification = new Notification(title, { body: event.reason, tag: `switchboard-${event.id}` });
    notification.onclick = () => {
      focusPane(event.id, project);
      notification.close();
    };
    return;
  }
  showCard(event, title, project);
}

function cardStack(): HTMLElement {
  let stack = document.getElementById('attention-cards');
  if (!stack) {
    stack = document.createElement('div');
    stack.id = 'attention-cards';
    stack.setAttribute('role', 'status');
    stack.setAttribute('aria-live', 'polite');
    Object.assign(stack.style, {
      position: 'fixed',
      top: '12px',
      right: '12px',
      display: 'flex',
      flexDirection: 'column',
      gap: '6px',
      zIndex: '1000',
      maxWidth: '360px',
    });
    document.body.appendChild(stack);
  }
  return stack;
}

function showCard(event: AttentionEvent, title: string, project: string | undefined): void {
  const stack = cardStack();
  stack.querySelector(`[data-id="${CSS.escape(event.id)}"]`)?.remove(); // one card per pane: the newest reason
  const card = document.createElement('button');
  card.type = 'button';
  card.dataset.id = event.id;
  card.dataset.testid = 'attention-card';
  Object.assign(card.style, {
    textAlign: 'left',
    background: 'var(--panel)',
    border: '1px solid var(--warn)',
    color: 'var(--text)',
    padding: '8px 10px',
    borderRadius: '6px',
  });
  const heading = document.createElement('strong');
  heading.textContent = title;
  const body = document.createElement('div');
  body.textContent = event.reason;
  card.append(heading, body);
  let unsubscribe: () => void = () => undefined;
  const remove = () => {
    clearTimeout(timer);
    unsubscribe();
    card.remove();
  };
  card.addEventListener('click', () => {
    focusPane(event.id, project);
    remove();
  });
  // Only the active project's entries are in the store; another project's card waits for its timeout or a click.
  // The flag arrives with the entry's next change, after this event: the card goes once a flag it saw is gone.
  let sawFlag = false;
  unsubscribe = useUi.subscribe((s) => {
    if (!s.client || (project !== undefined && s.activeProjectId !== project)) return;
    const p = s.processes[event.id];
    if (p?.attention) sawFlag = true;
    if (!p || (sawFlag && !p.attention)) remove();
  });
  const timer = setTimeout(remove, CARD_LIFETIME_MS);
  stack.appendChild(card);
}
