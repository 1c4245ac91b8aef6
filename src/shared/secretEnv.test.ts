import { describe, expect, it } from 'vitest';
import { isSecretEnv, isSecretEnvName, shownEnvPair } from './secretEnv';

describe('the secret env rule', () => {
  it('names that usually hold credentials, and only those', () => {
    for (const name of ['API_KEY', 'AWS_SECRET_ACCESS_KEY', 'NPM_TOKEN', 'PGPASSWORD', 'HTTP_AUTH', 'SESSION_COOKIE', 'GH_PAT'])
      expect(isSecretEnvName(name), name).toBe(true);
    for (const name of ['PATH', 'PORT', 'KEYBOARD_LAYOUT', 'NODE_ENV', 'HOME', 'CODEX_HOME', 'DATABASE_URL'])
      expect(isSecretEnvName(name), name).toBe(false);
  });

  it('values with URL user info, whatever the name', () => {
    for (const value of [
      'postgres://app:s3cret@db.internal:5432/app',
      'redis://:s3cret@cache:6379/0',
      'https://ghp_abc123@github.com/org/repo.git',
      'mongodb+srv://user:p%40ss@cluster0.example.net/db',
      'amqp://guest:guest@localhost',
      'jdbc:mysql://root:pw@localhost/db',
      'http://a.example,redis://:pw@b.example',
    ])
      expect(isSecretEnv('DATABASE_URL', value), value).toBe(true);
    for (const value of [
      'postgres://db.internal:5432/app',
      'http://localhost:3000/path@v2',
      'http://example.com/?user=a@b.c',
      'git@github.com:org/repo.git',
      'mailto:someone@example.com',
      'someone@example.com',
      'development',
    ])
      expect(isSecretEnv('DATABASE_URL', value), value).toBe(false);
    expect(isSecretEnv('GITHUB_TOKEN', 'anything')).toBe(true);
  });

  it('masks what it catches on screen unless revealed', () => {
    expect(shownEnvPair('DATABASE_URL', 'postgres://u:p@db/app')).toBe('DATABASE_URL=••••••');
    expect(shownEnvPair('DATABASE_URL', 'postgres://u:p@db/app', true)).toBe('DATABASE_URL=postgres://u:p@db/app');
    expect(shownEnvPair('PORT', '3000')).toBe('PORT=3000');
  });
});
