/**
 * Exposes the control API to the page and nothing else: no ipcRenderer, no Node.
 * Arguments are validated again in the main process (zod); this side only forwards.
 */
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../shared/ipc';
import type { ControlEvent } from '../shared/api';
import { fromSerializedError, type SerializedError } from '../shared/errors';

type CallReply = { ok: true; value: unknown } | { ok: false; error: SerializedError };

const api = {
  /** `project`: the open project the call is for (absent: workspace commands, or the active project). */
  async call(cmd: string, args: unknown, project?: string): Promise<unknown> {
    const reply = (await ipcRenderer.invoke(IPC_CALL_CHANNEL, cmd, args, project)) as CallReply;
    if (!reply.ok) throw fromSerializedError(reply.error);
    return reply.value;
  },
  onEvent(listener: (event: ControlEvent, project?: string) => void): () => void {
    const handler = (_e: IpcRendererEvent, event: ControlEvent, project?: string) => listener(event, project);
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
    return () => ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
  },
  /** Where a dropped folder lives: the page itself never sees file system paths. */
  pathForFile(file: File): string {
    return webUtils.getPathForFile(file);
  },
};

contextBridge.exposeInMainWorld('switchboard', api);
