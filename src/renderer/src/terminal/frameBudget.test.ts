import { describe, expect, it } from 'vitest';
import { ECHO_HOLD_MS, FrameBudget } from './frameBudget';

function harness(perFrame: number) {
  const frames: Array<() => void> = [];
  const clock = { now: 0 };
  const budget = new FrameBudget(
    perFrame,
    (callback) => {
      frames.push(callback);
      return () => frames.splice(frames.indexOf(callback), 1);
    },
    () => clock.now,
  );
  const runFrame = () => {
    clock.now += 16;
    frames.splice(0).forEach((frame) => frame());
  };
  return { budget, frames, runFrame, clock };
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

  it('a keystroke holds every turn until the frame after its echo was written: the echo’s frame draws the focused pane alone', () => {
    const h = harness(2);
    const ran: number[] = [];
    h.budget.enqueue(() => ran.push(1));
    h.budget.holdForEcho();
    h.runFrame();
    expect(ran).toEqual([]); // the echo is on its way
    h.budget.echoWritten();
    h.runFrame();
    expect(ran).toEqual([]); // xterm draws the echo in this frame
    h.runFrame();
    expect(ran).toEqual([1]);
  });

  it('holds the turns no longer than ECHO_HOLD_MS when no echo comes', () => {
    const h = harness(2);
    const ran: number[] = [];
    h.budget.enqueue(() => ran.push(1));
    h.budget.holdForEcho();
    while (h.clock.now + 16 < ECHO_HOLD_MS) h.runFrame();
    expect(ran).toEqual([]);
    h.runFrame();
    expect(ran).toEqual([1]);
  });
});
