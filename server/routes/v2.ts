// The v2 run reads (/v2/runs/query, /v2/runs/{id}) in their own response shape, over the same runs.
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { HttpError, queryString, uuidParam } from '../util';
import { getRun, parseMaybeJson, queryRuns, runOut, type RunRow } from './runs';

function v2Run(r: Record<string, any>) {
  return {
    id: r.id,
    name: r.name,
    run_type: typeof r.run_type === 'string' ? r.run_type.toUpperCase() : r.run_type,
    status: typeof r.status === 'string' ? r.status.toUpperCase() : r.status,
    start_time: r.start_time,
    end_time: r.end_time,
    inputs: r.inputs,
    outputs: r.outputs,
    error: r.error,
    extra: r.extra,
    tags: r.tags,
    project_id: r.session_id,
    trace_id: r.trace_id,
    dotted_order: r.dotted_order,
    parent_run_ids: r.parent_run_ids,
    reference_example_id: r.reference_example_id,
    total_tokens: r.total_tokens,
    prompt_tokens: r.prompt_tokens,
    completion_tokens: r.completion_tokens,
  };
}

export function registerV2(app: FastifyInstance, ctx: Ctx) {
  app.post('/runs/query', async (req) => {
    const b: any = parseMaybeJson(req.body) ?? {};
    if (typeof b !== 'object' || Array.isArray(b)) throw new HttpError(422, 'body: expected a JSON object');
    const sort = String(b.sort_order ?? 'DESC').toLowerCase();
    const res = queryRuns(ctx, { tenantId: req.tenant.id }, {
      session: b.project_ids ?? undefined,
      id: b.ids ?? undefined,
      trace: b.trace_id ?? undefined,
      is_root: b.is_root,
      error: b.has_error,
      run_type: typeof b.run_type === 'string' ? b.run_type.toLowerCase() : undefined,
      start_time: b.min_start_time,
      end_time: b.max_start_time,
      filter: b.filter,
      trace_filter: b.trace_filter,
      tree_filter: b.tree_filter,
      limit: b.page_size ?? 100,
      cursor: b.cursor,
      order: sort === 'asc' ? 'asc' : 'desc',
    });
    return { items: res.runs.map(v2Run), has_more: !!res.cursors.next, ...(res.cursors.next ? { next_cursor: res.cursors.next } : {}) };
  });

  app.get('/runs/:id', async (req) => {
    const id = uuidParam((req.params as any).id, 'run_id');
    const run: RunRow = getRun(ctx, req.tenant, id);
    const project = queryString(req.query as any, 'project_id');
    if (project && project.toLowerCase() !== run.session_id) throw new HttpError(404, `Run ${id} not found in project ${project}`);
    return v2Run(runOut(run));
  });
}
