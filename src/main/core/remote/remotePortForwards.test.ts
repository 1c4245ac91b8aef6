import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../../shared/model';
import { PortForwardSchema } from '../../../shared/ports';
import { Emitter, waitForEvent } from '../base';
import type { RemoteHostState } from './remoteHost';
import { RemotePortForwards } from './remotePortForwards';
import { SshError } from './sshConnection';

/** A host whose forwards are recorded; `taken` local ports refuse like ssh does when one is in use here. */
class FakeHost {
  readonly stateChanged = new Emitter<RemoteHostState>();
  readonly onDidChangeState = this.stateChanged.event;
  state: RemoteHostState = { host: 'devbox', status: 'connected', projects: [] };
  readonly open = new Map<number, number>();
  readonly taken = new Set<number>();
  refuseAll = false;

  forwardToLocal(hostPort: number, preferred: number): Promise<number> {
    if (this.refuseAll) return Promise.reject(new SshError(`Cannot forward local port ${preferred} to devbox's port ${hostPort}: refused`));
    const local = this.taken.has(preferred) ? 40_000 + hostPort : preferred;
    this.open.set(local, hostPort);
    return Promise.resolve(local);
  }

  cancelForward(localPort: number): Promise<void> {
    this.open.delete(localPort);
    return Promise.resolve();
  }

  disconnect(): void {
    this.state = { ...this.state, status: 'disconnected' };
    this.stateChanged.fire(this.state);
  }
}

function entry(change: Partial<ProcessInfo>): ProcessInfo {
  return {
    id: 'p_000001',
    name: 'web',
    kind: 'command',
    argv: [],
    cwd: '/srv',
    state: 'ready',
    message: '',
    runId: 1,
    cols: 80,
    rows: 24,
    title: '',
    offsets: { start: 0, end: 0, runStart: 0 },
    isPaused: false,
    readiness: { phase: 'ready', url: 'http://localhost:5173/', port: 5173 } as ProcessInfo['readiness'],
    ports: {
      sightings: [{ url: 'http://localhost:5173/', port: 5173, host: 'localhost', offset: 0, at: 0 }],
      listening: [5173],
    },
    ...change,
  };
}

async function settled(forwards: RemotePortForwards, feed: () => void): Promise<void> {
  const changed = waitForEvent(forwards.onDidChange, () => true, 1_000);
  feed();
  await changed;
}

describe('remote port forwards', () => {
  it('a ready entry is forwarded at its own port when free here; its URLs become the local ones; it ends when the entry stops', async () => {
    const host = new FakeHost();
    const forwards = new RemotePortForwards(host);
    const web = entry({});
    await settled(forwards, () => forwards.update('proj', web));
    expect(host.open).toEqual(new Map([[5173, 5173]]));
    const shown = forwards.localize(web);
    expect(shown.readiness?.url).toBe('http://127.0.0.1:5173/');
    expect(shown.ports?.sightings[0].url).toBe('http://127.0.0.1:5173/');
    expect(shown.forwards).toEqual([{ hostPort: 5173, localPort: 5173 }]);
    expect(() => shown.forwards!.map((forward) => PortForwardSchema.parse(forward))).not.toThrow(); // the shared model's shape, nothing more

    const stopped = entry({ state: 'stopped', readiness: { phase: 'stopped' } as ProcessInfo['readiness'] });
    expect(forwards.localize(stopped).forwards).toBeUndefined();
    await settled(forwards, () => forwards.update('proj', stopped));
    expect(host.open.size).toBe(0);
  });

  it('a port taken here gets another, kept after the connection comes back', async () => {
    const host = new FakeHost();
    host.taken.add(5173);
    const forwards = new RemotePortForwards(host);
    await settled(forwards, () => forwards.update('proj', entry({})));
    expect(forwards.localize(entry({})).readiness?.url).toBe('http://127.0.0.1:45173/');
    host.disconnect();
    expect(forwards.localize(entry({})).forwards).toBeUndefined();
    host.taken.clear();
    host.open.clear();
    host.state = { ...host.state, status: 'connected' };
    await settled(forwards, () => forwards.reset('proj', [entry({})]));
    expect(host.open).toEqual(new Map([[45173, 5173]]));
  });

  it('a printed port the process does not listen on is not forwarded (an agent naming a URL); a running entry forwards what it listens on', async () => {
    const host = new FakeHost();
    const forwards = new RemotePortForwards(host);
    const agent = entry({
      kind: 'agent',
      state: 'running',
      readiness: undefined,
      ports: { sightings: entry({}).ports!.sightings, listening: [] },
    });
    forwards.update('proj', agent);
    expect(host.open.size).toBe(0);
    const worker = entry({
      state: 'running',
      readiness: undefined,
      ports: { sightings: entry({}).ports!.sightings, listening: [5173, 9229] },
    });
    await settled(forwards, () => forwards.update('proj', worker));
    expect([...host.open.keys()]).toEqual([5173]);
  });

  it('a forward that fails is one line on the entry, which is otherwise as the host reports it', async () => {
    const host = new FakeHost();
    host.refuseAll = true;
    const forwards = new RemotePortForwards(host);
    const web = entry({});
    await settled(forwards, () => forwards.update('proj', web));
    const shown = forwards.localize(web);
    expect(shown.forwards).toEqual([{ hostPort: 5173, error: "Cannot forward local port 5173 to devbox's port 5173: refused" }]);
    expect({ ...shown, forwards: undefined }).toEqual({ ...web, forwards: undefined });
    // Tried again when the entry serves the port again (a restart).
    forwards.update('proj', entry({ state: 'stopped', readiness: undefined }));
    host.refuseAll = false;
    await settled(forwards, () => forwards.update('proj', web));
    expect(forwards.localize(web).forwards).toEqual([{ hostPort: 5173, localPort: 5173 }]);
  });
});
