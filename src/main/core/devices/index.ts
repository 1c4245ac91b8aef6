/** Paired devices (docs/devices.md): pairing codes, device credentials, what a device may call, single-use answers. */
export { Devices } from './devices';
export type { DevicePrincipal } from './deviceStore';
export type { PromptAction } from './actionTokens';
export { assertDeviceMayCall } from './devicePolicy';
export { parsePublicAccess } from './publicAccess';
export { deviceCommandHandler } from './deviceCommands';
