// Fault injection for reliability tests: `429:0.1,503:0.05,reset:0.02,latency:20-200ms`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './util';

export interface FaultSpec {
  /** status code → probability (0..1) */
  statuses: Array<{ status: number; p: number }>;
  reset: number;
  latency: { min: number; max: number } | null;
  text: string;
}

export const NO_FAULTS: FaultSpec = { statuses: [], reset: 0, latency: null, text: '' };

export function parseFaults(text: string | undefined | null): FaultSpec {
  const spec: FaultSpec = { statuses: [], reset: 0, latency: null, text: (text ?? '').trim() };
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
    const p = Number(value);
    if (!Number.isFinite(p) || p < 0 || p > 1) throw new Error(`fault "${item}": probability must be between 0 and 1`);
    if (kind === 'reset') spec.reset = p;
    else if (/^[45]\d\d$/.test(kind)) spec.statuses.push({ status: Number(kind), p });
    else throw new Error(`fault "${item}": unknown kind "${kind}" (use a 4xx/5xx status, reset or latency)`);
  }
  const total = spec.reset + spec.statuses.reduce((a, s) => a + s.p, 0);
  if (total > 1) throw new Error('fault probabilities add up to more than 1');
  return spec;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Applies the current faults to one request. Returns true when the request was answered or dropped. */
export async function applyFaults(spec: FaultSpec, req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
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
  for (const { status, p } of spec.statuses) {
    if (roll < p) {
      const headers: Record<string, string> = status === 429 || status === 503 ? { 'retry-after': '1' } : {};
      throw new HttpError(status, `Injected fault ${status}`, headers);
    }
    roll -= p;
  }
  return false;
}
