// Fault injection for reliability tests: `429:0.1,503:0.05,reset:0.02,resetAfter:0.02,latency:20-200ms,retryAfter:0`;
// `after:N` lets the first N requests after the switch through untouched (a bulk action that fails part-way).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors';

export interface FaultSpec {
  /** status code → probability (0..1) */
  statuses: Array<{ status: number; p: number }>;
  /** Probability of dropping the connection before the request is handled (nothing was done). */
  reset: number;
  /** Probability of handling the request (its write committed) and then dropping the connection instead of answering. */
  resetAfter: number;
  latency: { min: number; max: number } | null;
  /** The Retry-After header (seconds, as sent) of injected 429 and 503 answers. Default '1'. */
  retryAfter: string;
  /** How many requests, counted from when the spec was set, go through before any fault applies. */
  after: number;
  /** Requests let through so far under `after` (this spec's own counter). */
  readonly passed: { n: number };
  text: string;
}

export const NO_FAULTS: FaultSpec = { statuses: [], reset: 0, resetAfter: 0, latency: null, retryAfter: '1', after: 0, passed: { n: 0 }, text: '' };

/** Whether the spec injects anything at all (retryAfter alone does not). */
export function faultsActive(spec: FaultSpec): boolean {
  return spec.statuses.length > 0 || spec.reset > 0 || spec.resetAfter > 0 || spec.latency !== null;
}

export function parseFaults(text: string | undefined | null): FaultSpec {
  const spec: FaultSpec = { ...NO_FAULTS, statuses: [], passed: { n: 0 }, text: (text ?? '').trim() };
  if (!spec.text || spec.text === 'off' || spec.text === 'none') return { ...NO_FAULTS };
  for (const raw of spec.text.split(',')) {
    const item = raw.trim();
    if (!item) continue;
    const [kind, value] = item.split(':', 2).map((s) => s.trim());
    if (value === undefined) throw new Error(`fault "${item}": expected KIND:VALUE`);
    if (kind === 'latency') {
      const m = /^(\d+)(?:-(\d+))?(ms)?$/.exec(value);
      if (!m) throw new Error(`fault "${item}": latency is MIN-MAXms, e.g. latency:20-200ms`);
      const min = Number(m[1]);
      const max = m[2] !== undefined ? Number(m[2]) : min;
      if (max < min) throw new Error(`fault "${item}": latency max is below min`);
      spec.latency = { min, max };
      continue;
    }
    if (kind === 'retryAfter') {
      if (!/^\d+(\.\d+)?$/.test(value) || Number(value) > 3600) throw new Error(`fault "${item}": retryAfter is seconds from 0 to 3600, e.g. retryAfter:0.02`);
      spec.retryAfter = value;
      continue;
    }
    if (kind === 'after') {
      if (!/^\d+$/.test(value)) throw new Error(`fault "${item}": after is a count of requests, e.g. after:2`);
      spec.after = Number(value);
      continue;
    }
    const p = Number(value);
    if (!Number.isFinite(p) || p < 0 || p > 1) throw new Error(`fault "${item}": probability must be between 0 and 1`);
    if (kind === 'reset') spec.reset = p;
    else if (kind === 'resetAfter') spec.resetAfter = p;
    else if (/^[45]\d\d$/.test(kind)) spec.statuses.push({ status: Number(kind), p });
    else throw new Error(`fault "${item}": unknown kind "${kind}" (use a 4xx/5xx status, reset, resetAfter, latency, retryAfter or after)`);
  }
  const total = spec.reset + spec.resetAfter + spec.statuses.reduce((a, s) => a + s.p, 0);
  if (total > 1) throw new Error('fault probabilities add up to more than 1');
  return spec;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Requests chosen to be carried out and then left unanswered (see dropAfterWork). */
const dropAfter = new WeakSet<FastifyRequest>();

/**
 * Applies the current faults to one request, before it is handled. Returns true when the connection was
 * dropped (nothing done); throws the HttpError of an injected status. A request chosen for `resetAfter`
 * goes on to be handled; dropAfterWork() then drops it instead of answering.
 */
export async function applyFaults(spec: FaultSpec, req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  if (spec.passed.n < spec.after) {
    spec.passed.n++;
    return false;
  }
  if (spec.latency) {
    const { min, max } = spec.latency;
    await sleep(min + Math.random() * (max - min));
  }
  let roll = Math.random();
  if (roll < spec.reset) {
    reply.hijack();
    req.raw.socket.destroy();
    return true;
  }
  roll -= spec.reset;
  if (roll < spec.resetAfter) {
    dropAfter.add(req);
    return false;
  }
  roll -= spec.resetAfter;
  for (const { status, p } of spec.statuses) {
    if (roll < p) {
      const headers: Record<string, string> = status === 429 || status === 503 ? { 'retry-after': spec.retryAfter } : {};
      throw new HttpError(status, `Injected fault ${status}`, headers);
    }
    roll -= p;
  }
  return false;
}

/**
 * For an answer about to be sent (an onSend hook: the route has run and its transaction committed): when the
 * request was chosen for `resetAfter`, destroys the connection instead, so the client sees a dropped
 * connection for work that was done. Returns true when it did.
 */
export function dropAfterWork(req: FastifyRequest): boolean {
  if (!dropAfter.has(req)) return false;
  dropAfter.delete(req);
  req.raw.socket.destroy();
  return true;
}
