// One chart of the dashboard: its title and unit, the chart, and the same numbers as a table for those who read
// them rather than see them (drawn only when opened: a 30-day range at one hour is 720 rows).
import { useMemo, useState } from 'react';
import type { Chart, Query } from '../../../../src/protocol/monitor';
import { TimeChart } from '../../common/chart/TimeChart';
import { formatTick, formatTime, formatValue, unitLabel } from './model';

export function ChartCard({ chart, times, query, onPick }: { chart: Chart; times: readonly number[]; query: Query; onPick(series: number, index: number): void }) {
  const [table, setTable] = useState(false);
  const series = useMemo(() => chart.series.map((s, i) => ({ name: s.name, values: chart.values[i] ?? [] })), [chart]);
  const time = (t: number) => formatTime(t, query.stride, query.timezone);
  const titleId = `chart-${chart.id}`.replace(/[^A-Za-z0-9_-]/g, '_');
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
        />
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
