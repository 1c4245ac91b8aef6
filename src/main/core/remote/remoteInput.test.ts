import { describe, expect, it } from 'vitest';
import { groupRemoteSpecs, parseRemoteSpec } from './destination';
import { describeSshFailure, SSH_FAILURE_RULES } from './sshFailures';

describe('--remote DEST[:DIR]', () => {
  it.each([
    ['devbox', { destination: 'devbox', dirs: [] }],
    ['me@devbox:~/shop', { destination: 'me@devbox', dirs: ['~/shop'] }],
    ['me@devbox:/srv/app:v2', { destination: 'me@devbox', dirs: ['/srv/app:v2'] }],
    ['[::1]:code', { destination: '[::1]', dirs: ['code'] }],
    ['me@[fe80::1]', { destination: 'me@[fe80::1]', dirs: [] }],
  ])('%s', (text, expected) => expect(parseRemoteSpec(text)).toEqual(expected));

  it.each([
    ['-oProxyCommand=evil', /cannot start with "-"/],
    [':dir', /no host/],
    ['dev box:dir', /spaces or control characters/],
    ['devbox:a\nb', /control characters/],
  ])('refuses %j', (text, message) => expect(() => parseRemoteSpec(text)).toThrow(message));

  it('gathers the folders of one host under one connection', () => {
    expect(groupRemoteSpecs(['a:x', 'b', 'a:y', 'a:x'])).toEqual([
      { destination: 'a', dirs: ['x', 'y'] },
      { destination: 'b', dirs: [] },
    ]);
  });
});

describe('ssh failures in one line', () => {
  it.each(SSH_FAILURE_RULES.map((rule) => [rule.id, rule] as const))('%s: its sample is described by its own rule', (_id, rule) => {
    expect(describeSshFailure('devbox', `some noise\n${rule.sample}\n`, 255)).toBe(rule.message.replaceAll('{host}', 'devbox'));
  });

  it('an unknown failure shows ssh own last line', () => {
    expect(describeSshFailure('devbox', 'debug1: x\nchannel 0: open failed: administratively prohibited\n', 255)).toBe(
      'devbox: ssh failed (exit 255): channel 0: open failed: administratively prohibited',
    );
  });
});
