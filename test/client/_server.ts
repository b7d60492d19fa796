/** Starts the real local server for client tests, with one client per tenant. */
import { LangSmithClient, type LangSmithClientOptions } from '../../src/client';
import { startTestServer, type TestServerOptions } from '../harness/localServer';

export interface TestServer {
  url: string;
  apiKey: string;
  otherApiKey: string;
  close(): Promise<void>;
}

export async function startLocal(opts: Record<string, unknown> = {}): Promise<TestServer> {
  if (opts['tenants']) {
    // The harness keeps the two default tenants; a custom set needs the server itself.
    const { startServer } = await import('../../server/index');
    const srv = await startServer({ port: 0, db: ':memory:', quiet: true, ...opts } as Parameters<typeof startServer>[0]);
    return { url: srv.url, apiKey: 'local-dev-key', otherApiKey: 'local-other-key', close: () => srv.close() };
  }
  return startTestServer(opts as TestServerOptions);
}

export function clientFor(srv: TestServer, opts: Partial<LangSmithClientOptions> = {}): LangSmithClient {
  return new LangSmithClient({ apiUrl: srv.url, apiKey: srv.apiKey, retryBaseDelayMs: 5, retryMaxDelayMs: 200, ...opts });
}

export function otherClientFor(srv: TestServer, opts: Partial<LangSmithClientOptions> = {}): LangSmithClient {
  return clientFor(srv, { apiKey: srv.otherApiKey, ...opts });
}

/** Sets the server's injected faults, e.g. '503:1' (all requests fail) or '' (none). */
export async function setFaults(srv: TestServer, spec: string): Promise<void> {
  const res = await fetch(`${srv.url}/__local/faults`, {
    method: 'PUT',
    headers: { 'x-api-key': srv.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ faults: spec }),
  });
  if (!res.ok) throw new Error(`setting faults failed: ${res.status} ${await res.text()}`);
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
