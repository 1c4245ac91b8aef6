/**
 * A real remote host on this machine: a network namespace with its own loopback, Debian's `sshd`
 * inside it on that loopback (throw-away host key, user key and config), and a user with its own
 * HOME. The system `ssh -F <configFile> <alias>` reaches it through
 * `ProxyCommand ip netns exec <ns> nc %h %p`, so the host's loopback is another machine's loopback
 * and the SSH connection is the only way in. Needs root, `ip`, `sshd` and `nc`; where any is
 * missing `sshHostUnavailable()` says which, and the tests skip.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

const SSHD = '/usr/sbin/sshd';
const SSHD_START_TIMEOUT_MS = 20_000;

export interface SshTestHost {
  /** The Host alias in `configFile`. */
  alias: string;
  configFile: string;
  /** The host user's name and HOME (its data dir and installs live here, apart from ours). */
  user: string;
  home: string;
  uid: number;
  /** The namespace: processes inside it are the host's. */
  netns: string;
  /** Scratch directory of this host (keys, configs); removed by `dispose`. */
  dir: string;
  /** Runs a command inside the host's namespace (as root), e.g. a probe of its loopback. */
  exec(argv: string[]): { status: number | null; stdout: string; stderr: string };
  /** Pids of every process in the host's namespace (sshd, sessions and what they started). */
  pids(): number[];
  /** A second client config for the same alias that differs as `variant` says (a wrong key, another known host key). */
  writeVariantConfig(name: string, variant: ClientVariant): string;
  dispose(): void;
}

/** Why the host cannot be made here, or undefined when it can. */
export function sshHostUnavailable(): string | undefined {
  if (process.platform !== 'linux') return 'network namespaces are Linux-only';
  if (process.getuid?.() !== 0) return 'making a network namespace needs root';
  for (const [tool, probe] of [
    ['ip (iproute2)', ['ip', '-V']],
    ['sshd (openssh-server)', [SSHD, '-V']],
    ['nc (netcat-openbsd)', ['nc', '-h']],
    ['ssh (openssh-client)', ['ssh', '-V']],
  ] as const) {
    const result = spawnSync(probe[0], probe.slice(1), { stdio: 'ignore' });
    if (result.error) return `${tool} is not installed`;
  }
  const name = `sbprobe${randomBytes(3).toString('hex')}`;
  const made = spawnSync('ip', ['netns', 'add', name], { encoding: 'utf8' });
  if (made.status !== 0) return `cannot make a network namespace: ${made.stderr.trim()}`;
  spawnSync('ip', ['netns', 'del', name]);
  return undefined;
}

function run(argv: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', input });
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? String(result.error ?? '') };
}

function must(argv: string[]): string {
  const result = run(argv);
  if (result.status !== 0) throw new Error(`${argv.join(' ')} failed (${result.status}): ${result.stderr.trim()}`);
  return result.stdout;
}

function keygen(file: string): string {
  must(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-C', 'switchboard-test', '-f', file]);
  return readFileSync(`${file}.pub`, 'utf8').trim();
}

function sshdConfig(dir: string, user: string, authorizedKeys: string): string {
  return [
    'ListenAddress 127.0.0.1',
    'Port 22',
    `HostKey ${join(dir, 'host_key')}`,
    `PidFile ${join(dir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${authorizedKeys}`,
    `AllowUsers ${user}`,
    'UsePAM no',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PubkeyAuthentication yes',
    'AllowTcpForwarding yes',
    'AllowStreamLocalForwarding no',
    'X11Forwarding no',
    'PermitRootLogin no',
    // The key lives in our scratch dir, not the user's HOME.
    'StrictModes no',
    // Lets a test give the login a PATH without node (~/.ssh/environment): a host with no Node.
    'PermitUserEnvironment PATH',
    'MaxSessions 50',
    'MaxStartups 50',
    'LogLevel VERBOSE',
    'Subsystem sftp internal-sftp',
    '',
  ].join('\n');
}

/** What a variant of the host's client config changes. */
interface ClientVariant {
  identityFile?: string;
  knownHostsFile?: string;
  /** More options for the host block (first value wins in ssh_config, so these override the defaults below). */
  extra?: string[];
}

function clientBlock(alias: string, user: string, dir: string, netns: string, variant: ClientVariant = {}): string {
  return [
    `Host ${alias}`,
    '  HostName 127.0.0.1',
    '  Port 22',
    `  User ${user}`,
    ...(variant.extra ?? []).map((line) => `  ${line}`),
    `  IdentityFile ${variant.identityFile ?? join(dir, 'user_key')}`,
    '  IdentitiesOnly yes',
    `  HostKeyAlias ${alias}`,
    `  UserKnownHostsFile ${variant.knownHostsFile ?? join(dir, 'known_hosts')}`,
    '  GlobalKnownHostsFile /dev/null',
    '  StrictHostKeyChecking yes',
    '  LogLevel ERROR',
    `  ProxyCommand ip netns exec ${netns} nc %h %p`,
    '',
  ].join('\n');
}

function waitForListening(sshd: ChildProcess, stderr: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`sshd did not listen within ${SSHD_START_TIMEOUT_MS} ms:\n${stderr()}`)),
      SSHD_START_TIMEOUT_MS,
    );
    const onData = () => {
      if (!/Server listening on 127\.0\.0\.1 port 22/.test(stderr())) return;
      clearTimeout(timer);
      sshd.stderr?.off('data', onData);
      resolve();
    };
    sshd.stderr?.on('data', onData);
    sshd.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sshd exited with ${code}:\n${stderr()}`));
    });
  });
}

/** Makes the host and resolves once its sshd listens. Call `dispose` in afterAll. */
export async function startSshTestHost(): Promise<SshTestHost> {
  const id = randomBytes(3).toString('hex');
  const netns = `sbhost${id}`;
  const user = `sbuser${id}`;
  const alias = `sbhost-${id}`;
  const dir = mkdtempSync(join(tmpdir(), 'sshhost-'));
  chmodSync(dir, 0o755);
  const home = join(dir, 'home');
  const cleanups: Array<() => void> = [() => rmSync(dir, { recursive: true, force: true })];
  const pids = () =>
    run(['ip', 'netns', 'pids', netns])
      .stdout.split('\n')
      .map(Number)
      .filter((pid) => pid > 0);
  const dispose = () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        cleanup();
      } catch {
        // best effort: the rest must still go
      }
    }
  };
  try {
    must(['ip', 'netns', 'add', netns]);
    cleanups.push(() => {
      // Everything in the namespace is ours: sshd, its sessions and what they left running.
      for (const pid of pids()) spawnSync('kill', ['-KILL', String(pid)]);
      spawnSync('ip', ['netns', 'del', netns]);
    });
    must(['ip', 'netns', 'exec', netns, 'ip', 'link', 'set', 'lo', 'up']);
    must(['useradd', '--create-home', '--home-dir', home, '--shell', '/bin/sh', '--user-group', user]);
    cleanups.push(() => spawnSync('userdel', ['--force', user]));
    // useradd locks the password, and without PAM sshd refuses even key logins to a locked account.
    must(['usermod', '-p', '*', user]);
    const uid = Number(must(['id', '-u', user]).trim());
    const gid = Number(must(['id', '-g', user]).trim());
    chownSync(home, uid, gid);

    const hostKey = keygen(join(dir, 'host_key'));
    const userKey = keygen(join(dir, 'user_key'));
    const authorizedKeys = join(dir, 'authorized_keys');
    writeFileSync(authorizedKeys, `${userKey}\n`, { mode: 0o644 });
    writeFileSync(join(dir, 'known_hosts'), `${alias} ${hostKey}\n`);
    writeFileSync(join(dir, 'sshd_config'), sshdConfig(dir, user, authorizedKeys));
    const configFile = join(dir, 'ssh_config');
    writeFileSync(configFile, clientBlock(alias, user, dir, netns));
    mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });

    let sshdErr = '';
    const sshd = spawn('ip', ['netns', 'exec', netns, SSHD, '-D', '-e', '-f', join(dir, 'sshd_config')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    sshd.stderr.on('data', (chunk: Buffer) => (sshdErr += chunk.toString('utf8')));
    cleanups.push(() => {
      if (sshd.exitCode === null && sshd.signalCode === null) sshd.kill('SIGKILL');
    });
    await waitForListening(sshd, () => sshdErr);

    return {
      alias,
      configFile,
      user,
      home,
      uid,
      netns,
      dir,
      exec: (argv) => run(['ip', 'netns', 'exec', netns, ...argv]),
      pids,
      writeVariantConfig(name, variant) {
        const file = join(dir, `ssh_config.${name}`);
        writeFileSync(file, clientBlock(alias, user, dir, netns, variant));
        return file;
      },
      dispose,
    };
  } catch (err) {
    dispose();
    throw err;
  }
}

/** A fresh ed25519 key pair in `dir`: its private key file and public key line (a key the host does not know). */
export function freshKey(dir: string): { file: string; publicKey: string } {
  const file = join(dir, `other_${randomBytes(3).toString('hex')}`);
  return { file, publicKey: keygen(file) };
}

/** A process in the host's namespace that prints JSON lines: its events, each once, in order. */
interface HostJsonProcess {
  /** The first line that satisfies `predicate` (an earlier one included); rejects when the process ends first. */
  line<T>(predicate: (line: T) => boolean, timeoutMs: number): Promise<T>;
  /** Every line printed so far. */
  lines(): unknown[];
  /** Closes its stdin (its signal to end) and kills it if it lingers. */
  stop(): void;
}

/** Runs `argv` as root in the host's namespace (a server local to the host, e.g. a model mock). */
export function spawnInHost(sshHost: Pick<SshTestHost, 'netns'>, argv: string[]): HostJsonProcess {
  const child = spawn('ip', ['netns', 'exec', sshHost.netns, ...argv], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: unknown[] = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  let buffered = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout.on('data', (chunk: Buffer) => {
    const parts = (buffered + chunk.toString('utf8')).split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) if (part.trim()) lines.push(JSON.parse(part));
    for (const wake of [...waiters]) wake();
  });
  child.once('exit', () => {
    for (const wake of [...waiters]) wake();
  });
  return {
    line<T>(predicate: (line: T) => boolean, timeoutMs: number): Promise<T> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find((line) => predicate(line as T));
          if (found !== undefined) return done(() => resolve(found as T));
          if (child.exitCode !== null || child.signalCode !== null) done(() => reject(new Error(`${argv.join(' ')} ended: ${stderr}`)));
        };
        const timer = setTimeout(
          () => done(() => reject(new Error(`no such line from ${argv.join(' ')} in ${timeoutMs} ms: ${stderr}`))),
          timeoutMs,
        );
        const done = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      });
    },
    lines: () => [...lines],
    stop() {
      child.stdin.end();
      child.once('exit', () => undefined);
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    },
  };
}
