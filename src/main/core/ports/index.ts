/** Ports of an entry: URL sightings in its output, listening ports of its tree, probes. */
export { OutputLineReader, PARTIAL_LINE_IDLE_MS, MAX_LINE_CHARS, type OutputLine, type OutputChunkText } from './outputLines';
export { parseUrlSightings, sightingsAt, type ParsedSighting } from './urlSightings';
export { isValidPort, portOfUrl, isLoopbackOrWildcard, hostToShow, displayUrl } from './serverAddress';
export {
  listListeningPorts,
  listListeningPortsFromProc,
  listListeningPortsWithLsof,
  parseProcNetTcpListeners,
  parseLsofListeningPorts,
  collectTreeFromPs,
} from './listeningPorts';
export { probeTcp, TCP_PROBE_TIMEOUT_MS, LOOPBACK_HOSTS, type TcpProbeOptions } from './tcpProbe';
export { probeHttp, HTTP_PROBE_TIMEOUT_MS, type HttpProbeOptions, type HttpProbeResult } from './httpProbe';
export { ProbeLoop, type ProbeLoopOptions } from './probeLoop';
export { PortMonitor, STEADY_SCAN_INTERVAL_MS, MAX_SIGHTINGS, type PortMonitorOptions } from './portMonitor';
