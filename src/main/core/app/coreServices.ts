/**
 * Keys of the services the façade itself reads; the capability that has one provides it under its
 * key (continuity the restorer, MCP its connection). A core built without one works without it.
 */
import { serviceKey, type ServiceKey } from '../base';
import type { ProcessEntry } from '../sessions';
import type { McpConnectionInfo } from '../../../shared/api';

/** How an entry of a previous app run comes back; provided by the continuity capability. */
export interface EntryRestorer {
  /** The id a switchboard.json entry had in the previous app run. */
  idFor(configKey: string): string | undefined;
  /** For a restored entry: resume, start or leave it stopped; undefined for new entries (autoStart decides). */
  launchIntent(entry: ProcessEntry, autoStart: boolean): 'resume' | 'start' | 'none' | undefined;
  /** The previous app run's output of an entry, as saved (escape sequences), or undefined. */
  previousOutput(id: string): string | undefined;
}

export const ENTRY_RESTORER: ServiceKey<EntryRestorer> = serviceKey('Continuity');

/** The MCP endpoint's URL and app token, for the UI; provided once the endpoint listens. */
export const MCP_CONNECTION: ServiceKey<McpConnectionInfo> = serviceKey('MCP endpoint');
