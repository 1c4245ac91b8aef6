export { acquireInstanceLock, InstanceLockedError, isPidAlive } from './instanceLock';
