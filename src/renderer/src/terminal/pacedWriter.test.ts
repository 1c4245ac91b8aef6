import { describe, expect, it } from 'vitest';
import { FRAME_SLICE_BYTES, PacedWriter, type Pace } from './pacedWriter';

/** A terminal whose parse completes when the test says so, and frames that run when the test says so. */
function harness() {
  const written: Uint8Array[] = [];
  const parsing: Array<() => void> = [];
  const frames: Array<() => void> = [];
  const paces: Pace[] = [];
  const parsedBytes: number[] = [];
  const holds: string[] = [];
  const writer = new PacedWriter(
    {
      write: (data, parsed) => {
        written.push(data);
        parsing.push(parsed);
      },
    },
    (bytes) => parsedBytes.push(bytes),
    (callback, pace) => {
      frames.push(callback);
      paces.push(pace);
      return () => frames.splice(frames.indexOf(callback), 1);
    },
    { holdForEcho: () => holds.push('hold'), echoWritten: () => holds.push('echo written') },
  );
  const parseAll = () => parsing.splice(0).forEach((done) => done());
  const runFrame = () => frames.splice(0).forEach((frame) => frame());
  return { writer, written, parsedBytes, parseAll, runFrame, frames, paces, holds };
}

const bytes = (size: number, fill = 0) => new Uint8Array(size).fill(fill);
const concat = (chunks: Uint8Array[]) => Buffer.concat(chunks.map((c) => Buffer.from(c)));

describe('PacedWriter', () => {
  it('writes output of a quiet pane at once (an echo waits for no frame)', () => {
    const h = harness();
    h.writer.write(bytes(1, 97));
    expect(h.written).toHaveLength(1);
    expect(h.frames).toHaveLength(0);
  });

  it('keeps one slice in xterm at a time and writes the next on the next frame', () => {
    const h = harness();
    for (let i = 0; i < 10; i++) h.writer.write(bytes(8 * 1024, i));
    expect(h.written).toHaveLength(1);
    expect(h.frames).toHaveLength(0); // nothing scheduled until xterm parsed the slice
    h.parseAll();
    expect(h.frames).toHaveLength(1);
    expect(h.written).toHaveLength(1);
    h.runFrame();
    expect(h.written).toHaveLength(2);
    expect(h.written.every((slice) => slice.byteLength <= FRAME_SLICE_BYTES)).toBe(true);
  });

  it('delivers every byte once, in order, and acknowledges all of them', () => {
    const h = harness();
    const sent: Uint8Array[] = [];
    for (let i = 0; i < 40; i++) {
      const chunk = Uint8Array.from({ length: 1 + ((i * 7919) % 40_000) }, (_, k) => (i + k) % 251);
      sent.push(chunk);
      h.writer.write(chunk);
    }
    while (h.writer.pendingBytes > 0 || h.frames.length > 0) {
      h.parseAll();
      h.runFrame();
    }
    h.parseAll();
    expect(concat(h.written).equals(concat(sent))).toBe(true);
    expect(h.parsedBytes.reduce((a, b) => a + b, 0)).toBe(concat(sent).length);
  });

  it('after clear, a late callback of an old slice does not start writing and new output goes out at once', () => {
    const h = harness();
    h.writer.write(bytes(FRAME_SLICE_BYTES));
    h.writer.write(bytes(FRAME_SLICE_BYTES));
    h.writer.clear();
    expect(h.writer.pendingBytes).toBe(0);
    h.writer.write(bytes(3, 1));
    expect(h.written).toHaveLength(2);
    h.parseAll();
    expect(h.frames).toHaveLength(0);
  });

  it('a pane without the keyboard waits for its background turn; taking the keyboard moves the next slice to the next frame', () => {
    const h = harness();
    for (let i = 0; i < 4; i++) h.writer.write(bytes(FRAME_SLICE_BYTES, i));
    h.parseAll();
    expect(h.paces).toEqual(['background']);
    h.writer.pace = 'interactive';
    expect(h.frames).toHaveLength(1); // the background turn was cancelled, not left to write a second slice
    expect(h.paces).toEqual(['background', 'interactive']);
    h.runFrame();
    expect(h.written).toHaveLength(2);
  });

  it('the first output after a quiet spell goes out at once whatever the pace (a line of a quiet server waits for no turn)', () => {
    const h = harness();
    expect(h.writer.pace).toBe('background');
    h.writer.write(bytes(10, 1));
    expect(h.written).toHaveLength(1);
    expect(h.frames).toHaveLength(0);
  });

  it('a key typed into the focused pane holds the background panes until its echo was parsed', () => {
    const h = harness();
    h.writer.pace = 'interactive';
    h.writer.keyTyped();
    expect(h.holds).toEqual(['hold']);
    h.writer.write(bytes(1, 97));
    expect(h.holds).toEqual(['hold']); // written, not parsed yet
    h.parseAll();
    expect(h.holds).toEqual(['hold', 'echo written']);
    h.writer.write(bytes(1, 98));
    h.parseAll();
    expect(h.holds).toEqual(['hold', 'echo written']); // later output is not an echo
  });

  it('a pane without the keyboard holds nobody', () => {
    const h = harness();
    h.writer.keyTyped();
    h.writer.write(bytes(1, 97));
    h.parseAll();
    expect(h.holds).toEqual([]);
  });
});
