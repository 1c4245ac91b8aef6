import { describe, expect, it } from 'vitest';
import { ACK_CHUNK_BYTES, FlowController, HIGH_WATERMARK_BYTES, LOW_WATERMARK_BYTES } from './flowControl';

describe('FlowController', () => {
  it('ack chunk fits under the low watermark (else a viewer could keep the PTY paused)', () => {
    expect(ACK_CHUNK_BYTES).toBeLessThanOrEqual(LOW_WATERMARK_BYTES);
    expect(LOW_WATERMARK_BYTES).toBeLessThan(HIGH_WATERMARK_BYTES);
  });

  it('pauses above the high watermark and resumes below the low one', () => {
    const flow = new FlowController();
    const changes: boolean[] = [];
    flow.onDidChangePaused((p) => changes.push(p));
    flow.sent('a', HIGH_WATERMARK_BYTES + 1);
    expect(flow.isPaused).toBe(true);
    flow.ack('a', HIGH_WATERMARK_BYTES - LOW_WATERMARK_BYTES);
    expect(flow.isPaused).toBe(true); // between the marks: hysteresis
    flow.ack('a', 10);
    expect(flow.isPaused).toBe(false);
    expect(changes).toEqual([true, false]);
  });

  it('the slowest viewer decides, and a viewer that leaves releases the PTY', () => {
    const flow = new FlowController();
    flow.sent('fast', 10);
    flow.sent('slow', HIGH_WATERMARK_BYTES + 1);
    expect(flow.isPaused).toBe(true);
    flow.ack('fast', 10);
    expect(flow.isPaused).toBe(true);
    flow.removeViewer('slow');
    expect(flow.isPaused).toBe(false);
  });
});
