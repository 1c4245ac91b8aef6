/**
 * File references with a line number in terminal output (`src/app.ts:42`, `./a/b.py:10:5`,
 * `/abs/x.go:7`) as the compilers, test runners and agents print them. A match is only a
 * candidate: the core checks the file exists inside the project before an editor opens it.
 */
interface FileLink {
  /** Index of the first and one past the last character of the link in the line. */
  start: number;
  end: number;
  path: string;
  line: number;
  column?: number;
}

// A path: optional ./ ../ or /, segments of ordinary file-name characters, and a final name with an
// extension that starts with a letter (so 127.0.0.1:3000 and 10:30 are not files). It must start
// the line or follow a space, quote or bracket (so URLs like http://host.com:80 are not taken).
const FILE_REFERENCE = /(?<=^|[\s'"`([{<])((?:\.{1,2}\/|\/|~\/)?(?:[\w@.+-]+\/)*[\w@.+-]*\.[A-Za-z][\w]*):(\d+)(?::(\d+))?/g;

export function findFileLinks(text: string): FileLink[] {
  const links: FileLink[] = [];
  for (const match of text.matchAll(FILE_REFERENCE)) {
    const [whole, path = '', line = '', column] = match;
    if (path.startsWith('~/')) continue; // home-relative paths are never inside the project's tree by name
    links.push({
      start: match.index,
      end: match.index + whole.length,
      path,
      line: Number(line),
      ...(column ? { column: Number(column) } : {}),
    });
  }
  return links;
}
