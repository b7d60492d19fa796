// Examples with history: every change is a revision at a dataset version timestamp; reads at any version.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx, Tenant } from '../context';
import { compileFilter } from '../filter';
import {
  HttpError, isUuid, jsonOrNull, notFound, parseTime, queryBool, queryInt, queryJson, queryList, queryString,
  sha256, uuidParam, originOf,
} from '../util';
import { readParts, type RunRow } from './runs';

export interface DatasetRow {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  data_type: string;
  inputs_schema_definition: string | null;
  outputs_schema_definition: string | null;
  extra: string | null;
  created_at: string;
  modified_at: string;
  share_token: string | null;
  indexed_tag: string | null;
  index_synced_version: string | null;
}

export interface RevRow {
  rev: number;
  example_id: string;
  dataset_id: string;
  valid_from: string;
  valid_to: string | null;
  inputs: string;
  outputs: string | null;
  metadata: string | null;
  source_run_id: string | null;
  attachments: string | null;
  created_at: string;
}

export interface AttachmentRef {
  hash: string;
  mime_type: string;
  size: number;
}

export function getDataset(ctx: Ctx, tenant: Tenant, id: string): DatasetRow {
  const r = ctx.st.one<DatasetRow>('SELECT * FROM datasets WHERE id = ? AND tenant_id = ?', id, tenant.id);
  if (!r) throw notFound(`Dataset ${id}`);
  return r;
}

/** Opens a new dataset version (strictly later than every earlier one) and returns its timestamp. */
export function newVersion(ctx: Ctx, datasetId: string): string {
  const last = ctx.st.one<{ as_of: string }>('SELECT MAX(as_of) AS as_of FROM dataset_versions WHERE dataset_id = ?', datasetId)?.as_of;
  const asOf = ctx.clock.next(datasetId, last);
  ctx.st.run('INSERT INTO dataset_versions (dataset_id, as_of) VALUES (?, ?)', datasetId, asOf);
  ctx.st.run('UPDATE datasets SET modified_at = ? WHERE id = ?', asOf, datasetId);
  return asOf;
}

/**
 * Resolves a version reference: undefined/'latest' → null (the current state), a tag → its timestamp,
 * a timestamp → itself. Tags win over timestamps so a tag named like a date still works.
 */
export function resolveVersion(ctx: Ctx, datasetId: string, ref: string | undefined | null, what = 'as_of'): string | null {
  if (ref === undefined || ref === null || ref === '' || ref === 'latest') return null;
  const tag = ctx.st.one<{ as_of: string }>('SELECT as_of FROM dataset_tags WHERE dataset_id = ? AND tag = ?', datasetId, ref);
  if (tag) return tag.as_of;
  const t = parseTime(ref);
  if (!t) throw new HttpError(404, `${what}: no tag named "${ref}" and not a timestamp`);
  return t;
}

/** SQL for "the examples of dataset ? as they were at version ?" (null = now). */
export function stateWhere(asOf: string | null): { sql: string; params: (v: string) => unknown[] } {
  if (asOf === null) return { sql: 'e.dataset_id = ? AND e.valid_to IS NULL', params: (d) => [d] };
  return { sql: 'e.dataset_id = ? AND e.valid_from <= ? AND (e.valid_to IS NULL OR e.valid_to > ?)', params: (d) => [d, asOf, asOf] };
}

export function attachmentUrls(req: FastifyRequest | null, origin: string | null, attachments: string | null) {
  const a: Record<string, AttachmentRef> | null = jsonOrNull(attachments);
  if (!a || !Object.keys(a).length) return {};
  const base = origin ?? (req ? originOf(req) : '');
  const out: Record<string, { presigned_url: string; mime_type: string }> = {};
  for (const [name, ref] of Object.entries(a)) {
    out[`attachment.${name}`] = {
      presigned_url: `${base}/attachments/${ref.hash}?type=${encodeURIComponent(ref.mime_type)}&name=${encodeURIComponent(name)}`,
      mime_type: ref.mime_type,
    };
  }
  return out;
}

export function exampleOut(e: RevRow, origin: string, select?: Set<string> | null) {
  const full: Record<string, unknown> = {
    id: e.example_id,
    dataset_id: e.dataset_id,
    name: `#${e.example_id.slice(0, 4)}`,
    inputs: JSON.parse(e.inputs),
    outputs: jsonOrNull(e.outputs),
    metadata: jsonOrNull(e.metadata),
    source_run_id: e.source_run_id,
    created_at: e.created_at,
    modified_at: e.valid_from,
    attachment_urls: attachmentUrls(null, origin, e.attachments),
  };
  if (!select || !select.size) return full;
  const out: Record<string, unknown> = { id: e.example_id, dataset_id: e.dataset_id, inputs: full.inputs, created_at: e.created_at };
  for (const k of select) if (k in full) out[k] = full[k];
  return out;
}

/**
 * The same as JSON.stringify(exampleOut(e, origin)), without parsing and re-serializing the stored JSON.
 * Ids are UUIDs and timestamps ISO strings (both checked on the way in), so they are written as they are.
 */
export function exampleJson(e: RevRow, origin: string): string {
  return `{"id":"${e.example_id}","dataset_id":"${e.dataset_id}","name":"#${e.example_id.slice(0, 4)}","inputs":${e.inputs},` +
    `"outputs":${e.outputs ?? 'null'},"metadata":${e.metadata ?? 'null'},"source_run_id":${e.source_run_id === null ? 'null' : JSON.stringify(e.source_run_id)},` +
    `"created_at":"${e.created_at}","modified_at":"${e.valid_from}","attachment_urls":${e.attachments === null ? '{}' : JSON.stringify(attachmentUrls(null, origin, e.attachments))}}`;
}

/** Sends a list of examples; the common case (no select) is composed from the stored JSON text. */
export function sendExamples(reply: FastifyReply, rows: RevRow[], origin: string, select: Set<string> | null) {
  if (select) return rows.map((r) => exampleOut(r, origin, select));
  reply.type('application/json; charset=utf-8');
  return `[${rows.map((r) => exampleJson(r, origin)).join(',')}]`;
}

/** Writes a new state of an example at `version` (closing the previous one). */
export function writeRevision(
  ctx: Ctx,
  datasetId: string,
  exampleId: string,
  version: string,
  s: { inputs: unknown; outputs: unknown; metadata: unknown; source_run_id: string | null; attachments: Record<string, AttachmentRef> | null; created_at: string },
) {
  ctx.st.run('UPDATE example_revisions SET valid_to = ? WHERE example_id = ? AND valid_to IS NULL', version, exampleId);
  insertRevision(ctx, datasetId, exampleId, version, s);
}

/** The first state of a new example (nothing to close). */
export function insertRevision(ctx: Ctx, datasetId: string, exampleId: string, version: string, s: Parameters<typeof writeRevision>[4]) {
  ctx.st.run(
    `INSERT INTO example_revisions (example_id, dataset_id, valid_from, inputs, outputs, metadata, source_run_id, attachments, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    exampleId, datasetId, version, jsonText(s.inputs) ?? '{}', jsonText(s.outputs),
    JSON.stringify(s.metadata ?? {}), s.source_run_id,
    s.attachments && Object.keys(s.attachments).length ? JSON.stringify(s.attachments) : null, s.created_at,
  );
}

export function currentRevision(ctx: Ctx, exampleId: string): RevRow | undefined {
  return ctx.st.one<RevRow>('SELECT * FROM example_revisions WHERE example_id = ? AND valid_to IS NULL', exampleId);
}

/** Split names live in metadata.dataset_split as an array, like LangSmith. */
export function normalizeSplit(split: unknown, where: string): string[] | undefined {
  if (split === undefined || split === null) return undefined;
  const arr = Array.isArray(split) ? split : [split];
  if (!arr.length || arr.some((s) => typeof s !== 'string' || !s)) throw new HttpError(422, `${where}: split must be a name or a list of names`);
  return [...new Set(arr as string[])];
}

export function exampleFilterSql(text: string) {
  return compileFilter(text, {
    field: (n) => ({ id: 'e.example_id', created_at: 'e.created_at', modified_at: 'e.valid_from', source_run_id: 'e.source_run_id' })[n],
    special(fn, args, lit, params) {
      const target = args[0]?.kind === 'ident' ? args[0].name : undefined;
      if (fn === 'has' && args.length === 2 && target && ['metadata', 'inputs', 'outputs'].includes(target)) {
        const v = lit(args[1]);
        let obj: unknown;
        try {
          obj = typeof v === 'string' ? JSON.parse(v) : v;
        } catch {
          throw new HttpError(400, `Invalid filter "${text}": has(${target}, …) takes a JSON object`);
        }
        if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw new HttpError(400, `Invalid filter "${text}": has(${target}, …) takes a JSON object`);
        const conds = Object.entries(obj as object).map(([k, val]) => {
          params.push(`$.${JSON.stringify(k)}`, JSON.stringify(val));
          return `json_extract(e.${target}, ?) = json_extract(?, '$')`;
        });
        return conds.length ? `(${conds.join(' AND ')})` : '1';
      }
      if (fn === 'exists' && args.length === 2 && target && ['metadata', 'inputs', 'outputs'].includes(target)) {
        params.push(`$.${JSON.stringify(String(lit(args[1])))}`);
        return `json_type(e.${target}, ?) IS NOT NULL`;
      }
      const ops: Record<string, string> = { eq: '=', neq: '!=', gt: '>', gte: '>=', lt: '<', lte: '<=' };
      if (ops[fn] && args.length === 2 && target && /^(metadata|inputs|outputs)\./.test(target)) {
        const [col, ...rest] = target.split('.');
        params.push(`$.${rest.map((k) => JSON.stringify(k)).join('.')}`, lit(args[1]));
        return `json_extract(e.${col}, ?) ${ops[fn]} ?`;
      }
      return undefined;
    },
  });
}

export interface ExampleQuery {
  datasetId: string;
  asOf: string | null;
  ids?: string[];
  splits?: string[];
  metadata?: Record<string, unknown>;
  filter?: string;
  limit: number;
  offset: number;
}

/** The SQL of one page of a dataset's examples (`SELECT e.* … LIMIT ? OFFSET ?`) and where to record its end. */
interface PagePlan {
  sql: string;
  params: unknown[];
  ends: Map<number, PageEnd>;
}

function planPage(ctx: Ctx, q: ExampleQuery): PagePlan {
  const st = stateWhere(q.asOf);
  const where = [st.sql];
  const params: unknown[] = st.params(q.datasetId);
  if (q.ids?.length) {
    where.push(`e.example_id IN (${q.ids.map(() => '?').join(',')})`);
    params.push(...q.ids);
  }
  if (q.splits?.length) {
    where.push(`EXISTS (SELECT 1 FROM json_each(e.metadata, '$.dataset_split') j WHERE j.value IN (${q.splits.map(() => '?').join(',')}))`);
    params.push(...q.splits);
  }
  if (q.metadata) {
    for (const [k, v] of Object.entries(q.metadata)) {
      where.push(`json_extract(e.metadata, ?) = json_extract(?, '$')`);
      params.push(`$.${JSON.stringify(k)}`, JSON.stringify(v));
    }
  }
  if (q.filter) {
    const f = exampleFilterSql(q.filter);
    where.push(f.sql);
    params.push(...f.params);
  }
  const index = q.asOf === null ? 'INDEXED BY exrev_current' : '';
  const whereSql = where.join(' AND ');
  // Paging by offset steps over `offset` index entries on every page, so deep pages of a large dataset
  // cost more and more. The key (created_at, example_id) orders the examples totally, so a page can start
  // from where an earlier page of the same query ended and step over only the rest: remember where pages
  // end and seek to the nearest end at or before `offset`. Clients that keep several pages in flight ask
  // for a page before the one in front of it has been answered, so the exact end is not always known yet.
  // The dataset's latest version is part of the query's key, so any change starts afresh.
  const latest = ctx.st.one<{ v: string | null }>('SELECT MAX(as_of) AS v FROM dataset_versions WHERE dataset_id = ?', q.datasetId)?.v ?? '';
  const ends = pageEndsOf(ctx, `${latest}|${whereSql}|${JSON.stringify(params)}`);
  const from = q.offset > 0 ? nearestEnd(ends, q.offset) : undefined;
  return from
    ? {
        sql: `SELECT e.* FROM example_revisions e ${index} WHERE ${whereSql} AND (e.created_at, e.example_id) > (?, ?)
          ORDER BY e.created_at, e.example_id LIMIT ? OFFSET ?`,
        params: [...params, from.end.createdAt, from.end.exampleId, q.limit, q.offset - from.offset],
        ends,
      }
    : {
        sql: `SELECT e.* FROM example_revisions e ${index} WHERE ${whereSql} ORDER BY e.created_at, e.example_id LIMIT ? OFFSET ?`,
        params: [...params, q.limit, q.offset],
        ends,
      };
}

/** Remembers where a full page ended, for the pages after it. */
function recordEnd(plan: PagePlan, q: ExampleQuery, count: number, last: PageEnd | undefined): void {
  if (count !== q.limit || !last?.createdAt) return;
  const at = q.offset + count;
  plan.ends.delete(at);
  plan.ends.set(at, last);
  if (plan.ends.size > PAGE_ENDS_KEPT) plan.ends.delete(plan.ends.keys().next().value!);
}

export function listExamples(ctx: Ctx, q: ExampleQuery): RevRow[] {
  const plan = planPage(ctx, q);
  const rows = ctx.st.all<RevRow>(plan.sql, ...plan.params);
  const last = rows[rows.length - 1];
  recordEnd(plan, q, rows.length, last && { createdAt: last.created_at, exampleId: last.example_id });
  return rows;
}

/**
 * A page of examples in their full shape as JSON bytes, composed by SQLite from the stored JSON text: the
 * same bytes as JSON.stringify of `exampleOut` for each row (a test holds them equal), without making a
 * JavaScript object or string per example. Ids are UUIDs and timestamps ISO strings (both checked on the
 * way in), so they are written as they are; a source run id is quoted by SQLite. The examples are joined
 * in the order the page's query gives them: SQLite aggregates a subquery's rows as they come (an ORDER BY
 * inside group_concat would sort the composed text again and double the cost); the tests compare whole
 * pages, so a change of that would show. The page's last key
 * comes from the largest `created_at || ' ' || example_id`: a space sorts below every character of either,
 * so that order is the order of the pair.
 */
export function listExamplesJson(ctx: Ctx, q: ExampleQuery, origin: string): Buffer {
  const plan = planPage(ctx, q);
  const page = ctx.st.get(
    `SELECT CAST('[' || ifnull(group_concat(format(
        '{"id":"%s","dataset_id":"%s","name":"#%.4s","inputs":%s,"outputs":%s,"metadata":%s,"source_run_id":%s,"created_at":"%s","modified_at":"%s","attachment_urls":%s}',
        example_id, dataset_id, example_id, inputs, ifnull(outputs, 'null'), ifnull(metadata, 'null'), ifnull(json_quote(source_run_id), 'null'),
        created_at, valid_from, CASE WHEN attachments IS NULL THEN '{}' ELSE ${ATTACHMENT_URLS_SQL}(?, attachments) END
      ), ','), '') || ']' AS BLOB) AS json,
      count(*) AS n, max(created_at || ' ' || example_id) AS last
     FROM (${plan.sql})`,
  );
  // The origin's placeholder comes first in the text, so it is bound first.
  const r = page.get(origin, ...plan.params) as { json: Buffer; n: number; last: string | null };
  const space = r.last?.indexOf(' ') ?? -1;
  recordEnd(plan, q, r.n, space > 0 ? { createdAt: r.last!.slice(0, space), exampleId: r.last!.slice(space + 1) } : undefined);
  return r.json;
}

/** The SQL function that writes `attachment_urls` for stored attachments (registered per database). */
const ATTACHMENT_URLS_SQL = 'ls_attachment_urls';
const withAttachmentUrls = new WeakSet<object>();

export function registerAttachmentUrlsSql(ctx: Ctx): void {
  if (withAttachmentUrls.has(ctx.db)) return;
  ctx.db.function(ATTACHMENT_URLS_SQL, { deterministic: true }, (origin: unknown, attachments: unknown) =>
    JSON.stringify(attachmentUrls(null, String(origin), typeof attachments === 'string' ? attachments : null)),
  );
  withAttachmentUrls.add(ctx.db);
}

interface PageEnd {
  createdAt: string;
  exampleId: string;
}

/** Where recent example pages ended, per server and query; the oldest queries and ends are forgotten first. */
const pageEnds = new WeakMap<Ctx, Map<string, Map<number, PageEnd>>>();
const PAGE_END_QUERIES_KEPT = 64;
const PAGE_ENDS_KEPT = 1000;

function pageEndsOf(ctx: Ctx, query: string): Map<number, PageEnd> {
  let queries = pageEnds.get(ctx);
  if (!queries) pageEnds.set(ctx, (queries = new Map()));
  let ends = queries.get(query);
  if (ends) {
    queries.delete(query); // most recently used last
  } else {
    ends = new Map();
    if (queries.size >= PAGE_END_QUERIES_KEPT) queries.delete(queries.keys().next().value!);
  }
  queries.set(query, ends);
  return ends;
}

/** Forgets every recorded page end (after a change that opens no new version: a hard delete). */
function forgetPageEnds(ctx: Ctx): void {
  pageEnds.delete(ctx);
}

/** The recorded page end at `offset`, or the nearest one before it. */
export function nearestEnd(ends: Map<number, PageEnd>, offset: number): { offset: number; end: PageEnd } | undefined {
  const exact = ends.get(offset);
  if (exact) return { offset, end: exact };
  let best: { offset: number; end: PageEnd } | undefined;
  for (const [at, end] of ends) if (at < offset && (!best || at > best.offset)) best = { offset: at, end };
  return best;
}

const ALLOWED_CREATE = new Set(['created_at', 'metadata', 'split', 'source_run_id', 'use_source_run_io', 'use_source_run_attachments', 'id', 'dataset_id']);
const ALLOWED_UPDATE = new Set(['metadata', 'split', 'created_at', 'id', 'dataset_id', 'inputs', 'outputs']);

/** JSON already serialized by the client (validated), stored as received. */
export class RawJson {
  constructor(readonly text: string) {}
}
const jsonText = (v: unknown): string | null => (v instanceof RawJson ? v.text : v == null ? null : JSON.stringify(v));

interface PartGroup {
  body?: any;
  inputs?: any;
  outputs?: any;
  inputsText?: string;
  outputsText?: string;
  attachments: Record<string, { data: Buffer; mime: string }>;
  ops?: any;
}

/** Groups the parts of a multipart examples request by example id. */
function groupExampleParts(parts: Array<{ name: string; data: Buffer; contentType: string }>): Map<string, PartGroup> {
  const groups = new Map<string, PartGroup>();
  const byRawId = new Map<string, PartGroup>();
  const group = (id: string) => {
    const seen = byRawId.get(id);
    if (seen) return seen;
    if (!isUuid(id)) throw new HttpError(422, `Part name must start with an example id; "${id}" is not a valid UUID`);
    const key = id.toLowerCase();
    let g = groups.get(key);
    if (!g) {
      g = { attachments: {} };
      groups.set(key, g);
    }
    byRawId.set(id, g);
    return g;
  };
  let lastText = '';
  const json = (p: { name: string; data: Buffer }) => {
    try {
      lastText = p.data.toString('utf8');
      return JSON.parse(lastText);
    } catch {
      throw new HttpError(422, `Part ${p.name}: not valid JSON`);
    }
  };
  for (const p of parts) {
    const dot = p.name.indexOf('.');
    const id = dot < 0 ? p.name : p.name.slice(0, dot);
    const rest = dot < 0 ? '' : p.name.slice(dot + 1);
    const g = group(id);
    if (rest === '') g.body = json(p);
    else if (rest === 'inputs') {
      g.inputs = json(p);
      g.inputsText = lastText;
    } else if (rest === 'outputs') {
      g.outputs = json(p);
      g.outputsText = lastText;
    }
    else if (rest === 'attachments_operations') g.ops = json(p);
    else if (rest.startsWith('attachment.') && rest.length > 'attachment.'.length) {
      g.attachments[rest.slice('attachment.'.length)] = { data: p.data, mime: p.contentType.split(';')[0].trim() || 'application/octet-stream' };
    } else throw new HttpError(422, `Part ${p.name}: unknown part (expected <id>, <id>.inputs, <id>.outputs, <id>.attachment.<name>, <id>.attachments_operations)`);
  }
  for (const [id, g] of groups) {
    for (const [k, v] of [['body', g.body], ['inputs', g.inputs], ['outputs', g.outputs], ['attachments_operations', g.ops]] as const) {
      if (v !== undefined && (v === null || typeof v !== 'object' || Array.isArray(v))) throw new HttpError(422, `Part ${id}${k === 'body' ? '' : '.' + k}: expected a JSON object`);
    }
  }
  return groups;
}

function storeBlobs(ctx: Ctx, atts: Record<string, { data: Buffer; mime: string }>): Record<string, AttachmentRef> {
  const out: Record<string, AttachmentRef> = {};
  for (const [name, a] of Object.entries(atts)) {
    const hash = sha256(a.data);
    ctx.st.run('INSERT OR IGNORE INTO blobs (hash, data) VALUES (?, ?)', hash, a.data);
    out[name] = { hash, mime_type: a.mime, size: a.data.length };
  }
  return out;
}

export function createExamplesMultipart(ctx: Ctx, tenant: Tenant, datasetId: string, groups: Map<string, PartGroup>) {
  // Validate everything before writing anything.
  const prepared: Array<{ id: string; s: Parameters<typeof writeRevision>[4]; atts: Record<string, { data: Buffer; mime: string }> }> = [];
  for (const [id, g] of groups) {
    const b = g.body ?? {};
    for (const k of Object.keys(b)) if (!ALLOWED_CREATE.has(k)) throw new HttpError(422, `Part ${id}: unknown field "${k}"`);
    if (g.ops) throw new HttpError(422, `Part ${id}.attachments_operations: only valid when updating examples`);
    if (b.metadata != null && (typeof b.metadata !== 'object' || Array.isArray(b.metadata))) throw new HttpError(422, `Part ${id}.metadata: expected an object`);
    if (b.source_run_id != null && !isUuid(b.source_run_id)) throw new HttpError(422, `Part ${id}.source_run_id: not a valid UUID`);
    const createdAt = b.created_at != null ? parseTime(b.created_at) : new Date().toISOString();
    if (!createdAt) throw new HttpError(422, `Part ${id}.created_at: not a valid timestamp`);
    let inputs: unknown = g.inputsText !== undefined ? new RawJson(g.inputsText) : g.inputs;
    let outputs: unknown = g.outputsText !== undefined ? new RawJson(g.outputsText) : g.outputs;
    let runAtts: Record<string, AttachmentRef> | null = null;
    if (b.source_run_id && (b.use_source_run_io || (Array.isArray(b.use_source_run_attachments) ? b.use_source_run_attachments.length : b.use_source_run_attachments))) {
      const run = ctx.st.one<RunRow>('SELECT * FROM runs WHERE id = ? AND tenant_id = ?', String(b.source_run_id).toLowerCase(), tenant.id);
      if (!run) throw new HttpError(404, `Run ${b.source_run_id} not found`);
      if (b.use_source_run_io) {
        inputs = jsonOrNull(run.inputs) ?? {};
        outputs = jsonOrNull(run.outputs);
      }
      if (b.use_source_run_attachments) {
        // A list of attachment names to copy (true: all of them).
        const all: Record<string, AttachmentRef> = jsonOrNull(run.attachments) ?? {};
        const wanted = Array.isArray(b.use_source_run_attachments) ? b.use_source_run_attachments.map(String) : Object.keys(all);
        runAtts = {};
        for (const name of wanted) {
          if (!all[name]) throw new HttpError(422, `Part ${id}.use_source_run_attachments: run ${b.source_run_id} has no attachment "${name}"`);
          runAtts[name] = all[name];
        }
      }
    }
    if (inputs === undefined) throw new HttpError(422, `Part ${id}.inputs: required`);
    const metadata = { ...(b.metadata ?? {}) };
    metadata.dataset_split = normalizeSplit(b.split, `Part ${id}.split`) ?? normalizeSplit(metadata.dataset_split, `Part ${id}.metadata.dataset_split`) ?? ['base'];
    prepared.push({
      id,
      s: { inputs, outputs: outputs ?? null, metadata, source_run_id: b.source_run_id ?? null, attachments: runAtts, created_at: createdAt },
      atts: g.attachments,
    });
  }
  return ctx.st.tx(() => {
    const dup = ctx.st.one<{ example_id: string }>(
      'SELECT example_id FROM example_revisions WHERE example_id IN (SELECT value FROM json_each(?)) LIMIT 1',
      JSON.stringify(prepared.map((p) => p.id)),
    );
    if (dup) throw new HttpError(409, `Example ${dup.example_id} already exists`);
    const version = newVersion(ctx, datasetId);
    for (const p of prepared) {
      const atts = Object.keys(p.atts).length ? { ...(p.s.attachments ?? {}), ...storeBlobs(ctx, p.atts) } : p.s.attachments;
      insertRevision(ctx, datasetId, p.id, version, { ...p.s, attachments: atts });
    }
    return { count: prepared.length, example_ids: prepared.map((p) => p.id), as_of: version };
  });
}

export function updateExamplesMultipart(ctx: Ctx, datasetId: string, groups: Map<string, PartGroup>) {
  const prepared: Array<{ id: string; s: Parameters<typeof writeRevision>[4]; atts: Record<string, { data: Buffer; mime: string }> }> = [];
  for (const [id, g] of groups) {
    const b = g.body ?? {};
    for (const k of Object.keys(b)) if (!ALLOWED_UPDATE.has(k)) throw new HttpError(422, `Part ${id}: unknown field "${k}"`);
    const cur = currentRevision(ctx, id);
    if (!cur || cur.dataset_id !== datasetId) throw new HttpError(404, `Example ${id} not found in dataset ${datasetId}`);
    if (b.metadata != null && (typeof b.metadata !== 'object' || Array.isArray(b.metadata))) throw new HttpError(422, `Part ${id}.metadata: expected an object`);
    const oldMeta = jsonOrNull(cur.metadata) ?? {};
    let metadata = oldMeta;
    if (b.metadata != null) metadata = { ...b.metadata, dataset_split: b.metadata.dataset_split ?? oldMeta.dataset_split };
    const split = normalizeSplit(b.split, `Part ${id}.split`);
    if (split) metadata = { ...metadata, dataset_split: split };
    let atts: Record<string, AttachmentRef> = jsonOrNull(cur.attachments) ?? {};
    if (g.ops) {
      const rename = g.ops.rename ?? {};
      const retain: unknown = g.ops.retain ?? [];
      if (typeof rename !== 'object' || Array.isArray(rename)) throw new HttpError(422, `Part ${id}.attachments_operations.rename: expected an object`);
      if (!Array.isArray(retain)) throw new HttpError(422, `Part ${id}.attachments_operations.retain: expected a list`);
      const next: Record<string, AttachmentRef> = {};
      for (const [from, to] of Object.entries(rename as Record<string, unknown>)) {
        if (!atts[from]) throw new HttpError(422, `Part ${id}.attachments_operations.rename: no attachment named "${from}"`);
        next[String(to)] = atts[from];
      }
      for (const name of retain as unknown[]) {
        if (!atts[String(name)]) throw new HttpError(422, `Part ${id}.attachments_operations.retain: no attachment named "${String(name)}"`);
        next[String(name)] = atts[String(name)];
      }
      atts = next;
    }
    prepared.push({
      id,
      s: {
        inputs: g.inputs ?? JSON.parse(cur.inputs),
        outputs: g.outputs !== undefined ? g.outputs : jsonOrNull(cur.outputs),
        metadata,
        source_run_id: cur.source_run_id,
        attachments: atts,
        created_at: cur.created_at,
      },
      atts: g.attachments,
    });
  }
  return ctx.st.tx(() => {
    const version = newVersion(ctx, datasetId);
    for (const p of prepared) {
      const atts = { ...(p.s.attachments ?? {}), ...storeBlobs(ctx, p.atts) };
      writeRevision(ctx, datasetId, p.id, version, { ...p.s, attachments: atts });
    }
    return { count: prepared.length, example_ids: prepared.map((p) => p.id), as_of: version };
  });
}

function deleteExamples(ctx: Ctx, tenant: Tenant, ids: string[]) {
  ctx.st.tx(() => {
    const byDataset = new Map<string, string[]>();
    for (const id of ids) {
      const cur = currentRevision(ctx, id);
      if (!cur) throw notFound(`Example ${id}`);
      getDataset(ctx, tenant, cur.dataset_id);
      if (!byDataset.has(cur.dataset_id)) byDataset.set(cur.dataset_id, []);
      byDataset.get(cur.dataset_id)!.push(id);
    }
    for (const [ds, list] of byDataset) {
      const version = newVersion(ctx, ds);
      for (const id of list) ctx.st.run('UPDATE example_revisions SET valid_to = ? WHERE example_id = ? AND valid_to IS NULL', version, id);
    }
  });
}

export function registerExamples(app: FastifyInstance, ctx: Ctx) {
  registerAttachmentUrlsSql(ctx);
  app.get('/examples', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const ds = queryString(q, 'dataset');
    const ids = queryList(q, 'id').map((i) => uuidParam(i, 'id'));
    const limit = queryInt(q, 'limit', 100, 1, 10000);
    const offset = queryInt(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const select = queryList(q, 'select');
    queryBool(q, 'inline_s3_urls');
    const metadata = queryJson(q, 'metadata');
    if (metadata !== undefined && (!metadata || typeof metadata !== 'object' || Array.isArray(metadata))) throw new HttpError(422, 'metadata: expected a JSON object');
    const origin = originOf(req);
    const sel = select.length ? new Set(select) : null;
    if (!ds) {
      // Without a dataset: by ids across the caller's datasets (current state).
      if (!ids.length) throw new HttpError(422, 'dataset: required unless id is given');
      const rows = ctx.st.all<RevRow>(
        `SELECT e.* FROM example_revisions e JOIN datasets d ON d.id = e.dataset_id
          WHERE d.tenant_id = ? AND e.valid_to IS NULL AND e.example_id IN (${ids.map(() => '?').join(',')})
          ORDER BY e.created_at, e.example_id LIMIT ? OFFSET ?`,
        req.tenant.id, ...ids, limit, offset,
      );
      return sendExamples(reply, rows, origin, sel);
    }
    const dsId = uuidParam(ds, 'dataset');
    getDataset(ctx, req.tenant, dsId);
    const asOf = resolveVersion(ctx, dsId, queryString(q, 'as_of'));
    const query: ExampleQuery = { datasetId: dsId, asOf, ids, splits: queryList(q, 'splits'), metadata, filter: queryString(q, 'filter'), limit, offset };
    if (!sel) {
      reply.type('application/json; charset=utf-8');
      return listExamplesJson(ctx, query, origin);
    }
    return sendExamples(reply, listExamples(ctx, query), origin, sel);
  });

  app.get('/examples/count', async (req) => {
    const q = req.query as Record<string, unknown>;
    const dsId = uuidParam(queryString(q, 'dataset'), 'dataset');
    getDataset(ctx, req.tenant, dsId);
    const asOf = resolveVersion(ctx, dsId, queryString(q, 'as_of'));
    const st = stateWhere(asOf);
    return ctx.st.one<{ n: number }>(`SELECT COUNT(*) AS n FROM example_revisions e WHERE ${st.sql}`, ...st.params(dsId))!.n;
  });

  app.get('/examples/:id', async (req) => {
    const id = uuidParam((req.params as any).id, 'example_id');
    const q = req.query as Record<string, unknown>;
    const any = ctx.st.one<RevRow>('SELECT * FROM example_revisions WHERE example_id = ? ORDER BY rev DESC LIMIT 1', id);
    if (!any) throw notFound(`Example ${id}`);
    getDataset(ctx, req.tenant, any.dataset_id);
    const asOf = resolveVersion(ctx, any.dataset_id, queryString(q, 'as_of'));
    const row = asOf === null
      ? currentRevision(ctx, id)
      : ctx.st.one<RevRow>('SELECT * FROM example_revisions WHERE example_id = ? AND valid_from <= ? AND (valid_to IS NULL OR valid_to > ?)', id, asOf, asOf);
    if (!row) throw notFound(`Example ${id}`);
    return exampleOut(row, originOf(req));
  });

  app.delete('/examples/:id', async (req) => {
    const id = uuidParam((req.params as any).id, 'example_id');
    deleteExamples(ctx, req.tenant, [id]);
    return {};
  });

  app.delete('/examples', async (req) => {
    const ids = queryList(req.query as any, 'example_ids').map((i) => uuidParam(i, 'example_ids'));
    if (!ids.length) throw new HttpError(422, 'example_ids: at least one id is required');
    deleteExamples(ctx, req.tenant, ids);
    return {};
  });

  // Served back through attachment_urls: content-addressed, so the hash is the capability.
  app.get('/attachments/:hash', { config: { public: true } }, async (req, reply) => {
    const hash = String((req.params as any).hash);
    if (!/^[0-9a-f]{64}$/.test(hash)) throw notFound('Attachment');
    const row = ctx.st.one<{ data: Buffer }>('SELECT data FROM blobs WHERE hash = ?', hash);
    if (!row) throw notFound('Attachment');
    const type = queryString(req.query as any, 'type') ?? 'application/octet-stream';
    reply.header('content-type', /^[\w.+-]+\/[\w.+-]+$/.test(type) ? type : 'application/octet-stream');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('content-security-policy', "default-src 'none'; sandbox");
    return reply.send(row.data);
  });
}

/** The multipart example endpoints, served under /v1/platform and /api/v1/platform. */
export function registerPlatformExamples(app: FastifyInstance, ctx: Ctx) {
  const guard = () => {
    if (!ctx.multipartExamples) throw new HttpError(404, 'The multipart examples endpoint is disabled on this server');
  };
  app.post('/datasets/:id/examples', async (req, reply) => {
    guard();
    const dsId = uuidParam((req.params as any).id, 'dataset_id');
    getDataset(ctx, req.tenant, dsId);
    const groups = groupExampleParts(await readParts(req));
    if (!groups.size) throw new HttpError(422, 'No examples in the request');
    reply.code(201);
    return createExamplesMultipart(ctx, req.tenant, dsId, groups);
  });
  app.patch('/datasets/:id/examples', async (req) => {
    guard();
    const dsId = uuidParam((req.params as any).id, 'dataset_id');
    getDataset(ctx, req.tenant, dsId);
    const groups = groupExampleParts(await readParts(req));
    if (!groups.size) throw new HttpError(422, 'No examples in the request');
    return updateExamplesMultipart(ctx, dsId, groups);
  });
  app.post('/datasets/examples/delete', async (req) => {
    const b: any = req.body;
    if (!b || !Array.isArray(b.example_ids)) throw new HttpError(422, 'body.example_ids: expected a list of ids');
    const ids = b.example_ids.map((i: unknown) => uuidParam(i, 'example_ids'));
    if (b.hard_delete) {
      ctx.st.tx(() => {
        for (const id of ids) {
          const cur = ctx.st.one<RevRow>('SELECT * FROM example_revisions WHERE example_id = ? LIMIT 1', id);
          if (!cur) throw notFound(`Example ${id}`);
          getDataset(ctx, req.tenant, cur.dataset_id);
        }
        for (const id of ids) ctx.st.run('DELETE FROM example_revisions WHERE example_id = ?', id);
      });
      // Every version of the dataset lost these examples, without a new version to tell the page ends apart.
      forgetPageEnds(ctx);
    } else deleteExamples(ctx, req.tenant, ids);
    return {};
  });
}
