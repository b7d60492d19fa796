import { ClientContext } from '../context';
import { LangSmithNotFoundError, isNotFound } from '../errors';
import { assertUuid } from '../ids';
import { MSG } from '../messages';
import { cursorPaged } from '../paging';
import {
  RunsQueryResponseSchema,
  TraceRunsV2ResponseSchema,
  numberOrNull,
  type Run,
  type RunV2,
  type TraceRun,
} from '../schemas';
import { RUNS_V2_MIN_VERSION, V2_EARLIEST_START, v2Path } from './runs';

/** Runs per request of the v1 read (the most /runs/query answers at once). */
export const TRACE_V1_PAGE_SIZE = 100;

/** How long an error preview is (as the local server cuts v2's ERROR_PREVIEW). */
export const ERROR_PREVIEW_CHARS = 150;

/**
 * The v2 selects of a tree row: nothing of the payloads, and nothing the read already knows. The dotted order
 * names the parent (its second-to-last segment) and orders the tree, so the ancestors' ids are not asked for;
 * the trace and the project are the read's own. A deep trace's answer is half the size without them.
 */
const TREE_V2_SELECTS = [
  'ID', 'NAME', 'RUN_TYPE', 'STATUS', 'START_TIME', 'END_TIME', 'DOTTED_ORDER',
  'TOTAL_TOKENS', 'PROMPT_TOKENS', 'COMPLETION_TOKENS', 'TOTAL_COST', 'PROMPT_COST', 'COMPLETION_COST', 'FIRST_TOKEN_TIME',
  'ERROR_PREVIEW', 'THREAD_ID',
] as const;

/**
 * The same on v1 (whose `error` is whole: the preview is cut here). Not `thread_id`: servers before 0.16, the ones
 * read on v1, may not know it as a select (and refuse the query); the row's thread_id is then null.
 */
const TREE_V1_SELECT = [
  'id', 'name', 'run_type', 'status', 'start_time', 'end_time', 'parent_run_id', 'dotted_order', 'trace_id', 'session_id',
  'total_tokens', 'prompt_tokens', 'completion_tokens', 'total_cost', 'prompt_cost', 'completion_cost', 'first_token_time',
  'error',
] as const;

export interface TraceReadOptions {
  /** The trace's project. v2 reads a trace by project: without it, one small v1 read finds it first. */
  projectId?: string;
  signal?: AbortSignal;
}

export interface TraceRuns {
  /** Every run of the trace, in tree order (by dotted order: depth first, siblings by start). */
  runs: TraceRun[];
  /** Which API answered: v2's trace read (LangSmith 0.16 and later) or v1's query by trace. */
  source: 'v2' | 'v1';
  /** Requests the read took (a /info read to learn the version is not counted). */
  requests: number;
}

/** The filter for runs containing the text: `search("…")` with `"` and `\` escaped. */
export function searchFilter(text: string): string {
  return `search("${text.replace(/[\\"]/g, (c) => `\\${c}`)}")`;
}

/** A value cut to a preview: a string as it is, anything else as JSON; null for nothing. */
export function previewText(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > ERROR_PREVIEW_CHARS ? `${text.slice(0, ERROR_PREVIEW_CHARS)}…` : text;
}

/** An error cut as v2's ERROR_PREVIEW is. */
export const errorPreview = previewText;

const text = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? new Date(v).toISOString() : null);
const lower = (v: unknown): string | null => (typeof v === 'string' ? v.toLowerCase() : null);

/** Compares dotted orders (then ids), runs without one last. */
export function byDottedOrder(a: { dotted_order?: string | null; id: string }, b: { dotted_order?: string | null; id: string }): number {
  const x = a.dotted_order ?? '\uffff';
  const y = b.dotted_order ?? '\uffff';
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The run a dotted order names as the parent: the id in its second-to-last segment (`<time>Z<id>`). */
export function dottedParentId(dotted: string | null | undefined): string | null {
  if (!dotted) return null;
  const end = dotted.lastIndexOf('.');
  if (end < 0) return null;
  const segment = dotted.slice(dotted.lastIndexOf('.', end - 1) + 1, end);
  const z = segment.indexOf('Z');
  const id = z >= 0 ? segment.slice(z + 1) : segment;
  return id ? id.toLowerCase() : null;
}

/** A tree row from v2's answer (the trace and project are the read's). */
function fromV2(r: RunV2, traceId: string, projectId: string): TraceRun {
  const parents = r.parent_run_ids;
  return {
    id: r.id,
    ...(typeof r.name === 'string' ? { name: r.name } : {}),
    ...(typeof r.run_type === 'string' ? { run_type: r.run_type.toLowerCase() } : {}),
    status: lower(r.status),
    start_time: text(r.start_time),
    end_time: text(r.end_time),
    parent_run_id: parents?.length ? parents[parents.length - 1]! : dottedParentId(r.dotted_order),
    dotted_order: r.dotted_order ?? null,
    trace_id: r.trace_id ?? traceId,
    session_id: r.project_id ?? projectId,
    total_tokens: numberOrNull(r.total_tokens),
    prompt_tokens: numberOrNull(r.prompt_tokens),
    completion_tokens: numberOrNull(r.completion_tokens),
    total_cost: numberOrNull(r.total_cost),
    prompt_cost: numberOrNull(r.prompt_cost),
    completion_cost: numberOrNull(r.completion_cost),
    first_token_time: text(r.first_token_time),
    error_preview: r.error_preview ?? null,
    thread_id: r.thread_id ?? null,
  };
}

/** A tree row from v1's answer. */
function fromV1(r: Run): TraceRun {
  const o = r as Record<string, unknown>;
  return {
    id: r.id,
    ...(typeof r.name === 'string' ? { name: r.name } : {}),
    ...(typeof r.run_type === 'string' ? { run_type: r.run_type.toLowerCase() } : {}),
    status: lower(r.status) ?? (r.error ? 'error' : r.end_time ? 'success' : 'pending'),
    start_time: text(r.start_time),
    end_time: text(r.end_time),
    parent_run_id: r.parent_run_id ?? null,
    dotted_order: r.dotted_order ?? null,
    trace_id: r.trace_id ?? null,
    session_id: r.session_id ?? null,
    total_tokens: numberOrNull(o['total_tokens']),
    prompt_tokens: numberOrNull(o['prompt_tokens']),
    completion_tokens: numberOrNull(o['completion_tokens']),
    total_cost: numberOrNull(o['total_cost']),
    prompt_cost: numberOrNull(o['prompt_cost']),
    completion_cost: numberOrNull(o['completion_cost']),
    first_token_time: text(o['first_token_time']),
    error_preview: errorPreview(r.error),
    thread_id: typeof o['thread_id'] === 'string' ? o['thread_id'] : null,
  };
}

/**
 * The runs of one trace, for the trace viewer: the tree (every run, with only what a row shows) and a search
 * within it. v2 (`GET /api/v2/traces/{id}/runs`, LangSmith 0.16 and later) reads a trace in one request; v1
 * pages `POST /runs/query` by trace.
 */
export class TracesResource {
  constructor(private readonly ctx: ClientContext) {}

  private hasV2(signal?: AbortSignal): Promise<boolean> {
    return this.ctx.versionAtLeast(RUNS_V2_MIN_VERSION, signal);
  }

  /**
   * Every run of the trace with the fields of its tree row (id, name, run_type, status, times, parent, dotted
   * order, trace, project, tokens, costs, first token time, error preview, thread id). A trace that does not
   * exist (or not in the given project) is a {@link LangSmithNotFoundError} naming it, on either API.
   */
  async runs(traceId: string, o: TraceReadOptions = {}): Promise<TraceRuns> {
    assertUuid(traceId, 'traceId');
    if (o.projectId !== undefined) assertUuid(o.projectId, 'projectId');
    let requests = 0;
    if (await this.hasV2(o.signal)) {
      let projectId = o.projectId;
      if (projectId === undefined) {
        requests++;
        projectId = await this.projectOf(traceId, o.signal);
      }
      requests++;
      const items = await this.v2Runs(traceId, projectId, [...TREE_V2_SELECTS], undefined, o.signal);
      const project = projectId;
      return { runs: items.map((r) => fromV2(r, traceId, project)).sort(byDottedOrder), source: 'v2', requests };
    }
    const runs: TraceRun[] = [];
    for await (const r of this.v1Runs(traceId, o.projectId, [...TREE_V1_SELECT], undefined, () => requests++, o.signal)) runs.push(fromV1(r));
    if (runs.length === 0) throw this.notFound(traceId, o.projectId);
    return { runs: runs.sort(byDottedOrder), source: 'v1', requests };
  }

  /**
   * The ids of the trace's runs whose name, inputs, outputs, error (or tags, metadata) contain `text`, in tree
   * order: the filter language's `search("…")`. An unknown trace is a not-found error on v2; on v1 it finds nothing.
   */
  async find(traceId: string, text: string, o: TraceReadOptions = {}): Promise<string[]> {
    assertUuid(traceId, 'traceId');
    if (o.projectId !== undefined) assertUuid(o.projectId, 'projectId');
    const filter = searchFilter(text);
    if (await this.hasV2(o.signal)) {
      const projectId = o.projectId ?? (await this.projectOf(traceId, o.signal));
      const items = await this.v2Runs(traceId, projectId, ['ID', 'DOTTED_ORDER'], filter, o.signal);
      return items.map((r) => ({ id: r.id, dotted_order: r.dotted_order ?? null })).sort(byDottedOrder).map((r) => r.id);
    }
    const found: { id: string; dotted_order: string | null }[] = [];
    for await (const r of this.v1Runs(traceId, o.projectId, ['id', 'dotted_order'], filter, () => undefined, o.signal)) {
      found.push({ id: r.id, dotted_order: r.dotted_order ?? null });
    }
    return found.sort(byDottedOrder).map((r) => r.id);
  }

  private notFound(traceId: string, projectId?: string, cause?: unknown): LangSmithNotFoundError {
    return new LangSmithNotFoundError(MSG.traceNotFound(traceId, projectId), { action: 'read trace', cause });
  }

  /** The trace's project, from its root run (v1's query of one run, one field). */
  private async projectOf(traceId: string, signal?: AbortSignal): Promise<string> {
    const res = await this.ctx.http.request({
      method: 'POST',
      path: '/runs/query',
      json: { id: [traceId], select: ['session_id'], limit: 1 },
      action: 'read trace',
      schema: RunsQueryResponseSchema,
      idempotent: true,
      signal,
    });
    const project = res.runs[0]?.session_id;
    if (!project) throw this.notFound(traceId);
    return project;
  }

  private async v2Runs(traceId: string, projectId: string, selects: string[], filter: string | undefined, signal?: AbortSignal): Promise<RunV2[]> {
    const res = await this.ctx.http
      .request({
        path: v2Path(this.ctx.http.apiUrl, `traces/${traceId}/runs`),
        query: {
          project_id: projectId,
          selects,
          filter,
          // LangSmith asks for a window: the whole past, and a day ahead for clocks that run ahead of this one.
          min_start_time: V2_EARLIEST_START,
          max_start_time: new Date(Date.now() + 24 * 3600 * 1000).toISOString(),
        },
        action: 'read trace',
        schema: TraceRunsV2ResponseSchema,
        signal,
      })
      .catch((e: unknown) => {
        throw isNotFound(e) ? this.notFound(traceId, projectId, e) : e;
      });
    // A trace of another project answers no runs.
    if (res.items.length === 0 && filter === undefined) throw this.notFound(traceId, projectId);
    return res.items;
  }

  private v1Runs(
    traceId: string,
    projectId: string | undefined,
    select: string[],
    filter: string | undefined,
    counted: () => void,
    signal?: AbortSignal,
  ): AsyncGenerator<Run, void, undefined> {
    const http = this.ctx.http;
    return cursorPaged(async (cursor) => {
      counted();
      const res = await http.request({
        method: 'POST',
        path: '/runs/query',
        json: {
          trace: traceId,
          ...(projectId !== undefined ? { session: [projectId] } : {}),
          ...(filter !== undefined ? { filter } : {}),
          select,
          limit: TRACE_V1_PAGE_SIZE,
          ...(cursor !== undefined ? { cursor } : {}),
        },
        action: 'read trace',
        schema: RunsQueryResponseSchema,
        idempotent: true,
        signal,
      });
      return { items: res.runs, next: res.cursors?.next };
    });
  }
}
