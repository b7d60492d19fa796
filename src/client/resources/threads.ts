import { ClientContext } from '../context';
import { LangSmithNotFoundError, LangSmithValidationError, isNotFound } from '../errors';
import { assertUuid } from '../ids';
import { MSG } from '../messages';
import { cursorPaged } from '../paging';
import {
  RunsQueryResponseSchema,
  RunsQueryV2ResponseSchema,
  ThreadStatsWireSchema,
  ThreadTracesResponseSchema,
  ThreadsQueryResponseSchema,
  numberOrNull,
  type Run,
  type ThreadSummaryWire,
  type ThreadTraceWire,
} from '../schemas';
import { iso, type DateLike } from './common';
import { RUNS_V2_MIN_VERSION, V2_EARLIEST_START, v2Path } from './runs';
import { errorPreview, previewText } from './traces';

/** The first LangSmith version serving the v2 thread reads (/api/v2/threads/…): the same as the v2 run reads. */
export const THREADS_V2_MIN_VERSION = RUNS_V2_MIN_VERSION;

/** The metadata keys that name a run's thread, the first present winning (as LangSmith groups them). */
export const THREAD_METADATA_KEYS = ['thread_id', 'session_id', 'conversation_id'] as const;

/** Turns read by default. */
export const THREAD_TURNS_DEFAULT_LIMIT = 200;

/** One conversation of a project, as a list shows it. */
export interface ThreadSummary {
  thread_id: string;
  /** How many traces (turns) the thread has. */
  turns: number;
  first_start_time: string | null;
  /** When the last turn started: the thread's last activity. */
  last_start_time: string | null;
  first_trace_id: string | null;
  last_trace_id: string | null;
  total_tokens: number | null;
  total_cost: number | null;
  /** Seconds. */
  latency_p50: number | null;
  latency_p99: number | null;
  /** Turns that failed; null where the server does not say. */
  errored_turns: number | null;
  first_inputs_preview: string | null;
  last_outputs_preview: string | null;
  last_error: string | null;
}

/** One turn of a thread: a trace, with its root run's payloads. */
export interface ThreadTurn {
  trace_id: string;
  /** The root run's id (the trace's id). */
  root_run_id: string;
  name: string | null;
  status: 'success' | 'error' | 'pending';
  start_time: string | null;
  end_time: string | null;
  /** Seconds; null while running. */
  latency: number | null;
  first_token_time: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  prompt_cost: number | null;
  completion_cost: number | null;
  total_cost: number | null;
  error_preview: string | null;
  inputs: Record<string, unknown> | null;
  outputs: Record<string, unknown> | null;
}

/** A thread's figures. */
export interface ThreadStats {
  turns: number;
  first_start_time: string | null;
  last_start_time: string | null;
  last_end_time: string | null;
  /** Seconds. */
  latency_p50: number | null;
  latency_p99: number | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  prompt_cost: number | null;
  completion_cost: number | null;
  total_cost: number | null;
  errored_turns: number;
}

export interface ThreadListOptions {
  projectId: string;
  /** Threads active since then (default: all). */
  startTime?: DateLike;
  /** Total to yield. */
  limit?: number;
  /** Threads per request (at most 100; default 20). */
  pageSize?: number;
  signal?: AbortSignal;
}

export interface ThreadReadOptions {
  projectId: string;
  signal?: AbortSignal;
}

const TURN_SELECTS = [
  'THREAD_ID', 'TRACE_ID', 'NAME', 'START_TIME', 'END_TIME', 'LATENCY', 'FIRST_TOKEN_TIME', 'PROMPT_TOKENS', 'COMPLETION_TOKENS',
  'TOTAL_TOKENS', 'PROMPT_COST', 'COMPLETION_COST', 'TOTAL_COST', 'ERROR_PREVIEW',
];
const STATS_SELECTS = [
  'TURNS', 'FIRST_START_TIME', 'LAST_START_TIME', 'LAST_END_TIME', 'LATENCY_P50', 'LATENCY_P99', 'PROMPT_TOKENS', 'COMPLETION_TOKENS',
  'TOTAL_TOKENS', 'PROMPT_COST', 'COMPLETION_COST', 'TOTAL_COST',
];
/** What v1 reads of a thread's root runs. */
const V1_TURN_SELECT = [
  'id', 'trace_id', 'name', 'status', 'start_time', 'end_time', 'error', 'extra', 'inputs', 'outputs', 'first_token_time',
  'prompt_tokens', 'completion_tokens', 'total_tokens', 'prompt_cost', 'completion_cost', 'total_cost',
];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const timeText = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? new Date(v).toISOString() : null);
const quoted = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
/** A day ahead of now: an upper bound on start times that leaves room for clocks ahead of this one. */
const aheadOfNow = () => new Date(Date.now() + 24 * 3600 * 1000).toISOString();

function checkThreadId(threadId: unknown): string {
  if (typeof threadId !== 'string' || threadId.length === 0) throw new LangSmithValidationError(MSG.invalidThreadId(threadId));
  return threadId;
}

/** Seconds from start to end, or null while running. */
function latencyOf(start: string | null, end: string | null): number | null {
  if (!start || !end) return null;
  const ms = Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) ? ms / 1000 : null;
}

/** The p-th quantile of sorted values (the value at that rank), or null for none. */
function quantile(sorted: number[], p: number): number | null {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : null;
}

function sum(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? known.reduce((a, b) => a + b, 0) : null;
}

/** The thread a v1 run belongs to, from its metadata (the first of the keys present). */
function threadOfRun(r: Run): string | null {
  const md = isObject(r.extra) && isObject(r.extra['metadata']) ? r.extra['metadata'] : undefined;
  for (const k of THREAD_METADATA_KEYS) {
    const v = md?.[k];
    if (v !== undefined && v !== null && v !== '') return String(v);
  }
  return null;
}

function statusOf(error: string | null, end: string | null, status?: unknown): ThreadTurn['status'] {
  const s = typeof status === 'string' ? status.toLowerCase() : undefined;
  if (s === 'error' || s === 'success' || s === 'pending') return s;
  return error ? 'error' : end ? 'success' : 'pending';
}

function summaryFromV2(t: ThreadSummaryWire): ThreadSummary {
  return {
    thread_id: t.thread_id,
    turns: numberOrNull(t.count) ?? 0,
    first_start_time: t.min_start_time ?? null,
    last_start_time: t.max_start_time ?? t.start_time ?? null,
    first_trace_id: t.first_trace_id ?? null,
    last_trace_id: t.last_trace_id ?? t.trace_id ?? null,
    total_tokens: numberOrNull(t.total_tokens),
    total_cost: numberOrNull(t.total_cost),
    latency_p50: numberOrNull(t.latency_p50),
    latency_p99: numberOrNull(t.latency_p99),
    errored_turns: numberOrNull(t.num_errored_turns),
    first_inputs_preview: t.first_inputs ?? null,
    last_outputs_preview: t.last_outputs ?? null,
    last_error: t.last_error ?? null,
  };
}

function turnFromV2(t: ThreadTraceWire, root: { inputs?: unknown; outputs?: unknown; status?: unknown } | undefined): ThreadTurn {
  const start = t.start_time ?? null;
  const end = t.end_time ?? null;
  return {
    trace_id: t.trace_id,
    root_run_id: t.trace_id,
    name: t.name ?? null,
    status: statusOf(t.error_preview ?? null, end, root?.status),
    start_time: start,
    end_time: end,
    latency: numberOrNull(t.latency) ?? latencyOf(start, end),
    first_token_time: t.first_token_time ?? null,
    prompt_tokens: numberOrNull(t.prompt_tokens),
    completion_tokens: numberOrNull(t.completion_tokens),
    total_tokens: numberOrNull(t.total_tokens),
    prompt_cost: numberOrNull(t.prompt_cost),
    completion_cost: numberOrNull(t.completion_cost),
    total_cost: numberOrNull(t.total_cost),
    error_preview: t.error_preview ?? null,
    inputs: isObject(root?.inputs) ? root.inputs : null,
    outputs: isObject(root?.outputs) ? root.outputs : null,
  };
}

function turnFromV1(r: Run): ThreadTurn {
  const o = r as Record<string, unknown>;
  const start = timeText(r.start_time);
  const end = timeText(r.end_time);
  return {
    trace_id: r.trace_id ?? r.id,
    root_run_id: r.id,
    name: r.name ?? null,
    status: statusOf(r.error ?? null, end, r.status),
    start_time: start,
    end_time: end,
    latency: latencyOf(start, end),
    first_token_time: timeText(o['first_token_time']),
    prompt_tokens: numberOrNull(o['prompt_tokens']),
    completion_tokens: numberOrNull(o['completion_tokens']),
    total_tokens: numberOrNull(o['total_tokens']),
    prompt_cost: numberOrNull(o['prompt_cost']),
    completion_cost: numberOrNull(o['completion_cost']),
    total_cost: numberOrNull(o['total_cost']),
    error_preview: errorPreview(r.error),
    inputs: isObject(r.inputs) ? r.inputs : null,
    outputs: isObject(r.outputs) ? r.outputs : null,
  };
}

/** A thread's figures from its turns (v1, which has no thread reads). */
function statsOfTurns(turns: ThreadTurn[]): ThreadStats {
  const latencies = turns.map((t) => t.latency).filter((l): l is number => l !== null).sort((a, b) => a - b);
  const ends = turns.map((t) => t.end_time).filter((e): e is string => e !== null).sort();
  return {
    turns: turns.length,
    first_start_time: turns[0]?.start_time ?? null,
    last_start_time: turns[turns.length - 1]?.start_time ?? null,
    last_end_time: ends[ends.length - 1] ?? null,
    latency_p50: quantile(latencies, 0.5),
    latency_p99: quantile(latencies, 0.99),
    prompt_tokens: sum(turns.map((t) => t.prompt_tokens)),
    completion_tokens: sum(turns.map((t) => t.completion_tokens)),
    total_tokens: sum(turns.map((t) => t.total_tokens)),
    prompt_cost: sum(turns.map((t) => t.prompt_cost)),
    completion_cost: sum(turns.map((t) => t.completion_cost)),
    total_cost: sum(turns.map((t) => t.total_cost)),
    errored_turns: turns.filter((t) => t.status === 'error').length,
  };
}

const byStart = (a: ThreadTurn, b: ThreadTurn) => (a.start_time ?? '').localeCompare(b.start_time ?? '') || a.trace_id.localeCompare(b.trace_id);

/**
 * Threads: the conversations of a project, each the traces (turns) whose root runs name the same thread in their
 * metadata (`thread_id`, `session_id` or `conversation_id`). LangSmith 0.16 and later answer them on v2
 * (`/api/v2/threads/…`); older servers are read through v1's run query, grouped here.
 */
export class ThreadsResource {
  constructor(private readonly ctx: ClientContext) {}

  private hasV2(signal?: AbortSignal): Promise<boolean> {
    return this.ctx.versionAtLeast(THREADS_V2_MIN_VERSION, signal);
  }

  /** The project's threads, the most recently active first (POST /api/v2/threads/query; v1: root runs grouped). */
  list(o: ThreadListOptions): AsyncGenerator<ThreadSummary, void, undefined> {
    assertUuid(o.projectId, 'projectId');
    const http = this.ctx.http;
    const hasV2 = (signal?: AbortSignal) => this.hasV2(signal);
    const v1Roots = (filter: string, signal?: AbortSignal) => this.v1Roots(o.projectId, filter, signal);
    return (async function* () {
      if ((o.limit ?? Infinity) <= 0) return;
      if (!(await hasV2(o.signal))) {
        yield* groupThreads(v1Roots(`in(metadata_key, [${THREAD_METADATA_KEYS.map(quoted).join(', ')}])`, o.signal), o);
        return;
      }
      const pageSize = Math.max(1, Math.min(o.pageSize ?? 20, 100));
      let remaining = o.limit ?? Infinity;
      const base = { project_id: o.projectId, min_start_time: iso(o.startTime) ?? V2_EARLIEST_START, max_start_time: aheadOfNow() };
      yield* cursorPaged(async (cursor) => {
        const res = await http.request({
          method: 'POST',
          path: v2Path(http.apiUrl, 'threads/query'),
          json: { ...base, page_size: Math.min(pageSize, remaining), ...(cursor ? { cursor } : {}) },
          action: 'list threads',
          schema: ThreadsQueryResponseSchema,
          idempotent: true,
          signal: o.signal,
        });
        remaining -= res.items.length;
        return { items: res.items.map(summaryFromV2), next: remaining > 0 ? res.next_cursor : null };
      }, o.limit);
    })();
  }

  /**
   * The thread's turns, oldest first, at most `limit` (default 200): each trace with its root run's inputs and
   * outputs. v2 pages GET /api/v2/threads/{id}/traces and reads the payloads of each page's root runs in one
   * POST /api/v2/runs/query (the thread read answers only previews). A thread the project does not have is a
   * {@link LangSmithNotFoundError}.
   */
  async turns(threadId: string, o: ThreadReadOptions & { limit?: number }): Promise<ThreadTurn[]> {
    checkThreadId(threadId);
    assertUuid(o.projectId, 'projectId');
    const limit = o.limit ?? THREAD_TURNS_DEFAULT_LIMIT;
    if (!(await this.hasV2(o.signal))) {
      const turns = await this.v1Turns(threadId, o.projectId, o.signal);
      return turns.slice(0, limit);
    }
    const out: ThreadTurn[] = [];
    for await (const page of this.turnPages(threadId, o.projectId, undefined, limit, o.signal)) {
      const roots = await this.rootPayloads(o.projectId, page.map((t) => t.trace_id), o.signal);
      for (const t of page) out.push(turnFromV2(t, roots.get(t.trace_id)));
    }
    return out.slice(0, limit);
  }

  /**
   * The thread's figures: turns, latency p50/p99, tokens, costs (GET /api/v2/threads/{id}/stats), and the turns
   * that failed (its traces filtered by `eq(status, "error")`, which the stats do not count). v1: from the turns.
   */
  async stats(threadId: string, o: ThreadReadOptions): Promise<ThreadStats> {
    checkThreadId(threadId);
    assertUuid(o.projectId, 'projectId');
    if (!(await this.hasV2(o.signal))) return statsOfTurns(await this.v1Turns(threadId, o.projectId, o.signal));
    const s = await this.ctx.http
      .request({
        path: v2Path(this.ctx.http.apiUrl, `threads/${encodeURIComponent(threadId)}/stats`),
        query: { session_id: o.projectId, selects: STATS_SELECTS },
        action: 'read thread stats',
        schema: ThreadStatsWireSchema,
        signal: o.signal,
      })
      .catch((e: unknown) => {
        throw isNotFound(e) ? this.notFound(threadId, o.projectId, e) : e;
      });
    let errored = 0;
    for await (const page of this.turnPages(threadId, o.projectId, 'eq(status, "error")', Infinity, o.signal, ['TRACE_ID'])) errored += page.length;
    return {
      turns: numberOrNull(s.turns) ?? 0,
      first_start_time: s.first_start_time ?? null,
      last_start_time: s.last_start_time ?? null,
      last_end_time: s.last_end_time ?? null,
      latency_p50: numberOrNull(s.latency_p50_seconds),
      latency_p99: numberOrNull(s.latency_p99_seconds),
      prompt_tokens: numberOrNull(s.prompt_tokens),
      completion_tokens: numberOrNull(s.completion_tokens),
      total_tokens: numberOrNull(s.total_tokens),
      prompt_cost: numberOrNull(s.prompt_cost),
      completion_cost: numberOrNull(s.completion_cost),
      total_cost: numberOrNull(s.total_cost),
      errored_turns: errored,
    };
  }

  private notFound(threadId: string, projectId: string, cause?: unknown): LangSmithNotFoundError {
    return new LangSmithNotFoundError(MSG.threadNotFound(threadId, projectId), { action: 'read thread', cause });
  }

  /** Pages of the thread's traces (v2), oldest first, up to `limit` in all. */
  private async *turnPages(
    threadId: string,
    projectId: string,
    filter: string | undefined,
    limit: number,
    signal?: AbortSignal,
    selects: string[] = TURN_SELECTS,
  ): AsyncGenerator<ThreadTraceWire[], void, undefined> {
    let cursor: string | undefined;
    let remaining = limit;
    while (remaining > 0) {
      const res = await this.ctx.http
        .request({
          path: v2Path(this.ctx.http.apiUrl, `threads/${encodeURIComponent(threadId)}/traces`),
          query: { project_id: projectId, selects, filter, page_size: Math.min(100, remaining), cursor },
          action: 'read thread',
          schema: ThreadTracesResponseSchema,
          signal,
        })
        .catch((e: unknown) => {
          throw isNotFound(e) ? this.notFound(threadId, projectId, e) : e;
        });
      const items = res.items.slice(0, remaining);
      remaining -= items.length;
      if (items.length) yield items;
      if (!res.next_cursor || res.items.length === 0) return;
      cursor = res.next_cursor;
    }
  }

  /** The root runs' payloads and status (v2, one request for a page of turns). */
  private async rootPayloads(projectId: string, traceIds: string[], signal?: AbortSignal): Promise<Map<string, { inputs?: unknown; outputs?: unknown; status?: unknown }>> {
    if (!traceIds.length) return new Map();
    const res = await this.ctx.http.request({
      method: 'POST',
      path: v2Path(this.ctx.http.apiUrl, 'runs/query'),
      json: {
        project_ids: [projectId],
        ids: traceIds,
        is_root: true,
        min_start_time: V2_EARLIEST_START,
        max_start_time: aheadOfNow(),
        selects: ['ID', 'INPUTS', 'OUTPUTS', 'STATUS'],
        page_size: Math.min(1000, traceIds.length),
      },
      action: 'read thread',
      schema: RunsQueryV2ResponseSchema,
      idempotent: true,
      signal,
    });
    return new Map(res.items.map((r) => [r.id, r]));
  }

  /** The project's root runs that carry a thread key in their metadata (v1), matching `filter`. */
  private v1Roots(projectId: string, filter: string, signal?: AbortSignal): AsyncGenerator<Run, void, undefined> {
    const http = this.ctx.http;
    return cursorPaged(async (cursor) => {
      const res = await http.request({
        method: 'POST',
        path: '/runs/query',
        json: { session: [projectId], is_root: true, filter, select: V1_TURN_SELECT, limit: 100, ...(cursor ? { cursor } : {}) },
        action: 'read thread',
        schema: RunsQueryResponseSchema,
        idempotent: true,
        signal,
      });
      return { items: res.runs, next: res.cursors?.next };
    });
  }

  /** Every turn of a thread on v1, oldest first; none is a not-found error. */
  private async v1Turns(threadId: string, projectId: string, signal?: AbortSignal): Promise<ThreadTurn[]> {
    const filter = `and(in(metadata_key, [${THREAD_METADATA_KEYS.map(quoted).join(', ')}]), eq(metadata_value, ${quoted(threadId)}))`;
    const turns: ThreadTurn[] = [];
    for await (const r of this.v1Roots(projectId, filter, signal)) if (threadOfRun(r) === threadId) turns.push(turnFromV1(r));
    if (!turns.length) throw this.notFound(threadId, projectId);
    return turns.sort(byStart);
  }
}

/** v1: the project's threads from its root runs, grouped, the most recently active first. */
async function* groupThreads(roots: AsyncGenerator<Run, void, undefined>, o: ThreadListOptions): AsyncGenerator<ThreadSummary, void, undefined> {
  const since = iso(o.startTime);
  const byThread = new Map<string, ThreadTurn[]>();
  for await (const r of roots) {
    const thread = threadOfRun(r);
    if (thread === null) continue;
    const turn = turnFromV1(r);
    if (!byThread.has(thread)) byThread.set(thread, []);
    byThread.get(thread)!.push(turn);
  }
  const summaries: ThreadSummary[] = [];
  for (const [thread, turns] of byThread) {
    turns.sort(byStart);
    const last = turns[turns.length - 1]!;
    if (since && (last.start_time ?? '') < since) continue;
    const stats = statsOfTurns(turns);
    const failed = turns.filter((t) => t.status === 'error');
    summaries.push({
      thread_id: thread,
      turns: turns.length,
      first_start_time: stats.first_start_time,
      last_start_time: stats.last_start_time,
      first_trace_id: turns[0]!.trace_id,
      last_trace_id: last.trace_id,
      total_tokens: stats.total_tokens,
      total_cost: stats.total_cost,
      latency_p50: stats.latency_p50,
      latency_p99: stats.latency_p99,
      errored_turns: failed.length,
      first_inputs_preview: previewText(turns[0]!.inputs),
      last_outputs_preview: previewText(last.outputs),
      last_error: failed.length ? failed[failed.length - 1]!.error_preview : null,
    });
  }
  summaries.sort((a, b) => (b.last_start_time ?? '').localeCompare(a.last_start_time ?? '') || a.thread_id.localeCompare(b.thread_id));
  yield* summaries.slice(0, o.limit ?? Infinity);
}
