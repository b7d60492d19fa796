// Shared bits for the server tests: the official client pointed at a local server, and small utilities. Raw
// HTTP (for what the official client has no method for, and for error cases) is rawRequest in ../harness/http.
import { Client } from 'langsmith';
import type { LocalServer } from '../harness/localServer';

export function client(srv: LocalServer, opts: { apiKey?: string; prefix?: string; workspaceId?: string } = {}): Client {
  return new Client({
    apiUrl: srv.url + (opts.prefix ?? ''),
    apiKey: opts.apiKey ?? srv.apiKey,
    workspaceId: opts.workspaceId,
    autoBatchTracing: false,
    timeout_ms: 20_000,
  });
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
