/**
 * TCP connect probe: does anything accept connections on this port? Dev servers bind 127.0.0.1
 * (Django, Flask), ::1 (Vite's "localhost" on Node ≥ 17 resolves there first), or a wildcard
 * (Next.js "::"), so both loopback families are tried at once and either answer counts.
 */
import { Socket } from 'node:net';

/** A refused loopback connect fails in microseconds; a hang this long means nobody answers. */
const TCP_PROBE_TIMEOUT_MS = 1_000;
const LOOPBACK_HOSTS = ['127.0.0.1', '::1'] as const;

export interface TcpProbeOptions {
  port: number;
  /** Hosts to try in parallel; loopback v4 and v6 by default. */
  hosts?: readonly string[];
  timeoutMs?: number;
  signal?: AbortSignal;
}

export async function probeTcp(options: TcpProbeOptions): Promise<boolean> {
  const hosts = options.hosts ?? LOOPBACK_HOSTS;
  const attempts = hosts.map((host) => connectOnce(host, options.port, options.timeoutMs ?? TCP_PROBE_TIMEOUT_MS, options.signal));
  // Resolves true as soon as one host accepts; false once all refused or timed out.
  return new Promise<boolean>((resolve) => {
    let pending = attempts.length;
    if (pending === 0) resolve(false);
    for (const attempt of attempts) {
      void attempt.then((isOpen) => {
        pending -= 1;
        if (isOpen) resolve(true);
        else if (pending === 0) resolve(false);
      });
    }
  });
}

function connectOnce(host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    if (signal?.aborted) return resolve(false);
    const socket = new Socket();
    let isSettled = false;
    const finish = (isOpen: boolean) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(isOpen);
    };
    const onAbort = () => finish(false);
    const timer = setTimeout(() => finish(false), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
    socket.connect({ host, port });
  });
}
