// One chart of the dashboard: its title and unit, the chart, and the same numbers as a table for those who read
// them rather than see them (drawn only when opened: a 30-day range at one hour is 720 rows).
import { useMemo, useState } from 'react';
import type { Chart, Query } from '../../../../src/protocol/monitor';
import { swatchClass, TimeChart, type ChartSeries } from '../../common/chart/TimeChart';
import { formatTick, formatTime, formatValue, ranked, unitLabel } from './model';

export function ChartCard({ chart, times, query, onPick, onPickSeries }: { chart: Chart; times: readonly number[]; query: Query; onPick(series: number, index: number): void; onPickSeries(series: number): void }) {
  const [table, setTable] = useState(false);
  const series = useMemo(() => styled(chart), [chart]);
  const time = (t: number) => formatTime(t, query.stride, query.timezone);
  const titleId = `chart-${chart.id}`.replace(/[^A-Za-z0-9_-]/g, '_');
  // Bars of several series (run names, tools, groups): ranked by their total, each opening its runs over the range.
  const top = chart.kind === 'bar' && chart.series.length > 1 && (chart.unit === 'count' || chart.unit === 'tokens' || chart.unit === 'usd') ? ranked(chart) : null;
  return (
    <section className="mon-card" aria-labelledby={titleId} data-testid="chart" data-chart={chart.title}>
      <h3 className="mon-card-title" id={titleId}>
        {chart.title}
        {unitLabel(chart.unit) && <span className="mon-unit"> {unitLabel(chart.unit)}</span>}
      </h3>
      {chart.series.length === 0 ? (
        <p className="lsw-muted">No series.</p>
      ) : (
        <TimeChart
          label={chart.title}
          times={times}
          series={series}
          kind={chart.kind}
          formatValue={(v) => formatValue(v, chart.unit)}
          formatTick={(v) => formatTick(v, chart.unit)}
          formatTime={time}
          onPick={onPick}
          legend={top === null && chart.series.length > 1}
        />
      )}
      {top && (
        <ol className="mon-top" aria-label={`${chart.title}: totals over the range`} data-testid="top">
          {top.map(({ index, total }) => (
            <li key={index}>
              <button type="button" className="mon-top-item" onClick={() => onPickSeries(index)} title="Open these runs over the whole range">
                <span className={swatchClass(series[index]!, index)} />
                <span className="mon-top-name">{chart.series[index]!.name}</span>
                <span className="mon-top-total">{formatValue(total, chart.unit)}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
      <details className="mon-table" onToggle={(e) => setTable((e.target as HTMLDetailsElement).open)}>
        <summary>Table</summary>
        {table && (
          <table>
            <caption className="lsw-visually-hidden">{chart.title}</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                {chart.series.map((s, i) => (
                  <th key={i} scope="col">
                    {s.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {times.map((t, r) => (
                <tr key={t}>
                  <th scope="row">{time(t)}</th>
                  {chart.values.map((row, i) => (
                    <td key={i}>{formatValue(row[r] ?? null, chart.unit)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </details>
    </section>
  );
}

/**
 * A grouped line chart of several metrics (p50 and p99 per model): a colour per group and a pattern per metric
 * (solid, dashed, dotted), so the same model reads as one colour. Otherwise a colour per series.
 */
function styled(chart: Chart): ChartSeries[] {
  const groups = [...new Set(chart.series.map((s) => s.group).filter((g): g is string => g !== null))];
  const metrics = [...new Set(chart.series.map((s) => s.id))];
  const byGroup = chart.kind === 'line' && groups.length > 1 && metrics.length > 1;
  return chart.series.map((s, i) => ({
    name: s.name,
    values: chart.values[i] ?? [],
    ...(byGroup && s.group !== null ? { colour: groups.indexOf(s.group), dash: Math.min(2, metrics.indexOf(s.id)) as 0 | 1 | 2 } : {}),
  }));
}
