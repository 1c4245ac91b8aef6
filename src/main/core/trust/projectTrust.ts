/**
 * Project trust, after VS Code's Workspace Trust: a config entry runs only once the user trusted
 * exactly what it runs (its fingerprint). The first open of a project holds every entry; later, a
 * new entry or a change to an entry's command, env, cwd, agent argv or MCP scopes holds only
 * that entry — the user is asked about what changed, and sees it. A held entry starts nothing:
 * no auto-start, no live-edit restart, no manual start, until trust is granted.
 */
import { Emitter, type Event } from '../base';
import { InvalidArgumentError } from '../../../shared/errors';
import type { ProcessSpec } from '../../../shared/model';
import { FOLDER_TRUST_KEY, type ProjectTrustState, type TrustRequest, type WorktreeTrustFields } from '../../../shared/trust';
import { folderFingerprint, heldFingerprint, trustedFieldsOf } from './fingerprint';
import type { TrustStore } from './trustStore';

/** A config entry waiting for trust, with what to do once it is granted. */
export interface HeldEntry {
  key: string;
  /** The definition that waits for trust. */
  spec: ProcessSpec;
  autoStart: boolean;
  /** The trusted definition the entry still has, for a change (absent for a new entry). */
  previous?: ProcessSpec;
  /** For the `worktrees` section: what it does outside the repository (the fingerprint covers it instead of `spec`). */
  worktrees?: WorktreeTrustFields;
}

interface ProjectTrustOptions {
  /** Trust whatever the config holds (an embedder that asked elsewhere, unit tests). Nothing is stored. */
  trustEverything?: boolean;
}

export class ProjectTrust {
  private readonly granted: Map<string, string>;
  private readonly held = new Map<string, HeldEntry>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changed.event;

  constructor(
    readonly projectDir: string,
    private readonly store: TrustStore,
    private readonly options: ProjectTrustOptions = {},
  ) {
    this.granted = store.load(projectDir);
  }

  isTrusted(key: string, spec: ProcessSpec): boolean {
    return this.isTrustedEntry({ key, spec });
  }

  isTrustedEntry(entry: Pick<HeldEntry, 'key' | 'spec' | 'worktrees'>): boolean {
    return this.options.trustEverything === true || this.granted.get(entry.key) === heldFingerprint(entry);
  }

  /**
   * The folder itself is trusted: git may run there. Trusting anything of the project trusts it
   * (an entry runs a program in the folder, which is more than git), and so does trusting the
   * folder alone, which is what the prompt asks of a folder with nothing else to trust.
   */
  isFolderTrusted(): boolean {
    return this.options.trustEverything === true || this.granted.size > 0;
  }

  isHeld(key: string): boolean {
    return this.held.has(key);
  }

  heldEntry(key: string): HeldEntry | undefined {
    return this.held.get(key);
  }

  hold(entry: HeldEntry): void {
    const current = this.held.get(entry.key);
    if (current && heldFingerprint(current) === heldFingerprint(entry) && current.autoStart === entry.autoStart) return;
    this.held.set(entry.key, entry);
    this.changed.fire();
  }

  /**
   * The config application asks before it applies an entry: true when `spec` is trusted (any
   * earlier hold is released); otherwise the entry is held and false comes back.
   */
  admit(entry: HeldEntry): boolean {
    if (this.isTrustedEntry(entry)) {
      this.release(entry.key);
      return true;
    }
    this.hold(entry);
    return false;
  }

  /** Held keys the config no longer defines are dropped (nothing left to trust). */
  retainOnly(keys: ReadonlySet<string>): void {
    for (const key of [...this.held.keys()]) if (!keys.has(key)) this.release(key);
  }

  /** The entry left the config, or went back to what is trusted. */
  release(key: string): void {
    if (this.held.delete(key)) this.changed.fire();
  }

  /**
   * Trust the held entries named by `keys` (all of them when absent) as they are now, store it,
   * and hand them back for the caller to apply. Naming an entry that does not wait is an error
   * that lists those that do.
   */
  grant(keys?: readonly string[]): HeldEntry[] {
    const folderWaits = !this.isFolderTrusted();
    const chosen = keys ?? [...this.held.keys()];
    const unknown = chosen.filter((key) => !this.held.has(key) && !(key === FOLDER_TRUST_KEY && folderWaits));
    if (unknown.length > 0) {
      const waiting = this.state().pending.map((request) => request.key);
      throw new InvalidArgumentError(
        `Nothing waits for trust under ${unknown.map((k) => `"${k}"`).join(', ')}; ${waiting.length ? `waiting: ${waiting.join(', ')}` : 'nothing waits for trust'}`,
      );
    }
    const granted = chosen.filter((key) => key !== FOLDER_TRUST_KEY).map((key) => this.held.get(key)!);
    const grantsFolder = folderWaits && (keys === undefined || chosen.length > 0);
    if (granted.length === 0 && !grantsFolder) return [];
    if (folderWaits) this.granted.set(FOLDER_TRUST_KEY, folderFingerprint(this.projectDir));
    for (const entry of granted) {
      this.granted.set(entry.key, heldFingerprint(entry));
      this.held.delete(entry.key);
    }
    if (this.options.trustEverything !== true) this.store.save(this.projectDir, this.granted);
    this.changed.fire();
    return granted;
  }

  /**
   * `changed` when the key was trusted before under another definition — also after a restart,
   * when only the stored fingerprint remembers it — and `new` for a key never trusted.
   */
  changeOf(entry: Pick<HeldEntry, 'key' | 'previous'>): 'new' | 'changed' {
    return entry.previous || this.granted.has(entry.key) ? 'changed' : 'new';
  }

  /**
   * What waits. A folder with nothing else to trust (no switchboard.json, or an empty one) asks
   * about the folder itself; otherwise trusting any entry trusts the folder with it.
   */
  state(): ProjectTrustState {
    const folderTrusted = this.isFolderTrusted();
    const pending = [...this.held.values()].map((entry) => requestOf(entry, this.changeOf(entry)));
    if (!folderTrusted && pending.length === 0) pending.push(folderRequest(this.projectDir));
    return {
      trusted: pending.length === 0,
      folderTrusted,
      firstOpen: this.granted.size === 0 && this.options.trustEverything !== true,
      pending,
    };
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function requestOf(entry: HeldEntry, change: 'new' | 'changed'): TrustRequest {
  return {
    key: entry.key,
    name: entry.spec.configName ?? entry.spec.name,
    kind: entry.worktrees ? 'worktrees' : entry.spec.kind === 'agent' ? 'agent' : 'command',
    ...(entry.worktrees ? { worktrees: entry.worktrees } : {}),
    ...trustedFieldsOf(entry.spec),
    change,
    autoStart: entry.autoStart,
    ...(entry.previous ? { previous: trustedFieldsOf(entry.previous) } : {}),
  };
}

/** The folder itself: trusting it lets Switchboard run git there (hardened, docs/security.md). */
function folderRequest(projectDir: string): TrustRequest {
  return {
    key: FOLDER_TRUST_KEY,
    name: 'this folder',
    kind: 'folder',
    argv: ['git'],
    cwd: projectDir,
    env: {},
    change: 'new',
    autoStart: false,
  };
}
