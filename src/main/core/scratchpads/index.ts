export {
  ScratchpadStore,
  StaleRevisionError,
  ScratchpadNotFoundError,
  MAX_SCRATCHPAD_BYTES,
  type Scratchpad,
  type ScratchpadMeta,
  type WriteOptions,
} from './scratchpadStore';
