// Datasets: CRUD, CSV upload, sharing and public reads, versions/tags/diff, splits, OpenAI export,
// example search (FTS5 bm25) and comparative experiments.
import type { FastifyInstance } from 'fastify';
import { parse as parseCsv } from 'csv-parse/sync';
import { z } from 'zod';
import type { Ctx, Tenant } from '../context';
import {
  HttpError, conflict, isUuid, jsonOrNull, newId, notFound, nowIso, originOf, parseBody, parseTime, queryBool, queryInt,
  queryJson, queryList, queryString, toJson, uuidParam,
  SqlWhere,
} from '../util';
import {
  type DatasetRow, type RevRow, currentRevision, exampleFilterSql, exampleOut, getDataset,
  listExamples, newVersion, resolveVersion, stateWhere, writeRevision,
} from './examples';
import { parseMaybeJson, readParts } from './runs';

function datasetOut(d: DatasetRow, counts?: { example_count: number; session_count: number; last_session_start_time: string | null }) {
  const extra = jsonOrNull(d.extra) ?? {};
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    data_type: d.data_type,
    inputs_schema_definition: jsonOrNull(d.inputs_schema_definition),
    outputs_schema_definition: jsonOrNull(d.outputs_schema_definition),
    created_at: d.created_at,
    modified_at: d.modified_at,
    tenant_id: d.tenant_id,
    metadata: extra.metadata ?? null,
    extra,
    externally_managed: false,
    transformations: null,
    example_count: counts?.example_count ?? 0,
    session_count: counts?.session_count ?? 0,
    last_session_start_time: counts?.last_session_start_time ?? null,
  };
}

function datasetCounts(ctx: Ctx, ids: string[]) {
  const out = new Map<string, { example_count: number; session_count: number; last_session_start_time: string | null }>();
  if (!ids.length) return out;
  const marks = ids.map(() => '?').join(',');
  for (const id of ids) out.set(id, { example_count: 0, session_count: 0, last_session_start_time: null });
  for (const r of ctx.st.all(
    `SELECT dataset_id, COUNT(*) AS n FROM example_revisions INDEXED BY exrev_current WHERE valid_to IS NULL AND dataset_id IN (${marks}) GROUP BY dataset_id`,
    ...ids,
  )) out.get(r.dataset_id)!.example_count = r.n;
  for (const r of ctx.st.all(
    `SELECT reference_dataset_id AS id, COUNT(*) AS n, MAX(start_time) AS last FROM sessions WHERE reference_dataset_id IN (${marks}) GROUP BY reference_dataset_id`,
    ...ids,
  )) {
    const c = out.get(r.id)!;
    c.session_count = r.n;
    c.last_session_start_time = r.last;
  }
  return out;
}

const DataType = z.enum(['kv', 'llm', 'chat']);
const CreateDataset = z.strictObject({
  id: z.string().uuid().optional().nullable(),
  name: z.string().min(1),
  description: z.string().optional().nullable(),
  data_type: DataType.optional().nullable(),
  inputs_schema_definition: z.record(z.string(), z.any()).optional().nullable(),
  outputs_schema_definition: z.record(z.string(), z.any()).optional().nullable(),
  extra: z.record(z.string(), z.any()).optional().nullable(),
  created_at: z.string().optional().nullable(),
  externally_managed: z.boolean().optional().nullable(),
  transformations: z.array(z.any()).optional().nullable(),
  tag_value_ids: z.array(z.string()).optional().nullable(),
});
const UpdateDataset = z.strictObject({
  name: z.string().min(1).optional().nullable(),
  description: z.string().optional().nullable(),
  inputs_schema_definition: z.record(z.string(), z.any()).optional().nullable(),
  outputs_schema_definition: z.record(z.string(), z.any()).optional().nullable(),
  metadata: z.record(z.string(), z.any()).optional().nullable(),
  baseline_experiment_id: z.string().uuid().optional().nullable(),
  tag_value_ids: z.array(z.string()).optional().nullable(),
});
const TagBody = z.strictObject({ as_of: z.string().min(1), tag: z.string().min(1) });
const SplitsBody = z.strictObject({ split_name: z.string().min(1), examples: z.array(z.string().uuid()), remove: z.boolean().optional().nullable() });
const SearchBody = z.strictObject({
  inputs: z.record(z.string(), z.any()),
  limit: z.number().int().min(1).max(100).optional().nullable(),
  filter: z.string().optional().nullable(),
  debug: z.boolean().optional().nullable(),
});
const IndexBody = z.strictObject({ tag: z.string().optional().nullable() });
const ComparativeBody = z.strictObject({
  id: z.string().uuid().optional().nullable(),
  name: z.string().optional().nullable(),
  experiment_ids: z.array(z.string().uuid()),
  reference_dataset_id: z.string().uuid().optional().nullable(),
  description: z.string().optional().nullable(),
  created_at: z.string().optional().nullable(),
  modified_at: z.string().optional().nullable(),
  extra: z.record(z.string(), z.any()).optional().nullable(),
});

export function insertDataset(ctx: Ctx, tenant: Tenant, b: z.infer<typeof CreateDataset>): DatasetRow {
  if (ctx.st.one('SELECT 1 FROM datasets WHERE tenant_id = ? AND name = ?', tenant.id, b.name)) throw conflict(`Dataset with name ${b.name} already exists`);
  const id = b.id ?? newId();
  if (ctx.st.one('SELECT 1 FROM datasets WHERE id = ?', id)) throw conflict(`Dataset ${id} already exists`);
  const created = (b.created_at && parseTime(b.created_at)) || nowIso();
  ctx.st.run(
    `INSERT INTO datasets (id, tenant_id, name, description, data_type, inputs_schema_definition, outputs_schema_definition, extra, created_at, modified_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id, tenant.id, b.name, b.description ?? null, b.data_type ?? 'kv', toJson(b.inputs_schema_definition),
    toJson(b.outputs_schema_definition), JSON.stringify(b.extra ?? {}), created, created,
  );
  return ctx.st.one<DatasetRow>('SELECT * FROM datasets WHERE id = ?', id)!;
}

function versionOut(ctx: Ctx, datasetId: string, asOf: string) {
  const tags = ctx.st.all<{ tag: string }>('SELECT tag FROM dataset_tags WHERE dataset_id = ? AND as_of = ? ORDER BY tag', datasetId, asOf).map((t) => t.tag);
  return { as_of: asOf, tags };
}

/** The latest version at or before a time (what `as_of` means for a version read). */
function versionAtOrBefore(ctx: Ctx, datasetId: string, t: string): string | undefined {
  return ctx.st.one<{ as_of: string }>('SELECT MAX(as_of) AS as_of FROM dataset_versions WHERE dataset_id = ? AND as_of <= ?', datasetId, t)?.as_of ?? undefined;
}

function stateIds(ctx: Ctx, datasetId: string, asOf: string | null): Map<string, number> {
  const st = stateWhere(asOf);
  const m = new Map<string, number>();
  for (const r of ctx.st.all<{ example_id: string; rev: number }>(`SELECT e.example_id, e.rev FROM example_revisions e WHERE ${st.sql}`, ...st.params(datasetId)))
    m.set(r.example_id, r.rev);
  return m;
}

/** Messages for OpenAI fine-tuning from one example (chat datasets, or kv/llm with text in and out). */
function toOpenAiMessages(inputs: any, outputs: any): any[] {
  const asMessage = (m: any, dflt: string) => {
    if (m && typeof m === 'object' && !Array.isArray(m)) {
      const role = m.role ?? (m.type === 'human' ? 'user' : m.type === 'ai' ? 'assistant' : m.type) ?? dflt;
      const content = m.content ?? m.data?.content ?? m.text ?? '';
      return { role, content };
    }
    return { role: dflt, content: typeof m === 'string' ? m : JSON.stringify(m) };
  };
  const firstArray = (o: any) => (o && typeof o === 'object' ? Object.values(o).find(Array.isArray) : undefined) as any[] | undefined;
  const msgsIn = Array.isArray(inputs?.messages) ? inputs.messages : Array.isArray(inputs?.input) ? inputs.input : firstArray(inputs);
  const messages: any[] = msgsIn
    ? msgsIn.map((m: any) => asMessage(m, 'user'))
    : [asMessage(Object.values(inputs ?? {}).find((v) => typeof v === 'string') ?? JSON.stringify(inputs ?? {}), 'user')];
  if (outputs != null) {
    const out = outputs.output ?? outputs.message ?? outputs.generations?.[0] ?? (Array.isArray(outputs.messages) ? outputs.messages.at(-1) : undefined)
      ?? Object.values(outputs).find((v) => typeof v === 'string') ?? outputs;
    messages.push(asMessage(out, 'assistant'));
  }
  return messages;
}

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

export function sharedDataset(ctx: Ctx, token: string): DatasetRow {
  if (!isUuid(token)) throw notFound('Shared dataset');
  const d = ctx.st.one<DatasetRow>('SELECT * FROM datasets WHERE share_token = ?', token.toLowerCase());
  if (!d) throw notFound('Shared dataset');
  return d;
}

export function registerDatasets(app: FastifyInstance, ctx: Ctx) {
  app.post('/datasets', async (req, reply) => {
    const b = parseBody(CreateDataset, parseMaybeJson(req.body));
    const d = ctx.st.tx(() => insertDataset(ctx, req.tenant, b));
    reply.code(201);
    return datasetOut(d, datasetCounts(ctx, [d.id]).get(d.id));
  });

  app.get('/datasets', async (req) => {
    const q = req.query as Record<string, unknown>;
    const where = new SqlWhere('tenant_id = ?', req.tenant.id)
      .in('id', queryList(q, 'id').map((i) => uuidParam(i, 'id')))
      .eq('name', queryString(q, 'name'))
      .contains('name', queryString(q, 'name_contains'))
      .in('data_type', queryList(q, 'data_type'))
      .metadata('extra', queryJson(q, 'metadata'));
    const limit = queryInt(q, 'limit', 100, 1, 1000);
    const offset = queryInt(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const rows = ctx.st.all<DatasetRow>(`SELECT * FROM datasets WHERE ${where.sql} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`, ...where.params, limit, offset);
    const counts = datasetCounts(ctx, rows.map((r) => r.id));
    return rows.map((r) => datasetOut(r, counts.get(r.id)));
  });

  app.get('/datasets/:id', async (req) => {
    const d = getDataset(ctx, req.tenant, uuidParam((req.params as any).id, 'dataset_id'));
    return datasetOut(d, datasetCounts(ctx, [d.id]).get(d.id));
  });

  app.patch('/datasets/:id', async (req) => {
    const id = uuidParam((req.params as any).id, 'dataset_id');
    const b = parseBody(UpdateDataset, parseMaybeJson(req.body));
    const d = ctx.st.tx(() => {
      const d = getDataset(ctx, req.tenant, id);
      if (b.name && b.name !== d.name && ctx.st.one('SELECT 1 FROM datasets WHERE tenant_id = ? AND name = ?', req.tenant.id, b.name))
        throw conflict(`Dataset with name ${b.name} already exists`);
      const extra = jsonOrNull(d.extra) ?? {};
      if (b.metadata != null) extra.metadata = b.metadata;
      ctx.st.run(
        `UPDATE datasets SET name = COALESCE(?, name), description = COALESCE(?, description),
           inputs_schema_definition = COALESCE(?, inputs_schema_definition), outputs_schema_definition = COALESCE(?, outputs_schema_definition),
           extra = ?, modified_at = ? WHERE id = ?`,
        b.name ?? null, b.description ?? null, toJson(b.inputs_schema_definition), toJson(b.outputs_schema_definition),
        JSON.stringify(extra), ctx.clock.next(id, d.modified_at), id,
      );
      return ctx.st.one<DatasetRow>('SELECT * FROM datasets WHERE id = ?', id)!;
    });
    return datasetOut(d, datasetCounts(ctx, [id]).get(id));
  });

  app.delete('/datasets/:id', async (req) => {
    const id = uuidParam((req.params as any).id, 'dataset_id');
    ctx.st.tx(() => {
      getDataset(ctx, req.tenant, id);
      for (const t of ['example_revisions', 'dataset_versions', 'dataset_tags', 'examples_fts']) ctx.st.run(`DELETE FROM ${t} WHERE dataset_id = ?`, id);
      ctx.st.run('DELETE FROM comparative_experiments WHERE reference_dataset_id = ?', id);
      ctx.st.run('UPDATE sessions SET reference_dataset_id = NULL WHERE reference_dataset_id = ?', id);
      ctx.st.run('DELETE FROM datasets WHERE id = ?', id);
    });
    return {};
  });

  app.post('/datasets/upload', async (req, reply) => {
    const parts = await readParts(req);
    const field = (n: string) => parts.filter((p) => p.name === n).map((p) => p.data.toString('utf8'));
    const file = parts.find((p) => p.name === 'file');
    if (!file) throw new HttpError(422, 'file: a CSV file part is required');
    const inputKeys = field('input_keys');
    const outputKeys = field('output_keys');
    if (!inputKeys.length) throw new HttpError(422, 'input_keys: at least one input column is required');
    const dataType = field('data_type')[0] || 'kv';
    if (!DataType.safeParse(dataType).success) throw new HttpError(422, `data_type: must be one of kv, llm, chat`);
    let records: Record<string, string>[];
    try {
      records = parseCsv(file.data, { columns: true, skip_empty_lines: true, bom: true });
    } catch (e: any) {
      throw new HttpError(422, `file: not valid CSV (${e?.message ?? e})`);
    }
    const header = records.length ? Object.keys(records[0]) : [];
    for (const k of [...inputKeys, ...outputKeys]) if (records.length && !header.includes(k)) throw new HttpError(422, `Column "${k}" is not in the CSV header (${header.join(', ')})`);
    const fileName = file.filename && file.filename !== 'blob' ? file.filename : undefined;
    const name = field('name')[0] || fileName || `dataset-${newId().slice(0, 8)}`;
    const description = field('description')[0] || null;
    const d = ctx.st.tx(() => {
      const d = insertDataset(ctx, req.tenant, { name, description, data_type: dataType as any, extra: {} });
      if (records.length) {
        const version = newVersion(ctx, d.id);
        for (const r of records) {
          const pick = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, r[k]]));
          writeRevision(ctx, d.id, newId(), version, {
            inputs: pick(inputKeys), outputs: outputKeys.length ? pick(outputKeys) : null, metadata: { dataset_split: ['base'] },
            source_run_id: null, attachments: null, created_at: version,
          });
        }
      }
      return ctx.st.one<DatasetRow>('SELECT * FROM datasets WHERE id = ?', d.id)!;
    });
    reply.code(201);
    return datasetOut(d, datasetCounts(ctx, [d.id]).get(d.id));
  });

  // Sharing
  app.put('/datasets/:id/share', async (req) => {
    const id = uuidParam((req.params as any).id, 'dataset_id');
    return ctx.st.tx(() => {
      const d = getDataset(ctx, req.tenant, id);
      if (d.share_token) return { dataset_id: id, share_token: d.share_token };
      const token = newId();
      ctx.st.run('UPDATE datasets SET share_token = ? WHERE id = ?', token, id);
      return { dataset_id: id, share_token: token };
    });
  });
  app.get('/datasets/:id/share', async (req) => {
    const d = getDataset(ctx, req.tenant, uuidParam((req.params as any).id, 'dataset_id'));
    return d.share_token ? { dataset_id: d.id, share_token: d.share_token } : null;
  });
  app.delete('/datasets/:id/share', async (req) => {
    const d = getDataset(ctx, req.tenant, uuidParam((req.params as any).id, 'dataset_id'));
    ctx.st.run('UPDATE datasets SET share_token = NULL WHERE id = ?', d.id);
    return {};
  });

  // Versions
  app.get('/datasets/:id/versions', async (req) => {
    const d = getDataset(ctx, req.tenant, uuidParam((req.params as any).id, 'dataset_id'));
    const q = req.query as Record<string, unknown>;
    const limit = queryInt(q, 'limit', 100, 1, 100);
    const offset = queryInt(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const rows = ctx.st.all<{ as_of: string }>('SELECT as_of FROM dataset_versions WHERE dataset_id = ? ORDER BY as_of DESC LIMIT ? OFFSET ?', d.id, limit, offset);
    const tags = new Map<string, string[]>();
    for (const t of ctx.st.all<{ tag: string; as_of: string }>('SELECT tag, as_of FROM dataset_tags WHERE dataset_id = ? ORDER BY tag', d.id)) {
      if (!tags.has(t.as_of)) tags.set(t.as_of, []);
      tags.get(t.as_of)!.push(t.tag);
    }
    return rows.map((r) => ({ as_of: r.as_of, tags: tags.get(r.as_of) ?? [] }));
  });

  app.get('/datasets/:id/version', async (req) => {
    const d = getDataset(ctx, req.tenant, uuidParam((req.params as any).id, 'dataset_id'));
    const q = req.query as Record<string, unknown>;
    const asOf = queryString(q, 'as_of');
    const tag = queryString(q, 'tag');
    if ((asOf && tag) || (!asOf && !tag)) throw new HttpError(422, 'Exactly one of as_of and tag must be specified');
    if (tag) {
      const t = ctx.st.one<{ as_of: string }>('SELECT as_of FROM dataset_tags WHERE dataset_id = ? AND tag = ?', d.id, tag);
      if (!t) throw notFound(`Tag ${tag}`);
      return versionOut(ctx, d.id, t.as_of);
    }
    const t = resolveVersion(ctx, d.id, asOf) ?? '9999-12-31T23:59:59.999Z';
    const v = versionAtOrBefore(ctx, d.id, t);
    if (!v) throw notFound(`Version of dataset ${d.id} at ${asOf}`);
    return versionOut(ctx, d.id, v);
  });

  app.put('/datasets/:id/tags', async (req) => {
    const id = uuidParam((req.params as any).id, 'dataset_id');
    const b = parseBody(TagBody, parseMaybeJson(req.body));
    return ctx.st.tx(() => {
      getDataset(ctx, req.tenant, id);
      const t = resolveVersion(ctx, id, b.as_of) ?? '9999-12-31T23:59:59.999Z';
      const v = versionAtOrBefore(ctx, id, t);
      if (!v) throw notFound(`Version of dataset ${id} at ${b.as_of}`);
      ctx.st.run('INSERT INTO dataset_tags (dataset_id, tag, as_of) VALUES (?, ?, ?) ON CONFLICT (dataset_id, tag) DO UPDATE SET as_of = excluded.as_of', id, b.tag, v);
      return versionOut(ctx, id, v);
    });
  });

  app.get('/datasets/:id/versions/diff', async (req) => {
    const d = getDataset(ctx, req.tenant, uuidParam((req.params as any).id, 'dataset_id'));
    const q = req.query as Record<string, unknown>;
    const from = queryString(q, 'from_version');
    const to = queryString(q, 'to_version');
    if (!from || !to) throw new HttpError(422, 'from_version and to_version are required');
    const a = stateIds(ctx, d.id, resolveVersion(ctx, d.id, from, 'from_version'));
    const b = stateIds(ctx, d.id, resolveVersion(ctx, d.id, to, 'to_version'));
    const added: string[] = [];
    const modified: string[] = [];
    const removed: string[] = [];
    for (const [id, rev] of b) {
      if (!a.has(id)) added.push(id);
      else if (a.get(id) !== rev) modified.push(id);
    }
    for (const id of a.keys()) if (!b.has(id)) removed.push(id);
    return { examples_added: added.sort(), examples_modified: modified.sort(), examples_removed: removed.sort() };
  });

  // Splits
  app.get('/datasets/:id/splits', async (req) => {
    const d = getDataset(ctx, req.tenant, uuidParam((req.params as any).id, 'dataset_id'));
    const asOf = resolveVersion(ctx, d.id, queryString(req.query as any, 'as_of'));
    const st = stateWhere(asOf);
    return ctx.st
      .all<{ s: string }>(`SELECT DISTINCT j.value AS s FROM example_revisions e, json_each(e.metadata, '$.dataset_split') j WHERE ${st.sql} ORDER BY s`, ...st.params(d.id))
      .map((r) => r.s);
  });

  app.put('/datasets/:id/splits', async (req) => {
    const id = uuidParam((req.params as any).id, 'dataset_id');
    const b = parseBody(SplitsBody, parseMaybeJson(req.body));
    return ctx.st.tx(() => {
      getDataset(ctx, req.tenant, id);
      const changes: Array<{ cur: RevRow; meta: any }> = [];
      for (const exId of b.examples.map((e) => e.toLowerCase())) {
        const cur = currentRevision(ctx, exId);
        if (!cur || cur.dataset_id !== id) throw notFound(`Example ${exId} in dataset ${id}`);
        const meta = jsonOrNull(cur.metadata) ?? {};
        const splits = new Set<string>(Array.isArray(meta.dataset_split) ? meta.dataset_split : meta.dataset_split ? [meta.dataset_split] : []);
        const had = splits.has(b.split_name);
        if (b.remove) splits.delete(b.split_name);
        else splits.add(b.split_name);
        if (had === splits.has(b.split_name)) continue;
        changes.push({ cur, meta: { ...meta, dataset_split: [...splits] } });
      }
      if (changes.length) {
        const version = newVersion(ctx, id);
        for (const { cur, meta } of changes)
          writeRevision(ctx, id, cur.example_id, version, {
            inputs: JSON.parse(cur.inputs), outputs: jsonOrNull(cur.outputs), metadata: meta, source_run_id: cur.source_run_id,
            attachments: jsonOrNull(cur.attachments), created_at: cur.created_at,
          });
      }
      return changes.map((c) => c.cur.example_id);
    });
  });

  app.get('/datasets/:id/openai_ft', async (req, reply) => {
    const d = getDataset(ctx, req.tenant, uuidParam((req.params as any).id, 'dataset_id'));
    const asOf = resolveVersion(ctx, d.id, queryString(req.query as any, 'as_of'));
    const lines: string[] = [];
    for (let offset = 0; ; offset += 1000) {
      const rows = listExamples(ctx, { datasetId: d.id, asOf, limit: 1000, offset });
      for (const r of rows) lines.push(JSON.stringify({ messages: toOpenAiMessages(JSON.parse(r.inputs), jsonOrNull(r.outputs)) }));
      if (rows.length < 1000) break;
    }
    reply.header('content-type', 'application/jsonl; charset=utf-8');
    return lines.join('\n') + (lines.length ? '\n' : '');
  });

  // Example search: FTS5 bm25 over the text of the inputs.
  app.post('/datasets/:id/index', async (req) => {
    const id = uuidParam((req.params as any).id, 'dataset_id');
    const b = parseBody(IndexBody, parseMaybeJson(req.body));
    const tag = b.tag ?? 'latest';
    const d = getDataset(ctx, req.tenant, id);
    if (tag !== 'latest' && !ctx.st.one('SELECT 1 FROM dataset_tags WHERE dataset_id = ? AND tag = ?', id, tag)) throw notFound(`Tag ${tag}`);
    ctx.st.run('UPDATE datasets SET indexed_tag = ?, index_synced_version = NULL WHERE id = ?', tag, id);
    syncIndex(ctx, { ...d, indexed_tag: tag, index_synced_version: null });
    return { dataset_id: id, tag };
  });
  app.get('/datasets/:id/index', async (req) => {
    const d = getDataset(ctx, req.tenant, uuidParam((req.params as any).id, 'dataset_id'));
    if (!d.indexed_tag) throw notFound(`Index of dataset ${d.id}`);
    return { dataset_id: d.id, tag: d.indexed_tag, last_updated_version: d.index_synced_version };
  });
  app.delete('/datasets/:id/index', async (req) => {
    const d = getDataset(ctx, req.tenant, uuidParam((req.params as any).id, 'dataset_id'));
    ctx.st.tx(() => {
      ctx.st.run('DELETE FROM examples_fts WHERE dataset_id = ?', d.id);
      ctx.st.run('UPDATE datasets SET indexed_tag = NULL, index_synced_version = NULL WHERE id = ?', d.id);
    });
    return {};
  });
  app.post('/datasets/:id/search', async (req) => {
    const id = uuidParam((req.params as any).id, 'dataset_id');
    const b = parseBody(SearchBody, parseMaybeJson(req.body));
    const d = getDataset(ctx, req.tenant, id);
    if (!d.indexed_tag) throw new HttpError(400, `Dataset ${id} is not indexed; POST /datasets/${id}/index first`);
    syncIndex(ctx, d);
    const match = ftsQuery(b.inputs);
    if (!match) return { examples: [] };
    const limit = b.limit ?? 5;
    const where = ['f.examples_fts MATCH ?', 'f.dataset_id = ?', 'e.valid_to IS NULL'];
    const params: unknown[] = [match, id];
    if (b.filter) {
      const f = exampleFilterSql(b.filter);
      where.push(f.sql);
      params.push(...f.params);
    }
    const rows = ctx.st.all<RevRow & { score: number }>(
      `SELECT e.*, bm25(examples_fts) AS score FROM examples_fts f JOIN example_revisions e ON e.example_id = f.example_id
        WHERE ${where.join(' AND ')} ORDER BY score LIMIT ?`,
      ...params, limit,
    );
    const origin = originOf(req);
    return { examples: rows.map((r) => ({ ...exampleOut(r, origin), debug_info: b.debug ? { bm25: r.score } : undefined })) };
  });

  // Comparative experiments
  app.post('/datasets/comparative', async (req, reply) => {
    const b = parseBody(ComparativeBody, parseMaybeJson(req.body));
    if (!b.experiment_ids.length) throw new HttpError(422, 'At least one experiment is required');
    const out = ctx.st.tx(() => {
      const sessions = b.experiment_ids.map((sid) => {
        const s = ctx.st.one<{ id: string; name: string; reference_dataset_id: string | null }>(
          'SELECT id, name, reference_dataset_id FROM sessions WHERE id = ? AND tenant_id = ?', sid.toLowerCase(), req.tenant.id,
        );
        if (!s) throw notFound(`Experiment ${sid}`);
        return s;
      });
      const ref = b.reference_dataset_id ?? sessions[0].reference_dataset_id;
      if (!ref) throw new HttpError(422, 'A reference dataset is required');
      getDataset(ctx, req.tenant, ref);
      const id = b.id ? uuidParam(b.id, 'id') : newId();
      if (ctx.st.one('SELECT 1 FROM comparative_experiments WHERE id = ?', id)) throw conflict(`Comparative experiment ${id} already exists`);
      const created = (b.created_at && parseTime(b.created_at)) || nowIso();
      ctx.st.run(
        `INSERT INTO comparative_experiments (id, tenant_id, name, description, reference_dataset_id, experiment_ids, extra, created_at, modified_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        id, req.tenant.id, b.name ?? null, b.description ?? null, ref, JSON.stringify(sessions.map((s) => s.id)),
        JSON.stringify(b.extra ?? {}), created, created,
      );
      return {
        id, name: b.name ?? null, description: b.description ?? null, tenant_id: req.tenant.id, created_at: created, modified_at: created,
        reference_dataset_id: ref, extra: b.extra ?? {}, experiments_info: sessions.map((s) => ({ id: s.id, name: s.name })), feedback_stats: null,
      };
    });
    reply.code(201);
    return out;
  });
  app.get('/datasets/:id/comparative', async (req) => {
    const d = getDataset(ctx, req.tenant, uuidParam((req.params as any).id, 'dataset_id'));
    const q = req.query as Record<string, unknown>;
    const where = new SqlWhere('reference_dataset_id = ?', d.id)
      .in('id', queryList(q, 'id').map((i) => uuidParam(i, 'id')))
      .eq('name', queryString(q, 'name'))
      .contains('name', queryString(q, 'name_contains'));
    const sortBy = queryString(q, 'sort_by') ?? 'created_at';
    if (sortBy !== 'created_at' && sortBy !== 'name') throw new HttpError(422, `sort_by: expected "name" or "created_at", got "${sortBy}"`);
    const desc = queryBool(q, 'sort_by_desc') ?? true;
    const rows = ctx.st.all(
      `SELECT * FROM comparative_experiments WHERE ${where.sql} ORDER BY ${sortBy} ${desc ? 'DESC' : 'ASC'}, id LIMIT ? OFFSET ?`,
      ...where.params, queryInt(q, 'limit', 100, 1, 100), queryInt(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    );
    const names = new Map<string, string>();
    const allIds = [...new Set(rows.flatMap((r: any) => JSON.parse(r.experiment_ids) as string[]))];
    if (allIds.length)
      for (const s of ctx.st.all(`SELECT id, name FROM sessions WHERE id IN (${allIds.map(() => '?').join(',')})`, ...allIds)) names.set(s.id, s.name);
    return rows.map((r: any) => ({
      id: r.id, name: r.name, description: r.description, tenant_id: r.tenant_id, created_at: r.created_at, modified_at: r.modified_at,
      reference_dataset_id: r.reference_dataset_id, extra: jsonOrNull(r.extra),
      experiments_info: (JSON.parse(r.experiment_ids) as string[]).map((id) => ({ id, name: names.get(id) ?? null })), feedback_stats: null,
    }));
  });
  app.delete('/datasets/comparative/:id', async (req) => {
    const id = uuidParam((req.params as any).id, 'comparative_experiment_id');
    const r = ctx.st.run('DELETE FROM comparative_experiments WHERE id = ? AND tenant_id = ?', id, req.tenant.id);
    if (!r.changes) throw notFound(`Comparative experiment ${id}`);
    return {};
  });
}

/** Public reads of a shared dataset: no API key. */
export function registerPublicDatasets(app: FastifyInstance, ctx: Ctx) {
  const pub = { config: { public: true } };
  app.get('/public/:token/datasets', pub, async (req) => {
    const d = sharedDataset(ctx, (req.params as any).token);
    return datasetOut(d, datasetCounts(ctx, [d.id]).get(d.id));
  });
  app.get('/public/:token/examples', pub, async (req) => {
    const d = sharedDataset(ctx, (req.params as any).token);
    const q = req.query as Record<string, unknown>;
    const ids = queryList(q, 'id').map((i) => uuidParam(i, 'id'));
    const rows = listExamples(ctx, {
      datasetId: d.id, asOf: resolveVersion(ctx, d.id, queryString(q, 'as_of')), ids, splits: queryList(q, 'splits'),
      limit: queryInt(q, 'limit', 100, 1, 10000), offset: queryInt(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    });
    const origin = originOf(req);
    return rows.map((r) => exampleOut(r, origin));
  });
  app.get('/public/:token/examples/count', pub, async (req) => {
    const d = sharedDataset(ctx, (req.params as any).token);
    return ctx.st.one<{ n: number }>('SELECT COUNT(*) AS n FROM example_revisions WHERE dataset_id = ? AND valid_to IS NULL', d.id)!.n;
  });
}

export { datasetOut };
