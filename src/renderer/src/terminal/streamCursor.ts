/** One chunk of an entry's output stream, with its byte range in the core's ring. */
interface StreamChunk {
  start: number;
  end: number;
}

/**
 * Where a pane stands in its entry's output stream. An attach asks the core for a snapshot and
 * its ring offset; chunks that arrive meanwhile wait, and afterwards only chunks past the offset
 * are written. Attaches can overlap (a reconnect's resync and a pane mounting at once): only the
 * newest one's snapshot applies, so chunks held for it are never written under an older snapshot
 * that the newer one's reset then erases.
 */
export class StreamCursor<C extends StreamChunk> {
  private generation = 0;
  private offset = -1;
  private held: C[] = [];

  /** Forgets the previous stream and starts an attach; pass the token to `snapshotArrived`. */
  begin(): number {
    this.forget();
    return this.generation;
  }

  /**
   * The snapshot of attach `token` arrived at ring `offset`: the chunks to write after it, or
   * undefined when a newer attach (or a detach) superseded this one and the snapshot is stale.
   */
  snapshotArrived(token: number, offset: number): C[] | undefined {
    if (token !== this.generation) return undefined;
    this.offset = offset;
    const held = this.held;
    this.held = [];
    return held.filter((chunk) => chunk.end > offset);
  }

  /** Whether a live chunk is to be written now (false: held for the snapshot, or already in it). */
  accept(chunk: C): boolean {
    if (this.offset < 0) {
      this.held.push(chunk);
      return false;
    }
    return chunk.end > this.offset;
  }

  /** Drops the offset and held chunks; a snapshot still on its way is stale from now on. */
  forget(): void {
    this.generation += 1;
    this.offset = -1;
    this.held = [];
  }
}
