// The one raw-HTTP helper of the tests: a request to a local server as a plain client would send it, for what
// the clients under test have no method for, for error cases, and for checking what the server holds.
//
//   const res = await rawRequest(srv, 'POST', '/datasets', { name: 'x' });   // { status, body, text, headers }
//   const list = await getJson<Dataset[]>(srv, '/datasets?name=x');          // must answer 200
//
// `srv` is anything with the server's url and an API key (a LocalServer, or { url, apiKey } from an environment).
import assert from 'node:assert/strict';

export interface ServerAddress {
  url: string;
  apiKey: string;
}

export interface RawResponse {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

export interface RawOptions {
  /** Another key, or null to send none. */
  apiKey?: string | null;
  headers?: Record<string, string>;
  /** A body sent as it is (multipart forms, malformed JSON). */
  rawBody?: string | FormData;
}

export async function rawRequest(srv: ServerAddress, method: string, path: string, body?: unknown, opts: RawOptions = {}): Promise<RawResponse> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.apiKey !== null) headers['x-api-key'] = opts.apiKey ?? srv.apiKey;
  let payload: string | FormData | undefined = opts.rawBody;
  if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(srv.url + path, { method, headers, body: payload });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

/** A request that must answer 2xx; its JSON. */
export async function okJson<T>(srv: ServerAddress, method: string, path: string, body?: unknown): Promise<T> {
  const res = await rawRequest(srv, method, path, body);
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${res.text.slice(0, 500)}`);
  return res.body as T;
}

/** A GET that must answer 200; its JSON. */
export async function getJson<T>(srv: ServerAddress, path: string): Promise<T> {
  const res = await rawRequest(srv, 'GET', path);
  assert.equal(res.status, 200, `GET ${path}: ${res.text.slice(0, 500)}`);
  return res.body as T;
}
