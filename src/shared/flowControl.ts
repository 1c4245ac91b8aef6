/**
 * Flow-control constants shared by the core (which pauses PTYs) and the renderer (which
 * acknowledges), after VS Code's FlowControlConstants. Units are bytes of PTY output.
 */

/** Pause the PTY once a viewer has this many unacknowledged bytes (VS Code: 100k). */
export const HIGH_WATERMARK_BYTES = 100_000;
/** Resume once every viewer is below this (VS Code: 5k). */
export const LOW_WATERMARK_BYTES = 5_000;
/**
 * Viewers acknowledge in chunks of this size. Must stay ≤ LOW_WATERMARK_BYTES: otherwise a
 * viewer could hold < ACK_CHUNK_BYTES unacknowledged forever above the low watermark and the
 * PTY would never resume.
 */
export const ACK_CHUNK_BYTES = 5_000;
