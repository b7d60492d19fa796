// Datasets: their rows, counts, sharing, versions and tags, splits, the FTS5 example index and comparative
// experiments. SQL and transactions live here; the routes (../routes/datasets*.ts) parse and shape.
import type { Ctx, Tenant } from '../context';
import { HttpError, conflict, notFound } from '../errors';
import { isUuid, newId } from '../ids';
import { jsonOrNull, toJson } from '../json';
import { SqlWhere } from '../sql';
import { nowIso, parseTime } from '../time';
import { ALL_FIELDS, exampleJsonSql, originParam, registerExampleSql } from './exampleJson';
import { exampleFilterSql } from './examplePages';
import { currentRevision, writeRevision, type RevRow } from './revisions';
import { newVersion, resolveVersion, stateWhere } from './versions';

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
  baseline_experiment_id: string | null;
}

export function getDataset(ctx: Ctx, tenant: Tenant, id: string): DatasetRow {
  const r = ctx.st.one<DatasetRow>('SELECT * FROM datasets WHERE id = ? AND tenant_id = ?', id, tenant.id);
  if (!r) throw notFound(`Dataset ${id}`);
  return r;
}

export interface DatasetCounts {
  example_count: number;
  session_count: number;
  last_session_start_time: string | null;
}

export function datasetCounts(ctx: Ctx, ids: string[]): Map<string, DatasetCounts> {
  const out = new Map<string, DatasetCounts>();
  if (!ids.length) return out;
  const marks = ids.map(() => '?').join(',');
  for (const id of ids) out.set(id, { example_count: 0, session_count: 0, last_session_start_time: null });
  for (const r of ctx.st.all<{ dataset_id: string; n: number }>(
    `SELECT dataset_id, COUNT(*) AS n FROM example_revisions INDEXED BY exrev_current WHERE valid_to IS NULL AND dataset_id IN (${marks}) GROUP BY dataset_id`,
    ...ids,
  )) out.get(r.dataset_id)!.example_count = r.n;
  for (const r of ctx.st.all<{ id: string; n: number; last: string | null }>(
    // Experiments of the dataset's own workspace (a reference is checked when written; this holds regardless).
    `SELECT s.reference_dataset_id AS id, COUNT(*) AS n, MAX(s.start_time) AS last FROM sessions s JOIN datasets d ON d.id = s.reference_dataset_id
      WHERE s.reference_dataset_id IN (${marks}) AND s.tenant_id = d.tenant_id GROUP BY s.reference_dataset_id`,
    ...ids,
  )) {
    const c = out.get(r.id)!;
    c.session_count = r.n;
    c.last_session_start_time = r.last;
  }
  return out;
}

const byId = (ctx: Ctx, id: string) => ctx.st.one<DatasetRow>('SELECT * FROM datasets WHERE id = ?', id)!;
const nameTaken = (ctx: Ctx, tenant: Tenant, name: string) => !!ctx.st.one('SELECT 1 FROM datasets WHERE tenant_id = ? AND name = ?', tenant.id, name);

export interface NewDataset {
  id?: string | null;
  name: string;
  description?: string | null;
  data_type?: string | null;
  inputs_schema_definition?: Record<string, unknown> | null;
  outputs_schema_definition?: Record<string, unknown> | null;
  extra?: Record<string, unknown> | null;
  created_at?: string | null;
}

/** Inserts a dataset (call inside a transaction when more follows). Name and id are unique: 409 otherwise. */
export function insertDataset(ctx: Ctx, tenant: Tenant, b: NewDataset): DatasetRow {
  if (nameTaken(ctx, tenant, b.name)) throw conflict(`Dataset with name ${b.name} already exists`);
  const id = b.id ?? newId();
  if (ctx.st.one('SELECT 1 FROM datasets WHERE id = ?', id)) throw conflict(`Dataset ${id} already exists`);
  const created = (b.created_at && parseTime(b.created_at)) || nowIso();
  ctx.st.run(
    `INSERT INTO datasets (id, tenant_id, name, description, data_type, inputs_schema_definition, outputs_schema_definition, extra, created_at, modified_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id, tenant.id, b.name, b.description ?? null, b.data_type ?? 'kv', toJson(b.inputs_schema_definition),
    toJson(b.outputs_schema_definition), JSON.stringify(b.extra ?? {}), created, created,
  );
  return byId(ctx, id);
}

/** A new dataset with its first examples (a CSV upload), in one transaction. */
export function insertDatasetWithExamples(
  ctx: Ctx, tenant: Tenant, b: NewDataset, examples: Array<{ inputs: Record<string, unknown>; outputs: Record<string, unknown> | null }>,
): DatasetRow {
  return ctx.st.tx(() => {
    const d = insertDataset(ctx, tenant, b);
    if (!examples.length) return d;
    const version = newVersion(ctx, d.id);
    for (const e of examples)
      writeRevision(ctx, d.id, newId(), version, {
        inputs: e.inputs, outputs: e.outputs, metadata: { dataset_split: ['base'] }, source_run_id: null, attachments: null, created_at: version,
      });
    return byId(ctx, d.id);
  });
}

export interface DatasetFilter {
  ids: string[];
  name?: string;
  nameContains?: string;
  dataTypes: string[];
  metadata?: unknown;
  limit: number;
  offset: number;
}

export function listDatasets(ctx: Ctx, tenant: Tenant, f: DatasetFilter): DatasetRow[] {
  const where = new SqlWhere('tenant_id = ?', tenant.id)
    .in('id', f.ids)
    .eq('name', f.name)
    .contains('name', f.nameContains)
    .in('data_type', f.dataTypes)
    .metadata('extra', f.metadata);
  return ctx.st.all<DatasetRow>(`SELECT * FROM datasets WHERE ${where.sql} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`, ...where.params, f.limit, f.offset);
}

export interface DatasetChanges {
  name?: string | null;
  description?: string | null;
  inputs_schema_definition?: Record<string, unknown> | null;
  outputs_schema_definition?: Record<string, unknown> | null;
  metadata?: Record<string, unknown> | null;
  /** A project of the workspace (else a 404). */
  baseline_experiment_id?: string | null;
}

export function updateDataset(ctx: Ctx, tenant: Tenant, id: string, c: DatasetChanges): DatasetRow {
  return ctx.st.tx(() => {
    const d = getDataset(ctx, tenant, id);
    if (c.name && c.name !== d.name && nameTaken(ctx, tenant, c.name)) throw conflict(`Dataset with name ${c.name} already exists`);
    const extra = jsonOrNull<Record<string, unknown>>(d.extra) ?? {};
    if (c.metadata != null) extra.metadata = c.metadata;
    const baseline = c.baseline_experiment_id?.toLowerCase() ?? null;
    if (baseline && !ctx.st.one('SELECT 1 FROM sessions WHERE id = ? AND tenant_id = ?', baseline, tenant.id)) throw notFound(`Session ${baseline}`);
    ctx.st.run(
      `UPDATE datasets SET name = COALESCE(?, name), description = COALESCE(?, description),
         inputs_schema_definition = COALESCE(?, inputs_schema_definition), outputs_schema_definition = COALESCE(?, outputs_schema_definition),
         baseline_experiment_id = COALESCE(?, baseline_experiment_id), extra = ?, modified_at = ? WHERE id = ?`,
      c.name ?? null, c.description ?? null, toJson(c.inputs_schema_definition), toJson(c.outputs_schema_definition),
      baseline, JSON.stringify(extra), ctx.clock.next(id, d.modified_at), id,
    );
    return byId(ctx, id);
  });
}

/** Deletes a dataset with its examples, versions, tags, index and comparative experiments; projects keep running. */
export function deleteDataset(ctx: Ctx, tenant: Tenant, id: string): void {
  ctx.st.tx(() => {
    getDataset(ctx, tenant, id);
    for (const t of ['example_revisions', 'dataset_versions', 'dataset_tags', 'examples_fts']) ctx.st.run(`DELETE FROM ${t} WHERE dataset_id = ?`, id);
    ctx.st.run('DELETE FROM comparative_experiments WHERE reference_dataset_id = ?', id);
    ctx.st.run('UPDATE sessions SET reference_dataset_id = NULL WHERE reference_dataset_id = ?', id);
    ctx.st.run('DELETE FROM datasets WHERE id = ?', id);
  });
}

// ---- sharing ---------------------------------------------------------------------------------------------

/** The dataset's share token, made on first share (sharing twice keeps the token). */
export function shareDataset(ctx: Ctx, tenant: Tenant, id: string): string {
  return ctx.st.tx(() => {
    const d = getDataset(ctx, tenant, id);
    if (d.share_token) return d.share_token;
    const token = newId();
    ctx.st.run('UPDATE datasets SET share_token = ? WHERE id = ?', token, id);
    return token;
  });
}

export function unshareDataset(ctx: Ctx, tenant: Tenant, id: string): void {
  const d = getDataset(ctx, tenant, id);
  ctx.st.run('UPDATE datasets SET share_token = NULL WHERE id = ?', d.id);
}

export function sharedDataset(ctx: Ctx, token: string): DatasetRow {
  if (!isUuid(token)) throw notFound('Shared dataset');
  const d = ctx.st.one<DatasetRow>('SELECT * FROM datasets WHERE share_token = ?', token.toLowerCase());
  if (!d) throw notFound('Shared dataset');
  return d;
}

// ---- versions and tags -----------------------------------------------------------------------------------

export interface VersionOut {
  as_of: string;
  tags: string[];
}

function versionOut(ctx: Ctx, datasetId: string, asOf: string): VersionOut {
  const tags = ctx.st.all<{ tag: string }>('SELECT tag FROM dataset_tags WHERE dataset_id = ? AND as_of = ? ORDER BY tag', datasetId, asOf).map((t) => t.tag);
  return { as_of: asOf, tags };
}

/** The latest version at or before a time (what `as_of` means for a version read). */
function versionAtOrBefore(ctx: Ctx, datasetId: string, t: string): string | undefined {
  return ctx.st.one<{ as_of: string | null }>('SELECT MAX(as_of) AS as_of FROM dataset_versions WHERE dataset_id = ? AND as_of <= ?', datasetId, t)?.as_of ?? undefined;
}

const END_OF_TIME = '9999-12-31T23:59:59.999Z';

export interface VersionFilter {
  /** Versions with a tag containing this text (any case). */
  search?: string;
  /** Versions that changed this example (made, changed or deleted it). */
  example?: string;
  limit: number;
  offset: number;
}

/** A dataset's versions, newest first, each with its tags. */
export function listVersions(ctx: Ctx, datasetId: string, f: VersionFilter): VersionOut[] {
  const where = new SqlWhere('v.dataset_id = ?', datasetId);
  if (f.search) {
    where.where(`EXISTS (SELECT 1 FROM dataset_tags t WHERE t.dataset_id = v.dataset_id AND t.as_of = v.as_of AND instr(lower(t.tag), lower(?)) > 0)`);
    where.params.push(f.search);
  }
  if (f.example) {
    where.where(`EXISTS (SELECT 1 FROM example_revisions e WHERE e.example_id = ? AND e.dataset_id = v.dataset_id AND (e.valid_from = v.as_of OR e.valid_to = v.as_of))`);
    where.params.push(f.example);
  }
  const rows = ctx.st.all<{ as_of: string }>(`SELECT v.as_of FROM dataset_versions v WHERE ${where.sql} ORDER BY v.as_of DESC LIMIT ? OFFSET ?`, ...where.params, f.limit, f.offset);
  const tags = new Map<string, string[]>();
  for (const t of ctx.st.all<{ tag: string; as_of: string }>('SELECT tag, as_of FROM dataset_tags WHERE dataset_id = ? ORDER BY tag', datasetId)) {
    if (!tags.has(t.as_of)) tags.set(t.as_of, []);
    tags.get(t.as_of)!.push(t.tag);
  }
  return rows.map((r) => ({ as_of: r.as_of, tags: tags.get(r.as_of) ?? [] }));
}

/** The version a tag names, or the one current at a time (`as_of`: timestamp, tag or latest). */
export function readVersion(ctx: Ctx, datasetId: string, by: { tag?: string; asOf?: string }): VersionOut {
  if (by.tag !== undefined) {
    const t = ctx.st.one<{ as_of: string }>('SELECT as_of FROM dataset_tags WHERE dataset_id = ? AND tag = ?', datasetId, by.tag);
    if (!t) throw notFound(`Tag ${by.tag}`);
    return versionOut(ctx, datasetId, t.as_of);
  }
  const v = versionAtOrBefore(ctx, datasetId, resolveVersion(ctx, datasetId, by.asOf) ?? END_OF_TIME);
  if (!v) throw notFound(`Version of dataset ${datasetId} at ${by.asOf}`);
  return versionOut(ctx, datasetId, v);
}

/** Points a tag at the version current at `asOf` (moving it if it exists). */
export function tagVersion(ctx: Ctx, tenant: Tenant, datasetId: string, asOf: string, tag: string): VersionOut {
  return ctx.st.tx(() => {
    getDataset(ctx, tenant, datasetId);
    const v = versionAtOrBefore(ctx, datasetId, resolveVersion(ctx, datasetId, asOf) ?? END_OF_TIME);
    if (!v) throw notFound(`Version of dataset ${datasetId} at ${asOf}`);
    ctx.st.run('INSERT INTO dataset_tags (dataset_id, tag, as_of) VALUES (?, ?, ?) ON CONFLICT (dataset_id, tag) DO UPDATE SET as_of = excluded.as_of', datasetId, tag, v);
    return versionOut(ctx, datasetId, v);
  });
}

function stateIds(ctx: Ctx, datasetId: string, asOf: string | null): Map<string, number> {
  const st = stateWhere(asOf);
  const m = new Map<string, number>();
  for (const r of ctx.st.all<{ example_id: string; rev: number }>(`SELECT e.example_id, e.rev FROM example_revisions e WHERE ${st.sql}`, ...st.params(datasetId)))
    m.set(r.example_id, r.rev);
  return m;
}

/** Example ids added, modified and removed from one version to another. */
export function diffVersions(ctx: Ctx, datasetId: string, from: string, to: string) {
  const a = stateIds(ctx, datasetId, resolveVersion(ctx, datasetId, from, 'from_version'));
  const b = stateIds(ctx, datasetId, resolveVersion(ctx, datasetId, to, 'to_version'));
  const added: string[] = [];
  const modified: string[] = [];
  const removed: string[] = [];
  for (const [id, rev] of b) {
    if (!a.has(id)) added.push(id);
    else if (a.get(id) !== rev) modified.push(id);
  }
  for (const id of a.keys()) if (!b.has(id)) removed.push(id);
  return { examples_added: added.sort(), examples_modified: modified.sort(), examples_removed: removed.sort() };
}

// ---- splits ----------------------------------------------------------------------------------------------

export function listSplits(ctx: Ctx, datasetId: string, asOf: string | null): string[] {
  const st = stateWhere(asOf);
  return ctx.st
    .all<{ s: string }>(`SELECT DISTINCT j.value AS s FROM example_revisions e, json_each(e.metadata, '$.dataset_split') j WHERE ${st.sql} ORDER BY s`, ...st.params(datasetId))
    .map((r) => r.s);
}

/** Adds the examples to a split (or removes them); one new version when anything changed. Answers the changed ids. */
export function updateSplit(ctx: Ctx, tenant: Tenant, datasetId: string, split: string, exampleIds: string[], remove: boolean): string[] {
  return ctx.st.tx(() => {
    getDataset(ctx, tenant, datasetId);
    const changes: Array<{ cur: RevRow; meta: Record<string, unknown> }> = [];
    for (const exId of exampleIds) {
      const cur = currentRevision(ctx, exId);
      if (!cur || cur.dataset_id !== datasetId) throw notFound(`Example ${exId} in dataset ${datasetId}`);
      const meta = jsonOrNull<Record<string, unknown>>(cur.metadata) ?? {};
      const splits = new Set<string>(Array.isArray(meta.dataset_split) ? meta.dataset_split : meta.dataset_split ? [meta.dataset_split] : []);
      const had = splits.has(split);
      if (remove) splits.delete(split);
      else splits.add(split);
      if (had === splits.has(split)) continue;
      changes.push({ cur, meta: { ...meta, dataset_split: [...splits] } });
    }
    if (changes.length) {
      const version = newVersion(ctx, datasetId);
      for (const { cur, meta } of changes)
        writeRevision(ctx, datasetId, cur.example_id, version, {
          inputs: JSON.parse(cur.inputs), outputs: jsonOrNull(cur.outputs), metadata: meta, source_run_id: cur.source_run_id,
          attachments: jsonOrNull(cur.attachments), created_at: cur.created_at,
        });
    }
    return changes.map((c) => c.cur.example_id);
  });
}

// ---- example search (FTS5 bm25 over the text of the inputs) ------------------------------------------------

/** Brings the FTS index of a dataset up to its current version (on index and before a search). */
function syncIndex(ctx: Ctx, d: DatasetRow) {
  if (d.index_synced_version === d.modified_at) return;
  ctx.st.tx(() => {
    ctx.st.run('DELETE FROM examples_fts WHERE dataset_id = ?', d.id);
    const asOf = d.indexed_tag && d.indexed_tag !== 'latest' ? resolveVersion(ctx, d.id, d.indexed_tag, 'tag') : null;
    const st = stateWhere(asOf);
    ctx.st.run(
      `INSERT INTO examples_fts (text, example_id, dataset_id)
       SELECT (SELECT group_concat(CAST(j.value AS TEXT), ' ') FROM json_tree(e.inputs) j WHERE j.atom IS NOT NULL AND j.type = 'text'), e.example_id, e.dataset_id
         FROM example_revisions e WHERE ${st.sql}`,
      ...st.params(d.id),
    );
    ctx.st.run('UPDATE datasets SET index_synced_version = ? WHERE id = ?', d.modified_at, d.id);
  });
}

/** A bm25 query from the text of the given inputs: every word, OR-ed, each quoted. */
function ftsQuery(inputs: unknown): string {
  const words: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') words.push(...(v.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []));
    else if (typeof v === 'number') words.push(String(v));
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(inputs);
  return [...new Set(words)].slice(0, 64).map((w) => `"${w}"`).join(' OR ');
}

export function indexDataset(ctx: Ctx, tenant: Tenant, id: string, tag: string): void {
  const d = getDataset(ctx, tenant, id);
  if (tag !== 'latest' && !ctx.st.one('SELECT 1 FROM dataset_tags WHERE dataset_id = ? AND tag = ?', id, tag)) throw notFound(`Tag ${tag}`);
  ctx.st.run('UPDATE datasets SET indexed_tag = ?, index_synced_version = NULL WHERE id = ?', tag, id);
  syncIndex(ctx, { ...d, indexed_tag: tag, index_synced_version: null });
}

export function dropIndex(ctx: Ctx, id: string): void {
  ctx.st.tx(() => {
    ctx.st.run('DELETE FROM examples_fts WHERE dataset_id = ?', id);
    ctx.st.run('UPDATE datasets SET indexed_tag = NULL, index_synced_version = NULL WHERE id = ?', id);
  });
}

/** The best matches by bm25, each an example's JSON (composed as every example is) with its score. */
export function searchExamples(
  ctx: Ctx, d: DatasetRow, q: { inputs: unknown; limit: number; filter?: string | null }, origin: string,
): Array<{ json: string; score: number }> {
  if (!d.indexed_tag) throw new HttpError(400, `Dataset ${d.id} is not indexed; POST /datasets/${d.id}/index first`);
  syncIndex(ctx, d);
  const match = ftsQuery(q.inputs);
  if (!match) return [];
  const where = ['f.examples_fts MATCH ?', 'f.dataset_id = ?', 'e.valid_to IS NULL'];
  const params: unknown[] = [match, d.id];
  if (q.filter) {
    const f = exampleFilterSql(q.filter);
    where.push(f.sql);
    params.push(...f.params);
  }
  registerExampleSql(ctx);
  return ctx.st.all<{ json: string; score: number }>(
    `SELECT ${exampleJsonSql(ALL_FIELDS)} AS json, score FROM (
       SELECT e.*, bm25(examples_fts) AS score FROM examples_fts f JOIN example_revisions e ON e.example_id = f.example_id
        WHERE ${where.join(' AND ')} ORDER BY score LIMIT ?)`,
    ...originParam(ALL_FIELDS, origin), ...params, q.limit,
  );
}

// ---- comparative experiments -----------------------------------------------------------------------------

interface ComparativeRow {
  id: string;
  tenant_id: string;
  name: string | null;
  description: string | null;
  reference_dataset_id: string;
  experiment_ids: string;
  extra: string | null;
  created_at: string;
  modified_at: string;
}

export interface NewComparative {
  id?: string | null;
  name?: string | null;
  description?: string | null;
  experiment_ids: string[];
  reference_dataset_id?: string | null;
  extra?: Record<string, unknown> | null;
  created_at?: string | null;
}

function comparativeOut(r: ComparativeRow, names: Map<string, string>) {
  return {
    id: r.id, name: r.name, description: r.description, tenant_id: r.tenant_id, created_at: r.created_at, modified_at: r.modified_at,
    reference_dataset_id: r.reference_dataset_id, extra: jsonOrNull(r.extra),
    experiments_info: (JSON.parse(r.experiment_ids) as string[]).map((id) => ({ id, name: names.get(id) ?? null })), feedback_stats: null,
  };
}

export function createComparative(ctx: Ctx, tenant: Tenant, b: NewComparative) {
  if (!b.experiment_ids.length) throw new HttpError(422, 'At least one experiment is required');
  return ctx.st.tx(() => {
    const sessions = b.experiment_ids.map((sid) => {
      const s = ctx.st.one<{ id: string; name: string; reference_dataset_id: string | null }>(
        'SELECT id, name, reference_dataset_id FROM sessions WHERE id = ? AND tenant_id = ?', sid, tenant.id,
      );
      if (!s) throw notFound(`Experiment ${sid}`);
      return s;
    });
    const ref = b.reference_dataset_id ?? sessions[0].reference_dataset_id;
    if (!ref) throw new HttpError(422, 'A reference dataset is required');
    getDataset(ctx, tenant, ref);
    const id = b.id ?? newId();
    if (ctx.st.one('SELECT 1 FROM comparative_experiments WHERE id = ?', id)) throw conflict(`Comparative experiment ${id} already exists`);
    const created = (b.created_at && parseTime(b.created_at)) || nowIso();
    ctx.st.run(
      `INSERT INTO comparative_experiments (id, tenant_id, name, description, reference_dataset_id, experiment_ids, extra, created_at, modified_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      id, tenant.id, b.name ?? null, b.description ?? null, ref, JSON.stringify(sessions.map((s) => s.id)),
      JSON.stringify(b.extra ?? {}), created, created,
    );
    const row = ctx.st.one<ComparativeRow>('SELECT * FROM comparative_experiments WHERE id = ?', id)!;
    return comparativeOut(row, new Map(sessions.map((s) => [s.id, s.name])));
  });
}

export interface ComparativeFilter {
  ids: string[];
  name?: string;
  nameContains?: string;
  sortBy: 'name' | 'created_at';
  desc: boolean;
  limit: number;
  offset: number;
}

export function listComparative(ctx: Ctx, datasetId: string, f: ComparativeFilter) {
  const where = new SqlWhere('reference_dataset_id = ?', datasetId).in('id', f.ids).eq('name', f.name).contains('name', f.nameContains);
  const rows = ctx.st.all<ComparativeRow>(
    `SELECT * FROM comparative_experiments WHERE ${where.sql} ORDER BY ${f.sortBy} ${f.desc ? 'DESC' : 'ASC'}, id LIMIT ? OFFSET ?`,
    ...where.params, f.limit, f.offset,
  );
  const names = new Map<string, string>();
  const allIds = [...new Set(rows.flatMap((r) => JSON.parse(r.experiment_ids) as string[]))];
  if (allIds.length)
    for (const s of ctx.st.all<{ id: string; name: string }>(
      'SELECT id, name FROM sessions WHERE id IN (SELECT value FROM json_each(?)) AND tenant_id = ?', JSON.stringify(allIds), rows[0]!.tenant_id,
    ))
      names.set(s.id, s.name);
  return rows.map((r) => comparativeOut(r, names));
}

export function deleteComparative(ctx: Ctx, tenant: Tenant, id: string): void {
  const r = ctx.st.run('DELETE FROM comparative_experiments WHERE id = ? AND tenant_id = ?', id, tenant.id);
  if (!r.changes) throw notFound(`Comparative experiment ${id}`);
}
