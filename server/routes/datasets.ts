// Datasets: CRUD, CSV upload, sharing and public reads. Versions, tags, diff, splits and the OpenAI export
// are in datasetsVersions.ts; example search and comparative experiments in datasetsSearch.ts. The SQL
// is in ../store/datasets.ts.
import type { FastifyInstance } from 'fastify';
import { parse as parseCsv } from 'csv-parse/sync';
import { z } from 'zod';
import type { Ctx, Tenant } from '../context';
import { idParams, pText, qInt, qJson, qList, qText, qUuids, route } from '../route';
import {
  datasetCounts, deleteDataset, insertDataset as insertDatasetRow, insertDatasetWithExamples, listDatasets, shareDataset, sharedDataset,
  unshareDataset, updateDataset, type DatasetCounts,
} from '../store/datasets';
import { getDataset, type DatasetRow } from '../store/datasets';
import { ALL_FIELDS } from '../store/exampleJson';
import { listExamplesJson } from '../store/examplePages';
import { countExamples } from '../store/examples';
import { resolveVersion } from '../store/versions';
import { HttpError } from '../errors';
import { newId } from '../ids';
import { jsonOrNull } from '../json';
import { originOf } from '../request';
import { registerDatasetSearch } from './datasetsSearch';
import { registerDatasetVersions } from './datasetsVersions';
import { readParts } from './runsMultipart';

export function datasetOut(d: DatasetRow, counts?: DatasetCounts) {
  const extra = jsonOrNull<Record<string, unknown>>(d.extra) ?? {};
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
    baseline_experiment_id: d.baseline_experiment_id ?? null,
  };
}

const withCounts = (ctx: Ctx, d: DatasetRow) => datasetOut(d, datasetCounts(ctx, [d.id]).get(d.id));

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
const ListQuery = z.object({
  id: qUuids(),
  name: qText(),
  name_contains: qText(),
  data_type: qList(),
  metadata: qJson(),
  limit: qInt(100, 1, 1000),
  offset: qInt(0, 0, Number.MAX_SAFE_INTEGER),
});

/** Kept for seed.ts: inserts a dataset from a create body (ids lower-cased). */
function insertDataset(ctx: Ctx, tenant: Tenant, b: z.infer<typeof CreateDataset>): DatasetRow {
  return insertDatasetRow(ctx, tenant, { ...b, id: b.id?.toLowerCase() });
}

export function registerDatasets(app: FastifyInstance, ctx: Ctx) {
  route(app, 'POST', '/datasets', { body: CreateDataset }, ({ body, tenant }) => {
    // 200, as LangSmith's OpenAPI has it for a new dataset.
    return withCounts(ctx, ctx.st.tx(() => insertDataset(ctx, tenant, body)));
  });

  route(app, 'GET', '/datasets', { query: ListQuery }, ({ query: q, tenant }) => {
    const rows = listDatasets(ctx, tenant, {
      ids: q.id, name: q.name, nameContains: q.name_contains, dataTypes: q.data_type, metadata: q.metadata, limit: q.limit, offset: q.offset,
    });
    const counts = datasetCounts(ctx, rows.map((r) => r.id));
    return rows.map((r) => datasetOut(r, counts.get(r.id)));
  });

  route(app, 'GET', '/datasets/:id', { params: idParams }, ({ params, tenant }) => withCounts(ctx, getDataset(ctx, tenant, params.id)));

  route(app, 'PATCH', '/datasets/:id', { params: idParams, body: UpdateDataset }, ({ params, body, tenant }) =>
    withCounts(ctx, updateDataset(ctx, tenant, params.id, body)),
  );

  route(app, 'DELETE', '/datasets/:id', { params: idParams }, ({ params, tenant }) => {
    deleteDataset(ctx, tenant, params.id);
    return {};
  });

  // The form fields are parts of a multipart body, read here rather than by a body schema.
  route(app, 'POST', '/datasets/upload', {}, async ({ tenant, req, reply }) => {
    const parts = await readParts(req);
    const field = (n: string) => parts.filter((p) => p.name === n).map((p) => p.data.toString('utf8'));
    const file = parts.find((p) => p.name === 'file');
    if (!file) throw new HttpError(422, 'file: a CSV file part is required');
    const inputKeys = field('input_keys');
    const outputKeys = field('output_keys');
    if (!inputKeys.length) throw new HttpError(422, 'input_keys: at least one input column is required');
    const dataType = DataType.safeParse(field('data_type')[0] || 'kv');
    if (!dataType.success) throw new HttpError(422, `data_type: must be one of kv, llm, chat`);
    let records: Record<string, string>[];
    try {
      records = parseCsv(file.data, { columns: true, skip_empty_lines: true, bom: true });
    } catch (e) {
      throw new HttpError(422, `file: not valid CSV (${e instanceof Error ? e.message : String(e)})`);
    }
    const header = records.length ? Object.keys(records[0]) : [];
    for (const k of [...inputKeys, ...outputKeys]) if (records.length && !header.includes(k)) throw new HttpError(422, `Column "${k}" is not in the CSV header (${header.join(', ')})`);
    const fileName = file.filename && file.filename !== 'blob' ? file.filename : undefined;
    const pick = (r: Record<string, string>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, r[k]]));
    const d = insertDatasetWithExamples(
      ctx, tenant,
      { name: field('name')[0] || fileName || `dataset-${newId().slice(0, 8)}`, description: field('description')[0] || null, data_type: dataType.data, extra: {} },
      records.map((r) => ({ inputs: pick(r, inputKeys), outputs: outputKeys.length ? pick(r, outputKeys) : null })),
    );
    reply.code(201);
    return withCounts(ctx, d);
  });

  // Sharing
  route(app, 'PUT', '/datasets/:id/share', { params: idParams }, ({ params, tenant }) => ({
    dataset_id: params.id, share_token: shareDataset(ctx, tenant, params.id),
  }));
  route(app, 'GET', '/datasets/:id/share', { params: idParams }, ({ params, tenant }) => {
    const d = getDataset(ctx, tenant, params.id);
    return d.share_token ? { dataset_id: d.id, share_token: d.share_token } : null;
  });
  route(app, 'DELETE', '/datasets/:id/share', { params: idParams }, ({ params, tenant }) => {
    unshareDataset(ctx, tenant, params.id);
    return {};
  });

  registerDatasetVersions(app, ctx);
  registerDatasetSearch(app, ctx);
}

const TokenParams = z.object({ token: pText() });

/** Public reads of a shared dataset: no API key. */
export function registerPublicDatasets(app: FastifyInstance, ctx: Ctx) {
  const config = { public: true };
  route(app, 'GET', '/public/:token/datasets', { params: TokenParams, config }, ({ params }) => withCounts(ctx, sharedDataset(ctx, params.token)));

  const ExamplesQuery = z.object({
    id: qUuids(), as_of: qText(), splits: qList(), limit: qInt(100, 1, 100), offset: qInt(0, 0, Number.MAX_SAFE_INTEGER),
  });
  route(app, 'GET', '/public/:token/examples', { params: TokenParams, query: ExamplesQuery, config }, ({ params, query: q, req, reply }) => {
    const d = sharedDataset(ctx, params.token);
    reply.type('application/json; charset=utf-8');
    return listExamplesJson(
      ctx, { datasetId: d.id, asOf: resolveVersion(ctx, d.id, q.as_of), ids: q.id, splits: q.splits, limit: q.limit, offset: q.offset },
      originOf(req), ALL_FIELDS,
    );
  });

  route(app, 'GET', '/public/:token/examples/count', { params: TokenParams, config }, ({ params }) =>
    countExamples(ctx, sharedDataset(ctx, params.token).id, null),
  );
}

