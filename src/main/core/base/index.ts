/** Building blocks every capability uses: disposables, events and time. */
export * from './lifecycle';
export { realClock, VirtualClock, type Clock } from './clock';
export { writeFileAtomic } from './atomicFile';
