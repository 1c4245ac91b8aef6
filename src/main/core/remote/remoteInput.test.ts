import { describe, expect, it } from 'vitest';
import { groupRemoteSpecs, parseRemoteSpec } from './destination';
import { describeSshFailure, SSH_FAILURE_RULES } from './sshFailures';
import { SshConnection, SshError } from './sshConnection';
import { sshDestinationProblem, WorkspaceCommandArgs } from '../../../shared/workspace';

describe('--remote DEST[:DIR]', () => {
  it.each([
    ['devbox', { destination: 'devbox', dirs: [] }],
    ['me@devbox:~/shop', { destination: 'me@devbox', dirs: ['~/shop'] }],
    ['me@devbox:/srv/app:v2', { destination: 'me@devbox', dirs: ['/srv/app:v2'] }],
    ['[::1]:code', { destination: '[::1]', dirs: ['code'] }],
    ['me@[fe80::1]', { destination: 'me@[fe80::1]', dirs: [] }],
    ['ssh://me@devbox:2222:~/shop', { destination: 'ssh://me@devbox:2222', dirs: ['~/shop'] }],
    ['ssh://devbox', { destination: 'ssh://devbox', dirs: [] }],
    ['build_box.lan', { destination: 'build_box.lan', dirs: [] }],
  ])('%s', (text, expected) => expect(parseRemoteSpec(text)).toEqual(expected));

  it.each([
    ['-oProxyCommand=evil', /cannot start with "-"/],
    [':dir', /no host/],
    ['dev box:dir', /spaces or control characters/],
    ['devbox:a\nb', /control characters/],
    ['a$(id>x)', /a host is a name, an ssh config alias, user@host/],
    ['`id`', /a host is a name/],
    ["'devbox'", /a host is a name/],
    ['"devbox"', /a host is a name/],
    ['dev;id', /a host is a name/],
    ['dev|id', /a host is a name/],
    ['dev&id', /a host is a name/],
    ['dev>x', /a host is a name/],
    ['me@-oProxyCommand=x', /a host is a name/],
    ['me@@devbox', /a host is a name/],
    ['[::1;id]', /a host is a name/],
    ['ssh://devbox:22x', /a host is a name/],
    ['%h', /a host is a name/],
  ])('refuses %j', (text, message) => expect(() => parseRemoteSpec(text)).toThrow(message));

  it.each(['a$(id>x)', 'dev box', '-oProxyCommand=x', "dev'box", 'a;b'])('%j: one line before any ssh runs', async (destination) => {
    const failed = SshConnection.open({ destination });
    await expect(failed).rejects.toThrow(SshError);
    await expect(failed).rejects.toThrow(/^"[^\n]*": a host /);
  });

  it('the Add host command refuses the same destinations with the same line', () => {
    const parsed = WorkspaceCommandArgs.addHost.safeParse({ destination: 'a$(id>x)' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].message).toBe(sshDestinationProblem('a$(id>x)'));
    expect(WorkspaceCommandArgs.addHost.safeParse({ destination: 'me@[::1]' }).success).toBe(true);
  });

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
