/**
 * A project's worktrees: the main checkout plus the ones Switchboard made in its managed folder.
 * Every operation goes through the real git CLI; mutations run one at a time, so two requests
 * never pick the same name or folder. Closing the project never removes a worktree.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { Emitter, type Disposable } from '../base';
import {
  MAIN_WORKTREE_ID,
  WorktreeIdSchema,
  type CreateWorktreeArgs,
  type MergeResult,
  type MergeStrategy,
  type PullRequestAvailability,
  type RemoveResult,
  type StaleWorktree,
  type WorktreeDiff,
  type WorktreeInfo,
  type WorktreeStatus,
} from '../../../shared/worktree';
import { git } from './gitCli';
import {
  assertNoSubmodules,
  branchExists,
  changedPaths,
  commitIdentityArgs,
  currentBranch,
  isValidBranchName,
  repositoryRoot,
  resolveCommit,
} from './repository';
import { diffAgainstBase } from './worktreeDiff';
import { refreshIndexOnceSettled } from './indexRefresh';
import { baseCommitsIn, type BaseCommits } from './aheadBehind';
import { mapLimited, WorktreeStatusCache } from './worktreeStatus';
import { diskBytes, staleEntry, staleReasons } from './staleWorktrees';
import type { WorktreeDirectory } from './worktreeDirectory';
import { WorktreeError } from './worktreeError';
import { mergeIntoBase } from './worktreeMerge';
import { removeWorktreeSafely } from './worktreeRemoval';
import { pullRequestAvailability, pushAndOpenPullRequest } from './pullRequest';
import { copyUntrackedFiles } from './worktreeSetup';
import type { WorktreeRecord, WorktreeStore } from './worktreeStore';

/** Generated names are `wt-1`, `wt-2`, …; branches `switchboard/<name>` unless one is given. */
const GENERATED_NAME_PREFIX = 'wt-';
const BRANCH_PREFIX = 'switchboard/';
const UNTRUSTED_FOLDER_REASON =
  'Switchboard runs no git in a folder before you trust it: trust this project to see and manage its worktrees';

/** `list_worktrees`: the worktrees, or none and why. */
interface WorktreeOverview {
  worktrees: WorktreeStatus[];
  /** Set while the folder is not trusted: no git ran, nothing is listed. */
  untrusted?: string;
}

export interface WorktreeManagerOptions {
  projectDir: string;
  /** This project's managed folder (read at each creation: switchboard.json may change it); each worktree is a sub-folder named after its id. */
  managedDir: string | (() => string);
  store: WorktreeStore;
  /** `worktrees.copy` of the project's switchboard.json, read at each creation. */
  copyGlobs?: () => readonly string[];
  /** Entries run in the worktree: it is not removed meanwhile. */
  isInUse?: (worktreeId: string) => boolean;
  /** A worktree was removed (its ports go back to the pool). */
  onDidRemove?: (worktreeId: string) => void;
  /** The folder is trusted: before, no git runs in it at all (docs/security.md, "Hostile folders"). Trusted when absent. */
  mayRunGit?: () => boolean;
  now?: () => Date;
}

interface CreateWorktreeRequest extends CreateWorktreeArgs {
  /** Id of the entry that asked (an agent's MCP call); it may manage what it created. */
  createdBy?: string | null;
}

export class WorktreeManager implements WorktreeDirectory, Disposable {
  private records: WorktreeRecord[];
  private mainPath: string;
  private mainBranch: string | null = null;
  /** The repository's root does not move while it is open: found once, it is not asked again. */
  private isMainRootKnown = false;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly statusCache = new WorktreeStatusCache();
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly options: WorktreeManagerOptions) {
    this.records = options.store.load();
    this.mainPath = resolve(options.projectDir);
  }

  /** Learns where the main checkout is and what it has checked out; a project outside git keeps working. */
  async refreshMain(): Promise<void> {
    if (!this.mayRunGit()) return;
    try {
      this.mainPath = await repositoryRoot(this.options.projectDir);
      this.isMainRootKnown = true;
      this.mainBranch = await currentBranch(this.mainPath);
    } catch (err) {
      if (!(err instanceof WorktreeError)) throw err;
    }
  }

  list(): WorktreeInfo[] {
    return [this.mainInfo(), ...this.records.map(toInfo)];
  }

  get(id: string): WorktreeInfo | undefined {
    return this.list().find((info) => info.id === id);
  }

  /** Who created it: an entry may manage the worktrees it created. */
  creatorOf(id: string): string | null {
    return this.records.find((record) => record.id === id)?.createdBy ?? null;
  }

  create(request: CreateWorktreeRequest): Promise<WorktreeInfo> {
    return this.serialized(() => this.createNow(request));
  }

  /** The list as `list_worktrees` and the sidebar show it: nothing, and why, until the folder is trusted. */
  async overview(): Promise<WorktreeOverview> {
    if (!this.mayRunGit()) return { worktrees: [], untrusted: UNTRUSTED_FOLDER_REASON };
    return { worktrees: await this.status() };
  }

  /** The folder became trusted (or trust changed): read the main checkout now, and tell the views. */
  async onTrustChanged(): Promise<void> {
    if (!this.mayRunGit() || this.isMainRootKnown) return;
    await this.refreshMain();
    this.changed.fire();
  }

  /** Every worktree's status; the main checkout's branch is read from its own `git status`. */
  async status(): Promise<WorktreeStatus[]> {
    this.assertMayRunGit();
    if (!this.isMainRootKnown) await this.refreshMain();
    const entries: Array<[WorktreeInfo, WorktreeRecord | null]> = [
      [this.mainInfo(), null],
      ...this.records.map((r) => [toInfo(r), r] as [WorktreeInfo, WorktreeRecord]),
    ];
    const baseCommits = baseCommitsIn(this.mainPath);
    const statuses = await mapLimited(entries, ([info, record]) => this.statusOf(info, record, baseCommits));
    this.mainBranch = statuses[0].branch;
    return statuses;
  }

  async diff(id: string): Promise<WorktreeDiff> {
    this.assertMayRunGit();
    const record = this.managed(id);
    this.assertFolder(record);
    return { worktree: id, base: record.base, files: await diffAgainstBase(record.path, record.base) };
  }

  commit(id: string, message: string): Promise<string> {
    return this.serialized(async () => {
      this.assertMayRunGit();
      const record = this.managed(id);
      this.assertFolder(record);
      if ((await changedPaths(record.path)).length === 0)
        throw new WorktreeError('nothing_to_commit', `Worktree "${id}" has no uncommitted changes.`);
      await git(record.path, ['add', '--all']);
      await git(record.path, [...(await commitIdentityArgs(record.path)), 'commit', '--quiet', '-m', message]);
      this.statusCache.forget(id);
      return (await resolveCommit(record.path, 'HEAD')) ?? '';
    });
  }

  merge(id: string, strategy: MergeStrategy = 'merge'): Promise<MergeResult> {
    return this.serialized(async () => {
      this.assertMayRunGit();
      const record = this.managed(id);
      this.assertFolder(record);
      const branch = await this.checkedOutBranch(record);
      const commit = await mergeIntoBase({
        repoRoot: this.mainPath,
        worktreeDir: record.path,
        worktreeId: id,
        branch,
        base: record.base,
        strategy,
      });
      this.statusCache.forget(id);
      this.statusCache.forget(MAIN_WORKTREE_ID);
      this.touch(record);
      return { worktree: id, base: record.base, strategy, commit };
    });
  }

  /** Whether the user's `gh` can open a pull request for this worktree, or why not. */
  pullRequestAvailability(id: string): Promise<PullRequestAvailability> {
    this.assertMayRunGit();
    const record = this.managed(id);
    this.assertFolder(record);
    return pullRequestAvailability(record.path);
  }

  /** Pushes the worktree's branch and opens a pull request into its base with the user's `gh`; its URL comes back. */
  openPullRequest(id: string): Promise<string> {
    return this.serialized(async () => {
      this.assertMayRunGit();
      const record = this.managed(id);
      this.assertFolder(record);
      const url = await pushAndOpenPullRequest(record.path, await this.checkedOutBranch(record), record.base);
      this.touch(record);
      return url;
    });
  }

  remove(id: string, force = false): Promise<RemoveResult> {
    return this.serialized(async () => {
      this.assertMayRunGit();
      const record = this.managed(id);
      if (this.options.isInUse?.(id))
        throw new WorktreeError('in_use', `Worktree "${id}" has entries running in it: stop them before removing it.`);
      const savedTo = await removeWorktreeSafely({ repoRoot: this.mainPath, record, force, stamp: timestamp(this.now()) });
      this.records = this.records.filter((other) => other.id !== id);
      this.statusCache.forget(id);
      this.persist();
      this.options.onDidRemove?.(id);
      return { worktree: id, savedTo };
    });
  }

  /** The prune view: worktrees whose folder is gone, whose branch is merged, or unused for `unusedDays`, with their disk use. */
  async stale(unusedDays: number): Promise<StaleWorktree[]> {
    const statuses = (await this.status()).filter((status) => !status.isMain);
    const found: StaleWorktree[] = [];
    for (const status of statuses) {
      const record = this.records.find((other) => other.id === status.id);
      if (!record) continue;
      const reasons = await staleReasons(record, status, unusedDays, this.now());
      if (reasons.length > 0) found.push(staleEntry(status, reasons, status.isMissing ? 0 : await diskBytes(record.path), record));
    }
    return found;
  }

  /** An entry started or ran in it: the prune view's "unused for N days" counts from here. */
  markUsed(id: string): void {
    const record = this.records.find((other) => other.id === id);
    if (record) this.touch(record);
  }

  dispose(): void {
    this.changed.dispose();
  }

  private async createNow(request: CreateWorktreeRequest): Promise<WorktreeInfo> {
    this.assertMayRunGit();
    const root = await repositoryRoot(this.options.projectDir);
    this.mainPath = root;
    assertNoSubmodules(root);
    const id = request.name ?? (await this.generatedName(root));
    const branch = request.branch ?? `${BRANCH_PREFIX}${id}`;
    const base = request.base ?? (await this.defaultBase(root));
    const path = join(this.managedRoot(root), id);
    await this.assertCreatable(root, { id, branch, base, path });
    const startCommit = (await resolveCommit(root, base)) ?? '';
    await git(root, ['worktree', 'add', '--quiet', '-b', branch, path, base]);
    await copyUntrackedFiles(root, path, this.options.copyGlobs?.() ?? []);
    const at = this.now().toISOString();
    const record: WorktreeRecord = {
      id,
      path,
      branch,
      base,
      startCommit,
      createdBy: request.createdBy ?? null,
      createdAt: at,
      lastUsedAt: at,
    };
    this.records.push(record);
    this.persist();
    void refreshIndexOnceSettled(path);
    return toInfo(record);
  }

  private async assertCreatable(root: string, target: { id: string; branch: string; base: string; path: string }): Promise<void> {
    const name = WorktreeIdSchema.safeParse(target.id);
    if (!name.success)
      throw new WorktreeError('name_taken', `"${target.id}" is not a usable worktree name: ${name.error.issues[0].message}.`);
    if (target.id === MAIN_WORKTREE_ID || this.records.some((record) => record.id === target.id))
      throw new WorktreeError('name_taken', `A worktree named "${target.id}" already exists: pick another name.`);
    if (!(await isValidBranchName(root, target.branch)))
      throw new WorktreeError('bad_branch', `"${target.branch}" is not a valid branch name.`);
    if (await branchExists(root, target.branch))
      throw new WorktreeError(
        'branch_exists',
        `Branch "${target.branch}" already exists: pick another branch name (a worktree makes a new branch).`,
      );
    if ((await resolveCommit(root, target.base)) === null)
      throw new WorktreeError('bad_base', `The base "${target.base}" is not a branch or commit of this repository.`);
    if (existsSync(target.path))
      throw new WorktreeError('folder_exists', `The folder ${target.path} already exists: pick another name, or remove it.`);
  }

  private async defaultBase(root: string): Promise<string> {
    const branch = await currentBranch(root);
    if (branch === null)
      throw new WorktreeError(
        'detached_head',
        `The main checkout is on a detached HEAD, so there is no current branch to start from: pass a base.`,
      );
    if ((await resolveCommit(root, branch)) === null)
      throw new WorktreeError('bad_base', `The current branch "${branch}" has no commits yet: commit once before making worktrees.`);
    return branch;
  }

  private async generatedName(root: string): Promise<string> {
    for (let n = 1; ; n++) {
      const id = `${GENERATED_NAME_PREFIX}${n}`;
      const taken =
        this.records.some((record) => record.id === id) ||
        existsSync(join(this.managedRoot(root), id)) ||
        (await branchExists(root, `${BRANCH_PREFIX}${id}`));
      if (!taken) return id;
    }
  }

  /** The managed folder must lie outside the repository, or the main checkout would see every worktree as untracked files. */
  private managedRoot(root: string): string {
    const managed = this.options.managedDir;
    const dir = resolve(this.options.projectDir, typeof managed === 'string' ? managed : managed());
    const inside = relative(root, dir);
    if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside)))
      throw new WorktreeError(
        'folder_exists',
        `The worktrees folder ${dir} lies inside the repository ${root}: set worktrees.dir to a folder outside it.`,
      );
    return dir;
  }

  private async statusOf(info: WorktreeInfo, record: WorktreeRecord | null, baseCommits: BaseCommits): Promise<WorktreeStatus> {
    const common = { createdBy: record?.createdBy ?? null, createdAt: record?.createdAt ?? '' };
    if (!existsSync(info.path)) return { ...info, ahead: 0, behind: 0, changedFiles: 0, isMissing: true, ...common };
    const read = await this.statusCache.get(info.id, info.path, record?.base ?? null, baseCommits).catch(() => null);
    if (read === null) return { ...info, ahead: 0, behind: 0, changedFiles: 0, isMissing: false, ...common };
    return { ...info, ...read, isMissing: false, ...common };
  }

  private async checkedOutBranch(record: WorktreeRecord): Promise<string> {
    const branch = await currentBranch(record.path);
    if (branch === null)
      throw new WorktreeError('detached_head', `Worktree "${record.id}" is on a detached HEAD: check out a branch in it before merging.`);
    return branch;
  }

  private mayRunGit(): boolean {
    return this.options.mayRunGit?.() ?? true;
  }

  private assertMayRunGit(): void {
    if (!this.mayRunGit()) throw new WorktreeError('not_trusted', `${UNTRUSTED_FOLDER_REASON} (${this.options.projectDir})`);
  }

  private managed(id: string): WorktreeRecord {
    if (id === MAIN_WORKTREE_ID)
      throw new WorktreeError('main_worktree', 'The main checkout is not a managed worktree: this acts on the worktrees Switchboard made.');
    const record = this.records.find((other) => other.id === id);
    if (!record) throw new WorktreeError('unknown_worktree', `Unknown worktree "${id}". Call list_worktrees to see the ids.`);
    return record;
  }

  private assertFolder(record: WorktreeRecord): void {
    if (!existsSync(record.path))
      throw new WorktreeError(
        'unknown_worktree',
        `The folder of worktree "${record.id}" (${record.path}) no longer exists: remove the worktree to clear it.`,
      );
  }

  private mainInfo(): WorktreeInfo {
    return { id: MAIN_WORKTREE_ID, name: MAIN_WORKTREE_ID, path: this.mainPath, branch: this.mainBranch, base: null, isMain: true };
  }

  private touch(record: WorktreeRecord): void {
    record.lastUsedAt = this.now().toISOString();
    this.persist();
  }

  private persist(): void {
    this.options.store.save(this.records);
    this.changed.fire();
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** Mutations wait for the one before: names, folders and branches are checked and taken atomically. */
  private serialized<T>(operation: () => Promise<T>): Promise<T> {
    const next = this.queue.then(operation, operation);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

function toInfo(record: WorktreeRecord): WorktreeInfo {
  return { id: record.id, name: record.id, path: record.path, branch: record.branch, base: record.base, isMain: false };
}

function timestamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
}
