/**
 * "Only while I am away" in a browser: a loopback tab of serve tells the server whether the person
 * is at it — its focus, and how long since their last key or click — on focus and blur, and at most
 * every few seconds while they type. The desktop app's window is read by its main process instead,
 * and a paired device's page is not "at the desk": neither reports.
 */
import { isAtThisMachine } from '../devices/notificationForm';
import { useUi } from './store';
import { onReconnect } from './transport';

/** Often enough for a setting counted in minutes. */
const INPUT_REPORT_INTERVAL_MS = 15_000;

export function installPresenceReport(): () => void {
  if (window.switchboard !== undefined || !isAtThisMachine(location.hostname, false)) return () => undefined;
  let lastInputAt = Date.now();
  let lastSentAt = 0;
  const send = () => {
    lastSentAt = Date.now();
    const client = useUi.getState().workspaceClient;
    void client
      ?.workspace('reportPresence', { focused: document.hasFocus(), idleMs: Math.max(0, Date.now() - lastInputAt) })
      .catch(() => undefined); // an older server without the command, or a dropped socket: the next report tries again
  };
  const onInput = () => {
    lastInputAt = Date.now();
    if (lastInputAt - lastSentAt >= INPUT_REPORT_INTERVAL_MS) send();
  };
  const onFocusChange = () => send();
  // Each new connection is a new viewer on the server: it hears where the person is at once.
  const stopStore = useUi.subscribe((state, before) => {
    if (state.workspaceClient && !before.workspaceClient) send();
  });
  const stopReconnect = onReconnect(send);
  window.addEventListener('keydown', onInput, true);
  window.addEventListener('pointerdown', onInput, true);
  window.addEventListener('focus', onFocusChange);
  window.addEventListener('blur', onFocusChange);
  return () => {
    stopStore();
    stopReconnect();
    window.removeEventListener('keydown', onInput, true);
    window.removeEventListener('pointerdown', onInput, true);
    window.removeEventListener('focus', onFocusChange);
    window.removeEventListener('blur', onFocusChange);
  };
}
