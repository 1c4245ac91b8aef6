import { describe, expect, it } from 'vitest';
import { parseConfigText } from './configLoader';

const load = (processes: Record<string, unknown>) => parseConfigText(JSON.stringify({ processes }));

describe('dependsOn in switchboard.json', () => {
  it('accepts a graph without cycles and keeps every entry', () => {
    const config = load({
      db: { command: 'db' },
      migrate: { command: 'm', dependsOn: { db: 'ready' } },
      web: { command: 'w', dependsOn: { migrate: 'completed', db: 'started' } },
    });
    expect(config.issues).toEqual([]);
    expect([...config.processes.keys()]).toEqual(['db', 'migrate', 'web']);
  });

  it('an unknown name is an error naming the path and the known names; the entry is skipped', () => {
    const config = load({ api: { command: 'a' }, web: { command: 'w', dependsOn: { apii: 'ready' } } });
    expect(config.issues).toEqual([{ path: 'processes.web.dependsOn.apii', message: 'names no process (known: api)' }]);
    expect([...config.processes.keys()]).toEqual(['api']);
  });

  it('a cycle is an error naming its path; what depends on it is skipped too', () => {
    const config = load({
      a: { command: 'a', dependsOn: { b: 'ready' } },
      b: { command: 'b', dependsOn: { c: 'started' } },
      c: { command: 'c', dependsOn: { a: 'completed' } },
      d: { command: 'd', dependsOn: { c: 'ready' } },
      e: { command: 'e' },
    });
    expect(config.issues[0]).toEqual({ path: 'processes.a.dependsOn.b', message: 'forms a cycle: a → b → c → a' });
    expect(config.issues.map((i) => i.path)).toContain('processes.d.dependsOn.c');
    expect([...config.processes.keys()]).toEqual(['e']);
  });

  it('a process cannot depend on itself', () => {
    const config = load({ a: { command: 'a', dependsOn: { a: 'ready' } } });
    expect(config.issues[0]).toEqual({ path: 'processes.a.dependsOn.a', message: 'cannot name the process itself' });
  });

  it('an unknown condition is a schema error', () => {
    const config = load({ a: { command: 'a' }, b: { command: 'b', dependsOn: { a: 'healthy' } } });
    expect(config.issues[0]).toMatchObject({ path: 'processes.b.dependsOn.a', message: 'must be one of started, ready, completed' });
  });
});
