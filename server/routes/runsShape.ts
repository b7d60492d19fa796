// How runs are read and written on the v1 API: the input schemas of run payloads and run queries, the run as
// the v1 endpoints answer it, and the v1 query (`/runs/query`, also behind a share token).
import { z } from 'zod';
import type { Ctx } from '../context';
import { bodyTime, check, jsonBody } from '../route';
import {
  queryRunRows, runFeedbackStats, runStatus, threadIdOf, type RunRow, type RunScope, ancestorsFromDotted, firstTokenTime, runCosts,
} from '../store/runs';
import { HttpError } from '../errors';
import { isUuid } from '../ids';
import { jsonOrNull } from '../json';
import { parseTime } from '../time';

// ---- schema building blocks for JSON bodies -------------------------------------------------------------------

/** A UUID in a JSON body (kept as sent: the store lower-cases what it keys on). */
export const bodyUuid = () => z.string().refine(isUuid, { error: (iss) => `"${String(iss.input)}" is not a valid UUID` });

/** One UUID or a list of them → a list (v1 queries take both spellings). */
const uuidList = () => z.preprocess((v) => (v == null || Array.isArray(v) ? v : [v]), z.array(bodyUuid()).nullish());

// Run payloads arrive by the thousand per batch: these checks look at the value without copying it (a record or
// array schema would walk and rebuild every input object).
const jsonObject = () =>
  z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { error: 'expected an object' }).nullish();
const anyArray = () => z.custom<unknown[]>((v) => Array.isArray(v), { error: 'expected an array' }).nullish();
const payloadTime = () =>
  z
    .custom<string | number>((v) => (typeof v === 'string' || typeof v === 'number') && parseTime(v) !== null, {
      error: (iss) => `"${String(iss.input)}" is not a valid timestamp`,
    })
    .nullish();
const DOTTED_ORDER = /^\d{8}T\d{6,12}Z[0-9a-f-]{36}(\.\d{8}T\d{6,12}Z[0-9a-f-]{36})*$/i;

/** The fields of a run create or update this server reads, each type-checked; times stay as sent (the store parses them). */
const runFields = {
  id: bodyUuid().nullish(),
  trace_id: bodyUuid().nullish(),
  parent_run_id: bodyUuid().nullish(),
  session_id: bodyUuid().nullish(),
  reference_example_id: bodyUuid().nullish(),
  start_time: payloadTime(),
  end_time: payloadTime(),
  inputs: jsonObject(),
  outputs: jsonObject(),
  extra: jsonObject(),
  serialized: jsonObject(),
  events: anyArray(),
  tags: z.custom<string[]>((v) => Array.isArray(v) && v.every((t) => typeof t === 'string'), { error: 'expected an array of strings' }).nullish(),
  name: z.string().nullish(),
  run_type: z.string().nullish(),
  session_name: z.string().nullish(),
  dotted_order: z.string().regex(DOTTED_ORDER, { error: (iss) => `"${String(iss.input)}" is not a valid dotted order` }).nullish(),
  // SDKs send an error as text; some send the exception as an object, kept as its JSON.
  error: z.unknown().refine((v) => v == null || typeof v === 'string' || typeof v === 'object', 'expected a string').optional(),
};

/**
 * A run create or update. Loose on purpose: SDKs send many fields this server does not read (ls_* metadata,
 * child_runs, …) and LangSmith ignores what it does not know, so only the known fields are checked.
 */
export const RunPayloadSchema = z.looseObject(runFields);
/** A run in a batch or multipart ingest, where each must carry its id. */
export const RunWithIdSchema = z.looseObject({ ...runFields, id: bodyUuid() });

export const BatchSchema = z.strictObject({
  post: z.array(RunWithIdSchema).nullish(),
  patch: z.array(RunWithIdSchema).nullish(),
});

/** The body of POST /runs/query (v1), every field LangSmith's schema has; those this server does not use are accepted and ignored. */
export const RunQueryBody = z.strictObject({
  id: uuidList(),
  trace: uuidList(),
  parent_run: uuidList(),
  session: uuidList(),
  reference_example: uuidList(),
  run_type: z.string().nullish(),
  execution_order: z.number().int().nullish(),
  start_time: bodyTime().nullish(),
  end_time: bodyTime().nullish(),
  error: z.boolean().nullish(),
  query: z.string().nullish(),
  filter: z.string().nullish(),
  trace_filter: z.string().nullish(),
  tree_filter: z.string().nullish(),
  is_root: z.boolean().nullish(),
  data_source_type: z.string().nullish(),
  skip_pagination: z.boolean().nullish(),
  search_filter: z.string().nullish(),
  use_experimental_search: z.boolean().nullish(),
  cursor: z.string().nullish(),
  limit: z.number().int().min(1, 'expected a positive integer').nullish(),
  select: z.array(z.string()).nullish(),
  order: z.enum(['asc', 'desc']).nullish(),
  skip_prev_cursor: z.boolean().nullish(),
});
export type RunQueryInput = z.infer<typeof RunQueryBody>;

// ---- cursors ----------------------------------------------------------------------------------------------------

/**
 * An opaque cursor: the offset into the query's ordering. Runs that start while a client pages (newest first)
 * shift later pages, so a client that pages a live project pins the window's end (`end_time` /
 * `max_start_time`), as the project's client does.
 */
export const encodeCursor = (n: number) => Buffer.from(`o:${n}`).toString('base64url');
export function decodeCursor(c: string | null | undefined): number {
  if (c == null || c === '') return 0;
  const m = /^o:(\d{1,15})$/.exec(Buffer.from(c, 'base64url').toString());
  if (!m) throw new HttpError(422, 'cursor: not a valid cursor');
  return Number(m[1]);
}

// ---- the v1 run ---------------------------------------------------------------------------------------------------

/** Run attachments as LangSmith lists them: s3_urls["attachment.<name>"] with a URL this server answers. */
export function runAttachmentUrls(r: RunRow, origin: string): Record<string, { presigned_url: string; s3_url: string; mime_type: string }> | null {
  const a = jsonOrNull(r.attachments) as Record<string, { hash: string; mime_type: string }> | null;
  if (!a || !Object.keys(a).length) return null;
  const out: Record<string, { presigned_url: string; s3_url: string; mime_type: string }> = {};
  for (const [name, ref] of Object.entries(a)) {
    const url = `${origin}/attachments/${ref.hash}?type=${encodeURIComponent(ref.mime_type)}&name=${encodeURIComponent(name)}`;
    out[`attachment.${name}`] = { presigned_url: url, s3_url: url, mime_type: ref.mime_type };
  }
  return out;
}

export function runOut(r: RunRow, select?: Set<string> | null, origin?: string, feedbackStats?: Record<string, unknown> | null) {
  const outputs = jsonOrNull(r.outputs);
  const extra = jsonOrNull(r.extra) ?? {};
  const events = jsonOrNull(r.events) ?? [];
  const costs = runCosts(outputs, extra);
  const full: Record<string, unknown> = {
    id: r.id,
    name: r.name ?? '',
    run_type: r.run_type ?? 'chain',
    start_time: r.start_time,
    end_time: r.end_time,
    inputs: jsonOrNull(r.inputs) ?? {},
    outputs,
    error: r.error,
    extra,
    events,
    serialized: jsonOrNull(r.serialized),
    tags: jsonOrNull(r.tags) ?? [],
    session_id: r.session_id,
    trace_id: r.trace_id ?? r.id,
    dotted_order: r.dotted_order,
    parent_run_id: r.parent_run_id,
    parent_run_ids: ancestorsFromDotted(r.dotted_order),
    reference_example_id: r.reference_example_id,
    status: runStatus(r),
    prompt_tokens: r.prompt_tokens ?? 0,
    completion_tokens: r.completion_tokens ?? 0,
    total_tokens: r.total_tokens ?? 0,
    prompt_cost: costs?.prompt ?? null,
    completion_cost: costs?.completion ?? null,
    total_cost: costs?.total ?? null,
    first_token_time: firstTokenTime(events),
    feedback_stats: feedbackStats ?? null,
    child_run_ids: null,
    app_path: `/o/${r.tenant_id}/projects/p/${r.session_id}/r/${r.id}?trace_id=${r.trace_id ?? r.id}&start_time=${r.start_time ?? ''}`,
    share_token: r.share_token,
    in_dataset: false,
    s3_urls: origin ? runAttachmentUrls(r, origin) : null,
    // The official client's listThreads groups the runs of /runs/query by it (selected as `thread_id`).
    thread_id: threadIdOf(r),
    // The rest of LangSmith's v1 run: answered as it answers them when it has nothing to say (null, or the
    // schema's default), so a client reading them finds the keys.
    execution_order: 1,
    inputs_preview: null,
    outputs_preview: null,
    manifest_id: null,
    manifest_s3_id: null,
    inputs_s3_urls: null,
    outputs_s3_urls: null,
    trace_min_start_time: null,
    trace_max_start_time: null,
    direct_child_run_ids: null,
    prompt_token_details: null,
    completion_token_details: null,
    prompt_cost_details: null,
    completion_cost_details: null,
    price_model_id: null,
    messages: null,
    last_queued_at: null,
    trace_tier: null,
    trace_first_received_at: null,
    ttl_seconds: null,
    trace_upgrade: false,
    reference_dataset_id: null,
  };
  if (!select || !select.size) return full;
  const out: Record<string, unknown> = { id: r.id };
  for (const k of select) if (k in full) out[k] = full[k];
  return out;
}

export const lower = (ids: string[] | null | undefined) => ids?.map((s) => s.toLowerCase()) ?? null;

/** POST /runs/query (v1) from a raw request body: a page of runs in the v1 shape and its cursors. */
export function queryRuns(ctx: Ctx, scope: RunScope & { origin?: string }, body: unknown) {
  return queryRunsParsed(ctx, scope, check(RunQueryBody, jsonBody(body) ?? {}, 'body'));
}

/** POST /runs/query (v1) from a checked body. */
export function queryRunsParsed(ctx: Ctx, scope: RunScope & { origin?: string }, q: RunQueryInput) {
  const offset = decodeCursor(q.cursor);
  const limit = Math.min(q.limit ?? 100, 100);
  const { rows, more } = queryRunRows(ctx, scope, {
    sessions: lower(q.session), ids: lower(q.id), traces: lower(q.trace), parents: lower(q.parent_run),
    referenceExamples: lower(q.reference_example),
    isRoot: q.is_root, runType: q.run_type, error: q.error, minStart: q.start_time, maxStart: q.end_time,
    filter: q.filter, traceFilter: q.trace_filter, treeFilter: q.tree_filter, search: q.query,
    order: q.order === 'asc' ? 'asc' : 'desc', limit, offset,
  });
  const select = q.select ? new Set(q.select.map((s) => s.toLowerCase())) : null;
  const wantStats = !select || select.has('feedback_stats');
  const stats = wantStats ? runFeedbackStats(ctx, rows.map((r) => r.id)) : new Map();
  return {
    runs: rows.map((r) => runOut(r, select, scope.origin, stats.get(r.id) ?? (wantStats ? {} : null))),
    cursors: { next: more ? encodeCursor(offset + limit) : null, prev: offset > 0 ? encodeCursor(Math.max(0, offset - limit)) : null },
  };
}
