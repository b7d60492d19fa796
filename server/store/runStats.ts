// Run stats (`POST /runs/stats`): the figures of the runs a query matches, in LangSmith's RunStats shape, whole or
// per group (name, run type, tag or a metadata key). Read from the runs' derived columns in one pass; feedback by
// one grouped query. The accumulator is shared with the project dashboard (dashboard.ts), which keeps one per bucket.
import type { Ctx } from '../context';
import { HttpError } from '../errors';
import { runWhere, type RunQuery, type RunScope } from './runs';

/** LangSmith's RunStats: what this server works out (the rest of the schema's fields it answers as null). */
export interface RunStats {
  run_count: number;
  latency_p50: number | null;
  latency_p99: number | null;
  latency_avg: number | null;
  first_token_p50: number | null;
  first_token_p99: number | null;
  total_tokens: number;
  prompt_tokens: number;
  completion_tokens: number;
  median_tokens: number | null;
  completion_tokens_p50: number | null;
  prompt_tokens_p50: number | null;
  tokens_p99: number | null;
  completion_tokens_p99: number | null;
  prompt_tokens_p99: number | null;
  last_run_start_time: string | null;
  feedback_stats: Record<string, FeedbackKeyStats>;
  run_facets: null;
  error_rate: number | null;
  streaming_rate: number | null;
  total_cost: number | null;
  prompt_cost: number | null;
  completion_cost: number | null;
  cost_p50: number | null;
  cost_p99: number | null;
  prompt_token_details: null;
  completion_token_details: null;
  prompt_cost_details: null;
  completion_cost_details: null;
}

/** One feedback key's figures, as LangSmith's feedback_stats hold them. */
export interface FeedbackKeyStats {
  n: number;
  avg: number | null;
  stdev: number | null;
  min: number | null;
  max: number | null;
  errors: number;
  values: Record<string, number>;
  contains_thread_feedback: boolean;
}

/**
 * The value at quantile p of ascending values, nearest rank from below: the element at floor(p·n) (as the project
 * stats of GET /sessions work it out), so p50 of [1, 2, 3, 4] is 3 and p99 of fewer than 100 values is the largest.
 */
export function quantile(sorted: ArrayLike<number>, p: number): number | null {
  const n = sorted.length;
  return n ? sorted[Math.min(n - 1, Math.floor(p * n))]! : null;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The columns quantiles are taken of. */
export type QuantileColumn = 'latency' | 'first_token' | 'total_tokens' | 'prompt_tokens' | 'completion_tokens' | 'total_cost';
export const QUANTILE_COLUMNS: readonly QuantileColumn[] = ['latency', 'first_token', 'total_tokens', 'prompt_tokens', 'completion_tokens', 'total_cost'];

/** The quantile metrics: the column each is taken of, and at which quantile. */
export const QUANTILE_METRICS: Readonly<Record<string, readonly [QuantileColumn, number]>> = {
  latency_p50: ['latency', 0.5],
  latency_p99: ['latency', 0.99],
  first_token_p50: ['first_token', 0.5],
  first_token_p99: ['first_token', 0.99],
  median_tokens: ['total_tokens', 0.5],
  tokens_p99: ['total_tokens', 0.99],
  prompt_tokens_p50: ['prompt_tokens', 0.5],
  prompt_tokens_p99: ['prompt_tokens', 0.99],
  completion_tokens_p50: ['completion_tokens', 0.5],
  completion_tokens_p99: ['completion_tokens', 0.99],
  cost_p50: ['total_cost', 0.5],
  cost_p99: ['total_cost', 0.99],
};

/**
 * The columns a stats source must have (a subquery over `runs`, or `runs` itself): what SUMS_SQL and the quantile
 * reads use, all held by the runs_session_stats index, so a project's runs are read from the index alone.
 */
export const STATS_SOURCE_COLUMNS = 'start_time, status, latency, first_token, total_tokens, prompt_tokens, completion_tokens, total_cost, prompt_cost, completion_cost';

/**
 * The sums and counts of a set of runs, worked out in SQL (an aggregate over a source with STATS_SOURCE_COLUMNS),
 * read by StatsAcc.addSums in this order; SUMS_WIDTH columns.
 */
export const SUMS_PARTS: ReadonlyArray<readonly [aggregate: string, argument: string]> = [
  ['COUNT', '*'], ['SUM', "status = 'error'"], ['COUNT', 'first_token'], ['MAX', 'start_time'], ['SUM', 'total_tokens'], ['SUM', 'prompt_tokens'],
  ['SUM', 'completion_tokens'], ['SUM', 'total_cost'], ['SUM', 'prompt_cost'], ['SUM', 'completion_cost'], ['SUM', 'latency'], ['COUNT', 'latency'],
];
export const SUMS_SQL = SUMS_PARTS.map(([agg, arg]) => `${agg}(${arg})`).join(', ');
export const SUMS_WIDTH = 12;

/**
 * Columns whose values are read packed: each as a whole number of 1/scale units, in one comma-separated text per
 * set of runs (a read of every value one row at a time costs far more than the sums); see packedSql.
 */
export const PACKED_SCALE: Partial<Record<QuantileColumn, number>> = {
  latency: 1000, first_token: 1000, total_tokens: 1, prompt_tokens: 1, completion_tokens: 1,
};

/**
 * SQL of two aggregates of a column's values (`expr`, NULL for a run left out): the values packed (whole numbers of
 * 1/scale units, comma separated) and whether every value is exactly its packed number over the scale — true for the
 * seconds (rounded to the millisecond when written) and the token counts; when false the values must be read as
 * they are.
 */
export const packedSql = (expr: string, scale: number): [string, string] => [
  `group_concat(CAST(ROUND(${expr} * ${scale}) AS INTEGER))`,
  `MIN(ROUND(${expr} * ${scale}) / ${scale}.0 = ${expr})`,
];

/** Adds the values packedSql packed (none when null) to an accumulator. */
export function addPacked(acc: StatsAcc, column: QuantileColumn, text: string | null, scale: number): void {
  if (text === null) return;
  for (const s of text.split(',')) acc.addValue(column, Number(s) / scale);
}

const plus = (a: number | null, b: number | null) => (b === null ? a : (a ?? 0) + b);

/**
 * The figures of one set of runs: sums and counts (from SUMS_SQL rows, added up when a set is read in parts) and the
 * values of the columns quantiles are taken of (only those read, one by one).
 */
export class StatsAcc {
  n = 0;
  errors = 0;
  streamed = 0;
  last: string | null = null;
  tokens = 0;
  promptTokens = 0;
  completionTokens = 0;
  cost: number | null = null;
  promptCost: number | null = null;
  completionCost: number | null = null;
  latencySum = 0;
  latencyCount = 0;
  private readonly values: Partial<Record<QuantileColumn, number[]>> = {};
  private readonly sorted: Partial<Record<QuantileColumn, Float64Array>> = {};

  /** Adds the sums and counts of a SUMS_SQL row whose columns start at index `o` of `r`. */
  addSums(r: readonly unknown[], o = 0): void {
    const num = (i: number) => r[o + i] as number | null;
    this.n += num(0) ?? 0;
    this.errors += num(1) ?? 0;
    this.streamed += num(2) ?? 0;
    const last = r[o + 3] as string | null;
    if (last !== null && (this.last === null || last > this.last)) this.last = last;
    this.tokens += num(4) ?? 0;
    this.promptTokens += num(5) ?? 0;
    this.completionTokens += num(6) ?? 0;
    this.cost = plus(this.cost, num(7));
    this.promptCost = plus(this.promptCost, num(8));
    this.completionCost = plus(this.completionCost, num(9));
    this.latencySum += num(10) ?? 0;
    this.latencyCount += num(11) ?? 0;
  }

  /** Adds one value of a column quantiles are taken of (not null). */
  addValue(column: QuantileColumn, v: number): void {
    (this.values[column] ??= []).push(v);
  }

  /** Drops the values of a column read so far. */
  clearValues(column: QuantileColumn): void {
    delete this.values[column];
    delete this.sorted[column];
  }

  private quantile(column: QuantileColumn, p: number): number | null {
    let s = this.sorted[column];
    if (!s) this.sorted[column] = s = Float64Array.from(this.values[column] ?? []).sort();
    return quantile(s, p);
  }

  /** One metric of the dashboard's (CustomChartMetric), or undefined for one this accumulator does not hold. */
  metric(name: string): number | null | undefined {
    const n = this.n;
    const q = QUANTILE_METRICS[name];
    if (q) return this.quantile(q[0], q[1]);
    switch (name) {
      case 'run_count':
        return n;
      case 'error_rate':
        return n ? this.errors / n : null;
      case 'streaming_rate':
        return n ? this.streamed / n : null;
      case 'latency_avg':
        return this.latencyCount ? round(this.latencySum / this.latencyCount, 3) : null;
      case 'total_tokens':
        return this.tokens;
      case 'prompt_tokens':
        return this.promptTokens;
      case 'completion_tokens':
        return this.completionTokens;
      case 'total_cost':
        return this.cost === null ? 0 : round(this.cost, 10);
      case 'prompt_cost':
        return this.promptCost === null ? 0 : round(this.promptCost, 10);
      case 'completion_cost':
        return this.completionCost === null ? 0 : round(this.completionCost, 10);
      default:
        return undefined;
    }
  }

  /** The RunStats of these runs (with the feedback stats given). */
  stats(feedback: Record<string, FeedbackKeyStats> = {}): RunStats {
    const m = (k: string) => this.metric(k) ?? null;
    const cost = (v: number | null) => (v === null ? null : round(v, 10));
    return {
      run_count: this.n,
      latency_p50: m('latency_p50'),
      latency_p99: m('latency_p99'),
      latency_avg: m('latency_avg'),
      first_token_p50: m('first_token_p50'),
      first_token_p99: m('first_token_p99'),
      total_tokens: this.tokens,
      prompt_tokens: this.promptTokens,
      completion_tokens: this.completionTokens,
      median_tokens: m('median_tokens'),
      completion_tokens_p50: m('completion_tokens_p50'),
      prompt_tokens_p50: m('prompt_tokens_p50'),
      tokens_p99: m('tokens_p99'),
      completion_tokens_p99: m('completion_tokens_p99'),
      prompt_tokens_p99: m('prompt_tokens_p99'),
      last_run_start_time: this.last,
      feedback_stats: feedback,
      run_facets: null,
      error_rate: m('error_rate'),
      streaming_rate: m('streaming_rate'),
      total_cost: cost(this.cost),
      prompt_cost: cost(this.promptCost),
      completion_cost: cost(this.completionCost),
      cost_p50: m('cost_p50'),
      cost_p99: m('cost_p99'),
      prompt_token_details: null,
      completion_token_details: null,
      prompt_cost_details: null,
      completion_cost_details: null,
    };
  }
}

/** LangSmith's RunStatsGroupBy. */
export interface GroupBy {
  attribute: 'name' | 'run_type' | 'tag' | 'metadata';
  path?: string | null;
  max_groups?: number | null;
}

/**
 * What a group is read from, over the `runs` table: a column, or a metadata key's text; for tags the run's tag list
 * (`list`), each of whose tags is a group (a run with two tags is in both).
 */
export function groupSql(g: GroupBy): { expr: string; list: boolean } {
  switch (g.attribute) {
    case 'name':
      return { expr: 'runs.name', list: false };
    case 'run_type':
      return { expr: 'runs.run_type', list: false };
    case 'tag':
      return { expr: 'runs.tags', list: true };
    case 'metadata': {
      const path = (g.path ?? '').trim();
      if (!/^\w+(\.\w+)*$/.test(path)) throw new HttpError(422, 'group_by.path: a metadata key (letters, digits, _ and dots) is required with attribute "metadata"');
      const json = `$.metadata${path.split('.').map((k) => `."${k}"`).join('')}`;
      return { expr: `CAST(json_extract(runs.extra, '${json}') AS TEXT)`, list: false };
    }
  }
}

/** The groups a run is in, from what groupSql read ('' for no grouping). */
export function groupsOf(value: string | null, list: boolean): string[] {
  if (value === null) return [];
  if (!list) return [value];
  try {
    const tags = JSON.parse(value) as unknown;
    return Array.isArray(tags) ? [...new Set(tags.filter((t): t is string => typeof t === 'string'))] : [];
  } catch {
    return [];
  }
}

/** Feedback figures of one key, added to one score or label at a time. */
export class FeedbackAcc {
  n = 0;
  scored = 0;
  sum = 0;
  sq = 0;
  min: number | null = null;
  max: number | null = null;
  values: Record<string, number> = {};
  add(score: number | null, label: string | null): void {
    this.n++;
    if (score !== null) {
      this.scored++;
      this.sum += score;
      this.sq += score * score;
      this.min = this.min === null ? score : Math.min(this.min, score);
      this.max = this.max === null ? score : Math.max(this.max, score);
    }
    if (label !== null) this.values[label] = (this.values[label] ?? 0) + 1;
  }
  get avg(): number | null {
    return this.scored ? this.sum / this.scored : null;
  }
  stats(): FeedbackKeyStats {
    const avg = this.avg;
    const stdev = this.scored > 1 && avg !== null ? Math.sqrt(Math.max(0, (this.sq - this.scored * avg * avg) / (this.scored - 1))) : null;
    return { n: this.n, avg, stdev, min: this.min, max: this.max, errors: 0, values: this.values, contains_thread_feedback: false };
  }
}

/** SQL of the feedback on a set of runs: (group value, key, score, label) rows, the label a text value's. */
export function feedbackRowsSql(where: string, groupExpr: string, extra = ''): string {
  return `SELECT s.g AS g, f.key AS key, f.score AS score,
       CASE WHEN f.value IS NOT NULL AND json_valid(f.value) AND json_type(f.value) = 'text' THEN json_extract(f.value, '$') END AS label${extra}
     FROM (SELECT runs.id AS id, runs.tenant_id AS tenant_id, ${groupExpr} AS g${extra ? ', runs.start_time AS start_time' : ''} FROM runs WHERE ${where}) s
     JOIN feedback f ON f.run_id = s.id AND f.tenant_id = s.tenant_id`;
}

/** Feedback stats of a set of runs, per group ('' when not grouped). */
function feedbackStats(ctx: Ctx, where: { sql: string; params: unknown[] }, group?: { expr: string; list: boolean }) {
  const rows = ctx.st.get(feedbackRowsSql(where.sql, group?.expr ?? "''")).raw(true).all(...where.params) as [string | null, string, number | null, string | null][];
  const accs = new Map<string, Map<string, FeedbackAcc>>();
  for (const [g, key, score, label] of rows) {
    for (const name of group ? groupsOf(g, group.list) : ['']) {
      let byKey = accs.get(name);
      if (!byKey) accs.set(name, (byKey = new Map()));
      let acc = byKey.get(key);
      if (!acc) byKey.set(key, (acc = new FeedbackAcc()));
      acc.add(score, label);
    }
  }
  return new Map([...accs].map(([g, byKey]) => [g, Object.fromEntries([...byKey].map(([k, a]) => [k, a.stats()]))]));
}

export type StatsQuery = Omit<RunQuery, 'order' | 'limit' | 'offset'>;

/** The quantile columns read packed beside the sums (PACKED_SCALE), and the SQL of both. */
const PACKED = QUANTILE_COLUMNS.filter((c) => PACKED_SCALE[c] !== undefined);
const SUMS_AND_PACKED = [SUMS_SQL, ...PACKED.flatMap((c) => packedSql(c, PACKED_SCALE[c]!))].join(', ');

/**
 * Adds what a SUMS_AND_PACKED row holds from index `o` to an accumulator; returns the quantile columns still to be
 * read as they are (those not packed, and those whose values could not be).
 */
function addSumsAndPacked(acc: StatsAcc, r: readonly unknown[], o: number): QuantileColumn[] {
  acc.addSums(r, o);
  // Costs are read as they are, unless no run reported one.
  const rest = QUANTILE_COLUMNS.filter((c) => PACKED_SCALE[c] === undefined && !(c === 'total_cost' && acc.cost === null));
  PACKED.forEach((c, j) => {
    const at = o + SUMS_WIDTH + 2 * j;
    if (r[at + 1] === 0) rest.push(c);
    else addPacked(acc, c, r[at] as string | null, PACKED_SCALE[c]!);
  });
  return rest;
}

/** The RunStats of the runs a query matches: sums, counts and packed values in SQL, then any values left to read. */
export function runStats(ctx: Ctx, scope: RunScope, q: StatsQuery): RunStats {
  const where = runWhere(scope, q);
  const acc = new StatsAcc();
  const rest = addSumsAndPacked(acc, ctx.st.get(`SELECT ${SUMS_AND_PACKED} FROM runs WHERE ${where.sql}`).raw(true).get(...where.params) as unknown[], 0);
  if (acc.n) {
    for (const c of rest) {
      acc.clearValues(c);
      for (const v of ctx.st.get(`SELECT ${c} FROM runs WHERE (${where.sql}) AND ${c} IS NOT NULL`).pluck(true).iterate(...where.params) as Iterable<number>) acc.addValue(c, v);
    }
  }
  return acc.stats(feedbackStats(ctx, where).get('') ?? {});
}

/**
 * SQL of the runs of a `where` with their group (`g`, never null) and STATS_SOURCE_COLUMNS: a run with several tags
 * is there once for each of its distinct tags.
 */
export function groupedSource(where: string, group: { expr: string; list: boolean }): string {
  if (!group.list) {
    const cols = STATS_SOURCE_COLUMNS.split(', ').map((c) => `runs.${c} AS ${c}`).join(', ');
    return `SELECT ${group.expr} AS g, ${cols} FROM runs WHERE (${where}) AND ${group.expr} IS NOT NULL`;
  }
  // A tag list's text items, each once (as groupsOf reads them), of the runs the `where` picks (first, so that
  // its columns are the runs' alone).
  const items = "json_each(CASE WHEN json_valid(r.gl) AND json_type(r.gl) = 'array' THEN r.gl ELSE '[]' END)";
  const cols = STATS_SOURCE_COLUMNS.split(', ').map((c) => `r.${c} AS ${c}`).join(', ');
  return `SELECT t.value AS g, ${cols} FROM (SELECT ${group.expr} AS gl, ${STATS_SOURCE_COLUMNS} FROM runs WHERE ${where}) r CROSS JOIN ${items} t
     WHERE t.type = 'text' AND NOT EXISTS (SELECT 1 FROM ${items} u WHERE u.key < t.key AND u.type = 'text' AND u.value = t.value)`;
}

/**
 * The RunStats of each of the largest groups (by run count, at most `max_groups`, default 5; ties by name) of the
 * matched runs, or of the groups named in `only`: sums and counts per group in one grouped statement, then the
 * quantiles' values of the groups answered.
 */
export function groupedRunStats(ctx: Ctx, scope: RunScope, q: StatsQuery, groupBy: GroupBy, only?: string[]): Record<string, RunStats> {
  const where = runWhere(scope, q);
  const group = groupSql(groupBy);
  const max = groupBy.max_groups ?? 5;
  if (max < 1) throw new HttpError(422, 'group_by.max_groups: must be at least 1');
  const source = groupedSource(where.sql, group);
  const accs = new Map<string, StatsAcc>();
  const rest = new Map<string, QuantileColumn[]>();
  for (const r of ctx.st.get(`SELECT g, ${SUMS_AND_PACKED} FROM (${source}) GROUP BY g`).raw(true).iterate(...where.params) as Iterable<unknown[]>) {
    const acc = new StatsAcc();
    rest.set(r[0] as string, addSumsAndPacked(acc, r, 1));
    accs.set(r[0] as string, acc);
  }
  const wanted = only?.length ? new Set(only) : null;
  const top = [...accs].filter(([g]) => !wanted || wanted.has(g)).sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1)).slice(0, max);
  // The values left to read, of the groups answered.
  for (const c of new Set(top.flatMap(([g]) => rest.get(g)!))) {
    const left = new Map(top.filter(([g]) => rest.get(g)!.includes(c)));
    for (const acc of left.values()) acc.clearValues(c);
    const values = ctx.st.get(`SELECT g, ${c} FROM (${source}) WHERE ${c} IS NOT NULL`).raw(true).iterate(...where.params) as Iterable<[string, number]>;
    for (const [g, v] of values) left.get(g)?.addValue(c, v);
  }
  const fb = feedbackStats(ctx, where, group);
  return Object.fromEntries(top.map(([g, acc]) => [g, acc.stats(fb.get(g) ?? {})]));
}
