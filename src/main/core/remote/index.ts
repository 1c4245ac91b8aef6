/** Remote hosts over the system's SSH: a server of our version on the host, reached through one connection. */
export { parseRemoteSpec, groupRemoteSpecs, type RemoteSpec } from './destination';
export { SSH_FAILURE_RULES, describeSshFailure } from './sshFailures';
export { SshConnection, SshError, type SshTarget } from './sshConnection';
export { serverBundle, type ServerBundle } from './serverBundle';
export { RemoteHost, type RemoteHostState, type RemoteHostStatus, type RemoteProject } from './remoteHost';
export { HOST_BASE_DIR } from './hostAgent';
export { connectRemoteHosts, type RemoteHosts } from './remoteHosts';
export { readRememberedHosts, type RememberedHost } from './rememberedHosts';
