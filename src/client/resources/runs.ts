import { ClientContext } from '../context';
import { LangSmithError, LangSmithValidationError } from '../errors';
import { assertUuid, uuid4 } from '../ids';
import { publicRunUrl } from '../links';
import { MSG } from '../messages';
import { cursorPaged } from '../paging';
import {
  GroupedRunStatsSchema, RunSchema, RunStatsSchema, RunsQueryResponseSchema, RunsQueryV2ResponseSchema, RunV2Schema, toRunFromV2, type Run, type RunStats,
} from '../schemas';
import { compact, iso, seg, type DateLike } from './common';
import type { ProjectsResource } from './projects';

/** The first LangSmith version serving the v2 run reads (/api/v2/runs/…); the official client checks the same. */
export const RUNS_V2_MIN_VERSION = '0.16.0';

/**
 * Each field of a v1 run and the v2 `selects` that carry it. v2 answers only what is selected (just the id when
 * nothing is), so a read asks for every field a v1 run has, or for those of the caller's `select`.
 */
const V2_SELECTS: Readonly<Record<string, readonly string[]>> = {
  id: ['ID'],
  name: ['NAME'],
  run_type: ['RUN_TYPE'],
  status: ['STATUS'],
  start_time: ['START_TIME'],
  end_time: ['END_TIME'],
  inputs: ['INPUTS'],
  outputs: ['OUTPUTS'],
  error: ['ERROR'],
  // v1's extra holds the metadata, which v2 may answer apart.
  extra: ['EXTRA', 'METADATA'],
  events: ['EVENTS'],
  tags: ['TAGS'],
  session_id: ['PROJECT_ID'],
  trace_id: ['TRACE_ID'],
  dotted_order: ['DOTTED_ORDER'],
  parent_run_id: ['PARENT_RUN_IDS'],
  parent_run_ids: ['PARENT_RUN_IDS'],
  reference_example_id: ['REFERENCE_EXAMPLE_ID'],
  total_tokens: ['TOTAL_TOKENS'],
  prompt_tokens: ['PROMPT_TOKENS'],
  completion_tokens: ['COMPLETION_TOKENS'],
  total_cost: ['TOTAL_COST'],
  prompt_cost: ['PROMPT_COST'],
  completion_cost: ['COMPLETION_COST'],
  first_token_time: ['FIRST_TOKEN_TIME'],
  feedback_stats: ['FEEDBACK_STATS'],
  app_path: ['APP_PATH'],
  in_dataset: ['IS_IN_DATASET'],
  // v2 answers a shared run's public link; the tree reads the token in it (shared rows offer Stop Sharing).
  share_token: ['SHARE_URL'],
};
const ALL_V1_FIELDS = Object.keys(V2_SELECTS);

/** v2 takes only these run types (upper case); another one is left to v1, which simply finds no runs of it. */
const V2_RUN_TYPES = new Set(['TOOL', 'CHAIN', 'LLM', 'RETRIEVER', 'EMBEDDING', 'PROMPT', 'PARSER']);

/**
 * v2 looks back one day unless told otherwise; v1 has no such window. Without a start bound from the caller
 * the query starts here, so that both find the same runs.
 */
export const V2_EARLIEST_START = '1970-01-01T00:00:00.000Z';

/** The v2 selects for these v1 fields, or undefined when one of them has no v2 counterpart (v1 must answer). */
function v2Selects(fields: readonly string[]): string[] | undefined {
  const out = new Set<string>();
  for (const f of fields) {
    const s = V2_SELECTS[f];
    if (!s) return undefined;
    for (const x of s) out.add(x);
  }
  out.add('ID');
  return [...out];
}

/**
 * A v2 path relative to the configured API URL. v2 lives at `{root}/api/v2/…`, where the root is the API URL
 * without its `/api/v1` or `/api` (as the official client derives it): the API root itself for LangSmith's
 * cloud, one level up from a self-hosted `…/api/v1`.
 */
export function v2Path(apiUrl: string, rest: string): string {
  const clean = rest.replace(/^\/+/, '');
  if (/\/api\/v1$/.test(apiUrl)) return `/../v2/${clean}`;
  if (/\/api$/.test(apiUrl)) return `/v2/${clean}`;
  return `/api/v2/${clean}`;
}

/** Keeps the id and the asked-for fields, as v1 answers a query with `select`. */
function onlyFields(run: Run, fields: readonly string[]): Run {
  const out: Record<string, unknown> = { id: run.id };
  for (const f of fields) if (f in run) out[f] = (run as Record<string, unknown>)[f];
  return out as Run;
}

export interface RunReadOptions {
  /**
   * The run's project. LangSmith's v2 read (0.16 and later) addresses a run by project, so only with it does the
   * read go to v2; without it, to v1 (which every version serves).
   */
  projectId?: string;
  /** The run's start time: helps LangSmith find it on v2. */
  startTime?: DateLike;
  /**
   * Also the links of its attachments: v2's `attachments` (name → pre-signed URL). v1 always answers them, as
   * `s3_urls` (`attachment.<name>` → `{presigned_url, …}`).
   */
  attachments?: boolean;
  signal?: AbortSignal;
}

export interface RunQueryOptions {
  projectId?: string;
  projectIds?: string[];
  projectName?: string;
  traceId?: string;
  parentRunId?: string;
  runIds?: string[];
  isRoot?: boolean;
  runType?: string;
  error?: boolean;
  /** LangSmith filter expression, e.g. `eq(name, "x")`. */
  filter?: string;
  traceFilter?: string;
  treeFilter?: string;
  startTime?: DateLike;
  endTime?: DateLike;
  select?: string[];
  order?: 'asc' | 'desc';
  /** Total to yield. */
  limit?: number;
  /** Runs per request (default 100). */
  pageSize?: number;
  signal?: AbortSignal;
}

/** What `runs.stats` matches: a run query's filters, without paging, and optionally a grouping. */
export type RunStatsOptions = Omit<RunQueryOptions, 'select' | 'order' | 'limit' | 'pageSize'> & {
  /** Text searched in the runs (LangSmith's `query`). */
  query?: string;
  groupBy?: { attribute: 'name' | 'run_type' | 'tag' | 'metadata'; path?: string; maxGroups?: number };
};

/** What both run queries check before a request: one project by id or by name, and ids that are UUIDs. */
function checkRunQuery(o: RunQueryOptions): void {
  if (o.projectId !== undefined && o.projectName !== undefined) throw new LangSmithValidationError(MSG.projectIdAndName);
  if (o.projectId !== undefined) assertUuid(o.projectId, 'projectId');
  for (const p of o.projectIds ?? []) assertUuid(p, 'projectId');
  for (const r of o.runIds ?? []) assertUuid(r, 'runId');
  if (o.traceId !== undefined) assertUuid(o.traceId, 'traceId');
  if (o.parentRunId !== undefined) assertUuid(o.parentRunId, 'parentRunId');
}

/** The v1 body of a run query (POST /runs/query, /runs/stats) for these options and project ids. */
function v1RunQuery(o: RunQueryOptions, sessions: string[]) {
  return {
    session: sessions.length ? sessions : undefined,
    trace: o.traceId,
    parent_run: o.parentRunId,
    id: o.runIds,
    is_root: o.isRoot,
    run_type: o.runType,
    error: o.error,
    filter: o.filter,
    trace_filter: o.traceFilter,
    tree_filter: o.treeFilter,
    start_time: iso(o.startTime),
    end_time: iso(o.endTime),
  };
}

export class RunsResource {
  constructor(
    private readonly ctx: ClientContext,
    private readonly projects: ProjectsResource,
  ) {}

  /** Whether this server has the v2 run reads (its /info version, read once per client). */
  private hasV2(signal?: AbortSignal): Promise<boolean> {
    return this.ctx.versionAtLeast(RUNS_V2_MIN_VERSION, signal);
  }

  /** One run: GET /api/v2/runs/{id} when the server has it and the project is known, else GET /runs/{id}. */
  async read(runId: string, o: RunReadOptions = {}): Promise<Run> {
    const id = seg(runId, 'runId');
    if (o.projectId !== undefined) assertUuid(o.projectId, 'projectId');
    if (o.projectId === undefined || !(await this.hasV2(o.signal))) {
      return this.ctx.http.request({ path: `/runs/${id}`, action: 'read run', schema: RunSchema, signal: o.signal });
    }
    const run = await this.ctx.http.request({
      path: v2Path(this.ctx.http.apiUrl, `runs/${id}`),
      query: { project_id: o.projectId, start_time: iso(o.startTime), selects: [...v2Selects(ALL_V1_FIELDS)!, ...(o.attachments ? ['ATTACHMENTS'] : [])] },
      action: 'read run',
      schema: RunV2Schema,
      signal: o.signal,
    });
    return toRunFromV2(run, ALL_V1_FIELDS);
  }

  /**
   * Lazily pages the runs by cursor: POST /api/v2/runs/query when the server has it and the query names its
   * projects (v2 needs them), else POST /runs/query. The runs come in the v1 shape either way.
   */
  query(o: RunQueryOptions = {}): AsyncGenerator<Run, void, undefined> {
    checkRunQuery(o);
    const projects = this.projects;
    const http = this.ctx.http;
    const hasV2 = (signal?: AbortSignal) => this.hasV2(signal);
    return (async function* () {
      const sessions = [...(o.projectIds ?? [])];
      if (o.projectId) sessions.push(o.projectId);
      if (o.projectName !== undefined) sessions.push((await projects.read({ projectName: o.projectName, signal: o.signal })).id);
      const pageSize = Math.min(o.pageSize ?? 100, 100);
      let remaining = o.limit ?? Infinity;
      const fields = o.select ?? ALL_V1_FIELDS;
      const selects = v2Selects(fields);
      const runType = o.runType?.toUpperCase();
      const v2 = sessions.length > 0 && selects !== undefined && (runType === undefined || V2_RUN_TYPES.has(runType)) && (await hasV2(o.signal));
      if (v2) {
        // v2 has no parent filter: the filter language's parent_run_id says the same.
        const parentFilter = o.parentRunId !== undefined ? `eq(parent_run_id, "${o.parentRunId}")` : undefined;
        const filter = parentFilter && o.filter ? `and(${parentFilter}, ${o.filter})` : (parentFilter ?? o.filter);
        const base = compact({
          project_ids: sessions,
          ids: o.runIds,
          trace_id: o.traceId,
          is_root: o.isRoot,
          run_type: runType,
          has_error: o.error,
          filter,
          trace_filter: o.traceFilter,
          tree_filter: o.treeFilter,
          min_start_time: iso(o.startTime) ?? V2_EARLIEST_START,
          // v2 pages by offset and ends the window at "now" on each page unless told: pinning the end at the
          // first page keeps runs that start while the pages are read from pushing earlier ones onto the next page.
          max_start_time: iso(o.endTime) ?? new Date().toISOString(),
          selects,
          sort_order: o.order?.toUpperCase(),
        });
        yield* cursorPaged(async (cursor) => {
          const res = await http.request({
            method: 'POST',
            path: v2Path(http.apiUrl, 'runs/query'),
            json: { ...base, page_size: Math.min(pageSize, remaining), cursor },
            action: 'query runs',
            schema: RunsQueryV2ResponseSchema,
            idempotent: true,
            signal: o.signal,
          });
          remaining -= res.items.length;
          const runs = res.items.map((r) => toRunFromV2(r, fields));
          return { items: o.select ? runs.map((r) => onlyFields(r, fields)) : runs, next: remaining > 0 ? res.next_cursor : null };
        }, o.limit);
        return;
      }
      const base = compact({
        ...v1RunQuery(o, sessions),
        select: o.select,
        order: o.order,
      });
      yield* cursorPaged(async (cursor) => {
        const res = await http.request({
          method: 'POST',
          path: '/runs/query',
          json: { ...base, limit: Math.min(pageSize, remaining), cursor },
          action: 'query runs',
          schema: RunsQueryResponseSchema,
          idempotent: true,
          signal: o.signal,
        });
        remaining -= res.runs.length;
        return { items: res.runs, next: remaining > 0 ? res.cursors?.next : null };
      }, o.limit);
    })();
  }

  /**
   * POST /runs/stats: the figures of the runs a query matches (LangSmith's RunStats); with `groupBy`, of each of
   * the largest groups (name, run type, tag or a metadata key; `maxGroups`, default 5), keyed by group.
   */
  stats(o: RunStatsOptions & { groupBy: NonNullable<RunStatsOptions['groupBy']> }): Promise<Record<string, RunStats>>;
  stats(o?: RunStatsOptions & { groupBy?: undefined }): Promise<RunStats>;
  async stats(o: RunStatsOptions = {}): Promise<RunStats | Record<string, RunStats>> {
    checkRunQuery(o);
    const sessions = [...(o.projectIds ?? [])];
    if (o.projectId) sessions.push(o.projectId);
    if (o.projectName !== undefined) sessions.push((await this.projects.read({ projectName: o.projectName, signal: o.signal })).id);
    const g = o.groupBy;
    const json = compact({
      ...v1RunQuery(o, sessions),
      query: o.query,
      group_by: g ? compact({ attribute: g.attribute, path: g.path, max_groups: g.maxGroups }) : undefined,
    });
    const common = { method: 'POST' as const, path: '/runs/stats', json, action: 'read run stats', idempotent: true, signal: o.signal };
    return g ? this.ctx.http.request({ ...common, schema: GroupedRunStatsSchema }) : this.ctx.http.request({ ...common, schema: RunStatsSchema });
  }

  /** PUT /runs/{id}/share: the public link of the run. */
  async share(runId: string, o: { shareId?: string; signal?: AbortSignal } = {}): Promise<string> {
    const id = seg(runId, 'runId');
    const token = o.shareId ?? uuid4();
    assertUuid(token, 'shareId');
    const res = await this.ctx.http.request({
      method: 'PUT',
      path: `/runs/${id}/share`,
      json: { run_id: runId, share_token: token },
      action: 'share run',
      signal: o.signal,
    });
    if (res === null || typeof res !== 'object' || typeof (res as { share_token?: unknown }).share_token !== 'string') {
      throw new LangSmithError(MSG.invalidShareResponse, { action: 'share run' });
    }
    return publicRunUrl(this.ctx.webUrl, (res as { share_token: string }).share_token);
  }

  /** GET /runs/{id}/share: the public link, or undefined when the run is not shared. */
  async readShareLink(runId: string, o: { signal?: AbortSignal } = {}): Promise<string | undefined> {
    const res = await this.ctx.http.request({ path: `/runs/${seg(runId, 'runId')}/share`, action: 'read run shared link', signal: o.signal });
    if (res === null || typeof res !== 'object' || typeof (res as { share_token?: unknown }).share_token !== 'string') return undefined;
    return publicRunUrl(this.ctx.webUrl, (res as { share_token: string }).share_token);
  }

  async unshare(runId: string, o: { signal?: AbortSignal } = {}): Promise<void> {
    await this.ctx.http.request({
      method: 'DELETE',
      path: `/runs/${seg(runId, 'runId')}/share`,
      action: 'unshare run',
      responseType: 'none',
      signal: o.signal,
    });
  }

  /** Whether the run is shared: its public link exists. */
  async isShared(runId: string, o: { signal?: AbortSignal } = {}): Promise<boolean> {
    return (await this.readShareLink(runId, o)) !== undefined;
  }
}

