/** The transport that serves the UI to a browser: a WebSocket per client, dispatching to SwitchboardCore. */
export { startWebServer, MAX_WS_MESSAGE_BYTES, WS_PATH, type WebServerOptions, type RunningWebServer } from './webServer';
export { ControlClientSession } from './controlClientSession';
export { dispatchSharedCommand, parseCommandArgs, isCommandName } from './commandDispatch';
export { WorkspaceClientSession, type EmitToViewer } from './workspaceClientSession';
