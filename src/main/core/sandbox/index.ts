export { sandboxCapability, allowSandboxTarget, platformBackend, SANDBOX, type SandboxCapabilityOptions } from './sandboxDecoration';
export { bwrapBackend, bwrapArgs, innerScript } from './bwrapBackend';
export { SandboxUnavailableError, unsupportedBackend, type SandboxBackend, type SandboxRunPlan } from './sandboxBackend';
export { sandboxMounts, type SandboxMounts } from './sandboxMounts';
export { placeholderKey, API_KEY_ROUTES } from './apiKeyRoutes';
export { createEgressProxy } from './egressProxy';
export { isAllowed } from './networkAllowlist';
