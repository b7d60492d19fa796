// A project's prebuilt dashboard (`POST /sessions/{id}/dashboard`): LangSmith's CustomChartsSection — charts of
// traces, latency, errors, time to first token, tokens, cost, feedback, tools and run types over time buckets. The
// sums and counts of every chart come from one grouped statement (per bucket, root or not, run type and name), the
// quantiles from one read of the columns they are taken of, both from the project's stats index; then one read of
// the window's roots' feedback.
import type { Ctx } from '../context';
import { HttpError } from '../errors';
import { bucketStarts, type Stride } from '../timeZones';
import {
  FeedbackAcc, PACKED_SCALE, QUANTILE_METRICS, STATS_SOURCE_COLUMNS, SUMS_PARTS, SUMS_WIDTH, StatsAcc, addPacked, packedSql, feedbackRowsSql, groupSql, groupsOf, type GroupBy, type QuantileColumn,
} from './runStats';

/** Which runs a chart is over. */
type Population = 'traces' | 'llm' | 'tools' | 'all';

interface SeriesSpec {
  metric: string;
  name: string;
  /** A grouping of the chart's own (LangSmith's `set_by: "series"`); otherwise the request's applies. */
  groupBy?: GroupBy;
  feedbackKey?: string;
}

interface ChartSpec {
  id: string;
  title: string;
  description: string;
  chart_type: 'line' | 'bar';
  population: Population;
  series: SeriesSpec[];
}

const FILTERS: Record<Population, { filter: string | null; trace_filter: null; tree_filter: null }> = {
  traces: { filter: 'eq(is_root, true)', trace_filter: null, tree_filter: null },
  llm: { filter: 'eq(run_type, "llm")', trace_filter: null, tree_filter: null },
  tools: { filter: 'eq(run_type, "tool")', trace_filter: null, tree_filter: null },
  all: { filter: null, trace_filter: null, tree_filter: null },
};

const byName = (max = 5): GroupBy => ({ attribute: 'name', path: null, max_groups: max });

/** The charts of LangSmith's prebuilt project dashboard, in order (feedback's series come from the data). */
const CHARTS: ChartSpec[] = [
  { id: 'trace-count', title: 'Trace Count', description: 'Root runs started in each bucket', chart_type: 'line', population: 'traces', series: [{ metric: 'run_count', name: 'Traces' }] },
  { id: 'trace-latency', title: 'Trace Latency', description: 'Seconds from start to end of the root runs', chart_type: 'line', population: 'traces',
    series: [{ metric: 'latency_p50', name: 'P50' }, { metric: 'latency_p99', name: 'P99' }] },
  { id: 'trace-error-rate', title: 'Trace Error Rate', description: 'Share of root runs that failed', chart_type: 'line', population: 'traces', series: [{ metric: 'error_rate', name: 'Error rate' }] },
  { id: 'llm-count', title: 'LLM Calls', description: 'LLM runs started in each bucket', chart_type: 'line', population: 'llm', series: [{ metric: 'run_count', name: 'LLM calls' }] },
  { id: 'llm-first-token', title: 'Time to First Token', description: 'Seconds to the first streamed token of LLM runs', chart_type: 'line', population: 'llm',
    series: [{ metric: 'first_token_p50', name: 'P50' }, { metric: 'first_token_p99', name: 'P99' }] },
  { id: 'tokens', title: 'Total Tokens', description: 'Tokens of all runs', chart_type: 'line', population: 'all',
    series: [{ metric: 'total_tokens', name: 'Total tokens' }, { metric: 'prompt_tokens', name: 'Input tokens' }, { metric: 'completion_tokens', name: 'Output tokens' }] },
  { id: 'cost', title: 'Total Cost', description: 'Cost (USD) of all runs', chart_type: 'line', population: 'all',
    series: [{ metric: 'total_cost', name: 'Total cost' }, { metric: 'prompt_cost', name: 'Input cost' }, { metric: 'completion_cost', name: 'Output cost' }] },
  { id: 'feedback', title: 'Feedback Scores', description: 'Average score of the most used feedback keys on root runs', chart_type: 'line', population: 'traces', series: [] },
  { id: 'run-names', title: 'Top Run Names', description: 'Root runs of the five most frequent names', chart_type: 'bar', population: 'traces', series: [{ metric: 'run_count', name: 'Runs', groupBy: byName() }] },
  { id: 'run-name-errors', title: 'Error Rate by Run Name', description: 'Share of failed root runs of the five most frequent names', chart_type: 'line', population: 'traces',
    series: [{ metric: 'error_rate', name: 'Error rate', groupBy: byName() }] },
  { id: 'tool-count', title: 'Top Tools', description: 'Tool runs of the five most used tools', chart_type: 'bar', population: 'tools', series: [{ metric: 'run_count', name: 'Tool runs', groupBy: byName() }] },
  { id: 'tool-errors', title: 'Tool Error Rate', description: 'Share of failed tool runs of the five most used tools', chart_type: 'line', population: 'tools',
    series: [{ metric: 'error_rate', name: 'Error rate', groupBy: byName() }] },
  { id: 'run-types', title: 'Run Types', description: 'Runs of each run type', chart_type: 'bar', population: 'all',
    series: [{ metric: 'run_count', name: 'Runs', groupBy: { attribute: 'run_type', path: null, max_groups: 5 } }] },
];

/** Metrics that are sums or counts: 0 in an empty bucket; the others (quantiles, rates, averages) are null there. */
const ADDITIVE = new Set(['run_count', 'total_tokens', 'prompt_tokens', 'completion_tokens', 'total_cost', 'prompt_cost', 'completion_cost']);
const FEEDBACK_KEYS = 5;
export const MAX_BUCKETS = 5000;

export interface DashboardRequest {
  start: number;
  end: number;
  stride: Stride;
  timezone: string;
  groupBy: GroupBy | null;
  omitData: boolean;
}

interface Point {
  series_id: string;
  timestamp: string;
  value: number | null;
  group: string | null;
}

/** Accumulators per bucket for each group of one (population, grouping). */
class Grid {
  readonly groups = new Map<string, Array<StatsAcc | undefined>>();
  readonly counts = new Map<string, number>();
  /** The metrics of this grid's series, and the columns they take quantiles of. */
  readonly metrics: string[] = [];
  readonly quantiles = new Set<QuantileColumn>();
  constructor(
    private readonly buckets: number,
    readonly groupBy: GroupBy | null,
  ) {}
  /** The accumulator of a group's bucket. */
  acc(group: string, bucket: number): StatsAcc {
    let accs = this.groups.get(group);
    if (!accs) this.groups.set(group, (accs = new Array<StatsAcc | undefined>(this.buckets)));
    return (accs[bucket] ??= new StatsAcc());
  }
  /** Adds the sums and counts of some of a group's runs in a bucket (a SUMS_SQL row from index `o`). */
  addSums(group: string, bucket: number, row: readonly unknown[], o: number): void {
    this.acc(group, bucket).addSums(row, o);
    this.counts.set(group, (this.counts.get(group) ?? 0) + (row[o] as number));
  }
  /** The largest groups (by runs in the window; ties by name), or [''] when not grouped. */
  top(): string[] {
    if (!this.groupBy) return [''];
    return [...this.counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, this.groupBy.max_groups ?? 5).map(([g]) => g);
  }
}

const inPopulation = (p: Population, root: number, runType: string | null) =>
  p === 'all' || (p === 'traces' ? root === 1 : p === 'llm' ? runType === 'llm' : runType === 'tool');

/** The index of the bucket holding a start time, moving forward through times read in order. */
function bucketCursor(starts: string[]) {
  let i = 0;
  return (t: string) => {
    while (i + 1 < starts.length && t >= starts[i + 1]!) i++;
    return i;
  };
}

/** Which of a bucketedSource's rows are in a population. */
const POPULATION_SQL: Record<Population, string> = {
  traces: 'root = 1',
  llm: "run_type = 'llm'",
  tools: "run_type = 'tool'",
  all: '1',
};

/**
 * The buckets as [from, to) bounds of start times: each from its start to the next one's, the first from the window's
 * start and the last to its end, all within the window (a run is in the last bucket that starts at or before it).
 */
export function bucketBounds(stamps: string[], from: string, to: string): Array<[string, string]> {
  return stamps.map((s, i) => {
    const lo = i === 0 || s < from ? from : s;
    const next = i === stamps.length - 1 ? to : stamps[i + 1]!;
    return [lo, next > to ? to : next];
  });
}

/**
 * SQL of a window's runs with their bucket (`b`), whether each is a root, its run type and name, the group of the
 * section's grouping (`g`, when given; a run with several tags once for each) and STATS_SOURCE_COLUMNS. The buckets
 * (the temporary table dashboard_buckets, in order) are the outer loop, each a range of the project's stats index,
 * so rows come bucket by bucket and a grouping by bucket alone needs no sort.
 */
function bucketedSource(group: { expr: string; list: boolean } | null): string {
  const cols = STATS_SOURCE_COLUMNS.split(', ').map((c) => `runs.${c} AS ${c}`).join(', ');
  const head = `SELECT bk.b AS b, runs.parent_run_id IS NULL AS root, runs.run_type AS run_type, runs.name AS name`;
  const from = `temp.dashboard_buckets bk CROSS JOIN runs ON runs.session_id = ? AND runs.start_time >= bk.lo AND runs.start_time < bk.hi`;
  if (!group) return `${head}, NULL AS g, ${cols} FROM ${from}`;
  if (!group.list) return `${head}, ${group.expr} AS g, ${cols} FROM ${from} WHERE ${group.expr} IS NOT NULL`;
  const items = (tags: string) => `json_each(CASE WHEN json_valid(${tags}) AND json_type(${tags}) = 'array' THEN ${tags} ELSE '[]' END)`;
  return `${head}, t.value AS g, ${cols} FROM ${from} CROSS JOIN ${items(group.expr)} t
     WHERE t.type = 'text' AND NOT EXISTS (SELECT 1 FROM ${items(group.expr)} u WHERE u.key < t.key AND u.type = 'text' AND u.value = t.value)`;
}

/** The SUMS_SQL columns (by index) each metric reads; a run count is always read. */
const METRIC_SUMS: Record<string, number[]> = {
  error_rate: [1], streaming_rate: [2], total_tokens: [4], prompt_tokens: [5], completion_tokens: [6],
  total_cost: [7], prompt_cost: [8], completion_cost: [9], latency_avg: [10, 11],
};

/** SUMS_SQL's aggregates of the runs a condition picks (`cond` null: all), NULL for the columns not wanted. */
function sumsOf(cond: string | null, wanted: Set<number>): string[] {
  return SUMS_PARTS.map(([agg, arg], i) => {
    if (i > 0 && !wanted.has(i)) return 'NULL';
    if (!cond) return `${agg}(${arg})`;
    return arg === '*' ? `SUM(${cond})` : `${agg}(CASE WHEN ${cond} THEN ${arg} END)`;
  });
}

/**
 * The cells of a window's runs: per bucket, root or not, run type, name and group, SUMS_SQL's aggregates (those
 * wanted; NULL for the others) and the packed values of `columns`, as rows [b, root, run_type, name, g, ...].
 * Grouping the whole window at once sorts every run; when only counts are wanted and there is no section grouping,
 * each bucket's few runs are grouped on their own instead (a subquery per bucket, its cells as one JSON text:
 * whole numbers and names only, so they come back exactly).
 */
function splitCells(ctx: Ctx, session: string, source: string, grouped: boolean, wanted: Set<number>, columns: QuantileColumn[]): Iterable<unknown[]> {
  const countsOnly = [...wanted].every((i) => i === 1 || i === 2);
  if (grouped || !countsOnly || columns.length) {
    const select = [...sumsOf(null, wanted), ...columns.flatMap((c) => packedSql(c, PACKED_SCALE[c]!))];
    return ctx.st.get(`SELECT b, root, run_type, name, g, ${select.join(', ')} FROM (${source}) GROUP BY b, root, run_type, name, g`).raw(true).iterate(session) as Iterable<unknown[]>;
  }
  const rows = ctx.st
    .get(
      `SELECT bk.b, (SELECT json_group_array(json_array(root, run_type, name, n, e, s)) FROM (
         SELECT runs.parent_run_id IS NULL AS root, runs.run_type AS run_type, runs.name AS name, COUNT(*) AS n, SUM(runs.status = 'error') AS e,
                COUNT(runs.first_token) AS s
           FROM runs WHERE runs.session_id = ? AND runs.start_time >= bk.lo AND runs.start_time < bk.hi GROUP BY 1, 2, 3))
         FROM temp.dashboard_buckets bk`,
    )
    .raw(true)
    .all(session) as Array<[number, string]>;
  const out: unknown[][] = [];
  for (const [b, json] of rows) {
    for (const [root, runType, name, n, e, streamed] of JSON.parse(json) as Array<[number, string | null, string | null, number, number, number]>) {
      const r: unknown[] = [b, root, runType, name, null, n, e, streamed];
      for (let i = 3; i < SUMS_WIDTH; i++) r.push(null);
      out.push(r);
    }
  }
  return out;
}

/** Fills the dashboard_buckets table with a window's buckets ([from, to) bounds). */
function setBuckets(ctx: Ctx, bounds: Array<[string, string]>): void {
  ctx.db.exec('CREATE TEMP TABLE IF NOT EXISTS dashboard_buckets (b INTEGER PRIMARY KEY, lo TEXT NOT NULL, hi TEXT NOT NULL)');
  ctx.st.tx(() => {
    ctx.st.run('DELETE FROM temp.dashboard_buckets');
    ctx.st.run('INSERT INTO temp.dashboard_buckets (b, lo, hi) SELECT CAST(key AS INTEGER), value ->> 0, value ->> 1 FROM json_each(?)', JSON.stringify(bounds));
  });
}

export function projectDashboard(ctx: Ctx, session: { id: string; name: string; tenant_id: string }, req: DashboardRequest) {
  let starts: number[];
  try {
    starts = bucketStarts(req.timezone, req.start, req.end, req.stride, MAX_BUCKETS);
  } catch (e) {
    throw new HttpError(422, `body.stride: ${(e as Error).message} between start_time and end_time; choose a longer stride or a shorter window`);
  }
  const stamps = starts.map((t) => new Date(t).toISOString());
  const n = starts.length;
  const from = new Date(req.start).toISOString();
  const to = new Date(req.end).toISOString();
  const sectionGroup = req.groupBy ? groupSql(req.groupBy) : null;

  // One grid per (population, grouping) the charts use.
  const grids = new Map<string, Grid>();
  const gridKey = (p: Population, g: GroupBy | null) => `${p}|${g ? `${g.attribute}:${g.path ?? ''}:${g.max_groups ?? 5}` : ''}`;
  const seriesGroup = (s: SeriesSpec) => s.groupBy ?? req.groupBy ?? null;
  for (const c of CHARTS) for (const s of c.series) {
    const g = seriesGroup(s);
    const k = gridKey(c.population, g);
    if (!grids.has(k)) grids.set(k, new Grid(n, g));
    const grid = grids.get(k)!;
    grid.metrics.push(s.metric);
    const q = QUANTILE_METRICS[s.metric];
    if (q) grid.quantiles.add(q[0]);
  }
  const gridList = [...grids].map(([k, grid]) => ({ population: k.slice(0, k.indexOf('|')) as Population, grid }));

  if (!req.omitData) {
    setBuckets(ctx, bucketBounds(stamps, from, to));
    const wantedSums = (grid: Grid) => new Set(grid.metrics.flatMap((m) => METRIC_SUMS[m] ?? []));
    // The grids split by the section's grouping read runs with their group (a run once per tag); the others read
    // each run once, and find their group (a run name or type) in its columns.
    const parts = [
      { grids: gridList.filter(({ grid }) => !grid.groupBy || grid.groupBy !== req.groupBy), group: null },
      { grids: gridList.filter(({ grid }) => grid.groupBy && grid.groupBy === req.groupBy), group: sectionGroup },
    ];
    for (const { grids: part, group } of parts) {
      if (!part.length) continue;
      const source = bucketedSource(group);
      const keySql = (grid: Grid) => (!grid.groupBy ? "''" : group ? 'g' : grid.groupBy.attribute === 'name' ? 'name' : 'run_type');
      // Quantile columns read packed per bucket (or cell) beside the sums; those that cannot be are read as they are.
      const packed = (grid: Grid) => [...grid.quantiles].filter((c) => PACKED_SCALE[c] !== undefined);
      const unpacked: Array<{ population: Population; grid: Grid; column: QuantileColumn }> = [];
      const takePacked = (grid: Grid, key: string, b: number, r: unknown[], o: number, failed: Set<QuantileColumn>) =>
        packed(grid).forEach((c, j) => {
          if (r[o + 2 * j + 1] === 0) failed.add(c);
          else addPacked(grid.acc(key, b), c, r[o + 2 * j] as string | null, PACKED_SCALE[c]!);
        });
      // Grids not split into groups: each one's sums per bucket, all in one statement grouped by bucket alone.
      const whole = group ? [] : part.filter(({ grid }) => !grid.groupBy);
      if (whole.length) {
        const select: string[] = [];
        const offsets: number[] = [];
        for (const { population, grid } of whole) {
          const cond = population === 'all' ? null : POPULATION_SQL[population];
          offsets.push(1 + select.length);
          select.push(...sumsOf(cond, wantedSums(grid)), ...packed(grid).flatMap((c) => packedSql(cond ? `CASE WHEN ${cond} THEN ${c} END` : c, PACKED_SCALE[c]!)));
        }
        const failed = whole.map(() => new Set<QuantileColumn>());
        for (const r of ctx.st.get(`SELECT b, ${select.join(', ')} FROM (${source}) GROUP BY b`).raw(true).iterate(session.id) as Iterable<unknown[]>) {
          whole.forEach(({ grid }, i) => {
            const o = offsets[i]!;
            if (!r[o]) return;
            grid.addSums('', r[0] as number, r, o);
            takePacked(grid, '', r[0] as number, r, o + SUMS_WIDTH, failed[i]!);
          });
        }
        whole.forEach(({ population, grid }, i) => {
          for (const c of grid.quantiles) if (PACKED_SCALE[c] === undefined || failed[i]!.has(c)) unpacked.push({ population, grid, column: c });
        });
      }
      // Grids split into groups: sums per bucket, root or not, run type, name (and group), each grid adding up
      // the cells of its population and group.
      const split = part.filter(({ grid }) => grid.groupBy);
      if (split.length) {
        const wanted = new Set(split.flatMap(({ grid }) => [...wantedSums(grid)]));
        const columns = [...new Set(split.flatMap(({ grid }) => packed(grid)))];
        const failed = split.map(() => new Set<QuantileColumn>());
        for (const r of splitCells(ctx, session.id, source, group !== null, wanted, columns)) {
          split.forEach(({ population, grid }, i) => {
            if (!inPopulation(population, r[1] as number, r[2] as string | null)) return;
            const key = (group ? r[4] : grid.groupBy!.attribute === 'name' ? r[3] : r[2]) as string | null;
            if (key === null) return;
            grid.addSums(key, r[0] as number, r, 5);
            packed(grid).forEach((c) => {
              const j = 5 + SUMS_WIDTH + 2 * columns.indexOf(c);
              if (r[j + 1] === 0) failed[i]!.add(c);
              else addPacked(grid.acc(key, r[0] as number), c, r[j] as string | null, PACKED_SCALE[c]!);
            });
          });
        }
        split.forEach(({ population, grid }, i) => {
          for (const c of grid.quantiles) if (PACKED_SCALE[c] === undefined || failed[i]!.has(c)) unpacked.push({ population, grid, column: c });
        });
      }
      // The values that could not be read packed, as they are (a grid's packed ones of that column dropped first).
      for (const { population, grid, column } of unpacked) {
        for (const accs of grid.groups.values()) for (const acc of accs) acc?.clearValues(column);
        const values = ctx.st.get(`SELECT b, ${keySql(grid)}, ${column} FROM (${source}) WHERE ${POPULATION_SQL[population]} AND ${column} IS NOT NULL`).raw(true);
        for (const [b, key, v] of values.iterate(session.id) as Iterable<[number, string | null, number]>) if (key !== null) grid.acc(key, b).addValue(column, v);
      }
    }
  }

  // Feedback on the window's root runs, by the root's start time: the most used keys, their average score.
  const feedbackGroups = new Map<string, Map<string, Array<FeedbackAcc | undefined>>>();
  const keyCounts = new Map<string, number>();
  const groupCounts = new Map<string, number>();
  const fbRows = ctx.st
    .get(`${feedbackRowsSql('session_id = ? AND parent_run_id IS NULL AND start_time >= ? AND start_time < ?', sectionGroup?.expr ?? "''", ', s.start_time AS start_time')} ORDER BY s.start_time`)
    .raw(true)
    .all(session.id, from, to) as [string | null, string, number | null, string | null, string][];
  const fbBucket = bucketCursor(stamps);
  for (const [g, key, score, label, start] of fbRows) {
    keyCounts.set(key, (keyCounts.get(key) ?? 0) + 1);
    if (req.omitData) continue;
    const b = fbBucket(start);
    for (const group of sectionGroup ? groupsOf(g, sectionGroup.list) : ['']) {
      groupCounts.set(group, (groupCounts.get(group) ?? 0) + 1);
      let byKey = feedbackGroups.get(key);
      if (!byKey) feedbackGroups.set(key, (byKey = new Map()));
      let accs = byKey.get(group);
      if (!accs) byKey.set(group, (accs = new Array<FeedbackAcc | undefined>(n)));
      (accs[b] ??= new FeedbackAcc()).add(score, label);
    }
  }
  const topKeys = [...keyCounts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, FEEDBACK_KEYS).map(([k]) => k);
  const topFeedbackGroups = req.groupBy
    ? [...groupCounts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, req.groupBy.max_groups ?? 5).map(([g]) => g)
    : [''];

  const charts = CHARTS.map((c, index) => {
    const specs = c.id === 'feedback' ? topKeys.map((k) => ({ metric: 'feedback_score_avg', name: k, feedbackKey: k }) as SeriesSpec) : c.series;
    const series = specs.map((s, si) => {
      const g = seriesGroup(s);
      return {
        id: `${c.id}:${s.feedbackKey ? `feedback:${s.feedbackKey}` : s.metric}:${si}`,
        name: s.name,
        metric: s.metric,
        feedback_key: s.feedbackKey ?? null,
        filters: { ...FILTERS[c.population], session: [session.id] },
        workspace_id: null,
        project_metric: null,
        group_by: g ? { attribute: g.attribute, path: g.path ?? null, max_groups: g.max_groups ?? 5, set_by: s.groupBy ? 'series' : 'section' } : null,
      };
    });
    const data: Point[] = [];
    if (!req.omitData) {
      specs.forEach((s, si) => {
        const id = series[si]!.id;
        const g = seriesGroup(s);
        if (s.feedbackKey) {
          const byGroup = feedbackGroups.get(s.feedbackKey);
          for (const group of topFeedbackGroups) {
            const accs = byGroup?.get(group);
            for (let b = 0; b < n; b++) data.push({ series_id: id, timestamp: stamps[b]!, value: accs?.[b]?.avg ?? null, group: g ? group : null });
          }
          return;
        }
        const grid = grids.get(gridKey(c.population, g))!;
        for (const group of grid.top()) {
          const accs = grid.groups.get(group);
          for (let b = 0; b < n; b++) {
            const acc = accs?.[b];
            const v = acc ? acc.metric(s.metric) ?? null : ADDITIVE.has(s.metric) ? 0 : null;
            data.push({ series_id: id, timestamp: stamps[b]!, value: v, group: g ? group : null });
          }
        }
      });
    }
    return { id: c.id, title: c.title, description: c.description, metadata: null, index, chart_type: c.chart_type, series, common_filters: null, data };
  });

  return {
    id: `prebuilt-${session.id}`,
    title: session.name,
    description: 'Prebuilt dashboard of the project: traces, latency, errors, tokens, cost, feedback, tools and run types.',
    index: 0,
    session_id: session.id,
    charts,
    sub_sections: [],
  };
}
