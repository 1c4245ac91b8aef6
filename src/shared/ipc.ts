/** IPC channel names (Electron); kept free of imports so the sandboxed preload stays tiny. */
export const IPC_CALL_CHANNEL = 'switchboard:call';
export const IPC_EVENT_CHANNEL = 'switchboard:event';
