import { afterEach, describe, expect, it, vi } from 'vitest';
import { CoalescedSave } from './coalescedSave';

afterEach(() => {
  vi.useRealTimers();
});

describe('CoalescedSave', () => {
  it('writes the requests of one window once, at its end', () => {
    vi.useFakeTimers();
    const save = vi.fn();
    const saver = new CoalescedSave(save, 1_000);
    for (let i = 0; i < 50; i++) saver.request();
    expect(save).not.toHaveBeenCalled();
    vi.advanceTimersByTime(999);
    expect(save).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(save).toHaveBeenCalledTimes(1);
    saver.request();
    vi.advanceTimersByTime(1_000);
    expect(save).toHaveBeenCalledTimes(2);
  });

  it('flush writes what is pending at once and only then; the window it ended writes nothing more', () => {
    vi.useFakeTimers();
    const save = vi.fn();
    const saver = new CoalescedSave(save, 1_000);
    saver.flush();
    expect(save).not.toHaveBeenCalled();
    saver.request();
    saver.flush();
    expect(save).toHaveBeenCalledTimes(1);
    expect(saver.pending).toBe(false);
    vi.advanceTimersByTime(5_000);
    expect(save).toHaveBeenCalledTimes(1);
  });
});
