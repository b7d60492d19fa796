// A project (a tracing project or an experiment), as listed and as read with its stats.

import * as z from 'zod';
import { str, num, recordish, uuid, cost } from './fields';

export const ProjectSchema = z.looseObject({
  id: uuid,
  name: z.string(),
  description: str,
  extra: recordish,
  reference_dataset_id: str,
  start_time: str,
  end_time: str,
  tenant_id: str,
  run_count: num,
});
export type Project = z.infer<typeof ProjectSchema>;

/** A project read with `include_stats=true`: the figures of its root runs and its feedback per key. */
export const ProjectWithStatsSchema = ProjectSchema.extend({
  run_count: num,
  error_rate: num,
  latency_p50: num,
  latency_p99: num,
  first_token_p50: num,
  first_token_p99: num,
  streaming_rate: num,
  last_run_start_time: str,
  total_tokens: num,
  prompt_tokens: num,
  completion_tokens: num,
  total_cost: cost,
  prompt_cost: cost,
  completion_cost: cost,
  feedback_stats: z.record(z.string(), z.looseObject({ n: num, avg: num })).nullish(),
});
export type ProjectWithStats = z.infer<typeof ProjectWithStatsSchema>;
