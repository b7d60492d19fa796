// Examples with history, and the dataset versions they make. Every change to a dataset's examples is a new
// version named by its timestamp; an example is stored as revisions, each valid from one version to the
// next, so any version reads exactly as it was. The SQL and transactions live here; routes parse and shape.
//
// An example's JSON is composed in ONE place, `exampleJsonSql`: SQLite writes it from the stored JSON text,
// for pages, single reads and search hits alike, so no code path can drift from another in shape.
import type { Ctx, Tenant } from '../context';
import { compileExampleFilter } from '../filter';
import { HttpError, notFound } from '../errors';
import { sha256 } from '../ids';
import { jsonOrNull } from '../json';
import { parseTime } from '../time';
import type { RunRow } from './runs';

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

// ---- the example's JSON ----------------------------------------------------------------------------------

/** The fields of an example answer, in the order they are written (LangSmith's `ExampleSelect`). */
export const EXAMPLE_FIELDS = [
  'id', 'dataset_id', 'name', 'inputs', 'outputs', 'metadata', 'source_run_id', 'created_at', 'modified_at', 'attachment_urls',
] as const;
export type ExampleField = (typeof EXAMPLE_FIELDS)[number];

/** Every field: what a single read (`GET /examples/{id}`), a search hit and a public listing answer. */
export const ALL_FIELDS: readonly ExampleField[] = EXAMPLE_FIELDS;

/** The OpenAPI's default `select` of `GET /examples`, which leaves `attachment_urls` out. */
export const OPENAPI_DEFAULT_SELECT: readonly ExampleField[] = EXAMPLE_FIELDS.filter((f) => f !== 'attachment_urls');

/** `GET /examples` without `select`: LangSmith's default, without `attachment_urls` (a client asks for them). */
export const DEFAULT_LIST_FIELDS: readonly ExampleField[] = OPENAPI_DEFAULT_SELECT;

/** Written whatever `select` asks for: what identifies an example and what every consumer reads. */
const ALWAYS: readonly ExampleField[] = ['id', 'dataset_id', 'inputs', 'created_at'];

/** The fields an explicit `select` gives: the asked-for ones and the ones always written, in answer order. */
export function selectedFields(select: readonly ExampleField[]): ExampleField[] {
  const want = new Set<ExampleField>([...ALWAYS, ...select]);
  return EXAMPLE_FIELDS.filter((f) => want.has(f));
}

/**
 * Per field, its piece of the format() text and its argument, over a row of example_revisions. Ids are
 * UUIDs and timestamps ISO strings (both checked on the way in), so they are written as they are; stored
 * JSON text is written as stored; a source run id is quoted by SQLite; attachment URLs by a function.
 */
const FIELD_SQL: Record<ExampleField, [string, string]> = {
  id: ['"id":"%s"', 'example_id'],
  dataset_id: ['"dataset_id":"%s"', 'dataset_id'],
  name: ['"name":"#%.4s"', 'example_id'],
  inputs: ['"inputs":%s', 'inputs'],
  outputs: ['"outputs":%s', "ifnull(outputs, 'null')"],
  metadata: ['"metadata":%s', "ifnull(metadata, 'null')"],
  source_run_id: ['"source_run_id":%s', "ifnull(json_quote(source_run_id), 'null')"],
  created_at: ['"created_at":"%s"', 'created_at'],
  modified_at: ['"modified_at":"%s"', 'valid_from'],
  // The origin is a named parameter (see `originParam`), so it can sit anywhere among a page's `?`s.
  attachment_urls: ['"attachment_urls":%s', "CASE WHEN attachments IS NULL THEN '{}' ELSE ls_attachment_urls(@ls_origin, attachments) END"],
};

/**
 * The SQL expression of one example's JSON text over the columns of example_revisions. When the fields
 * include `attachment_urls`, bind `originParam(fields, origin)` first: the origin the URLs start with.
 */
export function exampleJsonSql(fields: readonly ExampleField[]): string {
  const pieces = fields.map((f) => FIELD_SQL[f]);
  return `format('{${pieces.map((p) => p[0]).join(',')}}', ${pieces.map((p) => p[1]).join(', ')})`;
}

/** The named parameter `exampleJsonSql` takes with these fields (better-sqlite3 wants it only when used). */
export function originParam(fields: readonly ExampleField[], origin: string): Array<{ ls_origin: string }> {
  return fields.includes('attachment_urls') ? [{ ls_origin: origin }] : [];
}

/** URLs this server serves for stored attachments, keyed `attachment.<name>` as LangSmith keys them. */
export function attachmentUrls(origin: string, attachments: string | null) {
  const a: Record<string, AttachmentRef> | null = jsonOrNull(attachments);
  const out: Record<string, { presigned_url: string; mime_type: string }> = {};
  if (!a) return out;
  for (const [name, ref] of Object.entries(a)) {
    out[`attachment.${name}`] = {
      presigned_url: `${origin}/attachments/${ref.hash}?type=${encodeURIComponent(ref.mime_type)}&name=${encodeURIComponent(name)}`,
      mime_type: ref.mime_type,
    };
  }
  return out;
}

const withExampleSql = new WeakSet<object>();

/** Registers the SQL functions example reads use (once per database connection). */
export function registerExampleSql(ctx: Ctx): void {
  if (withExampleSql.has(ctx.db)) return;
  ctx.db.function('ls_attachment_urls', { deterministic: true }, (origin: unknown, attachments: unknown) =>
    JSON.stringify(attachmentUrls(String(origin), typeof attachments === 'string' ? attachments : null)),
  );
  // A stable pseudo-random rank per (seed, example id): `order=random` with a `random_seed` gives the same
  // order on every page and every call, so a client can page through a shuffled dataset. FNV-1a over both.
  ctx.db.function('ls_seeded_rank', { deterministic: true }, (seed: unknown, id: unknown) => {
    const s = `${String(seed)}|${String(id)}`;
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h;
  });
  withExampleSql.add(ctx.db);
}

/** JSON text of one example as stored in a revision (what single reads answer), composed by SQLite. */
export function revisionJson(ctx: Ctx, rev: number, origin: string): string {
  registerExampleSql(ctx);
  return ctx.st.one<{ j: string }>(`SELECT ${exampleJsonSql(ALL_FIELDS)} AS j FROM example_revisions WHERE rev = ?`, ...originParam(ALL_FIELDS, origin), rev)!.j;
}

// ---- revisions -------------------------------------------------------------------------------------------

/** JSON already serialized by the client (validated), stored as received. */
export class RawJson {
  constructor(readonly text: string) {}
}
const jsonText = (v: unknown): string | null => (v instanceof RawJson ? v.text : v == null ? null : JSON.stringify(v));

export interface ExampleState {
  inputs: unknown;
  outputs: unknown;
  metadata: unknown;
  source_run_id: string | null;
  attachments: Record<string, AttachmentRef> | null;
  created_at: string;
}

/** Writes a new state of an example at `version` (closing the previous one). */
export function writeRevision(ctx: Ctx, datasetId: string, exampleId: string, version: string, s: ExampleState) {
  ctx.st.run('UPDATE example_revisions SET valid_to = ? WHERE example_id = ? AND valid_to IS NULL', version, exampleId);
  insertRevision(ctx, datasetId, exampleId, version, s);
}

/** The first state of a new example (nothing to close). */
export function insertRevision(ctx: Ctx, datasetId: string, exampleId: string, version: string, s: ExampleState) {
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

/** The state an example of the caller's workspace had at a version (null: now); 404 when it had none. */
export function readExample(ctx: Ctx, tenant: Tenant, id: string, asOfRef: string | undefined): RevRow {
  const any = ctx.st.one<RevRow>('SELECT * FROM example_revisions WHERE example_id = ? ORDER BY rev DESC LIMIT 1', id);
  if (!any) throw notFound(`Example ${id}`);
  getDataset(ctx, tenant, any.dataset_id);
  const asOf = resolveVersion(ctx, any.dataset_id, asOfRef);
  const row = asOf === null
    ? currentRevision(ctx, id)
    : ctx.st.one<RevRow>('SELECT * FROM example_revisions WHERE example_id = ? AND valid_from <= ? AND (valid_to IS NULL OR valid_to > ?)', id, asOf, asOf);
  if (!row) throw notFound(`Example ${id}`);
  return row;
}

export function countExamples(ctx: Ctx, datasetId: string, asOf: string | null): number {
  const st = stateWhere(asOf);
  return ctx.st.one<{ n: number }>(`SELECT COUNT(*) AS n FROM example_revisions e WHERE ${st.sql}`, ...st.params(datasetId))!.n;
}

/** Split names live in metadata.dataset_split as an array, like LangSmith. */
export function normalizeSplit(split: unknown, where: string): string[] | undefined {
  if (split === undefined || split === null) return undefined;
  const arr = Array.isArray(split) ? split : [split];
  if (!arr.length || arr.some((s) => typeof s !== 'string' || !s)) throw new HttpError(422, `${where}: split must be a name or a list of names`);
  return [...new Set(arr as string[])];
}

export function exampleFilterSql(text: string) {
  return compileExampleFilter(text);
}

/** Soft delete: each dataset concerned gets one new version in which the examples are gone. */
export function deleteExamples(ctx: Ctx, tenant: Tenant, ids: string[]) {
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

/** Removes every revision of the examples (all versions lose them), after checking they are the caller's. */
export function hardDeleteExamples(ctx: Ctx, tenant: Tenant, ids: string[], forget: () => void) {
  ctx.st.tx(() => {
    for (const id of ids) {
      const cur = ctx.st.one<RevRow>('SELECT * FROM example_revisions WHERE example_id = ? LIMIT 1', id);
      if (!cur) throw notFound(`Example ${id}`);
      getDataset(ctx, tenant, cur.dataset_id);
    }
    for (const id of ids) ctx.st.run('DELETE FROM example_revisions WHERE example_id = ?', id);
  });
  forget();
}

// ---- multipart writes ------------------------------------------------------------------------------------

/** What one example's parts of a multipart request carried, already checked by the route's schemas. */
export interface CreatePart {
  id: string;
  created_at?: string | number | null;
  metadata?: Record<string, unknown> | null;
  split?: string | string[] | null;
  source_run_id?: string | null;
  use_source_run_io?: boolean | null;
  use_source_run_attachments?: string[] | boolean | null;
  inputs?: RawJson;
  outputs?: RawJson;
  attachments: Record<string, { data: Buffer; mime: string }>;
}

export interface UpdatePart {
  id: string;
  metadata?: Record<string, unknown> | null;
  split?: string | string[] | null;
  inputs?: unknown;
  outputs?: unknown;
  ops?: { rename?: Record<string, string> | null; retain?: string[] | null };
  attachments: Record<string, { data: Buffer; mime: string }>;
}

/** The bytes of a stored attachment, by content hash. */
export function readBlob(ctx: Ctx, hash: string): Buffer | undefined {
  return ctx.st.one<{ data: Buffer }>('SELECT data FROM blobs WHERE hash = ?', hash)?.data;
}

/** Stores attachment bytes by their hash (each content once) and answers the references an example keeps. */
export function storeBlobs(ctx: Ctx, atts: Record<string, { data: Buffer; mime: string }>): Record<string, AttachmentRef> {
  const out: Record<string, AttachmentRef> = {};
  for (const [name, a] of Object.entries(atts)) {
    const hash = sha256(a.data);
    ctx.st.run('INSERT OR IGNORE INTO blobs (hash, data) VALUES (?, ?)', hash, a.data);
    out[name] = { hash, mime_type: a.mime, size: a.data.length };
  }
  return out;
}

export interface WriteResult {
  count: number;
  example_ids: string[];
  as_of: string;
}

export function createExamplesMultipart(ctx: Ctx, tenant: Tenant, datasetId: string, parts: CreatePart[]): WriteResult {
  // Everything is checked before anything is written.
  const prepared: Array<{ id: string; s: ExampleState; atts: CreatePart['attachments'] }> = [];
  for (const p of parts) {
    const createdAt = p.created_at != null ? parseTime(p.created_at) : new Date().toISOString();
    if (!createdAt) throw new HttpError(422, `Part ${p.id}.created_at: not a valid timestamp`);
    let inputs: unknown = p.inputs;
    let outputs: unknown = p.outputs;
    let runAtts: Record<string, AttachmentRef> | null = null;
    const wantAtts = Array.isArray(p.use_source_run_attachments) ? p.use_source_run_attachments.length > 0 : !!p.use_source_run_attachments;
    if (p.source_run_id && (p.use_source_run_io || wantAtts)) {
      const run = ctx.st.one<RunRow>('SELECT * FROM runs WHERE id = ? AND tenant_id = ?', p.source_run_id, tenant.id);
      if (!run) throw new HttpError(404, `Run ${p.source_run_id} not found`);
      if (p.use_source_run_io) {
        inputs = jsonOrNull(run.inputs) ?? {};
        outputs = jsonOrNull(run.outputs);
      }
      if (wantAtts) {
        // A list of attachment names to copy (true: all of them).
        const all: Record<string, AttachmentRef> = jsonOrNull(run.attachments) ?? {};
        const wanted = Array.isArray(p.use_source_run_attachments) ? p.use_source_run_attachments : Object.keys(all);
        runAtts = {};
        for (const name of wanted) {
          if (!all[name]) throw new HttpError(422, `Part ${p.id}.use_source_run_attachments: run ${p.source_run_id} has no attachment "${name}"`);
          runAtts[name] = all[name];
        }
      }
    }
    if (inputs === undefined) throw new HttpError(422, `Part ${p.id}.inputs: required`);
    const metadata: Record<string, unknown> = { ...(p.metadata ?? {}) };
    metadata.dataset_split =
      normalizeSplit(p.split, `Part ${p.id}.split`) ?? normalizeSplit(metadata.dataset_split, `Part ${p.id}.metadata.dataset_split`) ?? ['base'];
    prepared.push({
      id: p.id,
      s: { inputs, outputs: outputs ?? null, metadata, source_run_id: p.source_run_id ?? null, attachments: runAtts, created_at: createdAt },
      atts: p.attachments,
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

/**
 * The attachments an example keeps after `attachments_operations`, checked as LangSmith checks them: each
 * name renamed or retained must be one the example has, and none may be both retained and renamed (it
 * would be kept twice under two names). Anything neither renamed nor retained is dropped.
 */
function applyAttachmentOps(exampleId: string, current: Record<string, AttachmentRef>, ops: NonNullable<UpdatePart['ops']>): Record<string, AttachmentRef> {
  const rename = ops.rename ?? {};
  const retain = ops.retain ?? [];
  const refuse = (what: string) => new HttpError(422, `Example ${exampleId}: attachments_operations ${what}`);
  for (const name of Object.keys(rename)) {
    if (!current[name]) throw refuse(`renames attachment "${name}", which the example does not have`);
    if (retain.includes(name)) throw refuse(`both retains and renames attachment "${name}"`);
  }
  for (const name of retain) if (!current[name]) throw refuse(`retains attachment "${name}", which the example does not have`);
  const next: Record<string, AttachmentRef> = {};
  for (const name of retain) next[name] = current[name];
  for (const [from, to] of Object.entries(rename)) {
    if (next[to]) throw refuse(`renames attachment "${from}" to "${to}", a name another kept attachment already has`);
    next[to] = current[from];
  }
  return next;
}

export function updateExamplesMultipart(ctx: Ctx, datasetId: string, parts: UpdatePart[]): WriteResult {
  // Every example of the request is checked before anything is written: a refusal changes nothing.
  const prepared: Array<{ id: string; s: ExampleState; atts: UpdatePart['attachments'] }> = [];
  for (const p of parts) {
    const cur = currentRevision(ctx, p.id);
    if (!cur || cur.dataset_id !== datasetId) throw new HttpError(404, `Example ${p.id} not found in dataset ${datasetId}`);
    const oldMeta = jsonOrNull(cur.metadata) ?? {};
    let metadata = oldMeta;
    if (p.metadata != null) metadata = { ...p.metadata, dataset_split: p.metadata.dataset_split ?? oldMeta.dataset_split };
    const split = normalizeSplit(p.split, `Part ${p.id}.split`);
    if (split) metadata = { ...metadata, dataset_split: split };
    let atts: Record<string, AttachmentRef> = jsonOrNull(cur.attachments) ?? {};
    if (p.ops) atts = applyAttachmentOps(p.id, atts, p.ops);
    prepared.push({
      id: p.id,
      s: {
        inputs: p.inputs ?? new RawJson(cur.inputs),
        outputs: p.outputs !== undefined ? p.outputs : cur.outputs === null ? null : new RawJson(cur.outputs),
        metadata,
        source_run_id: cur.source_run_id,
        attachments: atts,
        created_at: cur.created_at,
      },
      atts: p.attachments,
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

// ---- listing ---------------------------------------------------------------------------------------------

/** LangSmith's `ExampleListOrder`. */
export const EXAMPLE_ORDERS = ['recent', 'random', 'recently_created', 'id'] as const;
export type ExampleOrder = (typeof EXAMPLE_ORDERS)[number];

export interface ExampleQuery {
  datasetId: string;
  asOf: string | null;
  ids?: string[];
  splits?: string[];
  metadata?: Record<string, unknown>;
  filter?: string;
  /** Texts every example must contain somewhere in its inputs or outputs (case-blind for ASCII letters). */
  fullTextContains?: string[];
  /** Default `recent`. */
  order?: ExampleOrder;
  /** Overrides the order's own direction (not for `random`). */
  descending?: boolean;
  /** The seed of `order=random`; without one each call shuffles anew. */
  randomSeed?: number;
  limit: number;
  offset: number;
}

/**
 * How each order sorts. `recent` is the order this server has always listed in (oldest first, by creation
 * time then id): the official client pages with offsets, and a stable total order keeps pages from
 * overlapping while examples are added. `recently_created` is the same key newest first; `id` the example
 * id. `descending` turns either direction. `random` ranks by a hash of the seed and the id.
 */
interface OrderPlan {
  /** ORDER BY columns (over `e.`), with the direction. */
  orderBy: string;
  /** The key a page end is recorded by, and how a later page seeks past it; none for random. */
  seek?: { columns: string[]; op: '>' | '<'; lastExpr: string };
  extraParams: unknown[];
}

function orderPlan(q: ExampleQuery): OrderPlan {
  const order = q.order ?? 'recent';
  if (order === 'random') {
    const seed = q.randomSeed ?? Math.random();
    const dir = q.descending ? 'DESC' : 'ASC';
    return { orderBy: `ls_seeded_rank(?, e.example_id) ${dir}, e.example_id ${dir}`, extraParams: [String(seed)] };
  }
  const desc = q.descending ?? order === 'recently_created';
  const dir = desc ? 'DESC' : 'ASC';
  const agg = desc ? 'min' : 'max';
  if (order === 'id') return { orderBy: `e.example_id ${dir}`, seek: { columns: ['e.example_id'], op: desc ? '<' : '>', lastExpr: `${agg}(example_id)` }, extraParams: [] };
  // A space sorts below every character of a timestamp or an id, so the text order of
  // `created_at || ' ' || example_id` is the order of the pair.
  return {
    orderBy: `e.created_at ${dir}, e.example_id ${dir}`,
    seek: { columns: ['e.created_at', 'e.example_id'], op: desc ? '<' : '>', lastExpr: `${agg}(created_at || ' ' || example_id)` },
    extraParams: [],
  };
}

/** The SQL of one page of examples (`SELECT e.* … LIMIT ? OFFSET ?`) and where to record its end. */
interface PagePlan {
  sql: string;
  params: unknown[];
  ends?: Map<number, string[]>;
  lastExpr?: string;
}

function whereOf(q: ExampleQuery): { sql: string; params: unknown[] } {
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
  for (const [k, v] of Object.entries(q.metadata ?? {})) {
    where.push(`json_extract(e.metadata, ?) = json_extract(?, '$')`);
    params.push(`$.${JSON.stringify(k)}`, JSON.stringify(v));
  }
  if (q.filter) {
    const f = exampleFilterSql(q.filter);
    where.push(f.sql);
    params.push(...f.params);
  }
  // LangSmith's full-text search: each term is in some text value of the inputs or outputs (a substring,
  // case-blind for ASCII letters; `%` and `_` in a term are plain characters).
  for (const term of q.fullTextContains ?? []) {
    where.push(`EXISTS (SELECT 1 FROM json_tree(e.inputs) t WHERE t.type = 'text' AND t.atom LIKE ? ESCAPE '\\'
      UNION ALL SELECT 1 FROM json_tree(ifnull(e.outputs, 'null')) t WHERE t.type = 'text' AND t.atom LIKE ? ESCAPE '\\')`);
    const pattern = `%${term.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
    params.push(pattern, pattern);
  }
  return { sql: where.join(' AND '), params };
}

function planPage(ctx: Ctx, q: ExampleQuery): PagePlan {
  const where = whereOf(q);
  const order = orderPlan(q);
  const index = q.asOf === null ? 'INDEXED BY exrev_current' : '';
  const base = `SELECT e.* FROM example_revisions e ${index} WHERE ${where.sql}`;
  const plain = {
    sql: `${base} ORDER BY ${order.orderBy} LIMIT ? OFFSET ?`,
    params: [...where.params, ...order.extraParams, q.limit, q.offset],
  };
  if (!order.seek) return plain;
  // Paging by offset steps over `offset` index entries on every page, so deep pages of a large dataset
  // cost more and more. The order's key orders the examples totally, so a page can start from where an
  // earlier page of the same query ended and step over only the rest: remember where pages end and seek
  // to the nearest end at or before `offset`. Clients that keep several pages in flight ask for a page
  // before the one in front of it has been answered, so the exact end is not always known yet. The
  // dataset's latest version is part of the query's key, so any change starts afresh.
  const latest = ctx.st.one<{ v: string | null }>('SELECT MAX(as_of) AS v FROM dataset_versions WHERE dataset_id = ?', q.datasetId)?.v ?? '';
  const ends = pageEndsOf(ctx, `${latest}|${order.orderBy}|${where.sql}|${JSON.stringify(where.params)}`);
  const from = q.offset > 0 ? nearestEnd(ends, q.offset) : undefined;
  if (!from) return { ...plain, ends, lastExpr: order.seek.lastExpr };
  const cols = order.seek.columns;
  return {
    sql: `${base} AND (${cols.join(', ')}) ${order.seek.op} (${cols.map(() => '?').join(', ')}) ORDER BY ${order.orderBy} LIMIT ? OFFSET ?`,
    params: [...where.params, ...from.end, q.limit, q.offset - from.offset],
    ends,
    lastExpr: order.seek.lastExpr,
  };
}

/** Remembers where a full page ended, for the pages after it. */
function recordEnd(plan: PagePlan, q: ExampleQuery, count: number, last: string | null): void {
  if (!plan.ends || count !== q.limit || !last) return;
  const at = q.offset + count;
  plan.ends.delete(at);
  plan.ends.set(at, last.split(' '));
  if (plan.ends.size > PAGE_ENDS_KEPT) plan.ends.delete(plan.ends.keys().next().value!);
}

/** One page of revisions, as rows (for exports that read the stored JSON themselves). */
export function listExamples(ctx: Ctx, q: ExampleQuery): RevRow[] {
  registerExampleSql(ctx);
  const plan = planPage(ctx, q);
  const rows = ctx.st.all<RevRow>(plan.sql, ...plan.params);
  const l = rows[rows.length - 1];
  recordEnd(plan, q, rows.length, l ? (plan.lastExpr?.includes('created_at') ? `${l.created_at} ${l.example_id}` : l.example_id) : null);
  return rows;
}

/**
 * A page of examples as JSON bytes, composed by SQLite from the stored JSON text (`exampleJsonSql`),
 * without making a JavaScript object or string per example. The examples are joined in the order the
 * page's query gives them: SQLite aggregates a subquery's rows as they come (an ORDER BY inside
 * group_concat would sort the composed text again and double the cost); the tests compare whole pages,
 * so a change of that would show. The page's last key comes from the order's own aggregate of its key.
 */
export function listExamplesJson(ctx: Ctx, q: ExampleQuery, origin: string, fields: readonly ExampleField[]): Buffer {
  registerExampleSql(ctx);
  const plan = planPage(ctx, q);
  const page = ctx.st.get(
    `SELECT CAST('[' || ifnull(group_concat(${exampleJsonSql(fields)}, ','), '') || ']' AS BLOB) AS json,
      count(*) AS n, ${plan.lastExpr ?? 'NULL'} AS last
     FROM (${plan.sql})`,
  );
  const r = page.get(...originParam(fields, origin), ...plan.params) as { json: Buffer; n: number; last: string | null };
  recordEnd(plan, q, r.n, r.last);
  return r.json;
}

/** The caller's current examples with these ids, across their datasets (`GET /examples?id=…` without a dataset). */
export function examplesByIdsJson(ctx: Ctx, tenant: Tenant, ids: string[], q: Pick<ExampleQuery, 'order' | 'descending' | 'randomSeed' | 'limit' | 'offset'>, origin: string, fields: readonly ExampleField[]): Buffer {
  registerExampleSql(ctx);
  const order = orderPlan({ ...q, datasetId: '', asOf: null });
  const inner = `SELECT e.* FROM example_revisions e JOIN datasets d ON d.id = e.dataset_id
    WHERE d.tenant_id = ? AND e.valid_to IS NULL AND e.example_id IN (${ids.map(() => '?').join(',')})
    ORDER BY ${order.orderBy} LIMIT ? OFFSET ?`;
  const r = ctx.st.one<{ json: Buffer }>(
    `SELECT CAST('[' || ifnull(group_concat(${exampleJsonSql(fields)}, ','), '') || ']' AS BLOB) AS json FROM (${inner})`,
    ...originParam(fields, origin), tenant.id, ...ids, ...order.extraParams, q.limit, q.offset,
  )!;
  return r.json;
}

/** Where recent example pages ended, per server and query; the oldest queries and ends are forgotten first. */
const pageEnds = new WeakMap<Ctx, Map<string, Map<number, string[]>>>();
const PAGE_END_QUERIES_KEPT = 64;
const PAGE_ENDS_KEPT = 1000;

function pageEndsOf(ctx: Ctx, query: string): Map<number, string[]> {
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
export function forgetPageEnds(ctx: Ctx): void {
  pageEnds.delete(ctx);
}

/** The recorded page end at `offset`, or the nearest one before it. */
export function nearestEnd<E>(ends: Map<number, E>, offset: number): { offset: number; end: E } | undefined {
  const exact = ends.get(offset);
  if (exact) return { offset, end: exact };
  let best: { offset: number; end: E } | undefined;
  for (const [at, end] of ends) if (at < offset && (!best || at > best.offset)) best = { offset: at, end };
  return best;
}
