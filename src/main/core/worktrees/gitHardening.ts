/**
 * What every git command Switchboard runs is given so that nothing the repository's own config
 * names runs (docs/security.md, "Hostile folders"). A trusted switchboard.json does not make a
 * trusted `.git/config`: a clone, a tarball or an agent may have written either.
 *
 * Two parts, both data with the reason for each:
 * - fixed settings passed to every call (fsmonitor off, no hooks, no implicit bare repositories…);
 * - families of keys that run a program, neutralised whenever the repository-level config
 *   (`.git/config`, `config.worktree`, and what they include) defines one of them. The user's own
 *   global and system settings of those families stay in force: they are the user's programs.
 */

/** A setting passed to every git call (as command-scope config, which wins over every file). */
interface FixedSetting {
  key: string;
  value: string;
  reason: string;
}

export const FIXED_GIT_SETTINGS: readonly FixedSetting[] = [
  {
    key: 'core.fsmonitor',
    value: 'false',
    reason: 'a repository can name a program as its file-system monitor; git runs it on every status, diff and add',
  },
  {
    key: 'core.hooksPath',
    value: '/dev/null',
    reason:
      "hooks (pre-commit, post-checkout, post-merge, reference-transaction, …) are the repository's programs; none runs for Switchboard's commands",
  },
  {
    key: 'safe.bareRepository',
    value: 'explicit',
    reason:
      'an embedded bare repository (a folder with HEAD, config, objects and a relative core.worktree) is not discovered, so its config is never read',
  },
  { key: 'core.pager', value: 'cat', reason: 'no pager program (git also gets --no-pager and GIT_PAGER=cat)' },
  {
    key: 'protocol.ext.allow',
    value: 'never',
    reason: 'ext:: remote URLs run a command (a url.*.insteadOf in the repository can rewrite any remote to one)',
  },
];

/** Environment every git call gets: the C locale, no prompts, no pager, no editor, no optional locks. */
export const GIT_ENV: Readonly<Record<string, string>> = {
  LC_ALL: 'C',
  GIT_TERMINAL_PROMPT: '0',
  // Reads never take the index lock nor write a refreshed index.
  GIT_OPTIONAL_LOCKS: '0',
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  // `:` is the shell's no-op: git runs editors through the shell, and core.editor / sequence.editor then never run.
  GIT_EDITOR: ':',
  GIT_SEQUENCE_EDITOR: ':',
};

/** Subcommands that can produce a diff: they get `--no-ext-diff --no-textconv` (diff.external, diff.<driver>.command / textconv). */
const DIFF_SUBCOMMANDS: ReadonlySet<string> = new Set(['diff', 'log', 'show']);
const NO_DIFF_PROGRAMS = ['--no-ext-diff', '--no-textconv'] as const;

/** A key family that runs a program; `neutral` says what replaces a repository-level value of `key`. */
interface ProgramFamily {
  pattern: RegExp;
  reason: string;
  /** Settings that replace it: `userValues` are the same key's values from the user's global and system config. */
  neutral(key: string, userValues: readonly string[]): Array<[string, string]>;
}

/** The user's own value of the key, else git's default program. */
function userOrDefault(fallback: string): ProgramFamily['neutral'] {
  return (key, userValues) => [[key, userValues.at(-1) ?? fallback]];
}

const PROGRAM_FAMILIES: readonly ProgramFamily[] = [
  {
    pattern: /^filter\.(.+)\.(clean|smudge|process)$/,
    reason: 'content filters named by .gitattributes run on add, status, checkout, worktree add, stash and commit',
    // An empty command is "no filter"; not required, so git keeps the content as it is instead of failing.
    neutral: (key) => [
      [key, ''],
      [`${key.slice(0, key.lastIndexOf('.'))}.required`, 'false'],
    ],
  },
  {
    pattern: /^merge\.(.+)\.driver$/,
    reason: 'custom merge drivers named by .gitattributes run on merge and rebase',
    // `false` is a shell builtin: a file that needs the driver counts as a conflict, and the merge is aborted.
    neutral: (key) => [[key, 'false']],
  },
  {
    pattern: /^credential\.(.+\.)?helper$/,
    reason: 'a credential helper is a program, run by push and fetch',
    // An empty value clears the list; the user's own helpers are added back after it.
    neutral: (key, userValues) => [[key, ''], ...userValues.map((value): [string, string] => [key, value])],
  },
  { pattern: /^core\.sshcommand$/, reason: 'the ssh program push and fetch run', neutral: userOrDefault('ssh') },
  {
    pattern: /^core\.gitproxy$/,
    reason: 'a proxy program for git:// remotes',
    neutral: userOrDefault('none'),
  },
  { pattern: /^core\.askpass$/, reason: 'a password prompt program', neutral: userOrDefault('') },
  {
    pattern: /^core\.alternaterefscommand$/,
    reason: 'run by push and fetch to list an alternate repository’s refs',
    neutral: userOrDefault(':'),
  },
  {
    pattern: /^gpg\.(program|openpgp\.program)$/,
    reason: 'the signing program (commit.gpgSign, merge.verifySignatures)',
    neutral: userOrDefault('gpg'),
  },
  { pattern: /^gpg\.x509\.program$/, reason: 'the x509 signing program', neutral: userOrDefault('gpgsm') },
  { pattern: /^gpg\.ssh\.program$/, reason: 'the ssh signing program', neutral: userOrDefault('ssh-keygen') },
  { pattern: /^gpg\.ssh\.defaultkeycommand$/, reason: 'a program that names the signing key', neutral: userOrDefault('') },
  {
    pattern: /^remote\.(.+)\.uploadpack$/,
    reason: 'the program run on the other side of a local or ssh fetch',
    neutral: userOrDefault('git-upload-pack'),
  },
  {
    pattern: /^remote\.(.+)\.receivepack$/,
    reason: 'the program run on the other side of a local or ssh push',
    neutral: userOrDefault('git-receive-pack'),
  },
];

/** Keys no neutral value exists for: commands that reach them are refused while the repository sets one. */
const REFUSED_FAMILIES: readonly { pattern: RegExp; subcommands: ReadonlySet<string>; reason: string }[] = [
  {
    pattern: /^remote\.(.+)\.vcs$/,
    subcommands: new Set(['push', 'fetch', 'pull', 'ls-remote']),
    reason: 'names the remote helper program git-remote-<vcs> (a name with a slash is a path into the folder)',
  },
];

/** One setting as `git config --list --show-scope` reports it. */
export interface ConfigEntry {
  scope: string;
  /** Lower-case section and name, as git reports them (the subsection keeps its case). */
  key: string;
  value: string;
}

/** Scopes a folder can write: the repository's config, its worktree config, and what they include. */
const REPOSITORY_SCOPES: ReadonlySet<string> = new Set(['local', 'worktree']);
const USER_SCOPES: ReadonlySet<string> = new Set(['system', 'global']);

/** The settings that neutralise every program-running key the repository-level config defines. */
export function repositoryOverrides(entries: readonly ConfigEntry[]): Array<[string, string]> {
  const repositoryKeys = new Set(entries.filter((e) => REPOSITORY_SCOPES.has(e.scope)).map((e) => e.key));
  const overrides: Array<[string, string]> = [];
  for (const key of repositoryKeys) {
    const family = PROGRAM_FAMILIES.find((f) => f.pattern.test(key.toLowerCase()));
    if (!family) continue;
    const userValues = entries.filter((e) => e.key === key && USER_SCOPES.has(e.scope)).map((e) => e.value);
    overrides.push(...family.neutral(key, userValues));
  }
  return overrides;
}

/** Why `subcommand` may not run in this repository, or null. */
export function refusalFor(entries: readonly ConfigEntry[], subcommand: string): string | null {
  for (const entry of entries) {
    if (!REPOSITORY_SCOPES.has(entry.scope)) continue;
    const family = REFUSED_FAMILIES.find((f) => f.pattern.test(entry.key.toLowerCase()) && f.subcommands.has(subcommand));
    if (family) return `the repository's config sets ${entry.key}, which ${family.reason}; run git ${subcommand} in a terminal`;
  }
  return null;
}

/** Every setting for one call: the fixed ones, then the repository's neutralised keys. */
export function hardeningSettings(entries: readonly ConfigEntry[]): Array<[string, string]> {
  return [...FIXED_GIT_SETTINGS.map((s): [string, string] => [s.key, s.value]), ...repositoryOverrides(entries)];
}

/**
 * The settings as environment (`GIT_CONFIG_COUNT`, git ≥ 2.31): command-scope config that every git
 * a command starts inherits — `gh` runs git too. Settings the user already passes this way are kept.
 */
export function settingsEnv(settings: ReadonlyArray<[string, string]>, base: NodeJS.ProcessEnv): Record<string, string> {
  const start = Number(base.GIT_CONFIG_COUNT ?? 0) || 0;
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(start + settings.length) };
  settings.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${start + i}`] = key;
    env[`GIT_CONFIG_VALUE_${start + i}`] = value;
  });
  return env;
}

/** git's arguments with the diff-program switches added to a diff, log or show (after any leading `-c k=v`). */
export function withDiffSwitches(args: readonly string[]): string[] {
  let i = 0;
  while (args[i] === '-c') i += 2;
  const subcommand = args[i];
  if (!DIFF_SUBCOMMANDS.has(subcommand)) return [...args];
  const missing = NO_DIFF_PROGRAMS.filter((flag) => !args.includes(flag));
  return [...args.slice(0, i + 1), ...missing, ...args.slice(i + 1)];
}

/** The subcommand of an argument list (after any leading `-c k=v`). */
export function subcommandOf(args: readonly string[]): string {
  let i = 0;
  while (args[i] === '-c') i += 2;
  return args[i] ?? '';
}

/** `git config --list --show-scope --show-origin -z`: fields `scope`, `origin`, `key\nvalue` (no newline: a key without a value). */
export function parseConfigList(text: string): Array<ConfigEntry & { origin: string }> {
  const fields = text.split('\0');
  const entries: Array<ConfigEntry & { origin: string }> = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const [scope, origin, pair] = [fields[i], fields[i + 1], fields[i + 2]];
    const newline = pair.indexOf('\n');
    const key = newline === -1 ? pair : pair.slice(0, newline);
    entries.push({ scope, origin, key, value: newline === -1 ? '' : pair.slice(newline + 1) });
  }
  return entries;
}
