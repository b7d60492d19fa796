// The request policy of the whole client: base URL and headers, the timeout, retries with backoff honouring
// Retry-After (writes only where repeating them is safe), redirects within the origin, error mapping and the
// parsing of answers. How the bytes travel is the transport's (transport.ts).
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { LangSmithError, LangSmithTimeoutError, LangSmithValidationError, errorForStatus } from './errors';
import { MSG } from './messages';
import type { AnswerCheck } from './schemas';

export const DEFAULT_API_URL = 'https://api.smith.langchain.com';
export const DEFAULT_TIMEOUT_MS = 90_000;
export const DEFAULT_MAX_RETRIES = 4;
/** Statuses worth another attempt: the server did not (or may not have) done the work. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 425, 429, 500, 502, 503, 504]);
/** Statuses that say the request was refused before any work, so even a plain POST may be repeated. */
const REFUSED_STATUSES: ReadonlySet<number> = new Set([425, 429]);

import { fetchTransport, undiciTransport, type Method, type Transport, type WireAnswer, type WireBody } from './transport';

export type { Method };
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[] | Record<string, unknown>;
export type Query = Record<string, QueryValue>;

/**
 * Credentials that are not a fixed key: headers made for each request (an OAuth login's bearer token, renewed as
 * it expires), and one more attempt after a 401 when they can be renewed.
 */
export interface RequestAuth {
  /** How errors name these credentials (`profile "x" in ~/.langsmith/config.json`); never a secret. */
  readonly description: string;
  headers(http: HttpClient, signal?: AbortSignal): Promise<Record<string, string>>;
  /** LangSmith answered 401 to `sent`: renew if possible; true when another attempt with new headers is worth it. */
  retryAfterUnauthorized?(http: HttpClient, sent: Record<string, string>, signal?: AbortSignal): Promise<boolean>;
}

export interface HttpConfig {
  /** `https://api.smith.langchain.com`, `https://host/api/v1`, `http://127.0.0.1:1984`… */
  apiUrl?: string;
  apiKey?: string;
  /** Instead of `apiKey`: credentials that give the headers of each request (see RequestAuth). */
  auth?: RequestAuth;
  /** Sent as `x-tenant-id`. */
  workspaceId?: string;
  /** Per attempt, in milliseconds. Default 90 s. */
  timeoutMs?: number;
  /** Further attempts after the first. Default 4. */
  maxRetries?: number;
  /** First backoff step; doubled on each retry, with jitter. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Upper bound for one wait, including a server's Retry-After. Default 30 s. */
  retryMaxDelayMs?: number;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /**
   * Sends through this fetch instead of the client's own HTTP transport (an editor's proxy-aware fetch,
   * or a scripted one that injects faults).
   */
  fetch?: typeof fetch;
  /** The undici dispatcher of the own transport (a proxy agent, an agent trusting an extra CA). */
  dispatcher?: Dispatcher;
  /**
   * The time and the waits between attempts (backoff, a server's Retry-After, a bulk write's time budget).
   * Default the real clock; a test gives one whose waits return at once and says what was waited.
   */
  clock?: Clock;
}

/** What the client reads the time from and waits with between attempts. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason once it is aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface RequestOptions<T> {
  method?: Method;
  path: string;
  query?: Query;
  json?: unknown;
  body?: string | Uint8Array | FormData | Blob;
  contentType?: string;
  /** Names the work in errors: "read dataset" → "Failed to read dataset: 404 Not Found". */
  action: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Whether repeating the request is harmless. Defaults to true for GET, PUT and DELETE; POST and
   * PATCH are repeated only when the caller says so (a create with a client-generated id).
   */
  idempotent?: boolean;
  schema?: z.ZodType<T>;
  /** Instead of `schema`: a checker with the same outcome (used where zod's copying costs too much). */
  check?: (data: unknown) => AnswerCheck<T>;
  /** 'json' (default), 'text', 'bytes' or 'none'; `stream()` asks for 'stream'. */
  responseType?: 'json' | 'text' | 'bytes' | 'none' | 'stream';
  /** Answer null instead of raising on 404. */
  nullOn404?: boolean;
  /** Instead of `path` and `query`: a whole URL that carries its own credential; sent without the API key. */
  absoluteUrl?: string;
  /**
   * Told before each repeat of a request that may have been carried out already (after a network
   * failure, a timeout or a retryable status other than 425/429, which say the server did nothing).
   */
  onRetry?: () => void;
  /**
   * Retries by time instead of by count: an attempt that fails with no answer, a timeout or a retryable status
   * is tried again, however many attempts that makes, as long as the wait (Retry-After when the server gives
   * one, else the backoff) ends within this many milliseconds of the first attempt. Used for the batches of a
   * bulk write, where giving up on one batch leaves the write part-way.
   */
  retryBudgetMs?: number;
}

export interface HttpStats {
  requests: number;
  retries: number;
}

/** Milliseconds from a Retry-After header (seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

export function assertPositiveTimeout(ms: number | undefined): void {
  if (ms === undefined) return;
  if (typeof ms !== 'number' || !(ms > 0)) throw new LangSmithValidationError(MSG.timeoutPositive);
}

/**
 * The longest delay a Node timer keeps (about 24.8 days); a longer one fires at once. Longer timeouts,
 * Infinity included, wait this long, which is as good as none.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Trailing slashes off; `…/api/v1` kept as given. */
export function normalizeApiUrl(apiUrl: string): string {
  return apiUrl.trim().replace(/\/+$/, '');
}

export function buildQuery(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const v of value) params.append(key, String(v));
    } else if (typeof value === 'object') {
      params.append(key, JSON.stringify(value));
    } else {
      params.append(key, String(value));
    }
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const realClock: Clock = { now: () => Date.now(), sleep };

/** Redirects are followed up to this many hops, and only within the origin asked (see followingRedirects). */
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * Follows redirects as `fetch` does (303, and 301/302 after a POST, continue as a GET without a body), but
 * only within the origin asked: the API key goes with every request, so a redirect to another host is
 * answered as it is rather than handing the key to that host.
 */
function followingRedirects(transport: Transport): Transport {
  return async (url, method, headers, body, signal, stream) => {
    let target = url;
    for (let hops = 0; ; hops++) {
      const answer = await transport(target, method, headers, body, signal, stream);
      const location = REDIRECT_STATUSES.has(answer.status) ? answer.header('location') : null;
      if (!location) return answer;
      const origin = new URL(target).origin;
      const next = URL.canParse(location, target) ? new URL(location, target) : null;
      if (!next) return { ...answer, unfollowedRedirect: `the server redirects to an invalid location: ${location}` };
      if (next.origin !== origin) {
        return { ...answer, unfollowedRedirect: `the server redirects to ${location}, which is not followed (the API key is only sent to ${origin})` };
      }
      if (hops >= MAX_REDIRECTS) return { ...answer, unfollowedRedirect: `more than ${MAX_REDIRECTS} redirects, the last to ${location}` };
      await answer.discard();
      if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        headers = { ...headers };
        delete headers['content-type'];
      }
      target = next.href;
    }
  };
}

class TimedOut extends Error {}

/** One request function for the whole client: headers, timeout, retries, error mapping, parsing. */
export class HttpClient {
  readonly apiUrl: string;
  readonly workspaceId?: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly stats: HttpStats = { requests: 0, retries: 0 };
  private readonly retryBaseDelayMs: number;
  private readonly retryMaxDelayMs: number;
  /** A true private field: the key must never show up when the client is logged, inspected or serialised. */
  readonly #baseHeaders: Record<string, string>;
  readonly #auth: RequestAuth | undefined;
  private readonly transport: Transport;
  private readonly clock: Clock;

  constructor(config: HttpConfig = {}) {
    assertPositiveTimeout(config.timeoutMs);
    this.apiUrl = normalizeApiUrl(config.apiUrl || DEFAULT_API_URL);
    this.workspaceId = config.workspaceId || undefined;
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxRetries = Math.max(0, config.maxRetries ?? DEFAULT_MAX_RETRIES);
    this.retryBaseDelayMs = config.retryBaseDelayMs ?? 500;
    this.retryMaxDelayMs = config.retryMaxDelayMs ?? 30_000;
    this.transport = followingRedirects(config.fetch ? fetchTransport(config.fetch) : undiciTransport(config.dispatcher));
    this.clock = config.clock ?? realClock;
    this.#baseHeaders = { accept: 'application/json' };
    // Lower-cased, so that a configured "Content-Type" or "Accept" replaces ours instead of going out twice.
    for (const [name, value] of Object.entries(config.headers ?? {})) this.#baseHeaders[name.toLowerCase()] = value;
    if (config.apiKey && config.auth) throw new LangSmithValidationError('Give either apiKey or auth, not both');
    if (config.apiKey) this.#baseHeaders['x-api-key'] = config.apiKey;
    this.#auth = config.auth;
    if (this.workspaceId) this.#baseHeaders['x-tenant-id'] = this.workspaceId;
  }

  /** Path of the platform endpoints: `/v1/platform/…` at the API root, `/platform/…` under `…/api/v1`. */
  platformPath(rest: string): string {
    const clean = rest.replace(/^\/+/, '');
    return /\/v1$/.test(this.apiUrl) ? `/platform/${clean}` : `/v1/platform/${clean}`;
  }

  url(path: string, query?: Query): string {
    return `${this.apiUrl}${path.startsWith('/') ? path : `/${path}`}${buildQuery(query)}`;
  }

  private backoff(attempt: number): number {
    const step = Math.min(this.retryMaxDelayMs, this.retryBaseDelayMs * 2 ** attempt);
    return Math.round(step / 2 + Math.random() * (step / 2));
  }

  async request<T = unknown>(opts: RequestOptions<T> & { nullOn404: true }): Promise<T | null>;
  async request<T = unknown>(opts: RequestOptions<T>): Promise<T>;
  async request<T = unknown>(opts: RequestOptions<T>): Promise<T | null> {
    assertPositiveTimeout(opts.timeoutMs);
    const method = opts.method ?? 'GET';
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    const idempotent = opts.idempotent ?? (method === 'GET' || method === 'PUT' || method === 'DELETE');
    const url = opts.absoluteUrl ?? this.url(opts.path, opts.query);
    // A link that is its own credential (presigned) gets no API key or workspace: it may lead to another host.
    const headers: Record<string, string> = opts.absoluteUrl ? { accept: '*/*' } : { ...this.#baseHeaders };
    let body: WireBody = opts.body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] = 'application/json';
    }
    if (opts.contentType) headers['content-type'] = opts.contentType;
    const caller = opts.signal;
    /** Whether an earlier attempt may have been carried out (its answer lost, or a 5xx after the work). */
    let repeated = false;
    const started = this.clock.now();
    // A link that is its own credential gets none; per-request credentials are asked before each attempt.
    const auth = opts.absoluteUrl ? undefined : this.#auth;
    let renewedAuth = false;
    /** Whether another attempt is due after this one failed retryably and a wait of `delay` ms. */
    const mayRetry = (attempt: number, delay: number): boolean =>
      opts.retryBudgetMs === undefined ? attempt < this.maxRetries : this.clock.now() - started + delay <= opts.retryBudgetMs;

    for (let attempt = 0; ; attempt++) {
      if (caller?.aborted) throw caller.reason;
      const sentAuth = auth ? await auth.headers(this, caller) : undefined;
      const sent = sentAuth ? { ...headers, ...sentAuth } : headers;
      // One controller per attempt: aborted by the caller's signal or by the attempt's timer, which also
      // covers reading the body.
      const ctl = new AbortController();
      const timer = setTimeout(() => ctl.abort(new TimedOut()), Math.min(timeoutMs, MAX_TIMER_MS));
      const onCallerAbort = () => ctl.abort(caller!.reason);
      caller?.addEventListener('abort', onCallerAbort, { once: true });
      /** After a network failure or timeout: waits before the next attempt when one is due, otherwise throws. */
      const retryOrThrow = async (err: unknown, missing: string): Promise<void> => {
        if (caller?.aborted) throw caller.reason;
        const delay = this.backoff(attempt);
        if (idempotent && mayRetry(attempt, delay)) {
          this.stats.retries++;
          repeated = true;
          opts.onRetry?.();
          await this.clock.sleep(delay, caller);
          return;
        }
        if (ctl.signal.aborted && ctl.signal.reason instanceof TimedOut) {
          throw new LangSmithTimeoutError(`Failed to ${opts.action}: ${missing} within ${timeoutMs} ms`, { action: opts.action, cause: err });
        }
        throw new LangSmithError(`Failed to ${opts.action}: ${networkMessage(err)}`, { action: opts.action, cause: err });
      };
      try {
        this.stats.requests++;
        let res: WireAnswer;
        try {
          res = await this.transport(url, method, sent, body, ctl.signal, opts.responseType === 'stream' || opts.responseType === 'bytes');
        } catch (err) {
          await retryOrThrow(err, 'no answer');
          continue;
        }

        if (res.status < 200 || res.status > 299) {
          // Refused before any work: renewed credentials get one more attempt, whatever the method.
          if (res.status === 401 && sentAuth && !renewedAuth && auth?.retryAfterUnauthorized) {
            renewedAuth = true;
            if (await auth.retryAfterUnauthorized(this, sentAuth, caller)) {
              await res.discard();
              continue;
            }
          }
          const retryable = RETRYABLE_STATUSES.has(res.status) && (idempotent || REFUSED_STATUSES.has(res.status));
          const after = retryable ? parseRetryAfter(res.header('retry-after'), this.clock.now()) : undefined;
          // By count, a long Retry-After is capped; by time (a bulk write's batch), it is honoured as given, so a
          // wait beyond the budget ends the call at once rather than asking again sooner than the server said.
          const delay = opts.retryBudgetMs === undefined ? Math.min(this.retryMaxDelayMs, after ?? this.backoff(attempt)) : (after ?? this.backoff(attempt));
          if (retryable && mayRetry(attempt, delay)) {
            await res.discard();
            this.stats.retries++;
            // 425 and 429 say the server did nothing: the next attempt is not a repeat of a landed one.
            if (!REFUSED_STATUSES.has(res.status)) {
              repeated = true;
              opts.onRetry?.();
            }
            await this.clock.sleep(delay, caller);
            continue;
          }
          // A DELETE repeated after an attempt that may have been carried out finds nothing: that attempt
          // deleted it (or it was gone already), which is what was asked — not a failure to report.
          if (res.status === 404 && method === 'DELETE' && repeated && (opts.responseType === 'none' || opts.responseType === 'text')) {
            await res.discard();
            return (opts.responseType === 'text' ? '' : undefined) as T;
          }
          if (res.status === 404 && opts.nullOn404) {
            await res.discard();
            return null;
          }
          if (res.unfollowedRedirect) {
            await res.discard();
            throw new LangSmithError(`Failed to ${opts.action}: ${res.status} ${res.statusText}: ${res.unfollowedRedirect}`, {
              action: opts.action,
              status: res.status,
              statusText: res.statusText,
              detail: res.unfollowedRedirect,
            });
          }
          let text = '';
          try {
            text = await res.text();
          } catch {
            /* the status says enough */
          }
          const error = errorForStatus(opts.action, res.status, res.statusText, text);
          // Which credentials were refused, when they are not the one key.
          if (auth && (res.status === 401 || res.status === 403)) error.message += `\n(with the login of ${auth.description})`;
          throw error;
        }

        if (opts.responseType === 'stream') return this.streamBody(res, opts, ctl, timeoutMs) as T;
        try {
          return await this.readBody(res, opts);
        } catch (err) {
          if (err instanceof LangSmithError) throw err;
          await retryOrThrow(err, 'no complete answer');
          continue;
        }
      } finally {
        clearTimeout(timer);
        caller?.removeEventListener('abort', onCallerAbort);
      }
    }
  }

  /**
   * A request whose answer is read as it arrives (server-sent events): the same headers, retries and
   * errors as request() until the answer's headers are in (nothing is repeated after that); then the
   * body's text in pieces. The timeout then applies to each wait for the next piece, and the caller's
   * signal still aborts.
   */
  stream(opts: Omit<RequestOptions<never>, 'responseType' | 'schema' | 'check' | 'nullOn404'>): Promise<AsyncGenerator<string>> {
    return this.request<AsyncGenerator<string>>({ ...opts, responseType: 'stream' });
  }

  /**
   * The bytes behind a link that is its own credential (a presigned attachment URL, on this host or another):
   * through this client's transport (so its proxy and CA settings apply), with its timeout, retries and errors,
   * but without the API key or the workspace header.
   */
  download(url: string, o: { action: string; signal?: AbortSignal; timeoutMs?: number }): Promise<Uint8Array> {
    const parsed = URL.canParse(url) ? new URL(url) : null;
    if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
      return Promise.reject(new LangSmithValidationError(`Failed to ${o.action}: the link is not a web address`));
    }
    return this.request<Uint8Array>({ path: '', absoluteUrl: parsed.href, action: o.action, signal: o.signal, timeoutMs: o.timeoutMs, responseType: 'bytes' });
  }

  private streamBody<T>(res: WireAnswer, opts: RequestOptions<T>, ctl: AbortController, timeoutMs: number): AsyncGenerator<string> {
    const caller = opts.signal;
    const action = opts.action;
    return (async function* () {
      if (!res.chunks) throw new LangSmithError(`Failed to ${action}: this transport cannot stream answers`, { action });
      const decoder = new TextDecoder();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => ctl.abort(new TimedOut()), Math.min(timeoutMs, MAX_TIMER_MS));
      };
      const onCallerAbort = () => ctl.abort(caller!.reason);
      if (caller?.aborted) ctl.abort(caller.reason);
      caller?.addEventListener('abort', onCallerAbort, { once: true });
      let complete = false;
      try {
        arm();
        for await (const chunk of res.chunks()) {
          arm();
          const text = decoder.decode(chunk, { stream: true });
          if (text) yield text;
        }
        const rest = decoder.decode();
        if (rest) yield rest;
        complete = true;
      } catch (err) {
        if (caller?.aborted) throw caller.reason;
        if (ctl.signal.aborted && ctl.signal.reason instanceof TimedOut) {
          throw new LangSmithTimeoutError(`Failed to ${action}: the answer stopped for ${timeoutMs} ms`, { action, cause: err });
        }
        throw new LangSmithError(`Failed to ${action}: the answer was cut off (${networkMessage(err)})`, { action, cause: err });
      } finally {
        clearTimeout(timer);
        caller?.removeEventListener('abort', onCallerAbort);
        // Left early (the reader stopped, or an error): end the request rather than leave it open.
        if (!complete && !ctl.signal.aborted) ctl.abort(new Error('stream closed by the reader'));
      }
    })();
  }

  private async readBody<T>(res: WireAnswer, opts: RequestOptions<T>): Promise<T> {
    const type = opts.responseType ?? 'json';
    if (type === 'none') {
      await res.discard();
      return undefined as T;
    }
    if (type === 'bytes') {
      if (!res.chunks) throw new LangSmithError(`Failed to ${opts.action}: this transport cannot read bytes`, { action: opts.action });
      const parts: Uint8Array[] = [];
      for await (const chunk of res.chunks()) parts.push(chunk);
      return new Uint8Array(Buffer.concat(parts)) as T;
    }
    const text = await res.text();
    if (type === 'text') return text as T;
    let data: unknown = null;
    if (text.length > 0) {
      try {
        data = JSON.parse(text);
      } catch {
        throw new LangSmithError(`Failed to ${opts.action}: the server's answer is not JSON`, {
          action: opts.action,
          status: res.status,
        });
      }
    }
    if (opts.check) {
      const checked = opts.check(data);
      if (checked.success) return checked.data;
      throw this.unexpectedAnswer(opts.action, res.status, checked.issues);
    }
    if (!opts.schema) return data as T;
    const parsed = opts.schema.safeParse(data);
    if (!parsed.success) throw this.unexpectedAnswer(opts.action, res.status, parsed.error.issues);
    return parsed.data;
  }

  private unexpectedAnswer(action: string, status: number, found: readonly { path: PropertyKey[]; message: string }[]): LangSmithError {
    const issues = found
      .slice(0, 5)
      .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
      .join('\n');
    return new LangSmithError(`Failed to ${action}: unexpected answer from the server\n${issues}`, { action, status, detail: issues });
  }
}

function networkMessage(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    const code = cause && typeof cause === 'object' && 'code' in cause ? ` (${String((cause as { code: unknown }).code)})` : '';
    return `${err.message}${code}`;
  }
  return String(err);
}
