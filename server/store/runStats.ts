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

const sortedOf = (xs: number[]) => Float64Array.from(xs).sort();
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The columns a stats row is read with, in this order. */
export const STATS_COLUMNS = 'start_time, status, latency, first_token, total_tokens, prompt_tokens, completion_tokens, total_cost, prompt_cost, completion_cost';
export type StatsRow = [
  start: string | null, status: string | null, latency: number | null, firstToken: number | null, totalTokens: number | null,
  promptTokens: number | null, completionTokens: number | null, totalCost: number | null, promptCost: number | null, completionCost: number | null,
];

/** Sums, counts and the values the quantiles are taken of, for one set of runs. */
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
  latencies: number[] = [];
  firstTokens: number[] = [];
  tokenCounts: number[] = [];
  promptCounts: number[] = [];
  completionCounts: number[] = [];
  costs: number[] = [];

  /** Adds a run read with STATS_COLUMNS, found in `r` from index `o` on (rows read with more columns before them). */
  add(r: readonly unknown[], o = 0): void {
    const start = r[o] as string | null;
    const latency = r[o + 2] as number | null;
    const firstToken = r[o + 3] as number | null;
    const tokens = r[o + 4] as number | null;
    const promptTokens = r[o + 5] as number | null;
    const completionTokens = r[o + 6] as number | null;
    const cost = r[o + 7] as number | null;
    const promptCost = r[o + 8] as number | null;
    const completionCost = r[o + 9] as number | null;
    this.n++;
    if (r[o + 1] === 'error') this.errors++;
    if (start !== null && (this.last === null || start > this.last)) this.last = start;
    if (latency !== null) this.latencies.push(latency);
    if (firstToken !== null) {
      this.streamed++;
      this.firstTokens.push(firstToken);
    }
    if (tokens !== null) {
      this.tokens += tokens;
      this.tokenCounts.push(tokens);
    }
    if (promptTokens !== null) {
      this.promptTokens += promptTokens;
      this.promptCounts.push(promptTokens);
    }
    if (completionTokens !== null) {
      this.completionTokens += completionTokens;
      this.completionCounts.push(completionTokens);
    }
    if (cost !== null) {
      this.cost = (this.cost ?? 0) + cost;
      this.costs.push(cost);
    }
    if (promptCost !== null) this.promptCost = (this.promptCost ?? 0) + promptCost;
    if (completionCost !== null) this.completionCost = (this.completionCost ?? 0) + completionCost;
  }

  /** One metric of the dashboard's (CustomChartMetric), or undefined for one this accumulator does not hold. */
  metric(name: string): number | null | undefined {
    const n = this.n;
    switch (name) {
      case 'run_count':
        return n;
      case 'error_rate':
        return n ? this.errors / n : null;
      case 'streaming_rate':
        return n ? this.streamed / n : null;
      case 'latency_avg':
        return this.latencies.length ? round(this.latencies.reduce((a, b) => a + b, 0) / this.latencies.length, 3) : null;
      case 'latency_p50':
        return quantile(sortedOf(this.latencies), 0.5);
      case 'latency_p99':
        return quantile(sortedOf(this.latencies), 0.99);
      case 'first_token_p50':
        return quantile(sortedOf(this.firstTokens), 0.5);
      case 'first_token_p99':
        return quantile(sortedOf(this.firstTokens), 0.99);
      case 'total_tokens':
        return this.tokens;
      case 'prompt_tokens':
        return this.promptTokens;
      case 'completion_tokens':
        return this.completionTokens;
      case 'median_tokens':
        return quantile(sortedOf(this.tokenCounts), 0.5);
      case 'tokens_p99':
        return quantile(sortedOf(this.tokenCounts), 0.99);
      case 'prompt_tokens_p50':
        return quantile(sortedOf(this.promptCounts), 0.5);
      case 'prompt_tokens_p99':
        return quantile(sortedOf(this.promptCounts), 0.99);
      case 'completion_tokens_p50':
        return quantile(sortedOf(this.completionCounts), 0.5);
      case 'completion_tokens_p99':
        return quantile(sortedOf(this.completionCounts), 0.99);
      case 'total_cost':
        return this.cost === null ? 0 : round(this.cost, 10);
      case 'prompt_cost':
        return this.promptCost === null ? 0 : round(this.promptCost, 10);
      case 'completion_cost':
        return this.completionCost === null ? 0 : round(this.completionCost, 10);
      case 'cost_p50':
        return quantile(sortedOf(this.costs), 0.5);
      case 'cost_p99':
        return quantile(sortedOf(this.costs), 0.99);
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

/** The RunStats of the runs a query matches. */
export function runStats(ctx: Ctx, scope: RunScope, q: StatsQuery): RunStats {
  const where = runWhere(scope, q);
  const acc = new StatsAcc();
  const rows = ctx.st.get(`SELECT ${STATS_COLUMNS} FROM runs WHERE ${where.sql}`).raw(true).all(...where.params) as StatsRow[];
  for (const r of rows) acc.add(r);
  return acc.stats(feedbackStats(ctx, where).get('') ?? {});
}

/**
 * The RunStats of each of the largest groups (by run count, at most `max_groups`, default 5; ties by name) of the
 * matched runs, or of the groups named in `only`.
 */
export function groupedRunStats(ctx: Ctx, scope: RunScope, q: StatsQuery, groupBy: GroupBy, only?: string[]): Record<string, RunStats> {
  const where = runWhere(scope, q);
  const group = groupSql(groupBy);
  const max = groupBy.max_groups ?? 5;
  if (max < 1) throw new HttpError(422, 'group_by.max_groups: must be at least 1');
  const accs = new Map<string, StatsAcc>();
  const rows = ctx.st.get(`SELECT ${group.expr} AS g, ${STATS_COLUMNS} FROM runs WHERE ${where.sql}`).raw(true).all(...where.params) as [string | null, ...StatsRow][];
  for (const r of rows) {
    for (const g of groupsOf(r[0], group.list)) {
      let acc = accs.get(g);
      if (!acc) accs.set(g, (acc = new StatsAcc()));
      acc.add(r, 1);
    }
  }
  const wanted = only?.length ? new Set(only) : null;
  const top = [...accs].filter(([g]) => !wanted || wanted.has(g)).sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1)).slice(0, max);
  const fb = feedbackStats(ctx, where, group);
  return Object.fromEntries(top.map(([g, acc]) => [g, acc.stats(fb.get(g) ?? {})]));
}
