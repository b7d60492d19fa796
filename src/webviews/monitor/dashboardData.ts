// LangSmith's dashboard answer (a section of charts and sub-sections, each chart a list of series and a flat list of
// points `{series_id, timestamp, value, group}`) turned into what the monitor page draws: one time axis for every
// chart and, per chart, a row of values per series and group. No `vscode` here: the page's component tests build
// their state from fixtures in LangSmith's shape through this same function.
import type { DashboardChart, DashboardPoint, DashboardSeries, ProjectDashboard } from '../../client';
import type { Chart, Dashboard, GroupBy, Query, Series, Unit } from '../../protocol/monitor';
import { MAX_CHARTS, MAX_POINTS, MAX_SERIES } from '../../protocol/monitor';

const cut = (s: string, n = 2000) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** How a metric's values read. */
export function unitOf(metric: string): Unit {
  if (metric === 'error_rate' || metric === 'streaming_rate') return 'share';
  if (metric.startsWith('latency') || metric.startsWith('first_token')) return 'seconds';
  if (metric.includes('cost')) return 'usd';
  if (metric.includes('tokens')) return 'tokens';
  if (metric.startsWith('feedback')) return 'score';
  return 'count';
}

/** A point's number: a number as it is, a feedback object's average (`{avg}`), else none. */
function numberOf(value: DashboardPoint['value']): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value && typeof value === 'object' && typeof value['avg'] === 'number' && Number.isFinite(value['avg'])) return value['avg'];
  return null;
}

/** The dashboard of one query: every chart of the section and its sub-sections, in LangSmith's order. */
export function dashboardOf(section: ProjectDashboard, query: Query): Dashboard {
  const byIndex = (a: DashboardChart, b: DashboardChart) => a.index - b.index;
  const charts: { chart: DashboardChart; section: string }[] = [
    ...[...section.charts].sort(byIndex).map((chart) => ({ chart, section: section.title })),
    ...(section.sub_sections ?? []).flatMap((s) => [...s.charts].sort(byIndex).map((chart) => ({ chart, section: s.title }))),
  ].slice(0, MAX_CHARTS);

  // One time axis: every bucket any chart has, ascending. (Each timestamp is parsed once: a 30-day range at an hour
  // is some 50,000 points of 721 timestamps.)
  const parsed = new Map<string, number>();
  const timeOf = (text: string) => {
    let t = parsed.get(text);
    if (t === undefined) parsed.set(text, (t = Date.parse(text)));
    return t;
  };
  const stamps = new Set<number>();
  for (const { chart } of charts) for (const p of chart.data) stamps.add(timeOf(p.timestamp));
  stamps.delete(NaN);
  const times = [...stamps].sort((a, b) => a - b).slice(0, MAX_POINTS + 1);
  const at = new Map(times.map((t, i) => [t, i]));

  return {
    query,
    times,
    charts: charts.map(({ chart, section: sectionTitle }): Chart => {
      // A series per LangSmith series and group, in the order the series are listed and the groups first seen.
      const rows = new Map<string, { series: Series; values: (number | null)[] }>();
      const byId = new Map(chart.series.map((s) => [s.id, s]));
      const rowOf = (s: DashboardSeries, group: string | null) => {
        const k = group === null ? s.id : `${s.id}\u0000${group}`;
        let row = rows.get(k);
        if (!row && rows.size < MAX_SERIES) {
          const groupBy: GroupBy | null = group === null ? null : s.group_by ? { attribute: s.group_by.attribute, path: s.group_by.path ?? null } : query.groupBy;
          row = {
            series: {
              id: cut(s.id),
              name: cut(group === null ? s.name : chart.series.length > 1 ? `${s.name} · ${group}` : group),
              metric: cut(s.metric),
              feedbackKey: s.feedback_key ? cut(s.feedback_key) : null,
              filter: s.filters?.filter ? cut(s.filters.filter) : null,
              group: group === null ? null : cut(group),
              groupBy,
            },
            values: times.map(() => null),
          };
          rows.set(k, row);
        }
        return row;
      };
      // Ungrouped series keep their place even with no points (a series grouped by itself or by the query has none).
      if (query.groupBy === null) for (const s of chart.series) if (!s.group_by) rowOf(s, null);
      for (const p of chart.data) {
        const s = byId.get(p.series_id);
        const i = at.get(timeOf(p.timestamp));
        if (!s || i === undefined) continue;
        const row = rowOf(s, p.group ?? null);
        if (row) row.values[i] = numberOf(p.value);
      }
      const list = [...rows.values()];
      return {
        id: cut(chart.id),
        title: cut(chart.title),
        section: cut(sectionTitle),
        kind: chart.chart_type === 'bar' ? 'bar' : 'line',
        unit: unitOf(chart.series[0]?.metric ?? 'run_count'),
        series: list.map((r) => r.series),
        values: list.map((r) => r.values),
      };
    }),
  };
}
