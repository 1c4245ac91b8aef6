import { useUi } from '../store';
import { Pane } from './Pane';
import { FirstRun } from './FirstRun';

export function Grid() {
  const order = useUi((s) => s.order);
  const maximizedId = useUi((s) => s.maximizedId);
  if (order.length === 0) return <FirstRun />;
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
