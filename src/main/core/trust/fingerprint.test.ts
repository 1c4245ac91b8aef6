import { describe, expect, it } from 'vitest';
import type { ProcessSpec } from '../../../shared/model';
import { trustFingerprint } from './fingerprint';

const base: ProcessSpec = {
  name: 'web',
  kind: 'command',
  argv: ['npm', 'run', 'dev'],
  cwd: '/p',
  env: { A: '1', B: '2' },
  configName: 'web',
};

describe('trust fingerprint', () => {
  it('changes with what runs: argv, cwd, env, MCP scopes', () => {
    const fingerprint = trustFingerprint(base);
    expect(trustFingerprint({ ...base, argv: ['npm', 'run', 'dev', '--', '--host'] })).not.toBe(fingerprint);
    expect(trustFingerprint({ ...base, cwd: '/p/sub' })).not.toBe(fingerprint);
    expect(trustFingerprint({ ...base, env: { A: '1', B: '3' } })).not.toBe(fingerprint);
    expect(trustFingerprint({ ...base, mcp: { scopes: [] } })).not.toBe(fingerprint);
    expect(trustFingerprint({ ...base, mcp: { scopes: ['entries:read-all'] } })).not.toBe(
      trustFingerprint({ ...base, mcp: { scopes: [] } }),
    );
  });

  it('ignores what runs nothing: name, readiness settings, env order, scope order', () => {
    const fingerprint = trustFingerprint(base);
    expect(trustFingerprint({ ...base, name: 'renamed', ready: { readyPatterns: ['ready'], port: 3000 } })).toBe(fingerprint);
    expect(trustFingerprint({ ...base, env: { B: '2', A: '1' } })).toBe(fingerprint);
    expect(trustFingerprint({ ...base, mcp: { scopes: ['entries:read-all', 'entries:input-all'] } })).toBe(
      trustFingerprint({ ...base, mcp: { scopes: ['entries:input-all', 'entries:read-all'] } }),
    );
  });

  it('does not confuse an argument boundary with a space (["a b"] vs ["a", "b"])', () => {
    expect(trustFingerprint({ ...base, argv: ['sh', '-c', 'a b'] })).not.toBe(trustFingerprint({ ...base, argv: ['sh', '-c', 'a', 'b'] }));
  });
});

describe('a sandbox', () => {
  it('changes the fingerprint with its settings (in any key order); an entry without one keeps the fingerprint it had', () => {
    const spec: ProcessSpec = { name: 'a', kind: 'agent', argv: ['claude'], cwd: '/p' };
    const plain = trustFingerprint(spec);
    const sandboxed = trustFingerprint({ ...spec, sandbox: { network: { allow: ['a.example'] } } });
    const wider = trustFingerprint({ ...spec, sandbox: { network: { allow: ['a.example', 'b.example'] } } });
    expect(new Set([plain, sandboxed, wider]).size).toBe(3);
    expect(trustFingerprint({ ...spec, sandbox: { memoryMb: 512, maxProcesses: 64 } })).toBe(
      trustFingerprint({ ...spec, sandbox: { maxProcesses: 64, memoryMb: 512 } }),
    );
  });
});
