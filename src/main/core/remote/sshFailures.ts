/**
 * What went wrong, in one line, from what `ssh` (or the host's shell) printed. Data, not code: one
 * row per failure, each with a real sample of the text it matches, where that text comes from and
 * the version it was seen with. The first matching row wins; nothing matched → ssh's own last line.
 */

interface SshFailureRule {
  id: string;
  pattern: RegExp;
  /** The line shown; `{host}` is the destination. */
  message: string;
  sample: string;
  source: string;
}

export const SSH_FAILURE_RULES: readonly SshFailureRule[] = [
  {
    id: 'host-key-changed',
    pattern: /REMOTE HOST IDENTIFICATION HAS CHANGED/,
    message:
      "{host}'s host key has changed since it was last trusted (a reinstalled host, or someone in between): check it and fix known_hosts with ssh-keygen -R, then connect again",
    sample: '@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @',
    source: 'OpenSSH 9.2p1 sshconnect.c warn_changed_key',
  },
  {
    id: 'host-key-unknown',
    pattern: /Host key verification failed/,
    message: "{host}'s host key is not in known_hosts: run ssh {host} once in a terminal to check and accept it",
    sample: 'Host key verification failed.',
    source: 'OpenSSH 9.2p1 sshconnect.c check_host_key (BatchMode=yes, StrictHostKeyChecking)',
  },
  {
    id: 'key-refused',
    pattern: /Permission denied \(/,
    message: "{host} refused the login: no key it accepts is offered (check ssh-agent, IdentityFile and the host's authorized_keys)",
    sample: 'sbuser@127.0.0.1: Permission denied (publickey).',
    source: 'OpenSSH 9.2p1 sshconnect2.c ssh_userauth2',
  },
  {
    id: 'unknown-host',
    pattern: /Could not resolve hostname/,
    message: 'Unknown host {host}: ssh cannot resolve it (check the name or the Host blocks of your ssh config)',
    sample: 'ssh: Could not resolve hostname nosuchhost.invalid: Name or service not known',
    source: 'OpenSSH 9.2p1 ssh.c resolve_host',
  },
  {
    id: 'refused',
    pattern: /Connection refused/,
    message: '{host} refused the connection: no SSH server listens there',
    sample: 'ssh: connect to host 127.0.0.1 port 2222: Connection refused',
    source: 'OpenSSH 9.2p1 sshconnect.c ssh_connect_direct',
  },
  {
    id: 'timeout',
    pattern: /(Connection|Operation) timed out|No route to host|Network is unreachable/,
    message: '{host} did not answer: the network or the host is down',
    sample: 'ssh: connect to host 10.255.255.1 port 22: Connection timed out',
    source: 'OpenSSH 9.2p1 sshconnect.c ssh_connect_direct (ConnectTimeout)',
  },
  {
    id: 'closed-before-ssh',
    pattern: /kex_exchange_identification|Connection closed by UNKNOWN|ssh_exchange_identification/,
    message: '{host} closed the connection before SSH started (a ProxyCommand or ProxyJump that failed, or a server that refuses us)',
    sample: 'kex_exchange_identification: Connection closed by remote host',
    source: 'OpenSSH 9.2p1 kex.c kex_exchange_identification',
  },
  {
    id: 'no-node',
    pattern: /(node|\bnode\b.*): (command )?not found|node: No such file or directory/,
    message: 'No Node on {host}: install Node ≥ 20 where a non-interactive ssh shell finds it (its PATH)',
    sample: 'sh: 1: node: not found',
    source: 'dash 0.5.12 (Debian 12 /bin/sh) for a missing command',
  },
  {
    id: 'disk-full',
    pattern: /No space left on device|Disk quota exceeded/,
    message: "{host}'s disk is full (No space left on device): free some space in the host user's home and connect again",
    sample: 'tar: out/main/serve.js: Cannot write: No space left on device',
    source: 'GNU tar 1.34 / write(2) ENOSPC, EDQUOT',
  },
];

/** The one line to show for a failed `ssh` run. */
export function describeSshFailure(destination: string, stderr: string, exitCode: number | null): string {
  const rule = SSH_FAILURE_RULES.find((r) => r.pattern.test(stderr));
  if (rule) return rule.message.replaceAll('{host}', destination);
  const last = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1);
  return `${destination}: ssh failed (exit ${exitCode ?? 'signal'})${last ? `: ${last}` : ''}`;
}
