// Experiments read side by side (LangSmith's v2 `POST /datasets/{id}/experiment-runs`): a page of a dataset's
// examples, each experiment's root runs for them, and those runs' feedback. SQL lives here; the route shapes.
import type { Ctx } from '../context';
import { jsonOrNull } from '../json';
import { ALL_FIELDS, exampleJsonSql, originParam, registerExampleSql } from './exampleJson';
import { runFilterSql, type RunRow } from './runs';

export interface ExperimentPageQuery {
  tenantId: string;
  datasetId: string;
  experiments: string[];
  /** Only these examples (null: the whole dataset). */
  exampleIds: string[] | null;
  /** Per experiment, filter expressions its run for an example must all match for the example to be listed. */
  filters: Map<string, string[]>;
  /** Order by the mean score of one feedback key on one experiment's runs (examples without one last). */
  sort: { experiment: string; key: string; descending: boolean } | null;
  /** Pairwise feedback of this comparative experiment counts too (other pairwise feedback never does). */
  comparativeExperimentId: string | null;
  limit: number;
  offset: number;
}

/** Feedback of the runs' own workspace, of no comparative experiment or of the one asked for. */
const FEEDBACK_SCOPE = '+f.tenant_id = runs.tenant_id AND (f.comparative_experiment_id IS NULL OR f.comparative_experiment_id = ?)';

/**
 * The root runs of one experiment for the example row `e` (aliased `runs`, so run filters compile against it).
 * A `+` before a workspace column keeps SQLite from choosing the workspace-wide index over the narrow one.
 */
const ROOTS_OF_EXAMPLE = '+runs.tenant_id = ? AND runs.session_id = ? AND runs.reference_example_id = e.example_id AND runs.parent_run_id IS NULL';

/**
 * One page of the dataset's current examples as JSON text each (composed by SQLite from the stored JSON, as
 * example listings are), in the listing order (creation time, then id) unless sorted by feedback.
 */
export function experimentExamples(ctx: Ctx, q: ExperimentPageQuery, origin: string): { examples: Array<{ id: string; json: string }>; more: boolean } {
  registerExampleSql(ctx);
  const where = ['e.dataset_id = ?', 'e.valid_to IS NULL'];
  const params: unknown[] = [q.datasetId];
  if (q.exampleIds) {
    where.push('e.example_id IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(q.exampleIds));
  }
  for (const [experiment, exprs] of q.filters) {
    const compiled = exprs.map((x) => runFilterSql(x));
    where.push(`EXISTS (SELECT 1 FROM runs WHERE ${ROOTS_OF_EXAMPLE}${compiled.map((c) => ` AND (${c.sql})`).join('')})`);
    params.push(q.tenantId, experiment, ...compiled.flatMap((c) => c.params));
  }
  let order = 'e.created_at, e.example_id';
  const orderParams: unknown[] = [];
  if (q.sort) {
    const score = `(SELECT AVG(f.score) FROM runs JOIN feedback f ON f.run_id = runs.id WHERE ${ROOTS_OF_EXAMPLE} AND f.key = ? AND ${FEEDBACK_SCOPE})`;
    order = `${score} IS NULL, ${score} ${q.sort.descending ? 'DESC' : 'ASC'}, ${order}`;
    const p = [q.tenantId, q.sort.experiment, q.sort.key, q.comparativeExperimentId];
    orderParams.push(...p, ...p);
  }
  const fields = ALL_FIELDS;
  const rows = ctx.st.all<{ id: string; json: string }>(
    `SELECT e.example_id AS id, ${exampleJsonSql(fields)} AS json FROM example_revisions e INDEXED BY exrev_current
      WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ? OFFSET ?`,
    ...originParam(fields, origin), ...params, ...orderParams, q.limit + 1, q.offset,
  );
  const more = rows.length > q.limit;
  return { examples: more ? rows.slice(0, q.limit) : rows, more };
}

/** Columns a run answer may need that are large; read only when a selected field needs them. */
export const LARGE_RUN_COLUMNS = ['inputs', 'outputs', 'extra', 'events', 'serialized', 'attachments'] as const;
export type LargeRunColumn = (typeof LARGE_RUN_COLUMNS)[number];
const SMALL_RUN_COLUMNS = [
  'id', 'tenant_id', 'session_id', 'trace_id', 'parent_run_id', 'dotted_order', 'name', 'run_type', 'start_time', 'end_time', 'error',
  'tags', 'reference_example_id', 'prompt_tokens', 'completion_tokens', 'total_tokens', 'share_token', 'is_stub', 'received_at',
];

/**
 * The root runs of the experiments for these examples, oldest first; a run of an experiment with filters only
 * when it matches them. Large columns not asked for come back null.
 */
export function experimentRootRuns(
  ctx: Ctx, q: Pick<ExperimentPageQuery, 'tenantId' | 'experiments' | 'filters'>, exampleIds: string[], large: ReadonlySet<LargeRunColumn>,
): RunRow[] {
  if (!exampleIds.length) return [];
  const cols = [...SMALL_RUN_COLUMNS, ...LARGE_RUN_COLUMNS.map((c) => (large.has(c) ? c : `NULL AS ${c}`))].join(', ');
  const parts: string[] = [];
  const params: unknown[] = [];
  const plain = q.experiments.filter((x) => !q.filters.has(x));
  if (plain.length) {
    parts.push(`SELECT ${cols} FROM runs INDEXED BY runs_session_example WHERE session_id IN (SELECT value FROM json_each(?))
      AND reference_example_id IN (SELECT value FROM json_each(?)) AND parent_run_id IS NULL AND +tenant_id = ?`);
    params.push(JSON.stringify(plain), JSON.stringify(exampleIds), q.tenantId);
  }
  for (const [experiment, exprs] of q.filters) {
    const compiled = exprs.map((x) => runFilterSql(x));
    parts.push(`SELECT ${cols} FROM runs INDEXED BY runs_session_example WHERE session_id = ? AND reference_example_id IN (SELECT value FROM json_each(?))
      AND parent_run_id IS NULL AND +tenant_id = ?${compiled.map((c) => ` AND (${c.sql})`).join('')}`);
    params.push(experiment, JSON.stringify(exampleIds), q.tenantId, ...compiled.flatMap((c) => c.params));
  }
  return ctx.st.all<RunRow>(`SELECT * FROM (${parts.join(' UNION ALL ')}) ORDER BY start_time, id`, ...params);
}

/** One feedback key's figures on one run, in LangSmith's run `feedback_stats` shape. */
export interface RunKeyStats {
  n: number;
  avg: number | null;
  stdev: number | null;
  min: number | null;
  max: number | null;
  errors: number;
  /** Counts of the string values given. */
  values: Record<string, number>;
  /** The comments given, newest first (LangSmith: in no particular order). */
  comments: string[];
  /** The feedback source types seen (`api`, `model`, `app`, …). */
  sources: string[];
  contains_thread_feedback: boolean;
}

/** Per run, per key, the figures of its feedback (read in one query, newest first). */
export function runsFeedbackStats(ctx: Ctx, tenantId: string, runIds: string[], comparativeExperimentId: string | null): Map<string, Record<string, RunKeyStats>> {
  const out = new Map<string, Record<string, RunKeyStats>>();
  if (!runIds.length) return out;
  const rows = ctx.st.all<{ run_id: string; key: string; score: number | null; value: string | null; comment: string | null; source: string | null }>(
    `SELECT f.run_id, f.key, f.score, f.value, f.comment, json_extract(f.feedback_source, '$.type') AS source
       FROM feedback f INDEXED BY feedback_run WHERE f.run_id IN (SELECT value FROM json_each(?)) AND +f.tenant_id = ?
        AND (f.comparative_experiment_id IS NULL OR f.comparative_experiment_id = ?)
      ORDER BY f.created_at DESC, f.id`,
    JSON.stringify(runIds), tenantId, comparativeExperimentId,
  );
  const scores = new Map<RunKeyStats, number[]>();
  for (const r of rows) {
    let byKey = out.get(r.run_id);
    if (!byKey) out.set(r.run_id, (byKey = {}));
    let k = byKey[r.key];
    if (!k) {
      k = byKey[r.key] = { n: 0, avg: null, stdev: null, min: null, max: null, errors: 0, values: {}, comments: [], sources: [], contains_thread_feedback: false };
      scores.set(k, []);
    }
    k.n++;
    if (r.score !== null) scores.get(k)!.push(r.score);
    const value = jsonOrNull(r.value);
    if (typeof value === 'string') k.values[value] = (k.values[value] ?? 0) + 1;
    if (r.comment) k.comments.push(r.comment);
    if (r.source && !k.sources.includes(r.source)) k.sources.push(r.source);
  }
  for (const [k, xs] of scores) {
    if (!xs.length) continue;
    const avg = xs.reduce((a, b) => a + b, 0) / xs.length;
    k.avg = avg;
    k.min = Math.min(...xs);
    k.max = Math.max(...xs);
    k.stdev = xs.length > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - avg) ** 2, 0) / (xs.length - 1)) : null;
  }
  return out;
}
