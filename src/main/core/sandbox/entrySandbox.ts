/**
 * One sandboxed entry: the host ends it needs (egress proxy, MCP relay, key proxies) for as long
 * as the entry exists, its live allowlist and refusals, and each run wrapped by the backend.
 */
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { basename } from 'node:path';
import { Emitter } from '../base';
import type { StateFolder } from '../agents';
import type { RunCommand } from '../sessions';
import type { SandboxInfo, SandboxOptions, SandboxRefusal } from '../../../shared/sandbox';
import { SandboxNetworkTargetSchema } from '../../../shared/sandbox';
import { InvalidArgumentError } from '../../../shared/errors';
import { API_KEY_ROUTES, placeholderKey, type ApiKeyRoute } from './apiKeyRoutes';
import { createEgressProxy, type FixedRoute } from './egressProxy';
import { HostSockets } from './hostSockets';
import { SandboxPortForwarder } from './portForwarder';
import { createKeyProxy } from './keyProxy';
import { sandboxMounts, stateFolderPaths } from './sandboxMounts';
import { SandboxUnavailableError, type InboundRelay, type SandboxBackend } from './sandboxBackend';

/** Refusals kept for the pane header and the inbox (the count keeps growing). */
const REFUSALS_KEPT = 20;
/** Loopback ports inside the sandbox (its own network namespace: nothing else uses them). */
const PROXY_PORT = 3128;
const FIRST_API_PORT = 4100;
const PROXY_ENV = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy'];

interface EntrySandboxContext {
  options: SandboxOptions;
  projectDir: string;
  backend: SandboxBackend;
  /** Hidden besides the home folder (Switchboard's data folder). */
  alwaysHidden: string[];
  /** The MCP endpoint's loopback port once it listens. */
  mcpPort(): number | undefined;
  stateFolders(): readonly StateFolder[];
}

export class EntrySandbox {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private sockets: HostSockets | undefined;
  private forwarder: SandboxPortForwarder | undefined;
  /** The newest run's relay ports inside (the sandbox's own, never forwarded out). */
  private relayPorts: number[] = [];
  private readonly allowed: string[];
  private readonly refused: SandboxRefusal[] = [];
  private refusedCount = 0;
  private readonly keyProxies = new Map<string, string>();
  private writable: string[] = [];
  private apiHosts: string[] = [];
  /** Switchboard's own destinations of the newest run (MCP endpoint, key proxies), always let through. */
  private fixedRoutes = new Map<string, FixedRoute>();

  constructor(private readonly context: EntrySandboxContext) {
    this.allowed = [...(context.options.network?.allow ?? [])];
  }

  describe(): SandboxInfo {
    return {
      reach: [...this.apiHosts, ...this.allowed],
      writable: this.writable,
      refusedCount: this.refusedCount,
      refused: [...this.refused],
    };
  }

  /** A person widened the allowlist (the inbox's "allow"): it applies to the connections from now on. */
  allow(target: string): void {
    const parsed = SandboxNetworkTargetSchema.safeParse(target);
    if (!parsed.success) throw new InvalidArgumentError(`Cannot allow "${target}": ${parsed.error.issues[0]?.message ?? 'not a host'}`);
    if (!this.allowed.includes(target)) this.allowed.push(target);
    this.changed.fire();
  }

  wrap(run: RunCommand): RunCommand {
    const reason = this.context.backend.unavailableReason(run.env);
    if (reason) throw new SandboxUnavailableError(reason);
    const sockets = (this.sockets ??= new HostSockets());
    this.forwarder ??= new SandboxPortForwarder(sockets);
    const env = { ...run.env };
    const relays = [...this.networkRelays(sockets, env), ...this.keyRelays(sockets, run.env, env)];
    this.relayPorts = relays.map((relay) => relay.port);
    for (const key of Object.keys(env)) if (key.endsWith('TMPDIR') || key === 'TMP' || key === 'TEMP') env[key] = '/tmp';
    // The convention for "this runs in a deliberate sandbox" (Claude Code then allows its bypass mode as root).
    env.IS_SANDBOX = '1';
    const stateFolders = this.context.stateFolders();
    ensureFolders(stateFolderPaths(stateFolders, run.env, run.env.HOME ?? ''));
    const mounts = sandboxMounts({
      cwd: run.cwd,
      env: run.env,
      options: this.context.options,
      stateFolders,
      projectDir: this.context.projectDir,
    });
    this.writable = mounts.rw;
    const plan = {
      mounts,
      socketDir: sockets.dir,
      relays,
      spareLink: this.forwarder.link,
      alwaysHidden: this.context.alwaysHidden,
      cwd: run.cwd,
      memoryMb: this.context.options.memoryMb,
      maxProcesses: this.context.options.maxProcesses,
    };
    return { argv: this.context.backend.wrap(plan, run.argv, env), env, cwd: run.cwd, wrapperPorts: this.relayPorts };
  }

  /** A run began: the ports its servers listen on inside are forwarded to the host's loopback. */
  runStarted(pid: number): void {
    this.forwarder?.beginRun(pid, this.relayPorts);
  }

  runEnded(): void {
    this.forwarder?.endRun();
  }

  /** The run printed (a server announcing its URL): look for new ports now rather than at the next beat. */
  runPrinted(): void {
    this.forwarder?.scanSoon();
  }

  dispose(): void {
    this.forwarder?.dispose();
    this.forwarder = undefined;
    this.sockets?.dispose();
    this.sockets = undefined;
    this.changed.dispose();
  }

  /** The proxy variables, the egress proxy and the MCP endpoint at its own port number. */
  private networkRelays(sockets: HostSockets, env: Record<string, string>): InboundRelay[] {
    const mcpPort = this.context.mcpPort();
    const proxyPort = mcpPort === PROXY_PORT ? PROXY_PORT + 1 : PROXY_PORT;
    const fixed = new Map<string, FixedRoute>();
    const relays: InboundRelay[] = [];
    if (mcpPort !== undefined) {
      const socket = sockets.has('mcp.sock') ? `${sockets.dir}/mcp.sock` : sockets.forwardToLoopback('mcp.sock', mcpPort);
      relays.push({ port: mcpPort, socket });
      for (const host of ['127.0.0.1', 'localhost']) fixed.set(`${host}:${mcpPort}`, () => connect({ host: '127.0.0.1', port: mcpPort }));
    }
    this.fixedRoutes = fixed;
    if (!sockets.has('proxy.sock')) {
      sockets.listen(
        'proxy.sock',
        createEgressProxy({
          allow: () => this.allowed,
          fixed: (hostPort) => this.fixedRoutes.get(hostPort),
          onRefused: (host, port) => this.recordRefusal(host, port),
        }),
      );
    }
    relays.push({ port: proxyPort, socket: `${sockets.dir}/proxy.sock` });
    for (const name of PROXY_ENV) env[name] = `http://127.0.0.1:${proxyPort}`;
    delete env.NO_PROXY;
    delete env.no_proxy;
    return relays;
  }

  /** Each API whose key is in the run's env: a key proxy outside, its address and a placeholder inside. */
  private keyRelays(sockets: HostSockets, original: Readonly<Record<string, string>>, env: Record<string, string>): InboundRelay[] {
    const relays: InboundRelay[] = [];
    this.apiHosts = [];
    API_KEY_ROUTES.forEach((route, index) => {
      const key = original[route.keyEnv];
      if (!key) return;
      const base = original[route.baseUrlEnv] || route.defaultBaseUrl;
      const port = FIRST_API_PORT + index;
      const socket = this.keyProxySocket(sockets, route, base, key);
      relays.push({ port, socket });
      for (const host of ['127.0.0.1', 'localhost']) this.fixedRoutes.set(`${host}:${port}`, () => connect({ path: socket }));
      env[route.baseUrlEnv] = `http://127.0.0.1:${port}`;
      env[route.keyEnv] = placeholderKey(key);
      this.apiHosts.push(`${new URL(base).host} (key kept outside)`);
    });
    return relays;
  }

  /** One key proxy per API, made again only when the run's base URL or key changed. */
  private keyProxySocket(sockets: HostSockets, route: ApiKeyRoute, base: string, key: string): string {
    const name = `api-${basename(route.keyEnv).toLowerCase()}.sock`;
    const identity = `${base}\n${key}`;
    if (this.keyProxies.get(name) !== identity || !sockets.has(name)) {
      sockets.listen(name, createKeyProxy(route, base, key));
      this.keyProxies.set(name, identity);
    }
    return `${sockets.dir}/${name}`;
  }

  private recordRefusal(host: string, port: number): void {
    this.refusedCount += 1;
    this.refused.push({ host, port, at: Date.now() });
    if (this.refused.length > REFUSALS_KEPT) this.refused.shift();
    this.changed.fire();
  }
}

/** The CLI's state folders exist before they are bound (a file-like name, e.g. `.claude.json`, is left alone). */
function ensureFolders(paths: string[]): void {
  for (const path of paths) {
    if (/.\.[a-z]+$/i.test(basename(path))) continue;
    try {
      mkdirSync(path, { recursive: true });
    } catch {
      // Not ours to make (a read-only place): bwrap's --bind-try skips what is missing.
    }
  }
}
