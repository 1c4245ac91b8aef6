/** The transport that serves the UI to a browser: a WebSocket per client, dispatching to SwitchboardCore. */
export { startWebServer, type RunningWebServer } from './webServer';
export { ControlClientSession } from './controlClientSession';
export { dispatchSharedCommand, parseCommandArgs } from './commandDispatch';
export { WorkspaceClientSession } from './workspaceClientSession';
export { startDeviceServer, type RunningDeviceServer } from './deviceServer';
