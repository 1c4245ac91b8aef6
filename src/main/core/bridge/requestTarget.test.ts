import { describe, expect, it } from 'vitest';
import { parseRequestTarget } from './requestTarget';

describe('parseRequestTarget', () => {
  it('refuses, without throwing, every target that killed serve or cannot be a path', () => {
    for (const raw of ['//', '///x', '//evil.example/', '/%', '/%zz', '/a%E0%A4%A', '/%00', '*', 'http://127.0.0.1/', '', undefined]) {
      expect(parseRequestTarget(raw), String(raw)).toBeUndefined();
    }
  });

  it('decodes the path and keeps bad query escapes literal', () => {
    expect(parseRequestTarget('/assets/a%20b.js?x=%zz&y=1')).toEqual({ path: '/assets/a b.js', query: new URLSearchParams('x=%zz&y=1') });
    expect(parseRequestTarget('/')?.path).toBe('/');
    expect(parseRequestTarget('/ws?token=a')?.query.get('token')).toBe('a');
  });
});
