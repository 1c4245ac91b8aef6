/**
 * Where the server bundle's files are read from: the app's folder (a checkout, `serve`) or, in a
 * packaged app, its `app.asar` archive with the `app.asar.unpacked` folder beside it. The
 * installer reads files through this interface in-process, never by handing paths to a child
 * process: `tar` or `scp` cannot see inside an archive, and Electron's fs (which can) is not there
 * in plain Node. Paths are relative, `/`-separated, `''` for the root.
 */
import * as nodeFs from 'node:fs';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, posix } from 'node:path';

type SourceEntry = { type: 'dir' } | { type: 'file'; size: number; executable: boolean } | { type: 'link'; target: string };

export interface BundleSource {
  /** What it reads (shown in errors). */
  readonly location: string;
  /** The entry at `path` (a link is not followed), or undefined when there is none. */
  entry(path: string): SourceEntry | undefined;
  /** The names in the folder at `path`, sorted. */
  list(path: string): string[];
  read(path: string): Buffer;
}

/** The app at `appRoot`: its asar archive when packaged, else the folder itself. */
export function appBundleSource(appRoot: string): BundleSource {
  return appRoot.endsWith('.asar') && plainFs().statSync(appRoot).isFile() ? asarSource(appRoot) : directorySource(appRoot);
}

export function directorySource(root: string): BundleSource {
  const full = (path: string) => join(root, path);
  return {
    location: root,
    entry(path) {
      const stat = lstatSync(full(path), { throwIfNoEntry: false });
      if (!stat) return undefined;
      if (stat.isSymbolicLink()) return { type: 'link', target: readlinkSync(full(path)) };
      if (stat.isDirectory()) return { type: 'dir' };
      return { type: 'file', size: stat.size, executable: (stat.mode & 0o111) !== 0 };
    },
    list: (path) => readdirSync(full(path)).sort(),
    read: (path) => readFileSync(full(path)),
  };
}

/** The asar header's node for one entry (the format @electron/asar writes). */
interface AsarNode {
  files?: Record<string, AsarNode>;
  size?: number;
  offset?: string;
  unpacked?: boolean;
  executable?: boolean;
  link?: string;
}

/**
 * An asar archive read as the format is: an 8-byte size pickle, a header pickle holding the
 * JSON tree, then the packed files' bytes; unpacked entries live in `<archive>.unpacked/`.
 */
export function asarSource(archive: string): BundleSource {
  const fs = plainFs();
  const sizeBuf = Buffer.alloc(8);
  const fd = fs.openSync(archive, 'r');
  let header: AsarNode;
  let dataStart: number;
  try {
    fs.readSync(fd, sizeBuf, 0, 8, 0);
    const headerSize = sizeBuf.readUInt32LE(4);
    const headerBuf = Buffer.alloc(headerSize);
    fs.readSync(fd, headerBuf, 0, headerSize, 8);
    // The header pickle: payload size, string length, the JSON string.
    header = JSON.parse(headerBuf.toString('utf8', 8, 8 + headerBuf.readInt32LE(4))) as AsarNode;
    dataStart = 8 + headerSize;
  } finally {
    fs.closeSync(fd);
  }
  const node = (path: string): AsarNode | undefined => {
    let current: AsarNode | undefined = header;
    for (const name of path.split('/').filter(Boolean)) current = current?.files?.[name];
    return current;
  };
  const must = (path: string) => {
    const found = node(path);
    if (!found) throw new Error(`${path}: not in ${archive}`);
    return found;
  };
  return {
    location: archive,
    entry(path) {
      const found = node(path);
      if (!found) return undefined;
      // The header holds a link's target from the archive's root; on disk it is from the link's folder.
      if (found.link !== undefined) return { type: 'link', target: posix.relative(posix.dirname(path), found.link) };
      if (found.files) return { type: 'dir' };
      // An unpacked file's mode is the real file's (the header has no executable bit for it).
      const executable = found.unpacked ? (fs.statSync(join(`${archive}.unpacked`, path)).mode & 0o111) !== 0 : found.executable === true;
      return { type: 'file', size: found.size ?? 0, executable };
    },
    list: (path) => Object.keys(must(path).files ?? {}).sort(),
    read(path) {
      const found = must(path);
      if (found.unpacked) return fs.readFileSync(join(`${archive}.unpacked`, path));
      const buffer = Buffer.alloc(found.size ?? 0);
      if (buffer.length === 0) return buffer;
      const file = fs.openSync(archive, 'r');
      try {
        fs.readSync(file, buffer, 0, buffer.length, dataStart + Number(found.offset));
      } finally {
        fs.closeSync(file);
      }
      return buffer;
    },
  };
}

/** Node's fs without Electron's asar layer (which shows an archive as a folder, never as its bytes). */
function plainFs(): typeof nodeFs {
  return process.versions.electron ? (createRequire(__filename)('original-fs') as typeof nodeFs) : nodeFs;
}
