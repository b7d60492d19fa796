// Examples with history. Every change to a dataset's examples is a new version (./versions.ts); an example
// is stored as revisions, each valid from one version to the next, so any version reads exactly as it was.
// Their JSON is composed in ./exampleJson.ts and their pages planned in ./examplePages.ts. The SQL and
// transactions live here; routes parse and shape.
import type { Ctx, Tenant } from '../context';
import { HttpError, notFound } from '../errors';
import { sha256 } from '../ids';
import { jsonOrNull } from '../json';
import { parseTime } from '../time';
import { getDataset } from './datasets';
import type { RunRow } from './runs';
import { currentRevision, insertRevision, RawJson, writeRevision, type AttachmentRef, type ExampleState, type RevRow } from './revisions';
import { newVersion, resolveVersion, stateWhere } from './versions';

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
    const oldMeta = jsonOrNull<Record<string, unknown>>(cur.metadata) ?? {};
    let metadata = oldMeta;
    if (p.metadata != null) metadata = { ...p.metadata, dataset_split: p.metadata.dataset_split ?? oldMeta.dataset_split };
    const split = normalizeSplit(p.split, `Part ${p.id}.split`);
    if (split) metadata = { ...metadata, dataset_split: split };
    // As LangSmith: operations say what is kept (and uploads are added, winning on a name); uploads without
    // operations replace every earlier attachment; an update with neither leaves the attachments as they are.
    let atts: Record<string, AttachmentRef> = jsonOrNull(cur.attachments) ?? {};
    if (p.ops) atts = applyAttachmentOps(p.id, atts, p.ops);
    else if (Object.keys(p.attachments).length) atts = {};
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

