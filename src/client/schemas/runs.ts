// Runs as the v1 and v2 run APIs answer them, the mapping from v2 to v1, and the runs of one trace.

import * as z from 'zod';
import { str, num, bool, recordish, uuid, cost } from './fields';

export const RunSchema = z.looseObject({
  id: uuid,
  /** Absent only when a query selects other fields. */
  name: z.string().optional(),
  run_type: z.string().optional(),
  start_time: z.union([z.string(), z.number()]).nullish(),
  end_time: z.union([z.string(), z.number()]).nullish(),
  inputs: recordish,
  outputs: recordish,
  error: str,
  extra: recordish,
  events: z.array(z.unknown()).nullish(),
  tags: z.array(z.string()).nullish(),
  parent_run_id: str,
  trace_id: str,
  dotted_order: str,
  session_id: str,
  reference_example_id: str,
  status: str,
  /** Set while the run is shared publicly (v1 answers it; v2 reads derive it from share_url). */
  share_token: str,
});
export type Run = z.infer<typeof RunSchema>;

export const RunsQueryResponseSchema = z.looseObject({
  runs: z.array(RunSchema),
  cursors: z.looseObject({ next: str }).nullish(),
});

/**
 * A run as the v2 run API (/api/v2/runs/…, LangSmith 0.16 and later) answers it: only the fields asked for in
 * `selects`, unset ones omitted, run_type and status in upper case, project_id for session_id and the list of
 * ancestors (parent_run_ids) instead of the parent. `toRunFromV2` turns it into a {@link Run}.
 */
export const RunV2Schema = z.looseObject({
  id: uuid,
  name: str,
  run_type: str,
  status: str,
  start_time: str,
  end_time: str,
  inputs: recordish,
  outputs: recordish,
  error: str,
  extra: recordish,
  metadata: recordish,
  events: z.array(z.unknown()).nullish(),
  tags: z.array(z.string()).nullish(),
  parent_run_ids: z.array(z.string()).nullish(),
  project_id: str,
  trace_id: str,
  dotted_order: str,
  reference_example_id: str,
  is_in_dataset: bool,
  share_url: str,
  total_tokens: num,
  prompt_tokens: num,
  completion_tokens: num,
  total_cost: cost,
  prompt_cost: cost,
  completion_cost: cost,
  first_token_time: str,
  error_preview: str,
  thread_id: str,
  /** Attachment name → pre-signed URL. */
  attachments: recordish,
});
export type RunV2 = z.infer<typeof RunV2Schema>;

/** POST /api/v2/runs/query: a page of runs; next_cursor is left out on the last page. */
export const RunsQueryV2ResponseSchema = z.looseObject({
  items: z.array(RunV2Schema),
  has_more: bool,
  next_cursor: str,
});

/** The v1 fields that are empty rather than null when unset (v2 leaves them out). */
const V1_EMPTY: Readonly<Record<string, () => unknown>> = { inputs: () => ({}), extra: () => ({}), events: () => [], tags: () => [] };

/**
 * A v2 run in the v1 shape every caller of the run reads expects: lower-case run_type and status, session_id,
 * parent_run_id (the last ancestor), metadata inside extra, in_dataset. `fields` are the v1 fields that were
 * asked for: those v2 left out (it omits what is unset) become null, or empty, as v1 reports them. v2's names for
 * fields that now carry v1 names are dropped, so a run reads the same whichever API it came from.
 */
export function toRunFromV2(r: RunV2, fields: readonly string[]): Run {
  const out: Record<string, unknown> = { ...r };
  for (const k of ['project_id', 'metadata', 'is_in_dataset', 'share_url'] as const) delete out[k];
  // v1 answers a shared run's token; v2 its public link, `<web>/public/<token>/r`.
  const shared = typeof r.share_url === 'string' ? /\/public\/([0-9a-f-]{36})\/r\/?$/i.exec(r.share_url) : null;
  if (shared) out['share_token'] = shared[1]!.toLowerCase();
  if (typeof r.run_type === 'string') out['run_type'] = r.run_type.toLowerCase();
  if (typeof r.status === 'string') out['status'] = r.status.toLowerCase();
  if (r.project_id !== undefined) out['session_id'] = r.project_id;
  if (r.is_in_dataset !== undefined) out['in_dataset'] = r.is_in_dataset;
  if (r.parent_run_ids !== undefined) out['parent_run_id'] = r.parent_run_ids?.length ? r.parent_run_ids[r.parent_run_ids.length - 1] : null;
  // v1 keeps the user's metadata inside extra; v2 may answer it on its own (an empty one when there is none,
  // which v1 does not show).
  if (r.metadata != null && Object.keys(r.metadata).length > 0 && (r.extra == null || !('metadata' in r.extra))) {
    out['extra'] = { ...(r.extra ?? {}), metadata: r.metadata };
  }
  // name and run_type have no null in the Run type: they stay absent when v2 leaves them out. The collections
  // v1 answers empty rather than null come back empty; every other field v1 reports as null.
  for (const f of fields) {
    if (out[f] !== undefined || f === 'name' || f === 'run_type') continue;
    out[f] = f in V1_EMPTY ? V1_EMPTY[f]!() : null;
  }
  return out as Run;
}

/** GET /api/v2/traces/{trace_id}/runs: every run of the trace, in one answer (not paged). */
export const TraceRunsV2ResponseSchema = z.looseObject({ items: z.array(RunV2Schema) });

/**
 * A run of a trace with what its tree shows, the same whichever API answered (see `client.traces.runs`):
 * lower-case run_type and status, the parent, the tokens and costs (numbers), an error preview.
 */
export interface TraceRun extends Run {
  id: string;
  name?: string;
  run_type?: string;
  status: string | null;
  start_time: string | null;
  end_time: string | null;
  parent_run_id: string | null;
  dotted_order: string | null;
  trace_id: string | null;
  session_id: string | null;
  total_tokens: number | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_cost: number | null;
  prompt_cost: number | null;
  completion_cost: number | null;
  first_token_time: string | null;
  /** The error cut to a preview (v2's ERROR_PREVIEW; v1's error cut the same way), null without one. */
  error_preview: string | null;
  /** The conversation the run belongs to (metadata thread_id, session_id or conversation_id): v2 only, else null. */
  thread_id: string | null;
}
