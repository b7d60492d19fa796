// Threads (conversations) as the v2 thread API answers them: summaries, turns and stats.

import * as z from 'zod';
import { str, num, bool, recordish, cost } from './fields';

/** POST /api/v2/threads/query: one summary per thread, most recently active first. */
export const ThreadSummaryWireSchema = z.looseObject({
  thread_id: z.string(),
  count: num,
  min_start_time: str,
  max_start_time: str,
  start_time: str,
  first_trace_id: str,
  last_trace_id: str,
  trace_id: str,
  num_errored_turns: num,
  first_inputs: str,
  last_outputs: str,
  last_error: str,
  latency_p50: num,
  latency_p99: num,
  total_tokens: num,
  total_cost: cost,
  feedback_stats: recordish,
});
export type ThreadSummaryWire = z.infer<typeof ThreadSummaryWireSchema>;
export const ThreadsQueryResponseSchema = z.looseObject({
  items: z.array(ThreadSummaryWireSchema),
  has_more: bool,
  next_cursor: str,
});

/** GET /api/v2/threads/{thread_id}/traces: a page of the thread's traces (turns), oldest first. */
export const ThreadTraceWireSchema = z.looseObject({
  trace_id: z.string(),
  thread_id: str,
  name: str,
  start_time: str,
  end_time: str,
  latency: num,
  first_token_time: str,
  prompt_tokens: num,
  completion_tokens: num,
  total_tokens: num,
  prompt_cost: cost,
  completion_cost: cost,
  total_cost: cost,
  inputs_preview: str,
  outputs_preview: str,
  error_preview: str,
});
export type ThreadTraceWire = z.infer<typeof ThreadTraceWireSchema>;
export const ThreadTracesResponseSchema = z.looseObject({
  items: z.array(ThreadTraceWireSchema),
  has_more: bool,
  next_cursor: str,
});

/** GET /api/v2/threads/{thread_id}/stats: the selected figures of one thread. */
export const ThreadStatsWireSchema = z.looseObject({
  turns: num,
  first_start_time: str,
  last_start_time: str,
  last_end_time: str,
  latency_p50_seconds: num,
  latency_p99_seconds: num,
  prompt_tokens: num,
  completion_tokens: num,
  total_tokens: num,
  prompt_cost: cost,
  completion_cost: cost,
  total_cost: cost,
  feedback_stats: recordish,
});
export type ThreadStatsWire = z.infer<typeof ThreadStatsWireSchema>;
