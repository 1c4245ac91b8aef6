/**
 * A remote host against a real OpenSSH (test/support/sshHost.ts: sshd in a network namespace, the
 * system ssh): echo p99 of a keystroke into a remote pane against the same keystroke into a local
 * pane, through the same viewer API, in one run (the tunnel's cost on loopback); connect-to-usable
 * for a host project with 10 entries, first connect (installs and starts the server) and warm
 * (the server runs). Needs root for the namespace; elsewhere the section says why and has no rows.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ControlEvent } from '../src/shared/api';
import type { ProcessInfo } from '../src/shared/model';
import { Emitter, waitForEvent } from '../src/main/core/base';
import { WorkspaceClientSession } from '../src/main/core/bridge';
import { createHostWorkspace, type HostWorkspace } from '../src/main/core/workspace';
import { RemoteHosts } from '../src/main/core/remote';
import { startSshTestHost, sshHostUnavailable, type SshTestHost } from '../test/support/sshHost';
import { percentile, type BenchRow } from './report';

const ROOT = resolve(__dirname, '..');
const SECTION = 'remote';
const ENTRIES = 10;
const ECHO_SAMPLES = 200;
const WAIT_MS = 120_000;

/** The laptop's viewer of one project: what the window does through the workspace. */
class Viewer {
  readonly events = new Emitter<ControlEvent>();
  readonly session: WorkspaceClientSession;

  constructor(
    workspace: HostWorkspace['workspace'],
    readonly project: string,
  ) {
    this.session = new WorkspaceClientSession(workspace, (event, from) => {
      if (from === project) this.events.fire(event);
    });
  }

  call(cmd: string, args: unknown): Promise<unknown> {
    return this.session.call(cmd, args, this.project);
  }

  /** The project's entries once each has started. */
  async started(): Promise<ProcessInfo[]> {
    const waiting = new Set<string>();
    const changed = waitForEvent(
      this.events.event,
      (e) => {
        if (e.type === 'processChanged' && e.process.pid !== undefined) waiting.delete(e.process.id);
        return waiting.size === 0;
      },
      WAIT_MS,
    );
    const { processes } = (await this.call('getSnapshot', {})) as { processes: ProcessInfo[] };
    for (const p of processes) if (p.pid === undefined) waiting.add(p.id);
    if (waiting.size > 0) await changed;
    return processes;
  }

  /** Milliseconds from writing `marker` into `id` until its echo arrives on this viewer. */
  async echo(id: string, marker: string): Promise<number> {
    const decoder = new TextDecoder();
    let arrived = '';
    const seen = waitForEvent(
      this.events.event,
      (e) => {
        if (e.type !== 'output' || e.id !== id) return false;
        arrived = (arrived + decoder.decode(e.data)).slice(-4 * marker.length);
        return arrived.includes(marker);
      },
      10_000,
    );
    const sent = performance.now();
    await this.call('writeInput', { id, data: marker });
    await seen;
    return performance.now() - sent;
  }

  dispose(): void {
    this.session.dispose();
    this.events.dispose();
  }
}

function catEntries(count: number): object {
  const processes = Object.fromEntries(Array.from({ length: count }, (_, i) => [`cat${i}`, { command: 'cat', autoStart: true }]));
  return { processes };
}

/** Connects the host and waits until its project is listed here with every entry started: the time the user waits. */
async function connectToUsable(host: SshTestHost, laptop: HostWorkspace, dataDir: string) {
  const started = performance.now();
  const remotes = new RemoteHosts({ configFile: host.configFile, appRoot: ROOT, dataDir, trust: true, log: () => undefined });
  const link = laptop.workspace.link(remotes);
  const state = await remotes.connect({ destination: host.alias, dirs: ['bench'] });
  if (state.status !== 'connected') throw new Error(`bench host did not connect: ${state.message}`);
  const project = laptop.workspace.state().projects.find((p) => p.host === host.alias)!;
  const viewer = new Viewer(laptop.workspace, project.id);
  const entries = await viewer.started();
  const ms = performance.now() - started;
  return {
    ms,
    server: state.server,
    viewer,
    entries,
    close() {
      viewer.dispose();
      link.dispose();
      remotes.dispose();
    },
  };
}

/** Alternates local and remote keystrokes so both see the same load. */
async function echoPair(local: Viewer, localId: string, remote: Viewer, remoteId: string) {
  const localMs: number[] = [];
  const remoteMs: number[] = [];
  for (const viewer of [local, remote]) await viewer.call('attach', { id: viewer === local ? localId : remoteId });
  for (let i = 0; i < ECHO_SAMPLES; i++) {
    localMs.push(await local.echo(localId, `l${i}x`));
    remoteMs.push(await remote.echo(remoteId, `r${i}x`));
  }
  return { localMs, remoteMs };
}

export async function benchRemote(): Promise<BenchRow[]> {
  const unavailable = sshHostUnavailable();
  if (unavailable) {
    process.stderr.write(`bench: remote skipped: ${unavailable}\n`);
    return [];
  }
  const host = await startSshTestHost();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-remote-'));
  const localDir = join(dataDir, 'local');
  mkdirSync(localDir);
  writeFileSync(join(localDir, 'switchboard.json'), JSON.stringify(catEntries(1)));
  const hostDir = join(host.home, 'bench');
  mkdirSync(hostDir);
  writeFileSync(join(hostDir, 'switchboard.json'), JSON.stringify(catEntries(ENTRIES)));
  spawnSync('chown', ['-R', `${host.user}:`, hostDir]);
  const laptop = createHostWorkspace({ dataDir, roots: [dataDir] });
  try {
    const first = await connectToUsable(host, laptop, dataDir);
    first.close();
    const warm = await connectToUsable(host, laptop, dataDir);
    try {
      const localProject = await laptop.workspace.open(localDir, { grantTrust: true });
      const local = new Viewer(laptop.workspace, localProject.id);
      const [localCat] = await local.started();
      const { localMs, remoteMs } = await echoPair(local, localCat.id, warm.viewer, warm.entries[0].id);
      local.dispose();
      return [
        {
          section: SECTION,
          name: `echo p99, remote pane over ssh (base: local pane), ${ECHO_SAMPLES} keys`,
          value: percentile(remoteMs, 99),
          baseline: percentile(localMs, 99),
          ratio: percentile(remoteMs, 99) / percentile(localMs, 99),
          unit: 'ms',
        },
        {
          section: SECTION,
          name: 'echo p50, remote pane (base: local pane)',
          value: percentile(remoteMs, 50),
          baseline: percentile(localMs, 50),
          ratio: percentile(remoteMs, 50) / percentile(localMs, 50),
          unit: 'ms',
        },
        {
          section: SECTION,
          name: `connect-to-usable, ${ENTRIES} entries, warm (base: first, ${first.server})`,
          value: warm.ms,
          baseline: first.ms,
          ratio: warm.ms / first.ms,
          unit: 'ms',
        },
      ];
    } finally {
      warm.close();
    }
  } finally {
    await laptop.dispose();
    host.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
