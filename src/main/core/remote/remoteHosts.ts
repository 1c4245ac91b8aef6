/**
 * Every remote host one app (or `serve`) is connected to: connects them side by side, remembers
 * the ones that connected, and lists their projects like local ones. A host that fails says so in
 * its state and on the log; the others and everything local keep working.
 */
import type { Disposable } from '../base';
import type { RemoteSpec } from './destination';
import { LinkedRemoteProjects } from './linkedRemoteProjects';
import { rememberHost } from './rememberedHosts';
import { RemoteHost, type RemoteHostState, type RemoteProject } from './remoteHost';
import { serverBundle, type ServerBundle } from './serverBundle';

interface RemoteHostsOptions {
  specs: RemoteSpec[];
  configFile?: string;
  /** Where the built app lives (its `package.json` and `out/`): what is installed on hosts. */
  appRoot: string;
  dataDir: string;
  trust: boolean;
  log: (line: string) => void;
}

export interface RemoteHosts extends Disposable {
  hosts: RemoteHost[];
  /** Every connected host's projects. */
  projects(): RemoteProject[];
  states(): RemoteHostState[];
  /** The hosts' open projects for the laptop's own workspace (`Workspace.link`), known once connect resolves. */
  linked: LinkedRemoteProjects;
}

/** Connects every host (in parallel); resolves once each is connected or has failed. */
export async function connectRemoteHosts(options: RemoteHostsOptions): Promise<RemoteHosts> {
  let bundle: ServerBundle | undefined;
  const bundleOnce = () => (bundle ??= serverBundle(options.appRoot));
  const hosts = options.specs.map(
    (spec) => new RemoteHost({ spec, configFile: options.configFile, bundle: bundleOnce, trust: options.trust, log: options.log }),
  );
  const subscriptions = hosts.map((host) =>
    host.onDidChangeState((state) => {
      if (state.status === 'failed') options.log(`switchboard: ${state.message}`);
      if (state.status !== 'connected') return;
      const spec = host.state.host;
      const dirs = options.specs.find((s) => s.destination === spec)?.dirs ?? [];
      rememberHost(options.dataDir, { destination: spec, dirs, configFile: options.configFile, connectedAt: Date.now() });
    }),
  );
  const linked = new LinkedRemoteProjects(hosts);
  await Promise.all(hosts.map((host) => host.connect()));
  await linked.ready();
  return {
    hosts,
    linked,
    projects: () => hosts.flatMap((host) => (host.state.status === 'connected' ? host.state.projects : [])),
    states: () => hosts.map((host) => host.state),
    dispose() {
      for (const subscription of subscriptions) subscription.dispose();
      linked.dispose();
      for (const host of hosts) host.dispose();
    },
  };
}
