/**
 * The app without a window: a tray icon (Linux, Windows; macOS keeps its dock icon) whose menu
 * shows what runs and opens the window or quits, kept current from the core's state.
 */
import { Menu, Tray, nativeImage } from 'electron';
import { DisposableStore } from '../core/base';
import type { OpenProject, Workspace } from '../core/workspace';
import { activityOf, statusLine, trayMenu, type TrayAction } from './presence';

/** 32×32 indigo square with two bars: drawn here so the app needs no image file at run time. */
const TRAY_ICON_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAARklEQVR42mNgGAVYgL/b0/+0wKMOGBBLiXbMqAMG3AHPXvz/T0886oDB54DRXDDqgFEHjJYDow4YzQWjDhjtFwwqB4woAACezmKlMgf5xgAAAABJRU5ErkJggg==';

interface TrayActions {
  open(): void;
  quit(): void;
}

/** Every open project's processes: the tray speaks for the whole app. */
function allProcesses(workspace: Workspace) {
  return workspace.list().flatMap((project) => project.handle.core.listProcesses());
}

export function installTray(workspace: Workspace, actions: TrayActions): () => void {
  const tray = new Tray(nativeImage.createFromBuffer(Buffer.from(TRAY_ICON_PNG_BASE64, 'base64')));
  const run = (action: TrayAction) => (action === 'open' ? actions.open() : actions.quit());
  const refresh = () => {
    const processes = allProcesses(workspace);
    tray.setToolTip(`Switchboard — ${statusLine(activityOf(processes))}`);
    tray.setContextMenu(
      Menu.buildFromTemplate(
        trayMenu(processes).map((item) =>
          item.separator
            ? { type: 'separator' as const }
            : { label: item.label, enabled: item.action !== undefined, click: item.action ? () => run(item.action!) : undefined },
        ),
      ),
    );
  };
  const store = new DisposableStore();
  const perProject = new Map<string, { dispose(): void }>();
  const follow = (project: OpenProject) =>
    perProject.set(
      project.id,
      project.handle.core.onEvent((event) => {
        if (event.type === 'processAdded' || event.type === 'processChanged' || event.type === 'processRemoved') refresh();
      }),
    );
  for (const project of workspace.list()) follow(project);
  store.add(workspace.onProjectOpened(follow));
  store.add(
    workspace.onProjectClosing((project) => {
      perProject.get(project.id)?.dispose();
      perProject.delete(project.id);
    }),
  );
  store.add(workspace.onChanged(refresh));
  refresh();
  tray.on('click', () => actions.open());
  return () => {
    for (const sub of perProject.values()) sub.dispose();
    perProject.clear();
    store.dispose();
    tray.destroy();
  };
}
