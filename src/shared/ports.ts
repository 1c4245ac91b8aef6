/** Port sightings for an entry (SPEC §3.2). Owned by core/ports. */
export interface UrlSighting {
  url: string;
  port: number;
  host: string;
  /** Byte offset of the output where it was seen. */
  offset: number;
  at: number;
}

export interface PortInfo {
  sightings: UrlSighting[];
  /** TCP ports the entry's process tree listens on. */
  listening: number[];
}
