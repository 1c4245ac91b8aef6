/**
 * One HTTP delivery to a webhook or ntfy: a timeout per attempt, and retries with backoff on
 * timeouts, network errors, 429 and 5xx. Callers never await it on the core's path; a delivery
 * that keeps failing is logged once and dropped.
 */

export interface DeliveryTiming {
  timeoutMs: number;
  /** Waits before each retry; its length is the number of retries. */
  backoffMs: readonly number[];
}

const DEFAULT_TIMING: DeliveryTiming = { timeoutMs: 5_000, backoffMs: [1_000, 4_000, 16_000] };

interface DeliveryRequest {
  url: string;
  method: 'POST' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
}

class DeliveryRefused extends Error {}

/** Resolves once delivered; rejects with the last failure after the retries. */
export async function deliver(request: DeliveryRequest, timing: DeliveryTiming = DEFAULT_TIMING): Promise<void> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= timing.backoffMs.length; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, timing.backoffMs[attempt - 1]));
    try {
      const res = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(timing.timeoutMs),
        redirect: 'error',
      });
      await res.body?.cancel();
      if (res.ok) return;
      lastError = new Error(`${new URL(request.url).origin} answered ${res.status}`);
      if (res.status !== 429 && res.status < 500) throw new DeliveryRefused((lastError as Error).message);
    } catch (err) {
      if (err instanceof DeliveryRefused) throw err;
      lastError = err;
    }
  }
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}
