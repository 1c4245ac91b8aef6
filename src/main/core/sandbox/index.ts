export { sandboxCapability, allowSandboxTarget, type SandboxCapabilityOptions } from './sandboxDecoration';
export { bwrapArgs, innerScript } from './bwrapBackend';
export { placeholderKey } from './apiKeyRoutes';
export type { SandboxBackend } from './sandboxBackend';
