import { describe, expect, it } from 'vitest';
import { FrameBudget } from './frameBudget';

function harness(perFrame: number) {
  const frames: Array<() => void> = [];
  const budget = new FrameBudget(perFrame, (callback) => {
    frames.push(callback);
    return () => frames.splice(frames.indexOf(callback), 1);
  });
  const runFrame = () => frames.splice(0).forEach((frame) => frame());
  return { budget, frames, runFrame };
}

describe('FrameBudget', () => {
  it('runs at most perFrame turns a frame, oldest first, and asks for frames only while turns wait', () => {
    const h = harness(2);
    const ran: number[] = [];
    for (let i = 0; i < 5; i++) h.budget.enqueue(() => ran.push(i));
    expect(h.frames).toHaveLength(1);
    h.runFrame();
    expect(ran).toEqual([0, 1]);
    h.runFrame();
    expect(ran).toEqual([0, 1, 2, 3]);
    h.runFrame();
    expect(ran).toEqual([0, 1, 2, 3, 4]);
    expect(h.frames).toHaveLength(0);
  });

  it('a withdrawn turn never runs and does not take another pane’s place', () => {
    const h = harness(1);
    const ran: string[] = [];
    const withdraw = h.budget.enqueue(() => ran.push('a'));
    h.budget.enqueue(() => ran.push('b'));
    withdraw();
    h.runFrame();
    expect(ran).toEqual(['b']);
  });
});
