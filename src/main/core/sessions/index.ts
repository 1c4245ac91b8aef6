export { SessionManager, type SessionManagerOptions, type TaggedBatch } from './sessionManager';
export { ProcessEntry, DEFAULT_RING_BYTES, RUN_MARKER_ENV, type AttachSnapshot } from './processEntry';
export { ScreenModel } from './screenModel';
export { ByteRing, type RingRead } from './ringBuffer';
export { killTree, KILL_GRACE_MS } from './treeKill';
export { collectTree, readProcessTable, findByEnvMarker, isAlive as isProcessAlive } from './processTree';
export { HIGH_WATERMARK_BYTES, LOW_WATERMARK_BYTES, ACK_CHUNK_BYTES } from './flowControl';
export type { OutputBatch } from './outputBatcher';
export type * from './types';
export type { EntryDecoration, EntryDecorator, DecoratorContext } from './entryDecoration';
export {
  typeUserTurn,
  pasteSequence,
  waitForEcho,
  waitForScreen,
  settleAfterEcho,
  SUBMIT_ECHO_WAIT_MS,
  DEFAULT_SUBMIT_AFTER_ECHO_MS,
} from './userTurn';
export { resolveCommand } from './commandResolver';
