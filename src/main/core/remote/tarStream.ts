/**
 * A gzipped POSIX tar (ustar, with pax records for names over 100 bytes) of files read from a
 * BundleSource, made in-process so the files can come from inside an asar archive. The host
 * unpacks it with its own `tar -xz` (GNU and BSD tar both read pax).
 */
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { BundleSource } from './bundleSource';

const BLOCK = 512;

/** Every entry under `paths` (folders recursively, links as links) but those `skip` names, as a gzipped tar stream. */
export function tarStream(source: BundleSource, paths: string[], skip: (path: string) => boolean): Readable {
  const mtime = Math.floor(Date.now() / 1000);
  function* entries(path: string): Generator<Buffer> {
    if (skip(path)) return;
    const entry = source.entry(path);
    if (!entry) throw new Error(`${path}: not in ${source.location}`);
    if (entry.type === 'dir') {
      yield* header(`${path}/`, { type: '5', mode: 0o755, size: 0, mtime });
      for (const name of source.list(path)) yield* entries(`${path}/${name}`);
    } else if (entry.type === 'link') {
      yield* header(path, { type: '2', mode: 0o777, size: 0, mtime, linkname: entry.target });
    } else {
      const data = source.read(path);
      yield* header(path, { type: '0', mode: entry.executable ? 0o755 : 0o644, size: data.length, mtime });
      yield data;
      yield padding(data.length);
    }
  }
  function* all(): Generator<Buffer> {
    for (const path of paths) yield* entries(path);
    yield Buffer.alloc(BLOCK * 2); // the end-of-archive marker
  }
  const gzip = createGzip();
  // A file that cannot be read (a rebuild replacing out/ meanwhile) fails the stream, never leaves it open.
  const tar = Readable.from(all(), { objectMode: false }).once('error', (err) => gzip.destroy(err));
  return tar.pipe(gzip);
}

interface HeaderFields {
  type: '0' | '2' | '5' | 'x';
  mode: number;
  size: number;
  mtime: number;
  linkname?: string;
}

/** The entry's header block, preceded by a pax record when its name or link target is too long for ustar. */
function* header(name: string, fields: HeaderFields): Generator<Buffer> {
  const long: Record<string, string> = {};
  if (Buffer.byteLength(name) > 100) long.path = name;
  if (fields.linkname && Buffer.byteLength(fields.linkname) > 100) long.linkpath = fields.linkname;
  if (Object.keys(long).length > 0) {
    const records = Buffer.from(
      Object.entries(long)
        .map(([key, value]) => paxRecord(key, value))
        .join(''),
    );
    yield ustarBlock('PaxHeader', { type: 'x', mode: 0o644, size: records.length, mtime: fields.mtime });
    yield records;
    yield padding(records.length);
  }
  yield ustarBlock(name, fields);
}

/** `<length> <key>=<value>\n`, where length counts the whole record, its own digits included. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body);
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
  return `${length}${body}`;
}

function ustarBlock(name: string, fields: HeaderFields): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name.slice(0, 100), 0, 100, 'utf8'); // a longer name is in the pax record before it
  octal(block, 100, 8, fields.mode);
  octal(block, 108, 8, 0);
  octal(block, 116, 8, 0);
  octal(block, 124, 12, fields.size);
  octal(block, 136, 12, fields.mtime);
  block.fill(' ', 148, 156); // the checksum counts its own field as spaces
  block.write(fields.type, 156, 1, 'latin1');
  if (fields.linkname) block.write(fields.linkname.slice(0, 100), 157, 100, 'utf8');
  block.write('ustar\u000000', 257, 8, 'latin1');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8, 'latin1');
  return block;
}

function octal(block: Buffer, offset: number, width: number, value: number): void {
  block.write(`${value.toString(8).padStart(width - 1, '0')}\u0000`, offset, width, 'latin1');
}

function padding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}
