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

/** At least this many bytes per serialized line are assumed when guessing how many lines fill the bound. */
const MIN_GUESS_BYTES_PER_LINE = 8;
const MAX_SERIALIZE_ATTEMPTS = 4;
/**
 * @xterm/addon-serialize costs ~60 µs per line (measured: 29 000 lines in 1.9 s): a saved
 * scrollback holds at most this many lines (~0.6 s per entry) whatever the byte bound allows.
 */
const MAX_SERIALIZED_LINES = 10_000;

/**
 * Serializes only about as many scrollback lines as fill `maxBytes` (serializing a 100 000-line
 * scrollback to keep its last 2 MB would cost seconds): a first guess from the screen width, then
 * more lines while the result stays well under the bound and older lines exist.
 */
export async function serializeWithin(
  serialize: (maxLines: number) => Promise<string>,
  available: number,
  cols: number,
  maxBytes: number,
): Promise<string> {
  if (maxBytes <= 0) return '';
  available = Math.min(available, MAX_SERIALIZED_LINES);
  let lines = Math.min(available, Math.ceil(maxBytes / Math.max(cols, MIN_GUESS_BYTES_PER_LINE)));
  // Asking for every line lets the addon count them itself (the screen may have grown meanwhile).
  const ask = (n: number) => serialize(n >= available ? MAX_SERIALIZED_LINES : n);
  let serialized = await ask(lines);
  for (let attempt = 1; attempt < MAX_SERIALIZE_ATTEMPTS && lines < available; attempt++) {
    const size = Buffer.byteLength(serialized, 'utf8');
    if (size >= maxBytes) break;
    const bytesPerLine = Math.max(size / Math.max(lines, 1), 1);
    const next = Math.min(available, Math.ceil((maxBytes / bytesPerLine) * 1.25), lines * 16);
    if (next <= lines) break;
    lines = next;
    serialized = await ask(lines);
  }
  return boundSerialized(serialized, maxBytes);
}
