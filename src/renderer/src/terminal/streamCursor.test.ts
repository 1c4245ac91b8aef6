import { describe, expect, it } from 'vitest';
import { StreamCursor } from './streamCursor';

const chunk = (start: number, end: number) => ({ start, end });

describe('StreamCursor', () => {
  it('holds chunks until the snapshot, then writes only those past its offset', () => {
    const cursor = new StreamCursor();
    const token = cursor.begin();
    expect(cursor.accept(chunk(0, 10))).toBe(false);
    expect(cursor.accept(chunk(10, 20))).toBe(false);
    expect(cursor.snapshotArrived(token, 10)).toEqual([chunk(10, 20)]);
    expect(cursor.accept(chunk(5, 10))).toBe(false);
    expect(cursor.accept(chunk(20, 30))).toBe(true);
  });

  it('overlapping attaches: the older snapshot is stale and does not take the chunks held for the newer', () => {
    const cursor = new StreamCursor();
    const first = cursor.begin();
    const second = cursor.begin();
    expect(cursor.accept(chunk(0, 8))).toBe(false); // e.g. the first line of a just-started run
    expect(cursor.snapshotArrived(first, 0)).toBeUndefined();
    expect(cursor.accept(chunk(8, 16))).toBe(false); // still held: the newer snapshot decides
    expect(cursor.snapshotArrived(second, 0)).toEqual([chunk(0, 8), chunk(8, 16)]);
  });

  it('a snapshot arriving after a detach is stale', () => {
    const cursor = new StreamCursor();
    const token = cursor.begin();
    cursor.forget();
    expect(cursor.snapshotArrived(token, 0)).toBeUndefined();
  });
});
