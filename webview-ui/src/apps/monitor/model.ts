// What the monitor page works out on its own: the runs behind a point (a window of time and LangSmith's filter for
// its group), how values and times read, and the labels of ranges and strides.
import { strideMs, type Chart, type GroupBy, type Series, type Stride, type Unit } from '../../../../src/protocol/monitor';

/**
 * What the runs panel opens on: which runs (root runs, LLM calls, or all), the bucket's window, and the filter of the
 * point's group (null: every run of the scope).
 */
export interface RunsTarget {
  scope: 'root' | 'llm' | 'all';
  filter: string | null;
  startTime: number;
  endTime: number;
}

/** A series' own filter as the runs panel's scope where it is one (root runs, LLM calls), and what is left of it. */
export function scopeOf(filter: string | null): { scope: RunsTarget['scope']; rest: string | null } {
  const f = filter?.trim() ?? '';
  if (f === 'eq(is_root, true)') return { scope: 'root', rest: null };
  if (f === 'eq(run_type, "llm")') return { scope: 'llm', rest: null };
  return { scope: 'all', rest: f || null };
}

/** A string in LangSmith's filter language: double quotes, with quotes and backslashes escaped. */
export function quoted(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** The filter that selects the runs of one group. */
export function groupFilter(groupBy: GroupBy, group: string): string {
  switch (groupBy.attribute) {
    case 'name':
      return `eq(name, ${quoted(group)})`;
    case 'run_type':
      return `eq(run_type, ${quoted(group)})`;
    case 'tag':
      return `has(tags, ${quoted(group)})`;
    case 'metadata':
      return `and(eq(metadata_key, ${quoted(groupBy.path ?? '')}), eq(metadata_value, ${quoted(group)}))`;
  }
}

/** Whether a point stands for failed runs (an error rate, a count of errors) whose series does not already say so. */
export function isErrorChart(chart: Chart, series: Series): boolean {
  const errors = series.metric === 'error_rate' || /\berrors?\b/i.test(chart.title) || /\berrors?\b/i.test(series.name);
  return errors && !/\b(status|error)\b/.test(series.filter ?? '');
}

/**
 * The runs behind a point of a chart: those of the bucket that starts at `time` (one stride long, cut at the end of
 * the range), of the series' own filter and its group, and only the failed ones on an error chart.
 */
export function runsTarget(chart: Chart, point: { series: Series; time: number }, stride: Stride, rangeEnd?: number): RunsTarget {
  const { series, time } = point;
  const end = time + strideMs(stride);
  return { ...seriesRuns(chart, series), startTime: time, endTime: rangeEnd !== undefined && rangeEnd > time ? Math.min(end, rangeEnd) : end };
}

/** The runs of a series: its scope, and its own filter, its group's, and the failed runs only on an error chart. */
export function seriesRuns(chart: Chart, series: Series): Pick<RunsTarget, 'scope' | 'filter'> {
  const { scope, rest } = scopeOf(series.filter);
  const parts: string[] = [];
  if (rest) parts.push(rest);
  if (series.group !== null && series.groupBy) parts.push(groupFilter(series.groupBy, series.group));
  if (isErrorChart(chart, series)) parts.push('eq(status, "error")');
  return { scope, filter: parts.length === 0 ? null : parts.length === 1 ? parts[0]! : `and(${parts.join(', ')})` };
}

/** A bar chart's series ranked by their total over the range (the top run names, tools or groups), largest first. */
export function ranked(chart: Chart): { index: number; total: number }[] {
  return chart.series
    .map((_, index) => ({ index, total: (chart.values[index] ?? []).reduce<number>((n, v) => n + (v ?? 0), 0) }))
    .sort((a, b) => b.total - a.total || a.index - b.index);
}

// ---------------------------------------------------------------------------------------------------------------
// How things read

const compact = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, notation: 'compact' });
const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const two = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** A value with its unit, in full (a tooltip, the table): "1,234 runs", "4.2%", "850 ms", "2.31 s", "$0.0123". */
export function formatValue(value: number | null, unit: Unit): string {
  if (value === null) return '—';
  switch (unit) {
    case 'count':
      return whole.format(value);
    case 'share':
      return `${two.format(value * 100)}%`;
    case 'seconds':
      return value < 1 ? `${whole.format(value * 1000)} ms` : `${two.format(value)} s`;
    case 'tokens':
      return `${whole.format(value)} tokens`;
    case 'usd':
      return value !== 0 && Math.abs(value) < 0.01 ? `$${value.toPrecision(3)}` : `$${two.format(value)}`;
    case 'score':
      return two.format(value);
  }
}

/** A value on an axis: short ("1.2K", "4%", "850ms", "2.3s", "$1.2"). */
export function formatTick(value: number, unit: Unit): string {
  switch (unit) {
    case 'count':
    case 'tokens':
      return compact.format(value);
    case 'share':
      return `${compact.format(value * 100)}%`;
    case 'seconds':
      return value !== 0 && Math.abs(value) < 1 ? `${whole.format(value * 1000)}ms` : `${compact.format(value)}s`;
    case 'usd':
      return value !== 0 && Math.abs(value) < 0.01 ? `$${value.toPrecision(1)}` : `$${compact.format(value)}`;
    case 'score':
      return two.format(value);
  }
}

/** The unit's word, for a chart's heading and its table. */
export function unitLabel(unit: Unit): string {
  return { count: '', share: '%', seconds: 'seconds', tokens: 'tokens', usd: 'US$', score: 'score' }[unit];
}

/** A bucket's start as the tooltip says it, in the page's time zone: minutes for strides under a day. */
export function formatTime(t: number, stride: Stride, timezone: string): string {
  const days = strideMs(stride) >= 24 * 3600_000;
  const options: Intl.DateTimeFormatOptions = {
    month: 'short',
    day: 'numeric',
    ...(days ? {} : { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    ...(days && stride.days >= 7 ? { year: 'numeric' } : {}),
  };
  try {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone: timezone }).format(t);
  } catch {
    // A zone this browser does not know: the page's own.
    return new Intl.DateTimeFormat('en-US', options).format(t);
  }
}

/** "15 min", "1 h", "6 h", "1 day". */
export function strideLabel(s: Stride): string {
  if (s.days) return s.days === 1 ? '1 day' : `${s.days} days`;
  if (s.hours) return `${s.hours} h`;
  return `${s.minutes} min`;
}

export const RANGE_LABELS = { '1h': 'Last hour', '24h': 'Last 24 hours', '7d': 'Last 7 days', '30d': 'Last 30 days', custom: 'Custom' } as const;

/** A datetime-local field's value for a time, in the page's own zone, and back. */
export function toLocalInput(t: number): string {
  const d = new Date(t);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
export function fromLocalInput(text: string): number | null {
  const t = new Date(text).getTime();
  return Number.isFinite(t) ? t : null;
}

/** Whether any chart has a run: a project with none in the range says so. */
export function hasRuns(charts: readonly Chart[]): boolean {
  return charts.some((c) => c.values.some((row) => row.some((v) => v !== null && v !== 0)));
}
