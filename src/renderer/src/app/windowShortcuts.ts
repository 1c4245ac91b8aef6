/** Window-wide shortcuts (matched by shortcuts.ts against the keymap) and what each one does. */
import { PLATFORM, shortcutOf, type ShortcutAction } from './shortcuts';
import { useUi } from './store';
import { applyUiCommand } from './uiCommands';

export function installShortcuts(): () => void {
  const onKey = (event: KeyboardEvent) => {
    const isInTerminal = event.target instanceof Element && event.target.closest('.xterm') !== null;
    const shortcut = shortcutOf(event, PLATFORM, isInTerminal);
    if (!shortcut) return;
    event.preventDefault();
    event.stopPropagation();
    perform(shortcut.action, shortcut.index);
  };
  window.addEventListener('keydown', onKey, true);
  return () => window.removeEventListener('keydown', onKey, true);
}

function perform(action: ShortcutAction, index?: number): void {
  const ui = useUi.getState();
  const { order, focusedId } = ui;
  const at = Math.max(0, order.indexOf(focusedId ?? ''));
  switch (action) {
    case 'palette':
      return ui.setOverlay(ui.overlay?.kind === 'palette' ? undefined : { kind: 'palette' });
    case 'inbox':
      return ui.setOverlay(ui.overlay?.kind === 'inbox' ? undefined : { kind: 'inbox' });
    case 'nextPane':
      if (order.length > 0) ui.focus(order[(at + 1) % order.length]);
      return;
    case 'previousPane':
      if (order.length > 0) ui.focus(order[(at - 1 + order.length) % order.length]);
      return;
    case 'jumpToPane':
      if (index !== undefined && order[index]) ui.focus(order[index]);
      return;
    case 'maximize':
      if (focusedId) ui.toggleMaximize(focusedId);
      return;
    case 'zoomIn':
      return applyUiCommand('terminalZoomIn');
    case 'zoomOut':
      return applyUiCommand('terminalZoomOut');
    case 'zoomReset':
      return applyUiCommand('terminalZoomReset');
    case 'toggleSidebar':
      return applyUiCommand('toggleSidebar');
  }
}
