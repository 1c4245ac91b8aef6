/** Serves the control API of every open project over IPC to our own window only (senders validated). */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../../shared/api';
import { toSerializedError } from '../../shared/errors';
import { WorkspaceClientSession } from '../core/bridge';
import type { Workspace } from '../core/workspace';

export function installIpcBridge(workspace: Workspace, win: BrowserWindow, isTrustedUrl: (url: string) => boolean): () => void {
  const client = new WorkspaceClientSession(workspace, (event, project) => {
    if (win.isDestroyed()) return;
    // Output is a view on a shared slab; IPC's structured clone would send the whole slab.
    win.webContents.send(IPC_EVENT_CHANNEL, event.type === 'output' ? { ...event, data: Uint8Array.from(event.data) } : event, project);
  });
  const handler = async (event: IpcMainInvokeEvent, cmd: unknown, args: unknown, project: unknown) => {
    if (event.sender !== win.webContents || !isTrustedUrl(event.senderFrame?.url ?? '')) {
      return { ok: false, error: { code: 'unauthorized', message: 'IPC sender is not the Switchboard window' } };
    }
    try {
      return { ok: true, value: (await client.call(cmd, args, project ?? undefined)) ?? null };
    } catch (err) {
      return { ok: false, error: toSerializedError(err) };
    }
  };
  ipcMain.handle(IPC_CALL_CHANNEL, handler);
  return () => {
    ipcMain.removeHandler(IPC_CALL_CHANNEL);
    client.dispose();
  };
}
