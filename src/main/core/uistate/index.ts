/** Per-project view state (theme, zoom, layout) kept by the core for every UI. */
export { FileUiStateStore, MemoryUiStateStore, applyUiStatePatch, updateUiState, type UiStateStore } from './uiStateStore';
