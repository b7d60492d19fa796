// Small helpers shared by the routes: LangSmith-shaped errors, ids, timestamps, input parsing.
import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** An error that becomes `{"detail": …}` with the given status. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly detail: unknown,
    public readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
  }
}

export const notFound = (what: string) => new HttpError(404, `${what} not found`);
export const badRequest = (detail: string) => new HttpError(400, detail);
export const conflict = (detail: string) => new HttpError(409, detail);

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

export const nowIso = (): string => new Date().toISOString();

const ISO_MS_Z = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Parses a timestamp the way the API accepts it (ISO 8601, with or without zone) → ISO UTC, or null. */
export function parseTime(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value).toISOString() : null;
  if (typeof value !== 'string') return null;
  // Fast path: already what we store (what JS toISOString() produces).
  if (value.length === 24 && ISO_MS_Z.test(value)) return value;
  let s = value.trim();
  // Timestamps without a zone are UTC in LangSmith.
  if (/^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(s)) s += 'Z';
  const t = Date.parse(s);
  if (Number.isNaN(t)) return null;
  // Keep microseconds out: JS dates hold milliseconds.
  return new Date(t).toISOString();
}

export function jsonOrNull(text: string | null | undefined): any {
  if (text === null || text === undefined) return null;
  return JSON.parse(text);
}

export const toJson = (v: unknown): string | null => (v === undefined || v === null ? null : JSON.stringify(v));

/** The WHERE clause of a list endpoint, built from its query filters. */
export class SqlWhere {
  readonly clauses: string[] = [];
  readonly params: unknown[] = [];

  constructor(clause: string, ...params: unknown[]) {
    this.clauses.push(clause);
    this.params.push(...params);
  }

  /** `column IN (…)` when any values are given: one bound JSON list, however many values there are. */
  in(column: string, values: unknown[]): this {
    if (values.length) {
      this.clauses.push(`${column} IN (SELECT value FROM json_each(?))`);
      this.params.push(JSON.stringify(values));
    }
    return this;
  }

  /** `column = value` when a value is given. */
  eq(column: string, value: unknown): this {
    if (value !== undefined) {
      this.clauses.push(`${column} = ?`);
      this.params.push(value);
    }
    return this;
  }

  /** `column` contains the text literally (LIKE wildcards in it are escaped). */
  contains(column: string, text: string | undefined): this {
    if (text) {
      this.clauses.push(`${column} LIKE ? ESCAPE '\\'`);
      this.params.push(`%${text.replace(/[\\%_]/g, (c) => '\\' + c)}%`);
    }
    return this;
  }

  /** Every key of a `metadata` query object equals the value under `extra.metadata` (JSON comparison). */
  metadata(column: string, metadata: unknown): this {
    if (metadata === undefined) return this;
    if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) throw new HttpError(422, 'metadata: expected a JSON object');
    for (const [k, v] of Object.entries(metadata)) {
      this.clauses.push(`json_extract(${column}, ?) = json_extract(?, '$')`);
      this.params.push(`$.metadata.${JSON.stringify(k)}`, JSON.stringify(v));
    }
    return this;
  }

  /** A fixed condition. */
  where(clause: string): this {
    this.clauses.push(clause);
    return this;
  }

  get sql(): string {
    return this.clauses.join(' AND ');
  }
}

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

export function escapeHtml(s: unknown): string {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Strictly increasing timestamps per key, so two changes in one millisecond are still two versions. */
export class MonotonicClock {
  private last = new Map<string, number>();
  next(key: string, floor?: string | null): string {
    let t = Date.now();
    const prev = Math.max(this.last.get(key) ?? 0, floor ? Date.parse(floor) : 0);
    if (t <= prev) t = prev + 1;
    this.last.set(key, t);
    return new Date(t).toISOString();
  }
}

export const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex');

/** Canonical JSON (sorted keys) for comparing manifests. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const keys = Object.keys(v as object).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as any)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}
