// A project's prebuilt dashboard (`POST /sessions/{id}/dashboard`): LangSmith's CustomChartsSection — charts of
// traces, latency, errors, time to first token, tokens, cost, feedback, tools and run types over time buckets. One
// read of the window's runs in time order (the derived columns, by the project's start-time index) and one of
// their roots' feedback; every chart's buckets are filled in that pass.
import type { Ctx } from '../context';
import { HttpError } from '../errors';
import { bucketStarts, type Stride } from '../timeZones';
import { FeedbackAcc, STATS_COLUMNS, StatsAcc, feedbackRowsSql, groupSql, groupsOf, type GroupBy, type StatsRow } from './runStats';

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
  constructor(
    private readonly buckets: number,
    readonly groupBy: GroupBy | null,
  ) {}
  /** Adds a run whose STATS_COLUMNS start at index `o` of `row`. */
  add(group: string, bucket: number, row: readonly unknown[], o: number): void {
    let accs = this.groups.get(group);
    if (!accs) this.groups.set(group, (accs = new Array<StatsAcc | undefined>(this.buckets)));
    (accs[bucket] ??= new StatsAcc()).add(row, o);
    this.counts.set(group, (this.counts.get(group) ?? 0) + 1);
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
  }
  const gridList = [...grids].map(([k, grid]) => ({ population: k.slice(0, k.indexOf('|')) as Population, grid }));

  if (!req.omitData) {
    // Read row by row (no array of a hundred thousand rows kept), in time order so buckets only move forward.
    const rows = ctx.st
      .get(
        `SELECT parent_run_id IS NULL AS root, run_type, name, ${sectionGroup ? sectionGroup.expr : 'NULL'} AS g, ${STATS_COLUMNS}
           FROM runs WHERE session_id = ? AND start_time >= ? AND start_time < ? ORDER BY start_time`,
      )
      .raw(true)
      .iterate(session.id, from, to) as IterableIterator<[number, string | null, string | null, string | null, ...StatsRow]>;
    const bucketOf = bucketCursor(stamps);
    for (const r of rows) {
      const b = bucketOf(r[4]!);
      let sectionGroups: string[] | null = null;
      for (const { population, grid } of gridList) {
        if (!inPopulation(population, r[0], r[1])) continue;
        if (!grid.groupBy) grid.add('', b, r, 4);
        else if (grid.groupBy === req.groupBy) for (const g of (sectionGroups ??= groupsOf(r[3], sectionGroup!.list))) grid.add(g, b, r, 4);
        else {
          const g = grid.groupBy.attribute === 'name' ? r[2] : r[1];
          if (g !== null) grid.add(g, b, r, 4);
        }
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
