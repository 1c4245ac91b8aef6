/** Drag a pane by its header onto another pane to move it there; the order is saved per project. */
import { useUi } from '../app/store';
import { arrangedIds, layoutKeyOf, moveBefore } from './view';

export const PANE_DRAG_TYPE = 'application/x-switchboard-pane';

export function dropPaneOn(movedKey: string, targetKey: string): void {
  const { order, processes, view, updateView } = useUi.getState();
  const keys = arrangedIds(order, processes, view).flatMap((id) => (processes[id] ? [layoutKeyOf(processes[id])] : []));
  updateView({ order: moveBefore(keys, movedKey, targetKey) });
}
