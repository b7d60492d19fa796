// What the client tests share besides the server fixture (withLocalServer in test/harness/localServer.ts): our
// client pointed at a local server (one per tenant), its injected faults, unique names, a recording fetch and a
// clock whose waits return at once.
import { LangSmithClient, type LangSmithClientOptions } from '../../src/client';
import type { Clock } from '../../src/client/http';
import { rawRequest } from '../harness/http';
import type { LocalServer } from '../harness/localServer';

export function clientFor(srv: LocalServer, opts: Partial<LangSmithClientOptions> = {}): LangSmithClient {
  return new LangSmithClient({ apiUrl: srv.url, apiKey: srv.apiKey, retryBaseDelayMs: 5, retryMaxDelayMs: 200, ...opts });
}

export function otherClientFor(srv: LocalServer, opts: Partial<LangSmithClientOptions> = {}): LangSmithClient {
  return clientFor(srv, { apiKey: srv.otherApiKey, ...opts });
}

/** Sets the server's injected faults, e.g. '503:1' (all requests fail) or '' (none). */
export async function setFaults(srv: LocalServer, spec: string): Promise<void> {
  const res = await rawRequest(srv, 'PUT', '/__local/faults', { faults: spec });
  if (res.status !== 200) throw new Error(`setting faults failed: ${res.status} ${res.text}`);
}

export function unique(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
}

/** A fetch that goes to the real server and records every request's method and URL (to check the wire). */
export function recordingFetch(): { fetch: typeof fetch; seen: { method: string; url: URL }[] } {
  const seen: { method: string; url: URL }[] = [];
  const f = ((input: string | URL | Request, init?: RequestInit) => {
    seen.push({ method: init?.method ?? 'GET', url: new URL(String(input)) });
    return fetch(input, init);
  }) as typeof fetch;
  return { fetch: f, seen };
}

/**
 * A clock for the client's waits between attempts (backoff, Retry-After, a bulk write's budget): each wait
 * returns at once and moves the clock's time on by its length, and `waits` lists them in order. `onWait` runs
 * during each wait, as what the server does meanwhile (e.g. stops refusing).
 */
export function fakeClock(onWait?: (ms: number) => Promise<void> | void): Clock & { waits: number[] } {
  let time = Date.now();
  const waits: number[] = [];
  return {
    waits,
    now: () => time,
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      waits.push(ms);
      time += ms;
      await onWait?.(ms);
    },
  };
}
