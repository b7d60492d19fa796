// What a request says about where it came in: the origin and API prefix handed-out URLs use.
import type { FastifyRequest } from 'fastify';

/** The origin the client reached us on, for URLs we hand out (attachments, feedback tokens). */
export function originOf(req: FastifyRequest): string {
  const host = req.headers.host ?? `${req.hostname}`;
  return `${req.protocol}://${host}`;
}

/** The API prefix the request came in through ('', '/api/v1', …), so handed-out URLs use the same door. */
export function apiPrefixOf(req: FastifyRequest): string {
  const url = req.url;
  for (const p of ['/api/v1', '/api/v2']) if (url.startsWith(p + '/')) return p;
  return '';
}
