// Reading experiments: the experiment projects of a dataset with their figures, a dataset's example ids, and the
// rows of a comparison (each example with every experiment's root run and its scores). The rows come from
// LangSmith's v2 dataset experiment-runs query (pages of 100 examples) where the server offers it, and
// otherwise from v1: runs queried by experiments and reference examples, their feedback by run ids, the examples
// by ids, each paged, never one request per run.
import * as z from 'zod';
import { ClientContext } from '../context';
import { LangSmithError, LangSmithNotFoundError, LangSmithValidationError } from '../errors';
import { assertUuid } from '../ids';
import { cursorPaged, offsetPaged } from '../paging';
import {
  ExampleSchema,
  ExperimentRunsV2ResponseSchema,
  FeedbackSchema,
  IdListSchema,
  ProjectWithStatsSchema,
  RunsQueryResponseSchema,
  numberOrNull,
  type Feedback,
  type ProjectWithStats,
  type Run,
} from '../schemas';
import { iso, seg, type DateLike } from './common';
import { RUNS_V2_MIN_VERSION, v2Path } from './runs';

/** One experiment (a project with `reference_dataset_id`), read with its stats. */
export interface ExperimentSummary {
  id: string;
  name: string;
  datasetId: string;
  /** ms since the epoch. */
  createdAt: number | null;
  /** Root runs. */
  runCount: number;
  /** Share of root runs that errored, 0–1; null when it has none. */
  errorRate: number | null;
  /** Seconds. */
  latencyP50: number | null;
  latencyP99: number | null;
  totalTokens: number | null;
  totalCost: number | null;
  /** Per feedback key over its runs. */
  feedback: Record<string, { n: number; avg: number | null }>;
  /** The project's `extra.metadata` (the runner writes `prompt`, `prompt_commit`, `model`, `evaluators`). */
  metadata: Record<string, unknown>;
}

/** One feedback of a run as the comparison reads it (the latest per key). */
export interface RunScore {
  score: number | null;
  value: string | null;
  comment: string | null;
}

/** An experiment's root run for one example. */
export interface ExperimentRun {
  id: string;
  traceId: string;
  /** null when `scoresOnly` was asked. */
  outputs: Record<string, unknown> | null;
  error: string | null;
  latencyMs: number | null;
  totalTokens: number | null;
  totalCost: number | null;
  feedback: Record<string, RunScore>;
}

/** One example with each experiment's root run for it (null: that experiment has none; the first when several). */
export interface ExperimentRow {
  exampleId: string;
  /** null when `scoresOnly` was asked. */
  example: { inputs: Record<string, unknown>; outputs: Record<string, unknown> | null; metadata: Record<string, unknown> | null } | null;
  runs: Record<string, ExperimentRun | null>;
}

/** The most examples one rows() call (and one v2 request) takes. */
export const EXPERIMENT_ROWS_MAX_EXAMPLES = 1000;
/** Examples per page of the v2 rows query (LangSmith's most; larger asks are refused). */
export const EXPERIMENT_ROWS_V2_PAGE = 100;
/** Ids per request of the v1 reads by id (examples, feedback by run): keeps the query string short. */
const IDS_PER_REQUEST = 100;
/** v1 reads of one rows() call in flight at once. */
const V1_PARALLEL = 4;

export interface ExperimentListOptions {
  datasetId: string;
  signal?: AbortSignal;
}

export interface ExampleIdsOptions {
  datasetId: string;
  /** The dataset at this version (a tag or a time); the latest otherwise. */
  asOf?: DateLike | null;
  /** Only the examples of this split. */
  split?: string | null;
  /** At most this many ids. */
  limit?: number;
  signal?: AbortSignal;
}

export interface ExperimentIndexOptions {
  datasetId: string;
  experimentIds: string[];
  /** At most this many examples; `more` says whether the dataset has others. */
  limit: number;
  via?: 'auto' | 'v1' | 'v2';
  signal?: AbortSignal;
}

export interface ExperimentRowsOptions {
  datasetId: string;
  experimentIds: string[];
  /** At most {@link EXPERIMENT_ROWS_MAX_EXAMPLES}; the rows come back in this order. */
  exampleIds: string[];
  /** Only the scores (and errors, latency, tokens, cost): no outputs, no example. */
  scoresOnly?: boolean;
  /** Which API answers: 'auto' (default) is v2 where the server offers it, else v1. */
  via?: 'auto' | 'v1' | 'v2';
  signal?: AbortSignal;
}

const time = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string' || !v) return null;
  // LangSmith's v1 times carry no zone: they are UTC.
  const t = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v}Z`);
  return Number.isNaN(t) ? null : t;
};

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A feedback value as the comparison shows it: text as it is, anything else as JSON, nothing as null. */
function valueText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs `work` over the items with at most `limit` at once; results in the items' order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  });
  await Promise.all(lanes);
  return out;
}

/** An experiment's summary from its project read with stats. */
export function toExperimentSummary(p: ProjectWithStats): ExperimentSummary {
  const extra = isRecord(p.extra) ? p.extra : {};
  const metadata = isRecord(extra['metadata']) ? extra['metadata'] : {};
  const runCount = numberOrNull(p.run_count) ?? 0;
  const feedback: ExperimentSummary['feedback'] = {};
  for (const [key, s] of Object.entries(p.feedback_stats ?? {})) feedback[key] = { n: numberOrNull(s.n) ?? 0, avg: numberOrNull(s.avg) };
  return {
    id: p.id,
    name: p.name,
    datasetId: p.reference_dataset_id ?? '',
    createdAt: time(p.start_time ?? (p as Record<string, unknown>)['created_at']),
    runCount,
    errorRate: runCount > 0 ? numberOrNull(p.error_rate) : null,
    latencyP50: numberOrNull(p.latency_p50),
    latencyP99: numberOrNull(p.latency_p99),
    totalTokens: numberOrNull(p.total_tokens),
    totalCost: numberOrNull(p.total_cost),
    feedback,
    metadata,
  };
}

/** The latest feedback of each key of one run. */
function scoresOf(feedback: Feedback[]): Record<string, RunScore> {
  const latest = new Map<string, Feedback>();
  for (const f of feedback) {
    const seen = latest.get(f.key);
    const when = (x: Feedback) => time(x.modified_at ?? x.created_at) ?? 0;
    if (!seen || when(f) >= when(seen)) latest.set(f.key, f);
  }
  const out: Record<string, RunScore> = {};
  for (const [key, f] of latest) {
    const score = typeof f.score === 'boolean' ? (f.score ? 1 : 0) : (f.score ?? null);
    out[key] = { score, value: valueText(f.value), comment: f.comment ?? null };
  }
  return out;
}

/** The v1 fields a comparison cell needs. */
const V1_RUN_SELECT = ['id', 'trace_id', 'session_id', 'reference_example_id', 'start_time', 'end_time', 'error', 'total_tokens', 'total_cost'] as const;
const V2_RUN_SELECTS = [
  'ID', 'TRACE_ID', 'PROJECT_ID', 'REFERENCE_EXAMPLE_ID', 'START_TIME', 'END_TIME', 'LATENCY_SECONDS', 'ERROR', 'TOTAL_TOKENS', 'TOTAL_COST', 'FEEDBACK_STATS',
] as const;

/**
 * Whether an error says the server has no such route: a 405, or a 404 that is the plain "Not Found" of an unknown
 * path (or names the path). A server with the route answers a missing dataset with a 404 that says so, and that
 * one is the caller's to see.
 */
function routeMissing(e: unknown): boolean {
  if (!(e instanceof LangSmithError)) return false;
  if (e.status === 405) return true;
  if (e.status !== 404) return false;
  const detail = (e.detail ?? '').trim();
  return detail === '' || /^not found\.?$/i.test(detail) || detail.includes('/experiment-runs');
}

export class ExperimentsResource {
  /** Set once the server answered the v2 rows query with 404 or 405: this client then reads rows on v1. */
  private v2Missing = false;

  constructor(private readonly ctx: ClientContext) {}

  /** The dataset's experiments (projects with it as reference dataset) with their figures, newest first. */
  async list(o: ExperimentListOptions): Promise<ExperimentSummary[]> {
    assertUuid(o.datasetId, 'datasetId');
    const out: ExperimentSummary[] = [];
    const pages = offsetPaged(
      (offset, limit) =>
        this.ctx.http.request({
          path: '/sessions',
          query: { reference_dataset: o.datasetId, include_stats: true, offset, limit },
          action: 'list experiments',
          schema: z.array(ProjectWithStatsSchema),
          signal: o.signal,
        }),
      { pageSize: 100 },
    );
    for await (const p of pages) out.push(toExperimentSummary(p));
    return out.sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0));
  }

  /** These experiments with their figures, in the order given. A missing one, or a project that is no experiment, is an error naming it. */
  async read(o: { ids: string[]; signal?: AbortSignal }): Promise<ExperimentSummary[]> {
    if (!o.ids.length) return [];
    for (const id of o.ids) assertUuid(id, 'experimentId');
    const wanted = [...new Set(o.ids.map((id) => id.toLowerCase()))];
    const found = new Map<string, ExperimentSummary>();
    for (const part of chunks(wanted, IDS_PER_REQUEST)) {
      const page = await this.ctx.http.request({
        path: '/sessions',
        query: { id: part, include_stats: true, limit: part.length },
        action: 'read experiments',
        schema: z.array(ProjectWithStatsSchema),
        signal: o.signal,
      });
      for (const p of page) found.set(p.id.toLowerCase(), toExperimentSummary(p));
    }
    const missing = wanted.filter((id) => !found.has(id));
    if (missing.length) throw new LangSmithNotFoundError(`Experiment${missing.length > 1 ? 's' : ''} not found: ${missing.join(', ')}`, { action: 'read experiments' });
    const notExperiments = [...found.values()].filter((e) => !e.datasetId);
    if (notExperiments.length) {
      throw new LangSmithValidationError(`Not an experiment (the project has no reference dataset): ${notExperiments.map((e) => e.name).join(', ')}`);
    }
    return o.ids.map((id) => found.get(id.toLowerCase())!);
  }

  /** The ids of the dataset's examples (of a split, at a version), in the dataset's order. */
  async exampleIds(o: ExampleIdsOptions): Promise<string[]> {
    assertUuid(o.datasetId, 'datasetId');
    const out: string[] = [];
    const pages = offsetPaged(
      (offset, limit) =>
        this.ctx.http.request({
          path: '/examples',
          query: {
            dataset: o.datasetId,
            as_of: iso(o.asOf ?? undefined),
            splits: o.split ? [o.split] : undefined,
            select: ['id'],
            offset,
            limit,
          },
          action: 'list example ids',
          schema: IdListSchema,
          signal: o.signal,
        }),
      { pageSize: 100, limit: o.limit, prefetch: 2 },
    );
    for await (const e of pages) out.push(e.id);
    return out;
  }

  /** One row per example id (in that order): the example and each experiment's root run for it. */
  async rows(o: ExperimentRowsOptions): Promise<ExperimentRow[]> {
    assertUuid(o.datasetId, 'datasetId');
    if (!o.experimentIds.length) throw new LangSmithValidationError('At least one experiment is required');
    for (const id of o.experimentIds) assertUuid(id, 'experimentId');
    for (const id of o.exampleIds) assertUuid(id, 'exampleId');
    if (o.exampleIds.length > EXPERIMENT_ROWS_MAX_EXAMPLES) {
      throw new LangSmithValidationError(`At most ${EXPERIMENT_ROWS_MAX_EXAMPLES} examples per read of experiment rows (got ${o.exampleIds.length})`);
    }
    if (!o.exampleIds.length) return [];
    const via = o.via ?? 'auto';
    if (via === 'v2' || (via === 'auto' && !this.v2Missing && (await this.ctx.versionAtLeast(RUNS_V2_MIN_VERSION, o.signal)))) {
      try {
        return await this.rowsV2(o);
      } catch (e) {
        if (via === 'v2' || !routeMissing(e)) throw e;
        this.v2Missing = true;
      }
    }
    return this.rowsV1(o);
  }

  /** Whether this client has learnt that the server has no v2 rows query. */
  get v2RowsMissing(): boolean {
    return this.v2Missing;
  }

  /**
   * Every example of the dataset (up to `limit`) with each experiment's root run, scores only: what a comparison
   * marks and counts. On v2 it pages the experiment-runs query over the whole dataset (one request per 100
   * examples, no separate listing of ids); on v1 it lists the ids, then reads the rows.
   */
  async index(o: ExperimentIndexOptions): Promise<{ rows: ExperimentRow[]; more: boolean }> {
    assertUuid(o.datasetId, 'datasetId');
    if (!o.experimentIds.length) throw new LangSmithValidationError('At least one experiment is required');
    for (const id of o.experimentIds) assertUuid(id, 'experimentId');
    const via = o.via ?? 'auto';
    if (via === 'v2' || (via === 'auto' && !this.v2Missing && (await this.ctx.versionAtLeast(RUNS_V2_MIN_VERSION, o.signal)))) {
      try {
        return await this.indexV2(o);
      } catch (e) {
        if (via === 'v2' || !routeMissing(e)) throw e;
        this.v2Missing = true;
      }
    }
    const ids = await this.exampleIds({ datasetId: o.datasetId, limit: o.limit + 1, signal: o.signal });
    const wanted = ids.slice(0, o.limit);
    const rows: ExperimentRow[] = [];
    for (const part of chunks(wanted, EXPERIMENT_ROWS_MAX_EXAMPLES)) {
      rows.push(...(await this.rowsV1({ datasetId: o.datasetId, experimentIds: o.experimentIds, exampleIds: part, scoresOnly: true, signal: o.signal })));
    }
    return { rows, more: ids.length > o.limit };
  }

  private async indexV2(o: ExperimentIndexOptions): Promise<{ rows: ExperimentRow[]; more: boolean }> {
    const rows: ExperimentRow[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await this.queryV2(o.datasetId, {
        experiment_ids: o.experimentIds,
        selects: [...V2_RUN_SELECTS],
        page_size: Math.max(1, Math.min(EXPERIMENT_ROWS_V2_PAGE, o.limit - rows.length)),
        ...(cursor ? { cursor } : {}),
      }, o.signal);
      for (const item of res.items) rows.push(this.rowOfV2(item, o.experimentIds, true));
      cursor = res.next_cursor ?? undefined;
      if (!cursor) return { rows, more: false };
      if (rows.length >= o.limit) return { rows, more: true };
    }
  }

  private queryV2(datasetId: string, json: Record<string, unknown>, signal?: AbortSignal) {
    return this.ctx.http.request({
      method: 'POST',
      path: v2Path(this.ctx.http.apiUrl, `datasets/${seg(datasetId, 'datasetId')}/experiment-runs`),
      json,
      action: 'read experiment rows',
      schema: ExperimentRunsV2ResponseSchema,
      idempotent: true,
      signal,
    });
  }

  private async rowsV2(o: ExperimentRowsOptions): Promise<ExperimentRow[]> {
    const selects = o.scoresOnly ? [...V2_RUN_SELECTS] : [...V2_RUN_SELECTS, 'OUTPUTS'];
    const byExample = new Map<string, ExperimentRow>();
    const items = cursorPaged(async (cursor) => {
      const res = await this.queryV2(o.datasetId, {
        experiment_ids: o.experimentIds,
        example_ids: o.exampleIds,
        selects,
        page_size: Math.min(o.exampleIds.length, EXPERIMENT_ROWS_V2_PAGE),
        ...(cursor ? { cursor } : {}),
      }, o.signal);
      return { items: res.items, next: res.next_cursor };
    });
    for await (const item of items) byExample.set(item.id.toLowerCase(), this.rowOfV2(item, o.experimentIds, o.scoresOnly ?? false));
    return this.ordered(o, byExample);
  }

  /** One item of the v2 experiment-runs answer as a row: the first root run of each asked-for experiment. */
  private rowOfV2(item: z.infer<typeof ExperimentRunsV2ResponseSchema>['items'][number], experimentIds: string[], scoresOnly: boolean): ExperimentRow {
    const wanted = new Set(experimentIds.map((e) => e.toLowerCase()));
    const runs: Record<string, ExperimentRun | null> = {};
    for (const e of experimentIds) runs[e] = null;
    for (const r of item.runs ?? []) {
      const project = r.project_id?.toLowerCase();
      const key = experimentIds.find((e) => e.toLowerCase() === project);
      if (!project || !wanted.has(project) || !key || runs[key]) continue;
      const start = time(r.start_time);
      const end = time(r.end_time);
      const latency = numberOrNull(r.latency_seconds);
      const feedback: Record<string, RunScore> = {};
      for (const [k, s] of Object.entries(r.feedback_stats ?? {})) {
        const values = isRecord(s.values) ? Object.entries(s.values).sort((a, b) => (numberOrNull(b[1]) ?? 0) - (numberOrNull(a[1]) ?? 0)) : [];
        feedback[k] = { score: numberOrNull(s.avg), value: values[0]?.[0] ?? null, comment: s.comments?.[0] ?? null };
      }
      runs[key] = {
        id: r.id,
        traceId: r.trace_id ?? r.id,
        outputs: scoresOnly ? null : (r.outputs ?? null),
        error: r.error ?? null,
        latencyMs: latency !== null ? Math.round(latency * 1000) : start !== null && end !== null ? end - start : null,
        totalTokens: numberOrNull(r.total_tokens),
        totalCost: numberOrNull(r.total_cost),
        feedback,
      };
    }
    return {
      exampleId: item.id,
      example: scoresOnly ? null : { inputs: item.inputs ?? {}, outputs: item.outputs ?? null, metadata: item.metadata ?? null },
      runs,
    };
  }

  private async rowsV1(o: ExperimentRowsOptions): Promise<ExperimentRow[]> {
    const http = this.ctx.http;
    const select = o.scoresOnly ? [...V1_RUN_SELECT] : [...V1_RUN_SELECT, 'outputs'];
    // The runs: root runs of these experiments for these examples, oldest first (the first per example counts).
    const runsTask = (async () => {
      const runs: Run[] = [];
      const pages = cursorPaged(async (cursor) => {
        const res = await http.request({
          method: 'POST',
          path: '/runs/query',
          json: {
            session: o.experimentIds,
            reference_example: o.exampleIds,
            is_root: true,
            select,
            order: 'asc',
            limit: 100,
            ...(cursor ? { cursor } : {}),
          },
          action: 'read experiment runs',
          schema: RunsQueryResponseSchema,
          idempotent: true,
          signal: o.signal,
        });
        return { items: res.runs, next: res.cursors?.next };
      });
      for await (const r of pages) runs.push(r);
      return runs;
    })();
    const examplesTask = o.scoresOnly
      ? Promise.resolve([])
      : mapLimited(chunks(o.exampleIds, IDS_PER_REQUEST), V1_PARALLEL, (ids) =>
          http.request({
            path: '/examples',
            query: { dataset: o.datasetId, id: ids, select: ['id', 'dataset_id', 'inputs', 'outputs', 'metadata'], limit: ids.length },
            action: 'read experiment examples',
            schema: z.array(ExampleSchema),
            signal: o.signal,
          }),
        ).then((pages) => pages.flat());
    const [runs, examples] = await Promise.all([runsTask, examplesTask]);

    // The first run of each experiment for each example, then the feedback of those runs.
    const wanted = new Map(o.experimentIds.map((e) => [e.toLowerCase(), e]));
    const first = new Map<string, Run>();
    runs.sort((a, b) => (time(a.start_time) ?? 0) - (time(b.start_time) ?? 0));
    for (const r of runs) {
      const experiment = r.session_id ? wanted.get(r.session_id.toLowerCase()) : undefined;
      const example = r.reference_example_id?.toLowerCase();
      if (!experiment || !example) continue;
      const k = `${example} ${experiment}`;
      if (!first.has(k)) first.set(k, r);
    }
    const runIds = [...first.values()].map((r) => r.id);
    const feedbackByRun = new Map<string, Feedback[]>();
    await mapLimited(chunks(runIds, IDS_PER_REQUEST), V1_PARALLEL, async (ids) => {
      const pages = offsetPaged(
        (offset, limit) =>
          http.request({
            path: '/feedback',
            query: { run: ids, offset, limit },
            action: 'read experiment feedback',
            schema: z.array(FeedbackSchema),
            signal: o.signal,
          }),
        { pageSize: 100 },
      );
      for await (const f of pages) {
        const run = f.run_id?.toLowerCase();
        if (!run) continue;
        const list = feedbackByRun.get(run) ?? [];
        list.push(f);
        feedbackByRun.set(run, list);
      }
    });

    const exampleById = new Map(examples.map((e) => [e.id.toLowerCase(), e]));
    const byExample = new Map<string, ExperimentRow>();
    for (const exampleId of o.exampleIds) {
      const ex = exampleById.get(exampleId.toLowerCase());
      const cells: Record<string, ExperimentRun | null> = {};
      for (const experiment of o.experimentIds) {
        const r = first.get(`${exampleId.toLowerCase()} ${experiment}`);
        if (!r) {
          cells[experiment] = null;
          continue;
        }
        const start = time(r.start_time);
        const end = time(r.end_time);
        const extra = r as Record<string, unknown>;
        cells[experiment] = {
          id: r.id,
          traceId: r.trace_id ?? r.id,
          outputs: o.scoresOnly ? null : (r.outputs ?? null),
          error: r.error ?? null,
          latencyMs: start !== null && end !== null ? end - start : null,
          totalTokens: numberOrNull(extra['total_tokens']),
          totalCost: numberOrNull(extra['total_cost']),
          feedback: scoresOf(feedbackByRun.get(r.id.toLowerCase()) ?? []),
        };
      }
      byExample.set(exampleId.toLowerCase(), {
        exampleId,
        example: o.scoresOnly || !ex ? null : { inputs: ex.inputs, outputs: ex.outputs ?? null, metadata: ex.metadata ?? null },
        runs: cells,
      });
    }
    return this.ordered(o, byExample);
  }

  /** The rows in the order of the example ids asked for; an id the answer left out is a row without runs. */
  private ordered(o: ExperimentRowsOptions, byExample: Map<string, ExperimentRow>): ExperimentRow[] {
    return o.exampleIds.map((id) => {
      const row = byExample.get(id.toLowerCase());
      if (row) return { ...row, exampleId: id };
      return { exampleId: id, example: null, runs: Object.fromEntries(o.experimentIds.map((e) => [e, null])) };
    });
  }
}
