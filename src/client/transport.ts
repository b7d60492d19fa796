// The transports: how one request goes over the wire and its answer comes back — undici's dispatcher API on a
// kept-alive pool (the default), or a caller's fetch. No policy here: retries, redirects, timeouts, error
// mapping and parsing are the request policy's (http.ts).
import { STATUS_CODES } from 'node:http';
import type { Agent, Dispatcher } from 'undici';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One answer as the transports give it: status first, the body read (or dropped) on demand. */
export interface WireAnswer {
  status: number;
  statusText: string;
  /** Set on a redirect that was not followed: why. */
  unfollowedRedirect?: string;
  header(name: string): string | null;
  text(): Promise<string>;
  discard(): Promise<void>;
  /** Streamed answers only: the body's bytes as they arrive (read once, instead of text()). */
  chunks?(): AsyncIterable<Uint8Array>;
}

export type WireBody = string | Uint8Array | FormData | Blob | undefined;
export type Transport = (
  url: string,
  method: Method,
  headers: Record<string, string>,
  body: WireBody,
  signal: AbortSignal,
  /** Answer as soon as the headers are in, with the body readable through `chunks()`. */
  stream?: boolean,
) => Promise<WireAnswer>;

/** Bytes handed from a producer (the dispatcher's callbacks) to one async reader. */
class ByteChannel {
  private readonly queue: Uint8Array[] = [];
  private done = false;
  private failure: unknown;
  private wake?: () => void;

  push(chunk: Uint8Array): void {
    this.queue.push(chunk);
    this.notify();
  }
  end(): void {
    this.done = true;
    this.notify();
  }
  fail(err: unknown): void {
    if (this.done) return;
    this.failure = err ?? new Error('the answer was cut off');
    this.done = true;
    this.notify();
  }
  private notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }
  async *read(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const next = this.queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.failure !== undefined) throw this.failure;
      if (this.done) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
  async text(): Promise<string> {
    const parts: Uint8Array[] = [];
    for await (const c of this.read()) parts.push(c);
    return Buffer.concat(parts).toString('utf8');
  }
}

/** Through a fetch function (WHATWG Request/Response objects on every call). */
export function fetchTransport(fetchImpl: typeof fetch): Transport {
  return async (url, method, headers, body, signal) => {
    const res = await fetchImpl(url, { method, headers, body: body as RequestInit['body'], signal, redirect: 'manual' });
    return {
      status: res.status,
      statusText: res.statusText,
      header: (name) => res.headers.get(name),
      text: () => res.text(),
      discard: async () => {
        await res.body?.cancel().catch(() => undefined);
      },
      chunks: async function* () {
        if (!res.body) return;
        const reader = res.body.getReader();
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            yield value;
          }
        } finally {
          reader.releaseLock();
        }
      },
    };
  };
}

let sharedAgent: Promise<Agent> | undefined;

/** The kept-alive pool of the own transport, made on first use: undici is loaded only when it is needed. */
function defaultAgent(): Promise<Agent> {
  return (sharedAgent ??= import('undici').then(({ Agent }) => new Agent({ keepAliveTimeout: 10_000 })));
}

/** A header of an answer from undici's raw list (name, value, name, value…): the values joined, or null. */
function rawHeader(raw: readonly Buffer[], name: string): string | null {
  const wanted = name.toLowerCase();
  let value: string | null = null;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.toString('latin1').toLowerCase() !== wanted) continue;
    const v = raw[i + 1]!.toString('latin1');
    value = value === null ? v : `${value}, ${v}`;
  }
  return value;
}

/** One request and its whole answer over an undici dispatcher. */
function exchange(
  dispatcher: Dispatcher,
  url: URL,
  method: Method,
  headers: Record<string, string>,
  body: WireBody,
  signal: AbortSignal,
  stream = false,
): Promise<WireAnswer> {
  return new Promise<WireAnswer>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    let settled = false;
    let abortDispatch: ((reason?: Error) => void) | undefined;
    // Streamed: the answer is handed over at its headers, and the abort listener stays until the body ends.
    const channel = stream ? new ByteChannel() : undefined;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      if (!channel) signal.removeEventListener('abort', onAbort);
      outcome();
    };
    const finish = () => signal.removeEventListener('abort', onAbort);
    // Aborted while still waiting for a connection: answer now, and drop the request once it gets one.
    const onAbort = () => {
      if (abortDispatch) abortDispatch(signal.reason as Error);
      else settle(() => reject(signal.reason));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    let status = 0;
    let rawHeaders: Buffer[] = [];
    const chunks: Buffer[] = [];
    const handler: Dispatcher.DispatchHandlers = {
      onConnect(abort) {
        if (signal.aborted) abort(signal.reason as Error);
        else abortDispatch = abort;
      },
      onHeaders(statusCode, headerList) {
        status = statusCode;
        rawHeaders = headerList ?? [];
        if (channel) {
          settle(() =>
            resolve({
              status,
              statusText: STATUS_CODES[status] ?? '',
              header: (name) => rawHeader(rawHeaders, name),
              text: () => channel.text(),
              discard: async () => {
                abortDispatch?.(new Error('answer discarded'));
              },
              chunks: () => channel.read(),
            }),
          );
        }
        return true;
      },
      onData(chunk) {
        if (channel) channel.push(chunk);
        else chunks.push(chunk);
        return true;
      },
      onComplete() {
        if (channel) {
          finish();
          channel.end();
          return;
        }
        let text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // as fetch's text() does
        settle(() =>
          resolve({
            status,
            statusText: STATUS_CODES[status] ?? '',
            header: (name) => rawHeader(rawHeaders, name),
            text: async () => text,
            discard: async () => undefined,
          }),
        );
      },
      onError(err) {
        if (channel && settled) {
          finish();
          channel.fail(err);
          return;
        }
        finish();
        settle(() => reject(err));
      },
    };
    try {
      dispatcher.dispatch({ origin: url.origin, path: `${url.pathname}${url.search}`, method, headers, body: body as string | Uint8Array | undefined }, handler);
    } catch (err) {
      settle(() => reject(err));
    }
  });
}

/**
 * undici's dispatcher API on a kept-alive connection pool: the same HTTP as `fetch`, without building
 * WHATWG Request, Headers and stream objects for every call (most of a small request's CPU time). Every
 * answer is read whole, so the body is collected as it arrives and handed over in one piece.
 */
export function undiciTransport(dispatcher: Dispatcher | undefined): Transport {
  return async (url, method, headers, body, signal, stream) => {
    if (body instanceof FormData || body instanceof Blob) {
      // The dispatcher takes bytes: encode the form (or blob) as fetch would, with its content type.
      const encoded = new Response(body);
      const type = encoded.headers.get('content-type');
      body = new Uint8Array(await encoded.arrayBuffer());
      if (type) headers = { ...headers, 'content-type': type };
    }
    return exchange(dispatcher ?? (await defaultAgent()), new URL(url), method, headers, body, signal, stream);
  };
}
