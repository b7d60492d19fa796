// Example search over a dataset (an FTS5 bm25 index of the inputs' text) and comparative experiments.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { idParams, qBool, qEnum, qInt, qText, qUuids, route, uuid } from '../route';
import { createComparative, deleteComparative, dropIndex, indexDataset, listComparative, searchExamples } from '../store/datasets';
import { getDataset } from '../store/datasets';
import { HttpError, notFound } from '../errors';
import { originOf } from '../request';

const SearchBody = z.strictObject({
  inputs: z.record(z.string(), z.any()),
  limit: z.number().int().min(1).max(100).optional().nullable(),
  filter: z.string().optional().nullable(),
  debug: z.boolean().optional().nullable(),
});
const IndexBody = z.strictObject({ tag: z.string().optional().nullable() });
const ComparativeBody = z.strictObject({
  id: uuid().optional().nullable(),
  name: z.string().optional().nullable(),
  experiment_ids: z.array(uuid()),
  reference_dataset_id: uuid().optional().nullable(),
  description: z.string().optional().nullable(),
  created_at: z.string().optional().nullable(),
  modified_at: z.string().optional().nullable(),
  extra: z.record(z.string(), z.any()).optional().nullable(),
});
const ComparativeQuery = z.object({
  id: qUuids(),
  name: qText(),
  name_contains: qText(),
  sort_by: qEnum(['created_at', 'name']),
  sort_by_desc: qBool(),
  limit: qInt(100, 1, 100),
  offset: qInt(0, 0, Number.MAX_SAFE_INTEGER),
});

export function registerDatasetSearch(app: FastifyInstance, ctx: Ctx) {
  route(app, 'POST', '/datasets/:id/index', { params: idParams, body: IndexBody }, ({ params, body, tenant }) => {
    const tag = body.tag ?? 'latest';
    indexDataset(ctx, tenant, params.id, tag);
    return { dataset_id: params.id, tag };
  });
  route(app, 'GET', '/datasets/:id/index', { params: idParams }, ({ params, tenant }) => {
    const d = getDataset(ctx, tenant, params.id);
    if (!d.indexed_tag) throw notFound(`Index of dataset ${d.id}`);
    return { dataset_id: d.id, tag: d.indexed_tag, last_updated_version: d.index_synced_version };
  });
  route(app, 'DELETE', '/datasets/:id/index', { params: idParams }, ({ params, tenant }) => {
    dropIndex(ctx, getDataset(ctx, tenant, params.id).id);
    return {};
  });
  route(app, 'POST', '/datasets/:id/search', { params: idParams, body: SearchBody }, ({ params, body, tenant, req }) => {
    const d = getDataset(ctx, tenant, params.id);
    const hits = searchExamples(ctx, d, { inputs: body.inputs, limit: body.limit ?? 5, filter: body.filter }, originOf(req));
    return { examples: hits.map((h) => ({ ...(JSON.parse(h.json) as object), debug_info: body.debug ? { bm25: h.score } : undefined })) };
  });

  route(app, 'POST', '/datasets/comparative', { body: ComparativeBody }, ({ body, tenant }) => {
    if (!body.experiment_ids.length) throw new HttpError(422, 'At least one experiment is required');
    return createComparative(ctx, tenant, body);
  });
  route(app, 'GET', '/datasets/:id/comparative', { params: idParams, query: ComparativeQuery }, ({ params, query: q, tenant }) => {
    const d = getDataset(ctx, tenant, params.id);
    return listComparative(ctx, d.id, {
      ids: q.id, name: q.name, nameContains: q.name_contains, sortBy: (q.sort_by ?? 'created_at') as 'created_at' | 'name', desc: q.sort_by_desc ?? true, limit: q.limit, offset: q.offset,
    });
  });
  route(app, 'DELETE', '/datasets/comparative/:id', { params: idParams }, ({ params, tenant }) => {
    deleteComparative(ctx, tenant, params.id);
    return {};
  });
}
