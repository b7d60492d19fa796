// This server's own switches, outside LangSmith's API: fault injection at run time and request counters. They
// need a valid key and are never faulted themselves.
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { parseFaults } from '../faults';
import { route } from '../route';
import { HttpError } from '../errors';

/**
 * The fault spec a PUT carries: the spec as plain text, or JSON `{"faults": "SPEC"}` (sent with or without a JSON
 * content type). Read here rather than through a body schema, because plain text is not JSON.
 */
function faultSpecOf(body: unknown): string {
  let spec: unknown = body;
  if (Buffer.isBuffer(spec)) spec = spec.toString('utf8');
  if (typeof spec === 'string') {
    const t = spec.trim();
    if (t.startsWith('{')) {
      try {
        spec = (JSON.parse(t) as { faults?: unknown }).faults;
      } catch {
        throw new HttpError(400, 'Malformed JSON body');
      }
    } else spec = t;
  } else if (spec && typeof spec === 'object') spec = (spec as { faults?: unknown }).faults;
  if (spec !== undefined && spec !== null && typeof spec !== 'string') throw new HttpError(422, 'faults: expected a string like "429:0.1,503:0.05"');
  return (spec as string | null | undefined) ?? '';
}

export function registerLocal(app: FastifyInstance, ctx: Ctx) {
  const config = { noFaults: true };
  route(app, 'GET', '/__local/faults', { config }, () => ({ faults: ctx.faults.text }));
  route(app, 'GET', '/__local/stats', { config }, () => ({
    requests: ctx.stats.requests,
    internal_errors: ctx.stats.internalErrors,
    faults_injected: ctx.stats.faultsInjected,
  }));
  route(app, 'PUT', '/__local/faults', { config }, ({ req }) => {
    const spec = faultSpecOf(req.body);
    try {
      ctx.faults = parseFaults(spec);
    } catch (e) {
      throw new HttpError(422, e instanceof Error ? e.message : String(e));
    }
    return { faults: ctx.faults.text };
  });
}
