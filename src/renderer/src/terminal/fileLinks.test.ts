import { describe, expect, it } from 'vitest';
import { findFileLinks } from './fileLinks';

describe('findFileLinks', () => {
  it('finds the references compilers, test runners and agents print', () => {
    expect(findFileLinks('src/app.ts:42')).toEqual([{ start: 0, end: 13, path: 'src/app.ts', line: 42 }]);
    expect(findFileLinks('  at ./a/b.py:10:5 in main')).toEqual([{ start: 5, end: 18, path: './a/b.py', line: 10, column: 5 }]);
    expect(findFileLinks('error in /home/me/p/x.go:7: boom')[0]).toMatchObject({ path: '/home/me/p/x.go', line: 7 });
    expect(findFileLinks('(../lib/util.test.tsx:3:14)')[0]).toMatchObject({ path: '../lib/util.test.tsx', line: 3, column: 14 });
    expect(findFileLinks('README.md:1 and docs/ui.md:20').map((l) => l.path)).toEqual(['README.md', 'docs/ui.md']);
  });

  it('leaves URLs, addresses and times alone', () => {
    expect(findFileLinks('listening on http://example.com:8080/x')).toEqual([]);
    expect(findFileLinks('bound 127.0.0.1:3000 at 10:30')).toEqual([]);
    expect(findFileLinks('a note: nothing here')).toEqual([]);
  });
});
