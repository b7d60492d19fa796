// Shared bits for the server tests: the official client pointed at a test server, and raw HTTP.
import { Client } from 'langsmith';
import type { TestServer } from '../harness/localServer';

export function client(srv: TestServer, opts: { apiKey?: string; prefix?: string; workspaceId?: string } = {}): Client {
  return new Client({
    apiUrl: srv.url + (opts.prefix ?? ''),
    apiKey: opts.apiKey ?? srv.apiKey,
    workspaceId: opts.workspaceId,
    autoBatchTracing: false,
    timeout_ms: 20_000,
  });
}

export interface RawResponse {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

/** A raw request (for what the official client has no method for, and for error cases). */
export async function api(
  srv: TestServer,
  method: string,
  path: string,
  body?: unknown,
  opts: { apiKey?: string | null; headers?: Record<string, string>; rawBody?: string | FormData } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.apiKey !== null) headers['x-api-key'] = opts.apiKey ?? srv.apiKey;
  let payload: string | FormData | undefined = opts.rawBody;
  if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(srv.url + path, { method, headers, body: payload });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A dotted-order segment for a run started at `t`. */
export function dottedSegment(t: Date, id: string): string {
  const iso = t.toISOString().replace(/[-:]/g, '').replace('.', '');
  // 20240101T000000123Z → 20240101T000000123000Z
  return `${iso.slice(0, -1)}000Z${id}`;
}

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
