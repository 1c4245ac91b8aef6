import { useUi } from '../store';
import { Pane } from './Pane';

export function Grid() {
  const order = useUi((s) => s.order);
  const maximizedId = useUi((s) => s.maximizedId);
  if (order.length === 0) return <main className="grid empty">No processes yet — add one from the sidebar or switchboard.json.</main>;
  // Maximising hides the other panes but keeps them mounted, so their terminals keep their state.
  return (
    <main className={`grid${maximizedId ? ' has-maximized' : ''}`} data-testid="grid">
      {order.map((id) => (
        <div key={id} className={`cell${maximizedId === id ? ' maximized' : ''}${maximizedId && maximizedId !== id ? ' hidden' : ''}`}>
          <Pane id={id} />
        </div>
      ))}
    </main>
  );
}
