// Ids and content hashes.
import crypto from 'node:crypto';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: unknown): s is string => typeof s === 'string' && UUID_RE.test(s);

export const newId = (): string => crypto.randomUUID();

/** A UUID derived from a name, so a tenant keeps its id across restarts and databases. */
export function stableUuid(name: string): string {
  const h = crypto.createHash('sha1').update(`langsmith-workbench:${name}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

export const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex');
