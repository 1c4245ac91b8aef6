/**
 * The app without a window: a tray icon (Linux, Windows; macOS keeps its dock icon) whose menu
 * shows what runs and opens the window or quits, kept current from the core's state.
 */
import { Menu, Tray, nativeImage } from 'electron';
import type { SwitchboardCore } from '../core/app';
import { activityOf, statusLine, trayMenu, type TrayAction } from './presence';

/** 32×32 indigo square with two bars: drawn here so the app needs no image file at run time. */
const TRAY_ICON_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAARklEQVR42mNgGAVYgL/b0/+0wKMOGBBLiXbMqAMG3AHPXvz/T0886oDB54DRXDDqgFEHjJYDow4YzQWjDhjtFwwqB4woAACezmKlMgf5xgAAAABJRU5ErkJggg==';

export interface TrayActions {
  open(): void;
  quit(): void;
}

export function installTray(core: SwitchboardCore, actions: TrayActions): () => void {
  const tray = new Tray(nativeImage.createFromBuffer(Buffer.from(TRAY_ICON_PNG_BASE64, 'base64')));
  const run = (action: TrayAction) => (action === 'open' ? actions.open() : actions.quit());
  const refresh = () => {
    const processes = core.listProcesses();
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
  refresh();
  tray.on('click', () => actions.open());
  const sub = core.onEvent((event) => {
    if (event.type === 'processAdded' || event.type === 'processChanged' || event.type === 'processRemoved') refresh();
  });
  return () => {
    sub.dispose();
    tray.destroy();
  };
}
