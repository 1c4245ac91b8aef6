/**
 * A remote host's project in the laptop's own workspace, against a real OpenSSH (test/support/sshHost.ts):
 * the laptop's viewer (the same WorkspaceClientSession the app's window and a browser tab use) lists
 * the host's project tagged with the host, attaches and types into its panes, sees readiness, and
 * after the ssh process is killed and the connection restored, every pane shows each line once.
 */
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
  chownSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Terminal } from '@xterm/headless';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlEvent } from '../../src/shared/api';
import type { ProcessInfo } from '../../src/shared/model';
import type { WorkspaceResults, WorkspaceState } from '../../src/shared/workspace';
import type { ProjectWaitingAgent } from '../../src/shared/inbox';
import { Emitter, waitForEvent, type Disposable } from '../../src/main/core/base';
import { WorkspaceClientSession } from '../../src/main/core/bridge';
import { createHostWorkspace, type HostWorkspace } from '../../src/main/core/workspace';
import { connectRemoteHosts, RemoteHosts } from '../../src/main/core/remote';
import { AttentionService } from '../../src/main/core/attention';
import { Devices } from '../../src/main/core/devices';
import { answerAction, describeAction } from '../../src/main/core/bridge/deviceActions';
import type { WebhookPayload } from '../../src/shared/notifications';
import { CLAUDE_BIN, createClaudeHarness, CLAUDE_SCREEN } from '../fixtures/anthropic/claudeHarness';
import { spawnInHost, startSshTestHost, sshHostUnavailable, type SshTestHost } from '../support/sshHost';

const ROOT = resolve(__dirname, '../..');
const MOCK_PROCESS = join(ROOT, 'test/fixtures/anthropic/mockAnthropicProcess.ts');
const unavailable = sshHostUnavailable();
if (unavailable) console.warn(`Skipping the remote-grid tests: ${unavailable}`);

/** A pane as the renderer keeps one (terminalPane.ts): the attach screen, then output past its offset; a reset attaches again. */
class Pane {
  readonly term = new Terminal({ cols: 100, rows: 30, scrollback: 5_000, allowProposedApi: true });
  private offset = -1;
  /** Output that came while the snapshot was on its way: delivered once its offset is known. */
  private early: Array<Extract<ControlEvent, { type: 'output' }>> = [];
  private readonly written = new Emitter<void>();
  readonly onWritten = this.written.event;

  constructor(
    private readonly viewer: Viewer,
    readonly id: string,
  ) {}

  async attach(): Promise<void> {
    this.offset = -1;
    this.early = [];
    const snapshot = (await this.viewer.call('attach', { id: this.id })) as { screen: string; offset: number };
    this.term.reset();
    this.write(snapshot.screen);
    this.offset = snapshot.offset;
    for (const event of this.early.splice(0)) this.deliver(event);
  }

  deliver(event: Extract<ControlEvent, { type: 'output' }>): void {
    if (this.offset < 0) this.early.push(event);
    else if (event.end > this.offset) this.write(event.data);
  }

  lines(): string[] {
    const buffer = this.term.buffer.active;
    return Array.from({ length: buffer.length }, (_, i) => buffer.getLine(i)?.translateToString(true) ?? '');
  }

  /** Resolves once the rendered lines satisfy `predicate`. */
  async until(predicate: (lines: string[]) => boolean, timeoutMs = 60_000): Promise<string[]> {
    if (predicate(this.lines())) return this.lines();
    await waitForEvent(this.onWritten, () => predicate(this.lines()), timeoutMs);
    return this.lines();
  }

  private write(data: string | Uint8Array): void {
    this.term.write(data, () => this.written.fire());
  }
}

/** Whether nothing listens on this machine's loopback port. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/** One laptop viewer of one project: what the app's window does with the workspace. */
class Viewer implements Disposable {
  readonly session: WorkspaceClientSession;
  readonly panes = new Map<string, Pane>();
  readonly events = new Emitter<ControlEvent>();
  readonly resets: string[] = [];

  constructor(
    workspace: HostWorkspace['workspace'],
    public project = '',
  ) {
    this.session = new WorkspaceClientSession(workspace, (event, from) => this.receive(event, from));
  }

  call(cmd: string, args: unknown): Promise<unknown> {
    return this.session.call(cmd, args, this.project);
  }

  async pane(id: string): Promise<Pane> {
    const pane = new Pane(this, id);
    this.panes.set(id, pane);
    await pane.attach();
    return pane;
  }

  /** The entry once `predicate` holds for it as this viewer is shown it (its snapshot now, or a later event). */
  async entryWhen(id: string, predicate: (p: ProcessInfo) => boolean, timeoutMs = 60_000): Promise<ProcessInfo> {
    const later = waitForEvent(
      this.events.event,
      (e) => (e.type === 'processAdded' || e.type === 'processChanged') && e.process.id === id && predicate(e.process),
      timeoutMs,
    );
    later.catch(() => undefined);
    const { processes } = (await this.call('getSnapshot', {})) as { processes: ProcessInfo[] };
    const now = processes.find((p) => p.id === id);
    if (now && predicate(now)) return now;
    return ((await later) as Extract<ControlEvent, { type: 'processChanged' }>).process;
  }

  dispose(): void {
    this.session.dispose();
    this.events.dispose();
  }

  private receive(event: ControlEvent, from: string | undefined): void {
    if (event.type === 'output') this.panes.get(event.id)?.deliver(event);
    if (from !== this.project) return;
    if (event.type === 'outputReset') {
      this.resets.push(event.id);
      void this.panes.get(event.id)?.attach();
    }
    this.events.fire(event);
  }
}

describe.skipIf(unavailable)('a remote host in the laptop grid over real ssh', () => {
  let host: SshTestHost;
  let laptop: HostWorkspace;
  let remotes: RemoteHosts;
  let link: Disposable;
  let laptopData: string;
  const devPort = 20_000 + Math.floor(Math.random() * 20_000);
  const filesPort = devPort + 1;
  const v6Port = devPort + 2;

  beforeAll(async () => {
    host = await startSshTestHost();
    const dir = join(host.home, 'grid');
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(ROOT, 'test/fixtures/servers/slow-server.mjs'), join(dir, 'slow-server.mjs'));
    writeFileSync(join(dir, 'hello.txt'), 'served by the host\n');
    writeFileSync(
      join(dir, 'switchboard.json'),
      JSON.stringify({
        processes: {
          web: { command: 'node', args: ['slow-server.mjs', String(devPort), '1'], port: devPort, autoStart: true },
          files: {
            command: 'python3',
            args: ['-m', 'http.server', String(filesPort), '--bind', '127.0.0.1'],
            port: filesPort,
            autoStart: false,
          },
          v6: { command: 'python3', args: ['-m', 'http.server', String(v6Port), '--bind', '::1'], autoStart: false },
          boxed: {
            command: 'sh',
            args: [
              '-c',
              'cat ~/.host-marker 2>/dev/null || echo marker-hidden; echo "pid1=$(cat /proc/1/comm)"; echo boxed-done; exec cat',
            ],
            autoStart: false,
            sandbox: true,
          },
        },
      }),
    );
    writeFileSync(join(host.home, '.host-marker'), 'host-marker-outside-the-sandbox\n');
    spawnSync('chown', ['-R', `${host.user}:`, dir]);
    chownSync(dir, host.uid, -1);
    laptopData = mkdtempSync(join(tmpdir(), 'remote-grid-'));
    laptop = createHostWorkspace({ dataDir: laptopData, roots: [laptopData] });
    remotes = await connectRemoteHosts({
      specs: [{ destination: host.alias, dirs: ['grid'] }],
      configFile: host.configFile,
      appRoot: ROOT,
      dataDir: laptopData,
      trust: true,
      log: () => undefined,
    });
    expect(remotes.states()[0].message).toBeUndefined();
    link = laptop.workspace.link(remotes);
  }, 240_000);

  /**
   * The person's channels, set up on the laptop (its devices and settings are there): a local
   * webhook receiver, and devices reachable at a public address (it only forms the actions' links).
   */
  async function laptopChannels() {
    const hooks = new Emitter<WebhookPayload>();
    const received: WebhookPayload[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        res.writeHead(200).end();
        const payload = JSON.parse(body) as WebhookPayload;
        received.push(payload);
        hooks.fire(payload);
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const devices = new Devices({ dataDir: laptopData, publicUrl: 'https://laptop.example.test' });
    const attention = new AttentionService({
      workspace: laptop.workspace,
      devices,
      dataDir: laptopData,
      notifyUrls: [`http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`],
      log: () => undefined,
    });
    return {
      devices,
      /** The first payload (received already, or still to come) that satisfies `predicate`. */
      called: async (predicate: (p: WebhookPayload) => boolean, timeoutMs = 30_000): Promise<WebhookPayload> =>
        received.find(predicate) ??
        (await waitForEvent(hooks.event, predicate, timeoutMs).catch((err: Error) => {
          throw new Error(`${err.message}; the webhook received: ${JSON.stringify(received)}`);
        })),
      close() {
        attention.dispose();
        receiver.close();
      },
    };
  }

  afterAll(async () => {
    link?.dispose();
    remotes?.dispose();
    await laptop?.dispose();
    host?.dispose();
    if (laptopData) rmSync(laptopData, { recursive: true, force: true });
  });

  it('lists the host project tagged with the host; its entries carry the host and their readiness; a pane takes keystrokes', async () => {
    const viewer = new Viewer(laptop.workspace);
    try {
      const workspace = (await viewer.session.call('getWorkspace', {})) as WorkspaceState;
      const remote = workspace.projects.find((p) => p.host === host.alias);
      expect(remote).toMatchObject({ name: 'grid', host: host.alias, id: expect.stringMatching(/^rp_[0-9a-f]{12}$/) as string });
      viewer.project = remote!.id;
      expect(await viewer.session.call('focusProject', { projectId: remote!.id })).toMatchObject({ id: remote!.id });

      const snapshot = (await viewer.call('getSnapshot', {})) as { processes: ProcessInfo[] };
      const web = snapshot.processes.find((p) => p.name === 'web')!;
      expect(web.host).toBe(host.alias);
      const ready =
        web.state === 'ready'
          ? web
          : await waitForEvent(
              viewer.events.event,
              (e) => e.type === 'processChanged' && e.process.id === web.id && e.process.state === 'ready',
              60_000,
            ).then((e) => (e as Extract<ControlEvent, { type: 'processChanged' }>).process);
      expect(ready).toMatchObject({ host: host.alias, readiness: { port: devPort } });

      const cat = (await viewer.call('spawnProcess', { kind: 'command', name: 'echo', argv: ['cat'] })) as ProcessInfo;
      const pane = await viewer.pane(cat.id);
      await viewer.call('writeInput', { id: cat.id, data: 'typed-on-the-laptop\r' });
      // The PTY's echo and cat's own copy: the keystrokes reached the process on the host.
      const lines = await pane.until((l) => l.filter((line) => line === 'typed-on-the-laptop').length === 2);
      expect(lines.filter((line) => line === 'typed-on-the-laptop')).toHaveLength(2);
      await expect(viewer.session.call('closeProject', { projectId: remote!.id })).rejects.toThrow(/stays open on its host/);
    } finally {
      viewer.dispose();
    }
  }, 120_000);

  it("a sandboxed entry of the host project runs in the host's bubblewrap: the host user's home is hidden from it", async () => {
    const viewer = new Viewer(laptop.workspace);
    try {
      const workspace = (await viewer.session.call('getWorkspace', {})) as WorkspaceState;
      viewer.project = workspace.projects.find((p) => p.host === host.alias)!.id;
      const { processes } = (await viewer.call('getSnapshot', {})) as { processes: ProcessInfo[] };
      const boxed = processes.find((p) => p.name === 'boxed')!;
      expect(boxed.sandbox, 'the host describes its sandbox').toMatchObject({ refusedCount: 0 });
      const pane = await viewer.pane(boxed.id);
      await viewer.call('startProcess', { id: boxed.id });
      const lines = await pane.until((l) => l.includes('boxed-done'));
      expect(lines).toContain('marker-hidden');
      expect(lines.join('\n')).not.toContain('host-marker-outside-the-sandbox');
      // Pid 1 of its own pid namespace is bwrap's: it runs inside the sandbox on the host.
      expect(lines).toContain('pid1=bwrap');
      await viewer.call('closeProcess', { id: boxed.id });
    } finally {
      viewer.dispose();
    }
  }, 120_000);

  it("the host's ready servers answer on this machine at their forwarded local URLs (a port taken here gets another), loopback only; the forward ends with the entry", async () => {
    const viewer = new Viewer(laptop.workspace);
    // Something of the laptop's own already listens on the files server's port.
    const taken = createServer((_req, res) => res.end("the laptop's own\n"));
    await new Promise<void>((listening, failed) => taken.once('error', failed).listen(filesPort, '127.0.0.1', listening));
    try {
      viewer.project = laptop.workspace.state().projects.find((p) => p.host === host.alias && p.name === 'grid')!.id;
      const { processes } = (await viewer.call('getSnapshot', {})) as { processes: ProcessInfo[] };
      const [web, files] = ['web', 'files'].map((name) => processes.find((p) => p.name === name)!);
      const forwarded = (p: ProcessInfo) => p.forwards?.some((f) => f.localPort !== undefined) === true;

      const webShown = await viewer.entryWhen(web.id, forwarded);
      expect(webShown.forwards).toEqual([{ hostPort: devPort, localPort: devPort }]);
      expect(webShown.readiness?.url).toBe(`http://127.0.0.1:${devPort}/`);
      expect(await (await fetch(webShown.readiness!.url!)).text()).toBe('slow fixture\n');

      await viewer.call('startProcess', { id: files.id });
      const filesShown = await viewer.entryWhen(files.id, forwarded);
      const local = filesShown.forwards![0].localPort!;
      expect(filesShown.forwards).toEqual([{ hostPort: filesPort, localPort: local }]);
      expect(local).not.toBe(filesPort);
      expect(filesShown.readiness?.url).toBe(`http://127.0.0.1:${local}/`);
      expect(await (await fetch(new URL('hello.txt', filesShown.readiness!.url))).text()).toBe('served by the host\n');
      expect(await (await fetch(`http://127.0.0.1:${filesPort}/`)).text()).toBe("the laptop's own\n");
      const bound = spawnSync('ss', ['-Hltn', `sport = :${local}`], { encoding: 'utf8' })
        .stdout.trim()
        .split('\n');
      expect(bound.map((line) => line.split(/\s+/)[3])).toEqual([`127.0.0.1:${local}`]);

      // A server on the host's ::1 only: its forward targets ::1, where it listens.
      const v6 = processes.find((p) => p.name === 'v6')!;
      await viewer.call('startProcess', { id: v6.id });
      const v6Shown = await viewer.entryWhen(v6.id, forwarded);
      const v6Local = v6Shown.forwards![0].localPort!;
      expect(
        host
          .exec(['ss', '-Hltn', `sport = :${v6Port}`])
          .stdout.trim()
          .split(/\s+/)[3],
      ).toBe(`[::1]:${v6Port}`);
      expect(await (await fetch(`http://127.0.0.1:${v6Local}/hello.txt`)).text()).toBe('served by the host\n');
      await viewer.call('stopProcess', { id: v6.id });

      await viewer.call('stopProcess', { id: files.id });
      const stopped = await viewer.entryWhen(files.id, (p) => p.state === 'stopped');
      expect(stopped.forwards).toBeUndefined();
      await expect.poll(() => refused(local), { timeout: 10_000 }).toBe(true);
    } finally {
      viewer.dispose();
      taken.close();
    }
  }, 120_000);

  it("a real Claude Code on the host waiting at its folder-trust question shows in the laptop's inbox, tagged with the host, and the laptop's webhook is called, then told it is resolved", async () => {
    // Not trusted yet: Claude Code's own trust dialog is a real question, asked before any model call.
    const harness = await createClaudeHarness({ baseUrl: 'http://127.0.0.1:9', trusted: false });
    spawnSync('chown', ['-R', `${host.user}:`, join(harness.home, '..')]);
    const viewer = new Viewer(laptop.workspace);
    const channels = await laptopChannels();
    try {
      viewer.project = laptop.workspace.state().projects.find((p) => p.host === host.alias)!.id;
      const agent = (await viewer.call('spawnAgent', {
        preset: 'claude',
        name: 'claude',
        argv: harness.argv,
        env: harness.env,
        cwd: harness.cwd,
        cols: 120,
        rows: 40,
      })) as ProcessInfo;
      await waitForEvent(
        viewer.events.event,
        (e) => e.type === 'processChanged' && e.process.id === agent.id && e.process.agent?.primary === 'waiting',
        90_000,
      );
      const { agents } = (await viewer.session.call('listWaitingAcrossProjects', {})) as { agents: ProjectWaitingAgent[] };
      const waiting = agents.find((a) => a.id === agent.id);
      expect(waiting).toMatchObject({ project: { id: viewer.project, name: 'grid', host: host.alias } });
      expect(waiting?.question).toContain(CLAUDE_SCREEN.trustQuestion);
      expect(await channels.called((p) => p.entry.id === agent.id)).toMatchObject({
        event: 'attention',
        entry: { id: agent.id, name: 'claude' },
        project: { id: viewer.project, name: `grid on ${host.alias}` },
        question: expect.stringContaining(CLAUDE_SCREEN.trustQuestion),
        actions: [], // the folder-trust question has no answer the inbox knows: it is answered in the pane
      });
      const resolved = channels.called((p) => p.entry.id === agent.id && p.event === 'resolved');
      await viewer.call('stopProcess', { id: agent.id });
      await resolved;
    } finally {
      channels.close();
      viewer.dispose();
      await harness.cleanup();
    }
  }, 150_000);

  it("a real Claude Code on the host, against the model mock on the host: the laptop's webhook carries Approve / Deny for its permission prompt, a paired device's Approve answers it on the host once; then it calls the host's MCP whoami, whose answer names the host's project and the entry", async () => {
    // The model lives on the host too (its loopback is not ours): the mock runs in the host's namespace.
    // A POST: Claude Code asks before it runs it (nothing listens there; the answer is what counts).
    const command = 'curl -X POST http://127.0.0.1:9/approved-from-the-phone';
    const turns = [
      [{ toolUse: { name: 'Bash', input: { command, description: 'Say it was approved' } } }],
      [{ toolUse: { name: 'mcp__switchboard__whoami', input: {} } }],
      [{ text: 'Done.' }],
    ];
    const mock = spawnInHost(host, [process.execPath, '--import', 'tsx', MOCK_PROCESS, JSON.stringify(turns)]);
    const viewer = new Viewer(laptop.workspace);
    const channels = await laptopChannels();
    let cleanup: (() => Promise<void>) | undefined;
    try {
      const { url } = await mock.line<{ url?: string }>((line) => line.url !== undefined, 30_000);
      const harness = await createClaudeHarness({ baseUrl: url! });
      cleanup = harness.cleanup;
      spawnSync('chown', ['-R', `${host.user}:`, join(harness.home, '..')]);
      viewer.project = laptop.workspace.state().projects.find((p) => p.host === host.alias && p.name === 'grid')!.id;
      // Spawned from the laptop like any agent: the claude preset wires the host's own MCP endpoint.
      const agent = (await viewer.call('spawnAgent', {
        preset: 'claude',
        name: 'claude-on-host',
        // Manual mode: the call's own "Do you want to proceed?" (auto mode would first ask about its unreachable check).
        argv: [CLAUDE_BIN, '--permission-mode', 'default'],
        env: harness.env,
        cwd: harness.cwd,
        cols: 120,
        rows: 40,
        instructions: 'Who are you in this project?',
      })) as ProcessInfo;

      // The permission prompt reaches the person's channels with answers bound to it.
      const asked = await channels
        .called((p) => p.entry.id === agent.id && p.event === 'attention' && p.actions.length > 0, 120_000)
        .catch((err: Error) => {
          throw new Error(`${err.message}; the mock saw: ${JSON.stringify(mock.lines())}`);
        });
      expect(asked).toMatchObject({
        project: { name: `grid on ${host.alias}` },
        reason: 'Waiting for your permission',
        question: expect.stringContaining(command),
      });
      expect(asked.actions.map((a) => a.action)).toEqual(['approve', 'deny']);
      for (const a of asked.actions) expect(a.url).toMatch(/^https:\/\/laptop\.example\.test\/action\//);
      const tokenOf = (action: string) => asked.actions.find((a) => a.action === action)!.url.split('/action/')[1];
      // The person's phone, paired with the laptop: the link says what it would do, and Approve answers through the host's link.
      const { code } = await channels.devices.startPairing();
      const { device } = channels.devices.pair(code, 'phone');
      expect(await describeAction(laptop.workspace, channels.devices, tokenOf('approve'), device)).toMatchObject({
        ok: true,
        text: expect.stringContaining(`(grid on ${host.alias}) asks:`),
      });
      const resolved = channels.called((p) => p.entry.id === agent.id && p.event === 'resolved', 60_000);
      expect(await answerAction(laptop.workspace, channels.devices, tokenOf('approve'), device)).toMatchObject({
        entry: { id: agent.id, name: 'claude-on-host' },
        project: { name: `grid on ${host.alias}` },
      });
      const ran = await mock.line<{ type: string; toolUseId?: string; content?: string }>((l) => l.type === 'tool_result', 60_000);
      expect(ran.toolUseId).toBe('toolu_mock_1');
      expect(ran.content).not.toMatch(/doesn.t want to proceed|rejected/i);
      await resolved;
      // Single use, and the prompt's other answer went with it.
      await expect(answerAction(laptop.workspace, channels.devices, tokenOf('approve'), device)).rejects.toThrow(/already used/);
      await expect(answerAction(laptop.workspace, channels.devices, tokenOf('deny'), device)).rejects.toThrow(/already used/);

      const result = await mock.line<{ type: string; isError?: boolean; content?: string }>(
        (l) => l.type === 'tool_result' && l !== ran,
        120_000,
      );
      expect(result.isError).toBe(false);
      expect(JSON.parse(result.content!)).toMatchObject({
        process_id: agent.id,
        role: 'agent',
        name: 'claude-on-host',
        project: { name: 'grid', dir: realpathSync(join(host.home, 'grid')) },
      });
      await viewer.call('stopProcess', { id: agent.id });
    } finally {
      channels.close();
      viewer.dispose();
      mock.stop();
      await cleanup?.();
    }
  }, 180_000);

  it('kill the ssh process, restore: every attached pane shows each line exactly once', async () => {
    const viewer = new Viewer(laptop.workspace);
    try {
      viewer.project = laptop.workspace.state().projects.find((p) => p.host === host.alias)!.id;
      const ticks = 300;
      const spawned = (await viewer.call('spawnProcess', {
        kind: 'command',
        name: 'ticker',
        shell: `i=0; while [ $i -lt ${ticks} ]; do i=$((i+1)); echo tick-$i; sleep 0.02; done; echo ticker-done`,
      })) as ProcessInfo;
      const pane = await viewer.pane(spawned.id);
      await pane.until((lines) => lines.includes('tick-20'));
      const forwarded = (p: ProcessInfo) => p.forwards?.some((f) => f.localPort !== undefined) === true;
      const { processes } = (await viewer.call('getSnapshot', {})) as { processes: ProcessInfo[] };
      const web = await viewer.entryWhen(processes.find((p) => p.name === 'web')!.id, forwarded);

      const [remote] = remotes.connections;
      const back = waitForEvent(remote.onDidChangeState, (state) => state.status === 'connected', 90_000);
      process.kill(remote.sshPid!, 'SIGKILL'); // the network goes
      await back;
      const lines = await pane.until((l) => l.includes('ticker-done'), 90_000);
      expect(viewer.resets).toEqual([spawned.id]);
      const seen = lines.filter((line) => /^tick-\d+$/.test(line));
      expect(seen).toEqual(Array.from({ length: ticks }, (_, i) => `tick-${i + 1}`));
      // The dev server's forward died with the connection and was made again at the same local URL.
      const again = await viewer.entryWhen(web.id, forwarded);
      expect(again.readiness?.url).toBe(web.readiness?.url);
      expect(await (await fetch(again.readiness!.url!)).text()).toBe('slow fixture\n');
    } finally {
      viewer.dispose();
    }
  }, 180_000);

  it('"Add host" in the app: a workspace with no host yet lists the remembered one, connects it through addHost (what serve --remote uses), opens and shows a folder there; each failure is one line and loses nothing', async () => {
    // The app's set-up: hosts are added at run time, not given at start.
    link.dispose();
    remotes.dispose();
    remotes = new RemoteHosts({ configFile: host.configFile, appRoot: ROOT, dataDir: laptopData, trust: false, log: () => undefined });
    link = laptop.workspace.link(remotes);
    const notes = join(host.home, 'notes');
    mkdirSync(notes, { recursive: true });
    chownSync(notes, host.uid, -1);
    const viewer = new Viewer(laptop.workspace);
    const workspace = () => viewer.session.call('getWorkspace', {}) as Promise<WorkspaceState>;
    try {
      expect((await workspace()).hosts).toEqual([{ destination: host.alias, status: 'remembered', folders: [{ dir: 'grid' }] }]);

      const oneLine = async (args: object, expected: RegExp) => {
        const failure = await viewer.session.call('addHost', args).then(
          () => new Error('addHost did not fail'),
          (err: Error) => err,
        );
        expect(failure.message).toMatch(expected);
        expect(failure.message).not.toContain('\n');
      };
      await oneLine({ destination: '-oProxyCommand=touch /tmp/pwned' }, /host cannot start with "-"/);
      await oneLine({ destination: 'nosuchhost.invalid' }, /^Unknown host nosuchhost\.invalid: ssh cannot resolve it/);
      expect((await workspace()).hosts.find((h) => h.destination === 'nosuchhost.invalid')).toMatchObject({ status: 'failed' });

      const added = (await viewer.session.call('addHost', { destination: host.alias, dir: '~/notes' })) as WorkspaceResults['addHost'];
      expect(added.host).toMatchObject({ destination: host.alias, status: 'connected' });
      expect(added.project).toMatchObject({ name: 'notes', host: host.alias, id: expect.stringMatching(/^rp_/) as string });
      const after = await workspace();
      expect(after.activeId).toBe(added.project!.id);
      const hostOf = (state: WorkspaceState) => state.hosts.find((h) => h.destination === host.alias);
      expect(hostOf(after)).toEqual({
        destination: host.alias,
        status: 'connected',
        folders: [{ dir: '~/notes', projectId: added.project!.id }, { dir: 'grid' }],
      });
      // A folder added to the connected host: over the same connection, shown once the host lists it.
      const again = (await viewer.session.call('addHost', { destination: host.alias, dir: 'grid' })) as WorkspaceResults['addHost'];
      expect(again.project).toMatchObject({ name: 'grid', host: host.alias });
      expect((await workspace()).activeId).toBe(again.project!.id);
      // A folder that is not there: the host's own line; the host stays connected, its projects listed.
      await oneLine({ destination: host.alias, dir: 'no-such-folder' }, /no-such-folder/);
      expect(hostOf(await workspace())?.status).toBe('connected');
      expect((await workspace()).projects.filter((p) => p.host === host.alias).map((p) => p.name)).toEqual(
        expect.arrayContaining(['grid', 'notes']),
      );
      // Remembered with its folders, no secret.
      const saved = readFileSync(join(laptopData, 'remote-hosts.json'), 'utf8');
      expect(JSON.parse(saved)).toMatchObject([{ destination: host.alias, dirs: ['~/notes', 'grid'], configFile: host.configFile }]);
      expect(saved).not.toMatch(/token|secret/i);
    } finally {
      viewer.dispose();
    }
  }, 180_000);

  it('disconnect one of two hosts: the other keeps working, nothing stops on the first; forget drops a host from the remembered list and the switcher and touches nothing there', async () => {
    const other = await startSshTestHost();
    // Its server comes from the first host's install (installing is remoteHost.test.ts's part): a connect that only starts it.
    const installs = join(host.home, '.switchboard-server');
    const version = readdirSync(installs).find((name) => existsSync(join(installs, name, '.installed')))!;
    mkdirSync(join(other.home, '.switchboard-server'));
    spawnSync('cp', ['-a', join(installs, version), join(other.home, '.switchboard-server', version)]);
    spawnSync('chown', ['-R', `${other.user}:`, join(other.home, '.switchboard-server')]);
    appendFileSync(host.configFile, readFileSync(other.configFile, 'utf8')); // both hosts in the app's one ssh config
    const side = join(other.home, 'side');
    mkdirSync(side);
    writeFileSync(join(side, 'switchboard.json'), '{"processes":{}}');
    spawnSync('chown', ['-R', `${other.user}:`, side]);
    const viewer = new Viewer(laptop.workspace);
    const workspace = () => viewer.session.call('getWorkspace', {}) as Promise<WorkspaceState>;
    const hostsOf = async () =>
      (await workspace()).hosts.filter((h) => h.destination !== 'nosuchhost.invalid').map((h) => [h.destination, h.status]);
    const serverPid = (on: SshTestHost) =>
      (JSON.parse(readFileSync(join(on.home, '.switchboard-server', 'server.json'), 'utf8')) as { pid: number }).pid;
    const remembered = () =>
      (JSON.parse(readFileSync(join(laptopData, 'remote-hosts.json'), 'utf8')) as Array<{ destination: string }>).map((h) => h.destination);
    try {
      const added = (await viewer.session.call('addHost', { destination: other.alias, dir: 'side' })) as WorkspaceResults['addHost'];
      expect(added.host.status).toBe('connected');
      expect(remotes.connections.find((r) => r.state.host === other.alias)?.state.server).toBe('started');
      const [hostServer, otherServer] = [serverPid(host), serverPid(other)];

      const disconnected = (await viewer.session.call('disconnectHost', { destination: host.alias })) as WorkspaceResults['disconnectHost'];
      expect(disconnected.host).toMatchObject({ destination: host.alias, status: 'remembered' });
      expect((await workspace()).projects.map((p) => p.host)).toEqual([other.alias]);
      expect(await hostsOf()).toEqual([
        [other.alias, 'connected'],
        [host.alias, 'remembered'],
      ]);
      expect(remotes.connections.map((r) => r.state.host)).not.toContain(host.alias);
      expect(host.pids()).toContain(hostServer); // the host's server and its processes keep running

      // The other host keeps working: a pane there takes keystrokes.
      viewer.project = added.project!.id;
      const cat = (await viewer.call('spawnProcess', { kind: 'command', name: 'echo', argv: ['cat'] })) as ProcessInfo;
      const pane = await viewer.pane(cat.id);
      await viewer.call('writeInput', { id: cat.id, data: 'still-here\r' });
      await pane.until((l) => l.filter((line) => line === 'still-here').length === 2);

      // Forget the disconnected host: gone from the list and the file; its server still runs.
      expect(await viewer.session.call('forgetHost', { destination: host.alias })).toEqual({ forgotten: true });
      expect(await hostsOf()).toEqual([[other.alias, 'connected']]);
      expect(remembered()).toEqual([other.alias]);
      expect(host.pids()).toContain(hostServer);
      // Forget the connected one: disconnected first, its project leaves the switcher and the window; its server still runs.
      await viewer.session.call('forgetHost', { destination: other.alias });
      const last = await workspace();
      expect([last.hosts.filter((h) => h.destination !== 'nosuchhost.invalid'), last.projects, last.activeId]).toEqual([[], [], undefined]);
      expect(remembered()).toEqual([]);
      expect(other.pids()).toContain(otherServer);
      await expect(viewer.session.call('forgetHost', { destination: other.alias })).rejects.toThrow(/is not a known host/);
      await expect(viewer.session.call('disconnectHost', { destination: other.alias })).rejects.toThrow(/is not connected/);
    } finally {
      viewer.dispose();
      other.dispose();
    }
  }, 180_000);
});
