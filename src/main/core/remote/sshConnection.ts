/**
 * One SSH connection to a host, made by the system's `ssh` (so the user's config, agent, keys,
 * ProxyJump and known_hosts all apply and we never see a key or password): a master connection
 * with a control socket of our own, through which commands run and ports are forwarded
 * (`-O forward`), so a host costs one TCP connection and one authentication. BatchMode: a
 * password or passphrase prompt fails at once with a clear line instead of hanging.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Emitter } from '../base';
import { sshDestinationProblem } from '../../../shared/workspace';
import { describeSshFailure } from './sshFailures';

/** Options every `ssh` we run gets, before the user's config (command-line options win). */
const SSH_OPTIONS = [
  // Never wait for a person: no password, passphrase or host-key question.
  'BatchMode=yes',
  // A dead network is noticed within 45 s even when nothing is sent.
  'ServerAliveInterval=15',
  'ServerAliveCountMax=3',
  'ConnectTimeout=20',
  // A forward that cannot listen fails the request instead of being skipped silently.
  'ExitOnForwardFailure=yes',
];

/** The master's remote command: prints the marker once the session is up, then lives as long as the connection. */
const READY_MARKER = 'switchboard-ssh-ready';
const MASTER_COMMAND = `echo ${READY_MARKER}; exec cat >/dev/null`;

interface SshTarget {
  destination: string;
  /** The user's ssh config file (`ssh -F`); default: ssh's own (`~/.ssh/config`). */
  configFile?: string;
}

interface ExecResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A failure with the one line to show. */
export class SshError extends Error {
  override name = 'SshError';
}

export class SshConnection {
  private readonly closed = new Emitter<{ message: string }>();
  /** Fires once when the master connection ends (network gone, host down, `close()`). */
  readonly onDidClose = this.closed.event;
  private readonly controlDir = mkdtempSync(join(tmpdir(), 'sb-ssh-'));
  private readonly controlPath = join(this.controlDir, 'c');
  private master: ChildProcess | undefined;
  private isClosed = false;

  private constructor(readonly target: SshTarget) {}

  /** Connects; rejects with an SshError carrying one clear line. */
  static async open(target: SshTarget): Promise<SshConnection> {
    const problem = sshDestinationProblem(target.destination);
    if (problem) throw new SshError(`${JSON.stringify(target.destination)}: ${problem}`);
    const connection = new SshConnection(target);
    try {
      await connection.startMaster();
      return connection;
    } catch (err) {
      connection.close();
      throw err;
    }
  }

  /** The ssh process holding the connection (tests cut the network by killing it). */
  get masterPid(): number | undefined {
    return this.master?.pid;
  }

  /** Runs a shell command on the host through the connection; `input` goes to its stdin (secrets travel there, never in argv). */
  exec(command: string, input?: string | NodeJS.ReadableStream): Promise<ExecResult> {
    const child = spawn('ssh', this.clientArgs([this.target.destination, command]), { stdio: ['pipe', 'pipe', 'pipe'] });
    return collect(child, input);
  }

  /** Runs a command and resolves with its stdout; a failure rejects with one line. */
  async run(command: string, input?: string | NodeJS.ReadableStream): Promise<string> {
    const result = await this.exec(command, input);
    if (result.code !== 0) throw new SshError(describeSshFailure(this.target.destination, result.stderr, result.code));
    return result.stdout;
  }

  /**
   * Forwards this machine's 127.0.0.1:localPort to the host's `hostAddress`:hostPort (by default
   * 127.0.0.1 and the same number, so Host checks and printed URLs hold on both sides). This end
   * listens on loopback only, always.
   */
  async forward(localPort: number, hostPort = localPort, hostAddress = '127.0.0.1'): Promise<void> {
    const result = await this.control('forward', localPort, hostPort, hostAddress);
    if (result.code !== 0) {
      const detail = result.stderr.trim().split('\n').at(-1) ?? '';
      throw new SshError(
        `Cannot forward local port ${localPort} to ${this.target.destination}'s port ${hostPort} (is it in use here?): ${detail}`,
      );
    }
  }

  /** Ends a forward `forward` made; one already gone (the connection dropped) is not an error. */
  async cancelForward(localPort: number, hostPort: number, hostAddress = '127.0.0.1'): Promise<void> {
    await this.control('cancel', localPort, hostPort, hostAddress);
  }

  private control(operation: 'forward' | 'cancel', localPort: number, hostPort: number, hostAddress: string): Promise<ExecResult> {
    // ssh takes an IPv6 address in brackets.
    const target = hostAddress.includes(':') ? `[${hostAddress}]` : hostAddress;
    const spec = `127.0.0.1:${localPort}:${target}:${hostPort}`;
    const args = this.clientArgs(['-O', operation, '-L', spec, this.target.destination]);
    return collect(spawn('ssh', args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  }

  /** Ends the connection (the host's processes keep running). Idempotent. */
  close(): void {
    if (this.master && this.master.exitCode === null && this.master.signalCode === null) this.master.kill('SIGTERM');
    this.finish('closed');
  }

  private finish(message: string): void {
    if (this.isClosed) return;
    this.isClosed = true;
    rmSync(this.controlDir, { recursive: true, force: true });
    this.closed.fire({ message });
    this.closed.dispose();
  }

  private baseArgs(): string[] {
    const config = this.target.configFile ? ['-F', this.target.configFile] : [];
    return [...config, ...SSH_OPTIONS.flatMap((option) => ['-o', option]), '-S', this.controlPath];
  }

  private clientArgs(rest: string[]): string[] {
    // `--` ends ssh's options: the destination is never read as one.
    const [first, ...others] = rest;
    if (first === '-O') return [...this.baseArgs(), '-o', 'ControlMaster=no', ...rest.slice(0, -1), '--', rest.at(-1)!];
    return [...this.baseArgs(), '-o', 'ControlMaster=no', '-T', '--', first, ...others];
  }

  private startMaster(): Promise<void> {
    const args = [...this.baseArgs(), '-M', '-o', 'ControlPersist=no', '-T', '--', this.target.destination, MASTER_COMMAND];
    const master = spawn('ssh', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.master = master;
    let stderr = '';
    master.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    return new Promise((resolve, reject) => {
      let up = false;
      const lines = createInterface({ input: master.stdout });
      lines.on('line', (line) => {
        if (up || line.trim() !== READY_MARKER) return;
        up = true;
        resolve();
      });
      master.once('error', (err) => reject(new SshError(`Cannot run ssh: ${err.message}`)));
      // 'close', not 'exit': stderr may still hold ssh's one line when the process has exited.
      master.once('close', (code) => {
        const message = describeSshFailure(this.target.destination, stderr, code);
        if (!up) reject(new SshError(message));
        this.finish(
          up ? `Connection to ${this.target.destination} lost${stderr.trim() ? `: ${stderr.trim().split('\n').at(-1)}` : ''}` : message,
        );
      });
    });
  }
}

function collect(child: ChildProcess, input?: string | NodeJS.ReadableStream): Promise<ExecResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  if (child.stdin) {
    child.stdin.on('error', () => undefined); // the remote side may exit before reading everything
    if (typeof input === 'string') child.stdin.end(input);
    else if (input) {
      // The input failing (a bundle file unreadable) ends the command instead of leaving it waiting for more.
      input.once('error', (err: Error) => {
        stderr += `${err.message}\n`;
        child.kill('SIGTERM');
      });
      input.pipe(child.stdin);
    } else child.stdin.end();
  }
  return new Promise((resolve) => {
    child.once('error', (err) => resolve({ code: null, stdout, stderr: `${stderr}${err.message}` }));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
