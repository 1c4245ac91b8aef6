/**
 * Commits a worktree's HEAD has that its base lacks, and the other way round. The counts are a pure
 * function of the two commits, so each pair is counted once (one `git rev-list`) and a HEAD that is
 * its base's commit needs no git at all: a list of unchanged worktrees runs no rev-list.
 */
import { aheadBehind, resolveCommit } from './repository';

interface AheadBehind {
  ahead: number;
  behind: number;
}

/** Pairs kept; a pair is two commit ids and two numbers, and a project has far fewer worktrees. */
const KNOWN_PAIRS_LIMIT = 1_000;
const EVEN: AheadBehind = { ahead: 0, behind: 0 };

export class AheadBehindCounts {
  private readonly known = new Map<string, Promise<AheadBehind>>();

  /** The counts of commit `head` against commit `base`, run in `dir` (any checkout of the repository). */
  of(dir: string, head: string, base: string): Promise<AheadBehind> {
    if (head === base) return Promise.resolve(EVEN);
    const key = `${head}...${base}`;
    let counts = this.known.get(key);
    if (!counts) {
      counts = aheadBehind(dir, head, base);
      this.known.set(key, counts);
      // A git that could not run (the folder went away) is asked again next time.
      counts.catch(() => this.known.delete(key));
      if (this.known.size > KNOWN_PAIRS_LIMIT) this.known.delete(this.known.keys().next().value!);
    }
    return counts;
  }
}

/** Where a read finds its base's commit. */
export type BaseCommits = (base: string) => Promise<string | null>;

/** Resolves each base's commit once for one listing (many worktrees share a base), in `dir`. */
export function baseCommitsIn(dir: string): BaseCommits {
  const commits = new Map<string, Promise<string | null>>();
  return (base) => {
    let commit = commits.get(base);
    if (!commit) {
      commit = resolveCommit(dir, base);
      commits.set(base, commit);
    }
    return commit;
  };
}
