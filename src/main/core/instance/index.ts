export { acquireInstanceLock, InstanceLockedError, isPidAlive, lockPathFor, type InstanceLock } from './instanceLock';
