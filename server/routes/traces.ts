// v2 traces: a project's traces (root runs) page by page, each with its root run and trace-wide aggregates.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { bodyTime, route } from '../route';
import { queryRunRows, traceTokenTotals } from '../store/runs';
import { originOf } from '../request';
import { bodyUuid, decodeCursor, encodeCursor, lower } from './runsShape';
import { DEFAULT_WINDOW_MS, bodySelects, v2Runs, type RunSelect } from './v2Shape';


const QueryTracesBody = z.strictObject({
  project_id: bodyUuid(),
  min_start_time: bodyTime().nullish(),
  max_start_time: bodyTime().nullish(),
  trace_ids: z.array(bodyUuid()).nullish(),
  trace_filter: z.string().nullish(),
  tree_filter: z.string().nullish(),
  selects: bodySelects(),
  page_size: z.number().int().min(1).max(1000).nullish(),
  cursor: z.string().nullish(),
});

/** Selected fields that describe the whole trace: they go under `trace_aggregates`, the rest under `root_run`. */
const AGGREGATES = new Set<RunSelect>(['TOTAL_TOKENS', 'TOTAL_COST', 'FIRST_TOKEN_TIME']);

export function registerTraces(app: FastifyInstance, ctx: Ctx) {
  route(app, 'POST', '/traces/query', { body: QueryTracesBody }, ({ body: b, tenant, req }) => {
    const now = Date.now();
    const pageSize = b.page_size ?? 100;
    const offset = decodeCursor(b.cursor);
    // The window is half-open, [min, max): a trace starting exactly at max_start_time belongs to the next one.
    const { rows, more } = queryRunRows(ctx, { tenantId: tenant.id }, {
      sessions: [b.project_id.toLowerCase()], ids: lower(b.trace_ids), isRoot: true,
      minStart: b.min_start_time ?? new Date(now - DEFAULT_WINDOW_MS).toISOString(), maxStart: b.max_start_time ?? new Date(now).toISOString(),
      maxStartExclusive: true, traceFilter: b.trace_filter, treeFilter: b.tree_filter,
      order: 'desc', limit: pageSize, offset,
    });
    const selects = b.selects ?? [];
    const aggregates = selects.filter((s) => AGGREGATES.has(s));
    const roots = v2Runs(ctx, rows, selects.filter((s) => !AGGREGATES.has(s)), originOf(req));
    const totals = aggregates.includes('TOTAL_TOKENS') ? traceTokenTotals(ctx, tenant.id, rows.map((r) => r.id)) : null;
    const items = rows.map((r, i) => ({
      root_run: roots[i],
      // Costs and first-token times are not kept here: only the token total can be given.
      ...(aggregates.length ? { trace_aggregates: totals ? { total_tokens: totals.get(r.id) ?? 0 } : {} } : {}),
    }));
    return { items, has_more: more, ...(more ? { next_cursor: encodeCursor(offset + pageSize) } : {}) };
  });
}
