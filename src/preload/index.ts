/**
 * Exposes the control API to the page and nothing else: no ipcRenderer, no Node.
 * Arguments are validated again in the main process (zod); this side only forwards.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../shared/ipc';
import type { ControlEvent } from '../shared/api';
import { fromSerializedError, type SerializedError } from '../shared/errors';

type CallReply = { ok: true; value: unknown } | { ok: false; error: SerializedError };

const api = {
  async call(cmd: string, args: unknown): Promise<unknown> {
    const reply = (await ipcRenderer.invoke(IPC_CALL_CHANNEL, cmd, args)) as CallReply;
    if (!reply.ok) throw fromSerializedError(reply.error);
    return reply.value;
  },
  onEvent(listener: (event: ControlEvent) => void): () => void {
    const handler = (_e: IpcRendererEvent, event: ControlEvent) => listener(event);
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
    return () => ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
  },
};

contextBridge.exposeInMainWorld('switchboard', api);
