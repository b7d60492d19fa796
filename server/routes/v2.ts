// LangSmith's v2 reads (served under /v2 and /api/v2): runs, traces, threads, and the public reads of a shared
// trace. They read the same runs as v1 and answer in v2's shape (see v2Shape.ts): fields by `selects`,
// `items` + `next_cursor` pages, upper-case enums.
//
// Where this server is laxer than LangSmith, so that a workspace's own tools keep working: `project_ids` may be
// left out of /runs/query (all of the workspace's projects are read), and `project_id` of /runs/{id} is checked
// after the run (a run that is not the workspace's is a 404 whatever else is missing).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { bodyTime, idParams, qTime, qText, route, uuid } from '../route';
import { getRun, queryRunRows, sessionsOfDataset, shareRun, traceExists, traceRuns, unshareRun } from '../store/runs';
import { HttpError, notFound } from '../errors';
import { originOf } from '../request';
import { registerExperimentRuns } from './experiments';
import { registerThreads } from './threads';
import { registerTraces } from './traces';
import { registerPublicV2 } from './v2Public';
import { bodyUuid, decodeCursor, encodeCursor, lower } from './runsShape';
import { DEFAULT_WINDOW_MS, RUN_TYPES, bodySelects, querySelects, required, v2Runs } from './v2Shape';


const QueryRunsBody = z.strictObject({
  project_ids: z.array(bodyUuid()).nullish(),
  reference_dataset_id: bodyUuid().nullish(),
  ids: z.array(bodyUuid()).nullish(),
  trace_id: bodyUuid().nullish(),
  reference_examples: z.array(bodyUuid()).nullish(),
  is_root: z.boolean().nullish(),
  has_error: z.boolean().nullish(),
  run_type: z.enum(RUN_TYPES).nullish(),
  min_start_time: bodyTime().nullish(),
  max_start_time: bodyTime().nullish(),
  filter: z.string().nullish(),
  trace_filter: z.string().nullish(),
  tree_filter: z.string().nullish(),
  ai_query: z.string().nullish(),
  selects: bodySelects(),
  sort_order: z.enum(['ASC', 'DESC']).nullish(),
  page_size: z.number().int().min(1).max(1000).nullish(),
  cursor: z.string().nullish(),
});

const RunReadQuery = z.object({ project_id: uuid().optional(), selects: querySelects(), start_time: qTime() });
const TraceParams = z.object({ trace_id: uuid() });
const TraceRunsQuery = z.object({
  project_id: uuid().optional(),
  selects: querySelects(),
  filter: qText(),
  min_start_time: qTime(),
  max_start_time: qTime(),
});

export function registerV2(app: FastifyInstance, ctx: Ctx) {
  route(app, 'POST', '/runs/query', { body: QueryRunsBody }, ({ body: b, tenant, req }) => {
    if (b.ai_query) throw new HttpError(400, 'ai_query: this server has no model to turn text into a filter (instance_flags.generate_ai_query_enabled is false); use filter');
    if (b.project_ids && b.reference_dataset_id) throw new HttpError(422, 'body: set exactly one of project_ids and reference_dataset_id');
    let sessions = lower(b.project_ids);
    let minStart = b.min_start_time ?? undefined;
    if (b.reference_dataset_id) {
      const experiments = sessionsOfDataset(ctx, tenant, b.reference_dataset_id.toLowerCase());
      sessions = experiments.ids;
      minStart ??= experiments.earliest ?? undefined;
    }
    const now = Date.now();
    const pageSize = b.page_size ?? 100;
    const offset = decodeCursor(b.cursor);
    const { rows, more } = queryRunRows(ctx, { tenantId: tenant.id }, {
      sessions, ids: lower(b.ids), traces: b.trace_id ? [b.trace_id.toLowerCase()] : null, referenceExamples: lower(b.reference_examples),
      isRoot: b.is_root, error: b.has_error, runType: b.run_type?.toLowerCase(),
      minStart: minStart ?? new Date(now - DEFAULT_WINDOW_MS).toISOString(), maxStart: b.max_start_time ?? new Date(now).toISOString(),
      filter: b.filter, traceFilter: b.trace_filter, treeFilter: b.tree_filter,
      order: b.sort_order === 'ASC' ? 'asc' : 'desc', limit: pageSize, offset,
    });
    return { items: v2Runs(ctx, rows, b.selects, originOf(req)), has_more: more, ...(more ? { next_cursor: encodeCursor(offset + pageSize) } : {}) };
  });

  route(app, 'GET', '/runs/:id', { params: idParams, query: RunReadQuery }, ({ params, query, tenant, req }) => {
    const run = getRun(ctx, tenant, params.id);
    if (required(query.project_id, 'query.project_id') !== run.session_id) throw notFound(`Run ${params.id} in project ${query.project_id}`);
    return v2Runs(ctx, [run], query.selects, originOf(req))[0];
  });

  // Every run of one trace, in tree order (no paging: a trace is read whole).
  route(app, 'GET', '/traces/:trace_id/runs', { params: TraceParams, query: TraceRunsQuery }, ({ params, query: q, tenant, req }) => {
    if (!traceExists(ctx, tenant.id, params.trace_id)) throw notFound(`Trace ${params.trace_id}`);
    const project = required(q.project_id, 'query.project_id');
    if ((q.min_start_time === undefined) !== (q.max_start_time === undefined))
      throw new HttpError(422, 'query: min_start_time and max_start_time go together');
    const rows = traceRuns(ctx, tenant.id, params.trace_id, {
      sessions: [project], filter: q.filter, minStart: q.min_start_time, maxStart: q.max_start_time,
    });
    return { items: v2Runs(ctx, rows, q.selects, originOf(req)) };
  });

  // Sharing (v2): the token always shares the whole trace, and lives on its root run.
  route(
    app, 'POST', '/runs/:id/share',
    { params: idParams, body: z.strictObject({ session_id: bodyUuid().nullish(), trace_id: bodyUuid().nullish() }) },
    ({ params, body, tenant }) => {
      const run = getRun(ctx, tenant, params.id);
      if (body.session_id && body.session_id.toLowerCase() !== run.session_id) throw notFound(`Run ${params.id} in project ${body.session_id}`);
      if (body.trace_id && body.trace_id.toLowerCase() !== (run.trace_id ?? run.id)) throw notFound(`Run ${params.id} in trace ${body.trace_id}`);
      return { share_token: shareRun(ctx, tenant, run.trace_id ?? run.id) };
    },
  );
  // Idempotent: unsharing a trace that is not shared is a 204 too (a trace that is not the workspace's is a 404).
  route(app, 'DELETE', '/runs/:id/share', { params: idParams, body: z.strictObject({ session_id: bodyUuid().nullish() }) }, ({ params, tenant, reply }) => {
    const root = getRun(ctx, tenant, params.id);
    unshareRun(ctx, tenant, root.trace_id ?? root.id);
    reply.code(204);
    return null;
  });

  registerTraces(app, ctx);
  registerExperimentRuns(app, ctx);
  registerThreads(app, ctx);
  registerPublicV2(app, ctx);
}
