import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProjectWaitingAgent } from '../../../shared/inbox';
import { Emitter } from '../base';
import type { Workspace } from '../workspace';
import type { AttentionNews } from './attentionNews';
import { AttentionTracker } from './attentionTracker';

/** A workspace with no local project and one linked host whose waiting rows the test sets. */
function linkedOnlyWorkspace() {
  const changed = new Emitter<void>();
  const waitingChanged = new Emitter<void>();
  const none = new Emitter<never>();
  let rows: ProjectWaitingAgent[] = [];
  let reads = 0;
  const workspace = {
    list: () => [],
    onProjectOpened: none.event,
    onProjectClosing: none.event,
    onChanged: changed.event,
    onLinkedWaitingChanged: waitingChanged.event,
    listWaitingEverywhere: () => {
      reads++;
      return Promise.resolve(rows);
    },
    linkedOwning: () => ({}),
  } as unknown as Workspace;
  return {
    workspace,
    reads: () => reads,
    /** The host's agents as its next read will list them, and the host's news of a change. */
    hostShows(next: ProjectWaitingAgent[]) {
      rows = next;
      waitingChanged.fire();
    },
  };
}

/** A host's Claude Code whose hook said "waiting for permission"; the dialog is drawn when `fingerprint` is set. */
function permissionRow(fingerprint?: string): ProjectWaitingAgent {
  return {
    id: 'e1',
    name: 'claude',
    detail: 'permission',
    question: fingerprint ? 'Bash command: npm publish — Do you want to proceed?' : '',
    choices: fingerprint ? [{ id: 'approve', label: 'Yes' }] : [],
    ...(fingerprint && { fingerprint }),
    since: 1,
    project: { id: 'rp_1', name: 'shop', host: 'build-box' },
  } as ProjectWaitingAgent;
}

describe("AttentionTracker: a linked host's dialog announced before it is drawn", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function track() {
    const host = linkedOnlyWorkspace();
    const tracker = new AttentionTracker(host.workspace);
    const news: AttentionNews[] = [];
    tracker.onNews((n) => news.push(n));
    return { host, tracker, news };
  }

  it('waits for the prompt, reading the host again meanwhile, and announces it with its answers once drawn', async () => {
    const { host, tracker, news } = track();
    host.hostShows([permissionRow()]);
    await vi.advanceTimersByTimeAsync(0);
    expect(news).toEqual([]);
    const readsBefore = host.reads();
    await vi.advanceTimersByTimeAsync(400);
    expect(host.reads()).toBeGreaterThan(readsBefore); // re-read on its own: the host sends no news of a drawn dialog
    expect(news).toEqual([]);
    host.hostShows([permissionRow('fp1')]);
    await vi.advanceTimersByTimeAsync(0);
    expect(news).toHaveLength(1);
    expect(news[0]).toMatchObject({ event: 'attention', key: 'rp_1:e1', prompt: { fingerprint: 'fp1', choices: [{ id: 'approve' }] } });
    tracker.dispose();
  });

  it('announces without answers once the grace is over if the dialog never comes, and stops reading', async () => {
    const { host, tracker, news } = track();
    host.hostShows([permissionRow()]);
    await vi.advanceTimersByTimeAsync(900);
    expect(news).toEqual([]);
    await vi.advanceTimersByTimeAsync(400);
    expect(news).toHaveLength(1);
    expect(news[0].event).toBe('attention');
    expect(news[0].prompt).toBeUndefined();
    const readsAfter = host.reads();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(host.reads()).toBe(readsAfter);
    tracker.dispose();
  });

  it('an agent that stops waiting before its dialog is drawn is never news', async () => {
    const { host, tracker, news } = track();
    host.hostShows([permissionRow()]);
    await vi.advanceTimersByTimeAsync(300);
    host.hostShows([]);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(news).toEqual([]);
    tracker.dispose();
  });
});
