const RESET = '\x1b[0m';

/** Keeps the newest part of a serialized screen within `maxBytes`, cut at a line start. */
export function boundSerialized(serialized: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  const bytes = Buffer.from(serialized, 'utf8');
  if (bytes.length <= maxBytes) return serialized;
  // Colours set before the cut are lost with it: start from the default rendition.
  const lineStart = bytes.indexOf('\r\n', bytes.length - maxBytes + RESET.length);
  if (lineStart < 0) return '';
  return `${RESET}${bytes.subarray(lineStart + 2).toString('utf8')}`;
}
