import { describe, expect, it } from 'vitest';
import {
  hardeningSettings,
  parseConfigList,
  refusalFor,
  repositoryOverrides,
  settingsEnv,
  withDiffSwitches,
  type ConfigEntry,
} from './gitHardening';

const local = (key: string, value: string): ConfigEntry => ({ scope: 'local', key, value });
const global = (key: string, value: string): ConfigEntry => ({ scope: 'global', key, value });

describe('git hardening', () => {
  it('always turns off fsmonitor, hooks, implicit bare repositories, the pager and ext:: remotes', () => {
    expect(Object.fromEntries(hardeningSettings([]))).toEqual({
      'core.fsmonitor': 'false',
      'core.hooksPath': '/dev/null',
      'safe.bareRepository': 'explicit',
      'core.pager': 'cat',
      'protocol.ext.allow': 'never',
    });
  });

  it('neutralises every filter driver the repository defines, whatever its name, and makes it optional', () => {
    const overrides = repositoryOverrides([
      local('filter.Trap.clean', 'sh evil'),
      local('filter.Trap.process', 'sh evil'),
      local('filter.other.smudge', 'sh evil'),
    ]);
    expect(overrides).toEqual([
      ['filter.Trap.clean', ''],
      ['filter.Trap.required', 'false'],
      ['filter.Trap.process', ''],
      ['filter.Trap.required', 'false'],
      ['filter.other.smudge', ''],
      ['filter.other.required', 'false'],
    ]);
  });

  it("a repository's merge driver makes the file a conflict; its credential helper is replaced by the user's own", () => {
    const overrides = repositoryOverrides([
      local('merge.trap.driver', 'sh evil %A'),
      global('credential.helper', 'cache'),
      local('credential.helper', '!sh evil'),
      local('credential.https://example.com.helper', '!sh evil'),
    ]);
    expect(overrides).toEqual([
      ['merge.trap.driver', 'false'],
      ['credential.helper', ''],
      ['credential.helper', 'cache'],
      ['credential.https://example.com.helper', ''],
    ]);
  });

  it("program keys fall back to the user's value, else git's default program", () => {
    const overrides = repositoryOverrides([
      global('core.sshcommand', 'ssh -i ~/.ssh/work'),
      local('core.sshcommand', 'sh evil'),
      local('gpg.program', 'sh evil'),
      local('remote.origin.uploadpack', 'sh evil'),
      local('core.gitproxy', 'sh evil'),
    ]);
    expect(overrides).toEqual([
      ['core.sshcommand', 'ssh -i ~/.ssh/work'],
      ['gpg.program', 'gpg'],
      ['remote.origin.uploadpack', 'git-upload-pack'],
      ['core.gitproxy', 'none'],
    ]);
  });

  it("leaves the user's own global and system programs alone, and keys that run nothing", () => {
    expect(
      repositoryOverrides([global('filter.lfs.clean', 'git-lfs clean -- %f'), local('user.name', 'x'), local('core.worktree', '..')]),
    ).toEqual([]);
  });

  it('refuses network commands where the repository names a remote helper program', () => {
    const entries = [local('remote.origin.vcs', '../../evil')];
    expect(refusalFor(entries, 'push')).toMatch(/remote\.origin\.vcs/);
    expect(refusalFor(entries, 'status')).toBeNull();
    expect(refusalFor([global('remote.origin.vcs', 'hg')], 'push')).toBeNull();
  });

  it('passes the settings as GIT_CONFIG_COUNT environment, after any the user passes', () => {
    expect(settingsEnv([['core.fsmonitor', 'false']], { GIT_CONFIG_COUNT: '1' })).toEqual({
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_1: 'core.fsmonitor',
      GIT_CONFIG_VALUE_1: 'false',
    });
  });

  it('adds --no-ext-diff --no-textconv to diff, log and show only, after leading -c settings', () => {
    expect(withDiffSwitches(['-c', 'core.quotePath=false', 'diff', '--numstat'])).toEqual([
      '-c',
      'core.quotePath=false',
      'diff',
      '--no-ext-diff',
      '--no-textconv',
      '--numstat',
    ]);
    expect(withDiffSwitches(['diff', '--no-ext-diff', 'HEAD'])).toEqual(['diff', '--no-textconv', '--no-ext-diff', 'HEAD']);
    expect(withDiffSwitches(['status', '--porcelain'])).toEqual(['status', '--porcelain']);
  });

  it("reads git's -z listing: scope, origin, key and value (a key without a value included)", () => {
    const text =
      'local\0file:.git/config\0filter.trap.clean\nsh evil\0local\0file:.git/config\0core.bare\nfalse\0global\0file:/h/.gitconfig\0flag\0';
    expect(parseConfigList(text)).toEqual([
      { scope: 'local', origin: 'file:.git/config', key: 'filter.trap.clean', value: 'sh evil' },
      { scope: 'local', origin: 'file:.git/config', key: 'core.bare', value: 'false' },
      { scope: 'global', origin: 'file:/h/.gitconfig', key: 'flag', value: '' },
    ]);
  });
});
