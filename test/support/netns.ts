/**
 * A second "host" on this machine: a network namespace joined to ours by a veth pair, each end with
 * its own address (TESTING.md). A listener on `hostAddress` is beyond loopback; a client run with
 * `exec` inside the namespace reaches it the way another device on the network does. Needs root:
 * `available()` says whether this machine can make one.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';

export interface VethHost {
  /** Our end's address (where a server under test listens). */
  hostAddress: string;
  /** The namespace's end (where its clients come from). */
  peerAddress: string;
  name: string;
  dispose(): void;
}

export function netnsAvailable(): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('ip', ['netns', 'list'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const run = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });

export function makeVethHost(): VethHost {
  const id = randomBytes(3).toString('hex');
  const name = `sbdev${id}`;
  const ours = `sbh${id}`;
  const theirs = `sbp${id}`;
  // A random /30 in 10.0.0.0/8: tests of several engineers or CI jobs never share one.
  const [a, b, c] = [randomInt(64, 250), randomInt(0, 255), randomInt(0, 63) * 4];
  const hostAddress = `10.${a}.${b}.${c + 1}`;
  const peerAddress = `10.${a}.${b}.${c + 2}`;
  run('netns', 'add', name);
  try {
    run('link', 'add', ours, 'type', 'veth', 'peer', 'name', theirs);
    run('link', 'set', theirs, 'netns', name);
    run('addr', 'add', `${hostAddress}/30`, 'dev', ours);
    run('link', 'set', ours, 'up');
    run('netns', 'exec', name, 'ip', 'addr', 'add', `${peerAddress}/30`, 'dev', theirs);
    run('netns', 'exec', name, 'ip', 'link', 'set', theirs, 'up');
    run('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
  } catch (err) {
    dispose();
    throw err;
  }
  function dispose(): void {
    try {
      run('link', 'del', ours);
    } catch {
      // gone with the namespace already
    }
    try {
      run('netns', 'del', name);
    } catch {
      // never made
    }
  }
  return { hostAddress, peerAddress, name, dispose };
}

/** A self-signed certificate for `address` (made with openssl now, valid a day): PEM file paths. */
export function makeTestCertificate(dir: string, address: string): { cert: string; key: string } {
  const cert = `${dir}/cert.pem`;
  const key = `${dir}/key.pem`;
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${address}`,
      '-addext',
      `subjectAltName=IP:${address}`,
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}
