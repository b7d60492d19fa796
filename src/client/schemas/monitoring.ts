// Run stats and a project's dashboard, in LangSmith's shapes: RunStats (POST /runs/stats) and CustomChartsSection
// (POST /sessions/{id}/dashboard), with its charts, series and data points.

import * as z from 'zod';
import { num, recordish, str } from './fields';

/** LangSmith's RunStats: the figures of the runs a query matched (a field the server does not answer is null). */
export const RunStatsSchema = z.looseObject({
  run_count: num,
  latency_p50: num,
  latency_p99: num,
  first_token_p50: num,
  first_token_p99: num,
  total_tokens: num,
  prompt_tokens: num,
  completion_tokens: num,
  median_tokens: num,
  last_run_start_time: str,
  feedback_stats: z.record(z.string(), z.looseObject({ n: num, avg: num, stdev: num, values: recordish })).nullish(),
  run_facets: z.array(z.record(z.string(), z.unknown())).nullish(),
  error_rate: num,
  streaming_rate: num,
  total_cost: num,
  prompt_cost: num,
  completion_cost: num,
  cost_p50: num,
  cost_p99: num,
});
export type RunStats = z.infer<typeof RunStatsSchema>;

/** Run stats per group (POST /runs/stats with `group_by`): group value → RunStats. */
export const GroupedRunStatsSchema = z.record(z.string(), RunStatsSchema);

/** LangSmith's RunStatsGroupBy (with `set_by` where a dashboard answers it). */
export const RunStatsGroupBySchema = z.looseObject({
  attribute: z.enum(['name', 'run_type', 'tag', 'metadata']),
  path: str,
  max_groups: num,
  set_by: z.enum(['section', 'series']).nullish(),
});
export type RunStatsGroupBy = z.infer<typeof RunStatsGroupBySchema>;

/** CustomChartsDataPoint: one bucket's value of a series (of one group when the series is grouped). */
export const DashboardPointSchema = z.looseObject({
  series_id: z.string(),
  timestamp: z.string(),
  value: z.union([z.number(), z.record(z.string(), z.unknown())]).nullable(),
  group: str,
});
export type DashboardPoint = z.infer<typeof DashboardPointSchema>;

/** CustomChartSeries. */
export const DashboardSeriesSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  metric: z.string(),
  feedback_key: str,
  filters: z.looseObject({ filter: str, trace_filter: str, tree_filter: str, session: z.array(z.string()).nullish() }).nullish(),
  group_by: RunStatsGroupBySchema.nullish(),
});
export type DashboardSeries = z.infer<typeof DashboardSeriesSchema>;

/** SingleCustomChartResponse. */
export const DashboardChartSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  description: str,
  index: z.number(),
  chart_type: z.enum(['line', 'bar']),
  series: z.array(DashboardSeriesSchema),
  data: z.array(DashboardPointSchema),
});
export type DashboardChart = z.infer<typeof DashboardChartSchema>;

/** CustomChartsSection: a project's prebuilt dashboard. */
export const ProjectDashboardSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  description: str,
  session_id: str,
  charts: z.array(DashboardChartSchema),
  sub_sections: z.array(z.looseObject({ id: z.string(), title: z.string(), charts: z.array(DashboardChartSchema) })).nullish(),
});
export type ProjectDashboard = z.infer<typeof ProjectDashboardSchema>;
