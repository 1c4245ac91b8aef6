/**
 * What switchboard.json's `worktrees` section does outside the repository — the folder worktrees
 * land in (`dir`), the files copied into them (`copy`), the commands run in them (`setup`) — is one
 * trust request under the key `worktrees`: none of it acts until a person trusted exactly that.
 */
import { dirname, relative, resolve, isAbsolute } from 'node:path';
import type { HeldEntry, ProjectTrust } from '../trust';
import type { WorktreesSection } from '../../../shared/config';
import { WORKTREES_TRUST_KEY } from '../../../shared/trust';

/** The trust request for the section (nothing when it sets none of dir, copy, setup). */
export function worktreesTrustRequest(section: WorktreesSection, projectDir: string): HeldEntry | undefined {
  const copy = section.copy ?? [];
  const setup = section.setup ?? [];
  if (section.dir === undefined && copy.length === 0 && setup.length === 0) return undefined;
  const dir = section.dir === undefined ? undefined : resolve(projectDir, section.dir);
  return {
    key: WORKTREES_TRUST_KEY,
    // The set-up as it runs: the commands, one shell each, in every new worktree's folder.
    spec: {
      name: WORKTREES_TRUST_KEY,
      kind: 'command',
      argv: setup.length > 0 ? ['/bin/sh', '-c', setup.join('\n')] : [],
      cwd: '${worktree}',
    },
    autoStart: false,
    worktrees: { ...(dir === undefined ? {} : { dir, dirEscapes: escapes(dir, projectDir) }), copy, setup },
  };
}

/** The section's dir, copy and setup when trusted as they are now; null while they wait (or never were). */
export function trustedWorktreeSettings(
  trust: Pick<ProjectTrust, 'isTrustedEntry'>,
  section: WorktreesSection,
  projectDir: string,
): Pick<WorktreesSection, 'dir' | 'copy' | 'setup'> | null {
  const request = worktreesTrustRequest(section, projectDir);
  if (request === undefined) return {};
  return trust.isTrustedEntry(request) ? { dir: request.worktrees!.dir, copy: section.copy, setup: section.setup } : null;
}

/** Outside the folder that holds the project (a sibling `../repo-worktrees` is the usual place). */
function escapes(dir: string, projectDir: string): boolean {
  const inside = relative(dirname(resolve(projectDir)), dir);
  return inside.startsWith('..') || isAbsolute(inside);
}
