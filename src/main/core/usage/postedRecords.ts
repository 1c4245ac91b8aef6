/**
 * Records an agent's own plugin posts to the hook receiver, for a CLI whose usage is in no file
 * Switchboard can read (opencode's SQLite database): read like a file's new lines, each once.
 */
export class PostedRecords {
  private pending: unknown[] = [];

  push(record: unknown): void {
    this.pending.push(record);
  }

  read(): { records: unknown[]; restarted: boolean } {
    const records = this.pending;
    this.pending = [];
    return { records, restarted: false };
  }
}
