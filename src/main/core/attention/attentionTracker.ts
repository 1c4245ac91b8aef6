/**
 * When a person is needed, per agent: an agent waiting for permission or an answer, blocked on
 * something a person must do, stuck, or an entry that asked for attention (a failed task, an MCP
 * request_attention). One piece of news per agent, replaced when what it asks changes, and a
 * `resolved` once it no longer needs anyone (answered in the pane, the inbox, MCP or a notification).
 * Routine transitions (starting, working, idle) are never news.
 */
import { basename } from 'node:path';
import type { ProjectWaitingAgent } from '../../../shared/inbox';
import type { AttentionNews } from './attentionNews';
import type { ProcessInfo } from '../../../shared/model';
import { DisposableStore, Emitter, type Event } from '../base';
import type { OpenProject, Workspace } from '../workspace';
import { linkedNews } from './linkedAttention';

export type { AttentionNews } from './attentionNews';

/** A hook can say "waiting for permission" a moment before the dialog is drawn: wait this long for its prompt. */
const PROMPT_DRAW_GRACE_MS = 1_000;
const PROMPT_POLL_MS = 50;
/** A linked host is read over its link: while a dialog is coming, read again this often. */
const LINKED_REREAD_MS = 200;

/** A hook announced a dialog that is not on screen yet: its news waits (briefly) for the prompt and its answers. */
function isDialogComing(row: ProjectWaitingAgent | undefined): boolean {
  return !!row && !row.fingerprint && !row.blocked && (row.detail === 'permission' || row.detail === 'question');
}

function needsPerson(info: ProcessInfo): boolean {
  return info.agent?.primary === 'waiting' || info.agent?.primary === 'stuck' || info.attention !== undefined;
}

export class AttentionTracker {
  private readonly newsEmitter = new Emitter<AttentionNews>();
  readonly onNews: Event<AttentionNews> = this.newsEmitter.event;
  /** What was last announced per agent, to tell news from repetition. */
  private readonly announced = new Map<string, AttentionNews>();
  private readonly store = new DisposableStore();
  private readonly perProject = new Map<string, DisposableStore>();
  private readonly pendingDraw = new Map<string, ReturnType<typeof setInterval>>();

  /** A read of the linked projects' waiting rows is under way; another is due after it. */
  private isReadingLinked = false;
  private isLinkedReadDue = false;
  /** Per linked agent whose dialog is coming: until when its news waits for the prompt. */
  private readonly linkedDrawUntil = new Map<string, number>();
  private linkedReread: ReturnType<typeof setTimeout> | undefined;
  private isDisposed = false;

  constructor(private readonly workspace: Workspace) {
    for (const project of workspace.list()) this.follow(project);
    this.store.add(workspace.onProjectOpened((project) => this.follow(project)));
    this.store.add(workspace.onProjectClosing((project) => this.unfollow(project)));
    // A remote host's counts changed, or one of its waiting agents did: read what its agents ask now.
    this.store.add(workspace.onChanged(() => void this.readLinked()));
    this.store.add(workspace.onLinkedWaitingChanged(() => void this.readLinked()));
  }

  /** Who needs a person now (a new channel or device catches up from here). */
  current(): AttentionNews[] {
    return [...this.announced.values()];
  }

  dispose(): void {
    this.isDisposed = true;
    clearTimeout(this.linkedReread);
    for (const timer of this.pendingDraw.values()) clearInterval(timer);
    for (const store of this.perProject.values()) store.dispose();
    this.store.dispose();
  }

  private follow(project: OpenProject): void {
    const store = new DisposableStore();
    store.add(
      project.handle.core.onEvent((event) => {
        if (event.type === 'attentionRequested') this.consider(project, event.id, event.reason);
        else if (event.type === 'processChanged') this.changed(project, event.process);
        else if (event.type === 'processRemoved') this.resolve(project, event.id);
      }),
    );
    this.perProject.set(project.id, store);
  }

  private unfollow(project: OpenProject): void {
    this.perProject.get(project.id)?.dispose();
    this.perProject.delete(project.id);
    for (const news of this.current()) if (news.project.id === project.id) this.resolve(project, news.entry.id);
  }

  private changed(project: OpenProject, info: ProcessInfo): void {
    const key = keyOf(project, info.id);
    const last = this.announced.get(key);
    if (last && !needsPerson(info)) return this.resolve(project, info.id);
    if (!last && info.agent?.primary === 'stuck') return this.consider(project, info.id, 'Stuck: no progress for a while');
    // Still waiting: a different prompt on screen is news that replaces the last.
    if (last) this.consider(project, info.id, last.reason);
  }

  private consider(project: OpenProject, entryId: string, reason: string): void {
    const key = keyOf(project, entryId);
    const row = this.waitingRow(project, entryId);
    if (isDialogComing(row) && !this.pendingDraw.has(key)) return this.awaitPrompt(project, entryId, reason);
    if (this.pendingDraw.has(key)) return;
    this.announce(project, entryId, reason, row);
  }

  /** Polls the screen briefly for the dialog a hook announced, then announces with or without it. */
  private awaitPrompt(project: OpenProject, entryId: string, reason: string): void {
    const key = keyOf(project, entryId);
    const startedAt = Date.now();
    const timer = setInterval(() => {
      const row = this.waitingRow(project, entryId);
      if (row?.fingerprint || !row || Date.now() - startedAt >= PROMPT_DRAW_GRACE_MS) {
        clearInterval(timer);
        this.pendingDraw.delete(key);
        if (row) this.announce(project, entryId, reason, row);
      }
    }, PROMPT_POLL_MS);
    this.pendingDraw.set(key, timer);
  }

  private announce(project: OpenProject, entryId: string, reason: string, row: ProjectWaitingAgent | undefined): void {
    const key = keyOf(project, entryId);
    const entry = project.handle.core.findEntry(entryId);
    if (!entry) return;
    const news: AttentionNews = {
      event: 'attention',
      key,
      project: { id: project.id, name: basename(project.dir) },
      entry: { id: entryId, name: entry.name },
      reason,
      ...(row && { question: row.question }),
      ...(row?.fingerprint && { prompt: { fingerprint: row.fingerprint, choices: row.choices } }),
      at: Date.now(),
    };
    const last = this.announced.get(key);
    if (last && last.question === news.question && last.prompt?.fingerprint === news.prompt?.fingerprint) return;
    this.announced.set(key, news);
    this.newsEmitter.fire(news);
  }

  private resolve(project: OpenProject, entryId: string): void {
    const key = keyOf(project, entryId);
    const pending = this.pendingDraw.get(key);
    if (pending) clearInterval(pending);
    this.pendingDraw.delete(key);
    const last = this.announced.get(key);
    if (!last) return;
    this.announced.delete(key);
    this.newsEmitter.fire({ ...last, event: 'resolved', at: Date.now() });
  }

  /** One read at a time; changes during a read ask for one more after it. */
  private async readLinked(): Promise<void> {
    if (this.isReadingLinked) {
      this.isLinkedReadDue = true;
      return;
    }
    this.isReadingLinked = true;
    try {
      do {
        this.isLinkedReadDue = false;
        const all = await this.workspace.listWaitingEverywhere().catch(() => undefined);
        if (this.isDisposed) return;
        if (all) this.applyLinked(all.filter((row) => this.workspace.linkedOwning(row.project.id) !== undefined));
      } while (this.isLinkedReadDue);
    } finally {
      this.isReadingLinked = false;
    }
  }

  private applyLinked(rows: ProjectWaitingAgent[]): void {
    // Every news not of a local project is a linked one's (also a host's that went away: its agents are resolved).
    const isLocal = (id: string) => this.workspace.list().some((p) => p.id === id);
    const linked = new Map([...this.announced].filter(([, news]) => !isLocal(news.project.id)));
    for (const news of linkedNews(linked, this.drawnOrDue(rows, linked), Date.now())) {
      if (news.event === 'attention') this.announced.set(news.key, news);
      else this.announced.delete(news.key);
      this.newsEmitter.fire(news);
    }
  }

  /**
   * The rows to announce now: a new agent whose dialog is announced but not drawn waits up to the
   * grace for its prompt (read again meanwhile), as a local one does, so its news can carry answers.
   */
  private drawnOrDue(rows: ProjectWaitingAgent[], announced: ReadonlyMap<string, AttentionNews>): ProjectWaitingAgent[] {
    const now = Date.now();
    const waitingFor = new Set<string>();
    const due = rows.filter((row) => {
      const key = `${row.project.id}:${row.id}`;
      if (announced.has(key) || !isDialogComing(row)) return true;
      const until = this.linkedDrawUntil.get(key) ?? now + PROMPT_DRAW_GRACE_MS;
      if (now >= until) return true;
      this.linkedDrawUntil.set(key, until);
      waitingFor.add(key);
      return false;
    });
    for (const key of this.linkedDrawUntil.keys()) if (!waitingFor.has(key)) this.linkedDrawUntil.delete(key);
    if (waitingFor.size > 0 && !this.linkedReread)
      this.linkedReread = setTimeout(() => {
        this.linkedReread = undefined;
        void this.readLinked();
      }, LINKED_REREAD_MS);
    return due;
  }

  private waitingRow(project: OpenProject, entryId: string): ProjectWaitingAgent | undefined {
    const row = project.handle.core.listWaiting().find((w) => w.id === entryId);
    return row && { ...row, project: { id: project.id, name: basename(project.dir) } };
  }
}

function keyOf(project: OpenProject, entryId: string): string {
  return `${project.id}:${entryId}`;
}
