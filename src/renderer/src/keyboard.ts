/** Keyboard navigation between panes: Alt+Arrows move focus, Alt+1…9 jump, Alt+Enter maximises. */
import { useUi } from './store';

export function installKeyboardNavigation(): () => void {
  const onKey = (event: KeyboardEvent) => {
    if (!event.altKey || event.ctrlKey || event.metaKey) return;
    const { order, focusedId, focus, toggleMaximize } = useUi.getState();
    if (order.length === 0) return;
    const index = Math.max(0, order.indexOf(focusedId ?? ''));
    let next: string | undefined;
    if (event.key === 'ArrowRight' || event.key === 'ArrowDown') next = order[(index + 1) % order.length];
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') next = order[(index - 1 + order.length) % order.length];
    else if (/^[1-9]$/.test(event.key)) next = order[Number(event.key) - 1];
    else if (event.key === 'Enter' && focusedId) {
      toggleMaximize(focusedId);
      event.preventDefault();
      return;
    }
    if (!next) return;
    event.preventDefault();
    event.stopPropagation();
    focus(next);
  };
  window.addEventListener('keydown', onKey, true);
  return () => window.removeEventListener('keydown', onKey, true);
}
