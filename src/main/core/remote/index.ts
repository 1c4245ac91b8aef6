/** Remote hosts over the system's SSH: a server of our version on the host, reached through one connection. */
export { groupRemoteSpecs } from './destination';
export { serverBundle } from './serverBundle';
export { RemoteHost, type RemoteHostState } from './remoteHost';
export { connectRemoteHosts, RemoteHosts } from './remoteHosts';
