/** Building blocks every capability uses: disposables, events, time and terminal text. */
export * from './lifecycle';
export { realClock, VirtualClock, type Clock } from './clock';
export { writeFileAtomic, writeFileAtomicAsync } from './atomicFile';
export { stripAnsi, stripAnsiKeepingCarriageReturns } from './terminalText';
