// POST /runs/stats: the figures of the runs a query matches (LangSmith's RunStats), whole or per group.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { route } from '../route';
import { groupedRunStats, runStats, type StatsQuery } from '../store/runStats';
import { RunQueryBody, lower } from './runsShape';

/** LangSmith's RunStatsGroupBy. */
export const GroupBySchema = z.strictObject({
  attribute: z.enum(['name', 'run_type', 'tag', 'metadata']),
  path: z.string().nullish(),
  max_groups: z.number().int().min(1, 'expected a positive integer').max(100).nullish(),
});

/** RunStatsQueryParams: the body of /runs/query without paging, with a grouping and the groups to answer. */
const StatsBody = RunQueryBody.omit({ cursor: true, limit: true, order: true, skip_prev_cursor: true }).extend({
  group_by: GroupBySchema.nullish(),
  groups: z.array(z.string().nullable()).nullish(),
});
export type StatsBodyInput = z.infer<typeof StatsBody>;

/** The store's query from a stats body. */
export function statsQuery(b: Omit<StatsBodyInput, 'group_by' | 'groups'>): StatsQuery {
  return {
    sessions: lower(b.session), ids: lower(b.id), traces: lower(b.trace), parents: lower(b.parent_run),
    referenceExamples: lower(b.reference_example), isRoot: b.is_root, runType: b.run_type, error: b.error,
    minStart: b.start_time, maxStart: b.end_time, filter: b.filter, traceFilter: b.trace_filter, treeFilter: b.tree_filter,
    search: b.query,
  };
}

export function registerRunsStats(app: FastifyInstance, ctx: Ctx) {
  route(app, 'POST', '/runs/stats', { body: StatsBody, bodyRequired: true }, ({ body, tenant }) => {
    const q = statsQuery(body);
    if (!body.group_by) return runStats(ctx, { tenantId: tenant.id }, q);
    const groups = groupedRunStats(ctx, { tenantId: tenant.id }, q, body.group_by, body.groups?.filter((g): g is string => g !== null));
    return groups;
  });
}
