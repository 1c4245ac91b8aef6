import { mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolvePreset } from '../agents';
import { argvForRun, hasStoredConversation } from '../agents';
import { isSecretEnvName, persistableSpec, withheldEnvNames } from './persistedSpec';
import { boundSerialized, serializeWithin } from './scrollbackBound';
import { StateStore } from './stateStore';

describe('argvForRun', () => {
  const claude = resolvePreset('claude').resume;
  const codex = resolvePreset('codex').resume;

  it('Claude Code: --session-id on a fresh run, --resume when resuming, after the other arguments', () => {
    expect(argvForRun(claude, ['claude', '--model', 'x'], { kind: 'fresh', sessionId: 'u-1' })).toEqual([
      'claude',
      '--model',
      'x',
      '--session-id',
      'u-1',
    ]);
    expect(argvForRun(claude, ['claude', '--model', 'x'], { kind: 'resume', sessionId: 'u-1' })).toEqual([
      'claude',
      '--model',
      'x',
      '--resume',
      'u-1',
    ]);
  });

  it('Codex: nothing on a fresh run (it picks its id), `resume <id>` as the subcommand right after the program', () => {
    expect(argvForRun(codex, ['codex', '-c', 'a=1'], { kind: 'fresh' })).toEqual(['codex', '-c', 'a=1']);
    expect(argvForRun(codex, ['codex', '-c', 'a=1'], { kind: 'resume', sessionId: 'abc' })).toEqual([
      'codex',
      'resume',
      'abc',
      '-c',
      'a=1',
    ]);
  });

  it('presets that cannot resume keep their argv and say so', () => {
    const gemini = resolvePreset('gemini').resume;
    expect(gemini.supported).toBe(false);
    expect(argvForRun(gemini, ['gemini'], { kind: 'resume', sessionId: 'x' })).toEqual(['gemini']);
    expect(resolvePreset('/opt/bin/some-agent').resume.supported).toBe(false);
  });

  it('the Codex session file pattern takes the id from a real rollout file name', () => {
    const rule = codex.supported ? codex.sessionFile! : undefined;
    const match = rule!.pattern.exec(
      '/h/.codex/sessions/2026/11/23/rollout-2026-11-23T19-35-10-019a8f3c-1b2d-7e4f-9a0b-123456789abc.jsonl',
    );
    expect(match?.[1]).toBe('019a8f3c-1b2d-7e4f-9a0b-123456789abc');
  });
});

describe('hasStoredConversation', () => {
  let home: string;
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('an assigned id that never took a turn has nothing to resume (Claude Code exits 1: "No conversation found")', () => {
    home = mkdtempSync(join(tmpdir(), 'claude-home-'));
    const claude = resolvePreset('claude').resume;
    const transcript = claude.supported ? claude.transcript! : undefined;
    const env = { CLAUDE_CONFIG_DIR: home };
    const id = '8c749627-e1ba-4060-baf8-515a3238a6f3';
    expect(hasStoredConversation(transcript!, id, env)).toBe(false);
    mkdirSync(join(home, 'projects', '-tmp-some-project'), { recursive: true });
    expect(hasStoredConversation(transcript!, id, env)).toBe(false);
    writeFileSync(join(home, 'projects', '-tmp-some-project', `${id}.jsonl`), '{}\n');
    expect(hasStoredConversation(transcript!, id, env)).toBe(true);
    expect(hasStoredConversation(transcript!, '00000000-0000-4000-8000-000000000000', env)).toBe(false);
  });
});

describe('persistableSpec', () => {
  it('drops env values that look like secrets unless the entry keeps them, and never the config name', () => {
    const spec = {
      name: 'w',
      kind: 'command' as const,
      argv: ['x'],
      cwd: '/p',
      configName: 'web',
      env: {
        GITHUB_TOKEN: 't',
        DB_PASSWORD: 'p',
        OPENAI_API_KEY: 'k',
        DATABASE_URL: 'postgres://app:s3cret@db/app',
        CACHE_URL: 'redis://cache:6379',
        PORT: '3000',
        NODE_ENV: 'dev',
      },
    };
    expect(persistableSpec(spec)).toEqual({
      name: 'w',
      kind: 'command',
      argv: ['x'],
      cwd: '/p',
      env: { CACHE_URL: 'redis://cache:6379', PORT: '3000', NODE_ENV: 'dev' },
    });
    expect(persistableSpec({ ...spec, persistSecretEnv: true }).env).toEqual(spec.env);
    expect(withheldEnvNames(spec)).toEqual(['GITHUB_TOKEN', 'DB_PASSWORD', 'OPENAI_API_KEY', 'DATABASE_URL']);
    expect(withheldEnvNames({ ...spec, persistSecretEnv: true })).toEqual([]);
  });

  it('recognises common credential names only', () => {
    for (const name of ['API_KEY', 'AWS_SECRET_ACCESS_KEY', 'NPM_TOKEN', 'PGPASSWORD', 'HTTP_AUTH', 'SESSION_COOKIE', 'GH_PAT'])
      expect(isSecretEnvName(name), name).toBe(true);
    for (const name of ['PATH', 'PORT', 'KEYBOARD_LAYOUT', 'NODE_ENV', 'HOME', 'CODEX_HOME'])
      expect(isSecretEnvName(name), name).toBe(false);
  });
});

describe('boundSerialized / serializeWithin', () => {
  it('keeps the newest whole lines within the bound, starting from the default rendition', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `\x1b[31mline-${i}\x1b[0m`).join('\r\n');
    const bounded = boundSerialized(text, 500);
    expect(Buffer.byteLength(bounded)).toBeLessThanOrEqual(500);
    expect(bounded.startsWith('\x1b[0m\x1b[31mline-')).toBe(true);
    expect(bounded.endsWith('line-999\x1b[0m')).toBe(true);
    expect(boundSerialized('short', 500)).toBe('short');
  });

  it('asks for only about as many lines as the bound holds', async () => {
    const asked: number[] = [];
    const serialize = async (lines: number) => {
      asked.push(lines);
      return 'x'.repeat(10).concat('\r\n').repeat(lines);
    };
    const out = await serializeWithin(serialize, 100_000, 120, 12_000);
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(12_000);
    expect(Math.max(...asked)).toBeLessThan(2_000);
    expect(Buffer.byteLength(out)).toBeGreaterThan(10_000);
  });
});

describe('StateStore', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips the state; a corrupt file is moved aside with a clear problem and no state', () => {
    dir = mkdtempSync(join(tmpdir(), 'state-store-'));
    const store = new StateStore(dir, '/some/project');
    expect(store.load()).toEqual({});
    const state = {
      version: 1 as const,
      savedAt: 1,
      pid: 2,
      entries: [{ id: 'p_abcdef', wasRunning: true, runMarker: 'm', sessionId: 's' }],
    };
    store.save(state);
    expect(store.load().state).toEqual(state);
    mkdirSync(store.dir, { recursive: true });
    writeFileSync(join(store.dir, 'state.json'), '{"version":1,"entr');
    const loaded = store.load();
    expect(loaded.state).toBeUndefined();
    expect(loaded.problem).toMatch(/could not be read .*moved to/);
    expect(readdirSync(store.dir).some((n) => n.startsWith('state.json.corrupt-'))).toBe(true);
    expect(store.load()).toEqual({});
  });

  it("keeps the previous run's scrollback apart from the one being written, and drops files of unknown entries", async () => {
    dir = mkdtempSync(join(tmpdir(), 'state-store-'));
    const store = new StateStore(dir, '/p');
    await store.saveScrollback('p_aaaaaa', 'old');
    await store.saveScrollback('p_bbbbbb', 'gone');
    store.keepAsPrevious('p_aaaaaa');
    await store.saveScrollback('p_aaaaaa', 'new');
    expect(store.readPrevious('p_aaaaaa')).toBe('old');
    expect(store.readScrollback('p_aaaaaa')).toBe('new');
    store.removeOrphans(new Set(['p_aaaaaa']));
    expect(store.readScrollback('p_bbbbbb')).toBeUndefined();
    expect(store.readPrevious('p_aaaaaa')).toBe('old');
  });
});
