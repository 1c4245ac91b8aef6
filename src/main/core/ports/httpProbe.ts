/**
 * HTTP probe for the `url` field: the server must answer a GET. Any status below 500 counts (a
 * dev server answering 404 for "/" or 401 behind auth is up); 5xx means it is up but failing
 * (Next.js answers 500 while a page does not compile), which is not ready yet.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

const HTTP_PROBE_TIMEOUT_MS = 5_000;
/** Statuses from this one up mean "answering, but broken". */
const FIRST_FAILING_STATUS = 500;

export interface HttpProbeResult {
  isOk: boolean;
  status?: number;
  /** Why it failed: "ECONNREFUSED", "timeout", "HTTP 500". */
  error?: string;
}

export interface HttpProbeOptions {
  url: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export function probeHttp(options: HttpProbeOptions): Promise<HttpProbeResult> {
  return new Promise<HttpProbeResult>((resolve) => {
    if (options.signal?.aborted) return resolve({ isOk: false, error: 'aborted' });
    let target: URL;
    try {
      target = new URL(options.url);
    } catch {
      return resolve({ isOk: false, error: `not a URL: ${options.url}` });
    }
    const isHttps = target.protocol === 'https:';
    let isSettled = false;
    const finish = (result: HttpProbeResult) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      req.destroy();
      resolve(result);
    };
    const onResponse = (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      res.resume(); // drain: the body is not needed
      finish(status < FIRST_FAILING_STATUS ? { isOk: true, status } : { isOk: false, status, error: `HTTP ${status}` });
    };
    const requestOptions = {
      method: 'GET',
      // A fresh connection per probe: no keep-alive socket may outlive the probe loop.
      agent: false as const,
      headers: { 'user-agent': 'switchboard-readiness-probe', accept: '*/*' },
      // Local dev servers use self-signed certificates (vite basic-ssl, next --experimental-https).
      rejectUnauthorized: false,
    };
    const req = isHttps ? httpsRequest(target, requestOptions, onResponse) : httpRequest(target, requestOptions, onResponse);
    const onAbort = () => finish({ isOk: false, error: 'aborted' });
    const timer = setTimeout(() => finish({ isOk: false, error: 'timeout' }), options.timeoutMs ?? HTTP_PROBE_TIMEOUT_MS);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err: NodeJS.ErrnoException) => finish({ isOk: false, error: err.code ?? err.message }));
    req.end();
  });
}
