/** Ports of an entry: URL sightings in its output, listening ports of its tree, probes. */
export { OutputLineReader, type OutputLine } from './outputLines';
export { isValidPort, portOfUrl, isLoopbackOrWildcard, hostToShow, displayUrl } from './serverAddress';
export { listListeningPorts, acceptQueueLength, namespaceListeners, type ListPortsOptions } from './listeningPorts';
export { probeTcp, type TcpProbeOptions } from './tcpProbe';
export { probeHttp, type HttpProbeOptions, type HttpProbeResult } from './httpProbe';
export { ProbeLoop } from './probeLoop';
export { PortMonitor, STEADY_SCAN_INTERVAL_MS } from './portMonitor';
