import { describe, expect, it } from 'vitest';
import { expandTemplate, templateRefs } from './templates';

const values = { port: () => '20001', portOf: (n: string) => `p-${n}`, urlOf: (n: string) => `u-${n}`, worktree: 'feature-a' };

describe('templates', () => {
  it('finds each kind of reference and skips escaped ones', () => {
    expect(templateRefs('${port} ${port:api} ${url:api} ${worktree} $${port} ${nope}')).toEqual([
      { kind: 'port' },
      { kind: 'portOf', name: 'api' },
      { kind: 'urlOf', name: 'api' },
      { kind: 'worktree' },
      { kind: 'unknown', text: 'nope' },
    ]);
  });

  it('expands every reference in place and keeps $${ literal', () => {
    expect(expandTemplate('--port=${port} API=${url:api}/v1 db_${worktree} ${port:api} $${port}', values)).toBe(
      '--port=20001 API=u-api/v1 db_feature-a p-api ${port}',
    );
  });

  it('throws on an unknown reference rather than passing it on', () => {
    expect(() => expandTemplate('${ports}', values)).toThrow('unknown reference ${ports}');
  });
});
