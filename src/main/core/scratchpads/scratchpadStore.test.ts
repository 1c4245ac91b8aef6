import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_SCRATCHPAD_BYTES, ScratchpadStore, StaleRevisionError } from './scratchpadStore';

let dataDir: string;
let store: ScratchpadStore;
const by = 'p_aaaaaa';

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'scratchpads-'));
  store = ScratchpadStore.forProject(dataDir, '/some/project');
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('ScratchpadStore', () => {
  it('writes, reads, lists and bumps the revision on every change', async () => {
    expect(await store.list()).toEqual([]);
    const first = await store.write('plan', 'step 1\n', { by });
    expect(first).toMatchObject({ name: 'plan', revision: 1, bytes: 7, updated_by: by });
    const appended = await store.append('plan', 'step 2\n', { by: 'external' });
    expect(appended.revision).toBe(2);
    expect(await store.read('plan')).toMatchObject({ content: 'step 1\nstep 2\n', revision: 2, updated_by: 'external' });
    expect((await store.list()).map((p) => [p.name, p.revision])).toEqual([['plan', 2]]);
  });

  it('a stale expected_revision fails with the current revision and writes nothing', async () => {
    await store.write('plan', 'v1', { by });
    await store.write('plan', 'v2', { by, expectedRevision: 1 });
    const stale = store.write('plan', 'lost?', { by, expectedRevision: 1 });
    await expect(stale).rejects.toBeInstanceOf(StaleRevisionError);
    await expect(stale).rejects.toMatchObject({ code: 'stale_revision', details: { current_revision: 2, expected_revision: 1 } });
    await expect(stale).rejects.toThrow(/is at revision 2, not 1.*retry with expected_revision 2/);
    expect(await store.read('plan')).toMatchObject({ content: 'v2', revision: 2 });
  });

  it('expected_revision 0 creates only when absent', async () => {
    await store.write('notes', 'a', { by, expectedRevision: 0 });
    await expect(store.write('notes', 'b', { by, expectedRevision: 0 })).rejects.toThrow(/is at revision 1, not 0/);
  });

  it('keeps revisions monotonic through delete and re-create (no ABA)', async () => {
    await store.write('plan', 'v1', { by });
    await store.write('plan', 'v2', { by });
    expect(await store.delete('plan', { by, expectedRevision: 2 })).toEqual({ name: 'plan', deleted: true, revision: 3 });
    await expect(store.read('plan')).rejects.toMatchObject({ code: 'not_found' });
    expect(await store.list()).toEqual([]);
    const recreated = await store.write('plan', 'new', { by, expectedRevision: 0 });
    expect(recreated.revision).toBe(4);
    // A writer still holding revision 2 (from before the delete) cannot clobber the new content.
    await expect(store.write('plan', 'old writer', { by, expectedRevision: 2 })).rejects.toThrow(/revision 4/);
  });

  it('persists across store instances, one 0600 file per pad, no temp files left', async () => {
    await store.write('Plan', 'upper', { by });
    await store.write('plan', 'lower', { by });
    const again = ScratchpadStore.forProject(dataDir, '/some/project');
    expect(await again.read('Plan')).toMatchObject({ content: 'upper' });
    expect(await again.read('plan')).toMatchObject({ content: 'lower' });
    const files = readdirSync(again.dir);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(files).toHaveLength(2);
    for (const file of files) expect(statSync(join(again.dir, file)).mode & 0o777).toBe(0o600);
    expect(ScratchpadStore.forProject(dataDir, '/other/project').dir).not.toBe(again.dir);
  });

  it('skips unreadable files instead of failing every scratchpad', async () => {
    await store.write('good', 'ok', { by });
    writeFileSync(join(store.dir, 'broken.json'), '{ not json');
    const again = ScratchpadStore.forProject(dataDir, '/some/project');
    expect((await again.list()).map((p) => p.name)).toEqual(['good']);
  });

  it('rejects bad names and oversized content with a message, changing nothing', async () => {
    await expect(store.write('../escape', 'x', { by })).rejects.toThrow(/Invalid scratchpad name/);
    await expect(store.write('big', 'x'.repeat(MAX_SCRATCHPAD_BYTES + 1), { by })).rejects.toThrow(/limit is/);
    expect(await store.list()).toEqual([]);
  });

  it('racing writers on one revision: exactly one wins each round, nothing lost', async () => {
    let revision = 0;
    for (let round = 0; round < 20; round++) {
      const writers = Array.from({ length: 8 }, (_, i) =>
        store.write('race', `round ${round} writer ${i}`, { by: `w${i}`, expectedRevision: revision }),
      );
      const results = await Promise.allSettled(writers);
      const winners = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
      expect(winners).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(StaleRevisionError);
      revision += 1;
      expect(await store.read('race')).toMatchObject({ revision, content: `round ${round} writer ${winners[0]}` });
    }
    const appends = await Promise.all(Array.from({ length: 30 }, (_, i) => store.append('log', `${i}\n`, { by })));
    expect(new Set(appends.map((a) => a.revision)).size).toBe(30);
    const lines = (await store.read('log')).content
      .trim()
      .split('\n')
      .map(Number)
      .sort((a, b) => a - b);
    expect(lines).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });
});
