export { SessionManager, type TaggedBatch } from './sessionManager';
export { ProcessEntry, RUN_MARKER_ENV } from './processEntry';
export { ScreenModel } from './screenModel';
export { sharedScreenPool } from './screenPool';
export { sharedPtyHost, endSharedPtys, type PtySpawner } from './ptyHost';
export { killTree } from './treeKill';
export { collectTree, readProcessTable, findByEnvMarker, isAlive as isProcessAlive } from './processTree';
export type * from './types';
export type { EntryDecoration, EntryDecorator, DecoratorContext, DecorationKey } from './entryDecoration';
export { KeyedStateDecoration } from './keyedStateDecoration';
export {
  typeUserTurn,
  isTextOnScreen,
  pasteSequence,
  waitForEcho,
  waitForScreen,
  settleAfterEcho,
  DEFAULT_SUBMIT_AFTER_ECHO_MS,
} from './userTurn';
export { resolveCommand } from './commandResolver';
export { TURN_GATE, DeliveryHeldError, type TurnGate } from './turnGate';
