// v2 threads: a project's conversations (POST /threads/query), the traces of one (GET /threads/{id}/traces) and
// its figures (GET /threads/{id}/stats). A thread is every trace whose metadata names it (see store/threads.ts).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { bodyTime, pText, qInt, qList, qText, qStr, route, uuid } from '../route';
import { threadExists, threadPage, threadTokens, threadTraces, traceFeedback, type ThreadTraceRow, type TraceScope } from '../store/threads';
import { HttpError, notFound } from '../errors';
import { jsonOrNull } from '../json';
import { bodyUuid, decodeCursor, encodeCursor } from './runsShape';
import { DEFAULT_WINDOW_MS, RUN_TYPES, latencySeconds, preview, required } from './v2Shape';


const QueryThreadsBody = z.strictObject({
  project_id: bodyUuid(),
  min_start_time: bodyTime().nullish(),
  max_start_time: bodyTime().nullish(),
  filter: z.string().nullish(),
  trace_filter: z.string().nullish(),
  tree_filter: z.string().nullish(),
  thread_filter: z.string().nullish(),
  page_size: z.number().int().min(1).max(100).nullish(),
  cursor: z.string().nullish(),
});

const THREAD_TRACE_SELECTS = [
  'THREAD_ID', 'TRACE_ID', 'OP', 'PROMPT_TOKENS', 'COMPLETION_TOKENS', 'TOTAL_TOKENS', 'START_TIME', 'END_TIME', 'LATENCY',
  'FIRST_TOKEN_TIME', 'INPUTS_PREVIEW', 'OUTPUTS_PREVIEW', 'INPUTS', 'OUTPUTS', 'ERROR', 'PROMPT_COST', 'COMPLETION_COST', 'TOTAL_COST',
  'PROMPT_TOKEN_DETAILS', 'COMPLETION_TOKEN_DETAILS', 'PROMPT_COST_DETAILS', 'COMPLETION_COST_DETAILS', 'NAME', 'ERROR_PREVIEW',
] as const;
type ThreadTraceSelect = (typeof THREAD_TRACE_SELECTS)[number];

const THREAD_STATS_SELECTS = [
  'TURNS', 'FIRST_START_TIME', 'LAST_START_TIME', 'LAST_END_TIME', 'LATENCY_P50', 'LATENCY_P99', 'PROMPT_TOKENS', 'PROMPT_COST',
  'COMPLETION_TOKENS', 'COMPLETION_COST', 'TOTAL_TOKENS', 'TOTAL_COST', 'PROMPT_TOKEN_DETAILS', 'COMPLETION_TOKEN_DETAILS',
  'PROMPT_COST_DETAILS', 'COMPLETION_COST_DETAILS', 'FEEDBACK_STATS',
] as const;

const ThreadParams = z.object({ thread_id: pText() });
const TracesQuery = z.object({
  project_id: uuid().optional(),
  filter: qText(),
  selects: qList().pipe(z.array(z.enum(THREAD_TRACE_SELECTS))),
  page_size: qInt(20, 1, 100),
  cursor: qStr(),
});
const StatsQuery = z.object({
  session_id: uuid().optional(),
  filter: qText(),
  selects: qList().pipe(z.array(z.enum(THREAD_STATS_SELECTS))),
});

/** The p-th quantile of sorted values (the value at that rank), or undefined for none. */
function quantile(sorted: number[], p: number): number | undefined {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : undefined;
}

const sortedLatencies = (traces: ThreadTraceRow[]) =>
  traces.map(latencySeconds).filter((l): l is number => l !== null).sort((a, b) => a - b);

/** Feedback per key ({n, avg}) over a set of traces' feedback rows. */
function feedbackStats(rows: Array<{ key: string; score: number | null }>): Record<string, { n: number; avg: number | null }> {
  const acc = new Map<string, { n: number; sum: number; scored: number }>();
  for (const r of rows) {
    const a = acc.get(r.key) ?? { n: 0, sum: 0, scored: 0 };
    a.n++;
    if (r.score !== null) {
      a.sum += r.score;
      a.scored++;
    }
    acc.set(r.key, a);
  }
  return Object.fromEntries([...acc].map(([k, a]) => [k, { n: a.n, avg: a.scored ? a.sum / a.scored : null }]));
}

/** Leaves out what has no value, as v2 does. */
const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null));

function threadTraceOut(t: ThreadTraceRow, selects: readonly ThreadTraceSelect[]): Record<string, unknown> {
  const values: Partial<Record<ThreadTraceSelect, unknown>> = {
    THREAD_ID: t.thread_id,
    TRACE_ID: t.id,
    // v2 numbers run types for older clients; here by their place in v2's RunType list (TOOL = 0, CHAIN = 1, …).
    OP: RUN_TYPES.indexOf((t.run_type ?? 'chain').toUpperCase() as (typeof RUN_TYPES)[number]),
    PROMPT_TOKENS: t.prompt_tokens ?? 0,
    COMPLETION_TOKENS: t.completion_tokens ?? 0,
    TOTAL_TOKENS: t.total_tokens ?? 0,
    START_TIME: t.start_time,
    END_TIME: t.end_time,
    LATENCY: latencySeconds(t),
    INPUTS_PREVIEW: preview(t.inputs),
    OUTPUTS_PREVIEW: preview(t.outputs),
    INPUTS: jsonOrNull(t.inputs) ?? {},
    OUTPUTS: jsonOrNull(t.outputs),
    ERROR: t.error,
    ERROR_PREVIEW: t.error ? preview(JSON.stringify(t.error)) : null,
    NAME: t.name ?? '',
  };
  // trace_id is always there; END_TIME is null while the trace runs, as v2 documents.
  const out: Record<string, unknown> = { trace_id: t.id };
  for (const s of selects) {
    const v = values[s];
    if (v !== undefined && (v !== null || s === 'END_TIME')) out[s.toLowerCase()] = v;
  }
  return out;
}

export function registerThreads(app: FastifyInstance, ctx: Ctx) {
  route(app, 'POST', '/threads/query', { body: QueryThreadsBody }, ({ body: b, tenant }) => {
    if (b.thread_filter) throw new HttpError(501, 'thread_filter needs LangSmith v0.17 or later; this server is 0.16 (use filter, trace_filter or tree_filter)');
    const now = Date.now();
    const scope: TraceScope = {
      projectId: b.project_id.toLowerCase(),
      minStart: b.min_start_time ?? new Date(now - DEFAULT_WINDOW_MS).toISOString(),
      maxStart: b.max_start_time ?? new Date(now).toISOString(),
      filter: b.filter, traceFilter: b.trace_filter, treeFilter: b.tree_filter,
    };
    const pageSize = b.page_size ?? 20;
    const offset = decodeCursor(b.cursor);
    const { ids, more } = threadPage(ctx, tenant.id, scope, pageSize, offset);
    const traces = threadTraces(ctx, tenant.id, scope, ids);
    const byThread = new Map<string, ThreadTraceRow[]>(ids.map((id) => [id, []]));
    for (const t of traces) byThread.get(t.thread_id)?.push(t);
    const tokens = threadTokens(ctx, tenant.id, traces.map((t) => t.id));
    const threadOfTrace = new Map(traces.map((t) => [t.id, t.thread_id]));
    const feedback = new Map<string, Array<{ key: string; score: number | null }>>();
    for (const f of traceFeedback(ctx, tenant.id, traces.map((t) => t.id))) {
      const thread = threadOfTrace.get(f.trace_id)!;
      if (!feedback.has(thread)) feedback.set(thread, []);
      feedback.get(thread)!.push(f);
    }
    const items = ids.map((id) => {
      const ts = byThread.get(id)!;
      const first = ts[0];
      const last = ts[ts.length - 1];
      const failed = ts.filter((t) => t.error);
      const lat = sortedLatencies(ts);
      return defined({
        thread_id: id,
        count: ts.length,
        min_start_time: first.start_time,
        max_start_time: last.start_time,
        start_time: last.start_time,
        first_trace_id: first.id,
        last_trace_id: last.id,
        trace_id: last.id,
        num_errored_turns: failed.length,
        first_inputs: preview(first.inputs),
        last_outputs: preview(last.outputs),
        last_error: failed.length ? failed[failed.length - 1].error : undefined,
        latency_p50: quantile(lat, 0.5),
        latency_p99: quantile(lat, 0.99),
        total_tokens: tokens.get(id)?.total_tokens ?? 0,
        total_cost: tokens.get(id)?.total_cost,
        feedback_stats: feedbackStats(feedback.get(id) ?? []),
      });
    });
    return { items, has_more: more, ...(more ? { next_cursor: encodeCursor(offset + pageSize) } : {}) };
  });

  route(app, 'GET', '/threads/:thread_id/traces', { params: ThreadParams, query: TracesQuery }, ({ params, query: q, tenant }) => {
    if (!threadExists(ctx, tenant.id, params.thread_id)) throw notFound(`Thread ${params.thread_id}`);
    const project = required(q.project_id, 'query.project_id');
    const offset = decodeCursor(q.cursor);
    const rows = threadTraces(ctx, tenant.id, { projectId: project, filter: q.filter }, [params.thread_id], { limit: q.page_size + 1, offset });
    const more = rows.length > q.page_size;
    const items = rows.slice(0, q.page_size).map((t) => threadTraceOut(t, q.selects));
    return { items, has_more: more, ...(more ? { next_cursor: encodeCursor(offset + q.page_size) } : {}) };
  });

  route(app, 'GET', '/threads/:thread_id/stats', { params: ThreadParams, query: StatsQuery }, ({ params, query: q, tenant }) => {
    if (!threadExists(ctx, tenant.id, params.thread_id)) throw notFound(`Thread ${params.thread_id}`);
    const project = required(q.session_id, 'query.session_id');
    if (!q.selects.length) throw new HttpError(422, 'query.selects: at least one is required');
    const traces = threadTraces(ctx, tenant.id, { projectId: project, filter: q.filter }, [params.thread_id]);
    const tokens = threadTokens(ctx, tenant.id, traces.map((t) => t.id)).get(params.thread_id);
    const lat = sortedLatencies(traces);
    const ends = traces.map((t) => t.end_time).filter((e): e is string => !!e).sort();
    const values: Record<string, unknown> = {
      TURNS: traces.length,
      FIRST_START_TIME: traces[0]?.start_time,
      LAST_START_TIME: traces[traces.length - 1]?.start_time,
      LAST_END_TIME: ends[ends.length - 1],
      LATENCY_P50: quantile(lat, 0.5),
      LATENCY_P99: quantile(lat, 0.99),
      PROMPT_TOKENS: tokens?.prompt_tokens ?? 0,
      COMPLETION_TOKENS: tokens?.completion_tokens ?? 0,
      TOTAL_TOKENS: tokens?.total_tokens ?? 0,
      // Left out when no run reports a cost (this server keeps no price table).
      PROMPT_COST: tokens?.prompt_cost,
      COMPLETION_COST: tokens?.completion_cost,
      TOTAL_COST: tokens?.total_cost,
      FEEDBACK_STATS: feedbackStats(traceFeedback(ctx, tenant.id, traces.map((t) => t.id))),
    };
    const name = (s: string) => (s === 'LATENCY_P50' || s === 'LATENCY_P99' ? `${s.toLowerCase()}_seconds` : s.toLowerCase());
    return defined(Object.fromEntries(q.selects.map((s) => [name(s), values[s]])));
  });
}
