/** Building blocks every capability uses: disposables, events, time and terminal text. */
export * from './lifecycle';
export { realClock, VirtualClock, type Clock } from './clock';
export { writeFileAtomic, writeFileAtomicAsync } from './atomicFile';
export { stripAnsi, stripAnsiKeepingCarriageReturns } from './terminalText';
export { serviceKey, ServiceRegistry, type ServiceKey } from './serviceKey';
export type { Capability, AttachedCapability } from './capability';
