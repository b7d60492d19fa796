// A project's monitoring charts: what LangSmith's dashboard route answers for a range of time, at a stride, grouped
// or not, as the page draws it.
//
// The page chooses the range (last hour, 24 hours, 7 or 30 days, or from/to), the stride (one that fits the range,
// or the user's) and the grouping, and asks the host for the charts; the host remembers the last choice per project
// so a panel shown again or restored after a reload opens on the same range, moved up to now. The host converts
// LangSmith's sections (charts of series of points `{series_id, timestamp, value, group}`) into one time axis and a
// row of values per series, ready to draw. A click on a point asks the host to open the runs behind it.
import * as z from 'zod/mini';
import { defineReady, defineRequest } from './messages';
import { LoadProblem } from './trace';

const id = z.string().check(z.minLength(1), z.maxLength(100));
const short = z.string().check(z.maxLength(2000));

/** At most this many buckets per series (a 30-day range at one hour is 720). */
export const MAX_POINTS = 1000;
/** A stride the page chooses by itself keeps a series at most this long (readable at 450 px). */
export const AUTO_POINTS = 120;
/** At most this many charts, and series in one chart (a grouped chart has a series per group). */
export const MAX_CHARTS = 60;
export const MAX_SERIES = 60;
/** Groups asked for when grouping (LangSmith's `max_groups`). */
export const MAX_GROUPS = 5;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Which project a panel shows. */
export const MonitorKey = z.strictObject({ projectId: id, projectName: z.string().check(z.maxLength(500)) });
export type MonitorKey = z.infer<typeof MonitorKey>;

/** LangSmith's stride (`TimedeltaInput`). */
export const Stride = z.strictObject({
  days: z.int().check(z.gte(0), z.lte(31)),
  hours: z.int().check(z.gte(0), z.lte(23)),
  minutes: z.int().check(z.gte(0), z.lte(59)),
});
export type Stride = z.infer<typeof Stride>;

export const GroupBy = z.strictObject({
  attribute: z.enum(['name', 'run_type', 'tag', 'metadata']),
  /** The metadata key, for `metadata`. */
  path: z.nullable(z.string().check(z.minLength(1), z.maxLength(200))),
});
export type GroupBy = z.infer<typeof GroupBy>;

export const RangePreset = z.enum(['1h', '24h', '7d', '30d', 'custom']);
export type RangePreset = z.infer<typeof RangePreset>;

/** How long each preset reaches back from now. */
export const PRESET_MS: Record<Exclude<RangePreset, 'custom'>, number> = { '1h': HOUR, '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY };

export function strideMs(s: Stride): number {
  return s.days * DAY + s.hours * HOUR + s.minutes * MINUTE;
}

/** The strides offered, shortest first. */
export const STRIDES: readonly Stride[] = [
  { days: 0, hours: 0, minutes: 1 },
  { days: 0, hours: 0, minutes: 5 },
  { days: 0, hours: 0, minutes: 15 },
  { days: 0, hours: 0, minutes: 30 },
  { days: 0, hours: 1, minutes: 0 },
  { days: 0, hours: 3, minutes: 0 },
  { days: 0, hours: 6, minutes: 0 },
  { days: 0, hours: 12, minutes: 0 },
  { days: 1, hours: 0, minutes: 0 },
  { days: 7, hours: 0, minutes: 0 },
];

/** The shortest offered stride that keeps a range of this length at most AUTO_POINTS buckets (a day for anything up to 120 days). */
export function strideFor(rangeMs: number): Stride {
  return STRIDES.find((s) => Math.ceil(rangeMs / strideMs(s)) <= AUTO_POINTS) ?? STRIDES[STRIDES.length - 1]!;
}

/** The strides that make at least two and at most MAX_POINTS buckets of a range of this length. */
export function stridesFor(rangeMs: number): Stride[] {
  return STRIDES.filter((s) => {
    const n = Math.ceil(rangeMs / strideMs(s));
    return n >= 2 && n <= MAX_POINTS;
  });
}

/** What the page asks for. Times are milliseconds since the epoch. */
export const Query = z
  .strictObject({
    /** Which choice made the window: a preset moves up to now when the panel opens again. */
    range: RangePreset,
    startTime: z.number(),
    endTime: z.number(),
    stride: Stride,
    /** An IANA time zone (buckets of a day or more start at its midnight). */
    timezone: z.string().check(z.minLength(1), z.maxLength(100), z.regex(/^[A-Za-z][A-Za-z0-9_+\-/]*$/, 'A time zone is an IANA name such as Europe/Paris.')),
    groupBy: z.nullable(GroupBy),
  })
  .check(
    z.refine((q) => q.endTime > q.startTime, { message: 'The end of the range must be after its start.' }),
    z.refine((q) => strideMs(q.stride) > 0, { message: 'The stride must be longer than zero.' }),
    z.refine((q) => (q.endTime - q.startTime) / Math.max(1, strideMs(q.stride)) <= MAX_POINTS, { message: `At most ${MAX_POINTS} points per series: choose a longer stride.` }),
  );
export type Query = z.infer<typeof Query>;

/** The last 7 days at the stride that fits, in this time zone, ungrouped: what a project opens on first. */
export function defaultQuery(now: number, timezone: string): Query {
  const span = PRESET_MS['7d'];
  return { range: '7d', startTime: now - span, endTime: now, stride: strideFor(span), timezone, groupBy: null };
}

/** The same choice moved up to now (a preset), or as it was (a custom range). */
export function movedToNow(q: Query, now: number): Query {
  if (q.range === 'custom') return q;
  const span = PRESET_MS[q.range];
  return { ...q, startTime: now - span, endTime: now };
}

/** How a chart's values read: a count, a share (0–1), seconds, tokens, US dollars, a feedback score. */
export const Unit = z.enum(['count', 'share', 'seconds', 'tokens', 'usd', 'score']);
export type Unit = z.infer<typeof Unit>;

export const Series = z.strictObject({
  id: short,
  /** The series' name, with its group when grouped ("Success · gpt-4o"). */
  name: short,
  /** LangSmith's metric (`run_count`, `error_rate`, `latency_p50`, …). */
  metric: short,
  feedbackKey: z.nullable(short),
  /** The series' own filter in LangSmith's filter language (`eq(run_type, "llm")`), if it has one. */
  filter: z.nullable(short),
  /** The group this series is of, and what it was grouped by. */
  group: z.nullable(short),
  groupBy: z.nullable(GroupBy),
});
export type Series = z.infer<typeof Series>;

export const Chart = z.strictObject({
  id: short,
  title: short,
  /** The section it belongs to (Traces, LLM calls, Cost & tokens, Tools, Feedback…). */
  section: short,
  kind: z.enum(['line', 'bar']),
  unit: Unit,
  series: z.array(Series).check(z.maxLength(MAX_SERIES)),
  /** One row per series, aligned with the dashboard's times; null where the bucket has no value. */
  values: z.array(z.array(z.nullable(z.number())).check(z.maxLength(MAX_POINTS + 1))).check(z.maxLength(MAX_SERIES)),
});
export type Chart = z.infer<typeof Chart>;

export const Dashboard = z.strictObject({
  query: Query,
  /** The buckets' start times, ascending. */
  times: z.array(z.number()).check(z.maxLength(MAX_POINTS + 1)),
  charts: z.array(Chart).check(z.maxLength(MAX_CHARTS)),
});
export type Dashboard = z.infer<typeof Dashboard>;

export const MonitorState = z.union([
  z.strictObject({
    kind: z.literal('monitor'),
    project: z.strictObject({ id, name: z.string().check(z.maxLength(500)) }),
    dashboard: Dashboard,
  }),
  z.strictObject({ kind: z.literal('problem'), problem: LoadProblem }),
]);
export type MonitorState = z.infer<typeof MonitorState>;

// ---------------------------------------------------------------------------------------------------------------
// Messages

export const MonitorReady = defineReady('monitor', MonitorState);

/** Reads the last range again (Retry after a problem). */
export const Reload = defineRequest('monitor/reload', z.strictObject({}), MonitorState);

/** The charts of another range, stride or grouping (remembered for the next time the project opens). */
export const Load = defineRequest('monitor/load', Query, Dashboard);

/** Opens the runs panel on the runs behind a point: root runs, LLM calls or all, a window of time and LangSmith's filter for the group. */
export const OpenRuns = defineRequest(
  'monitor/openRuns',
  z.strictObject({ scope: z.enum(['root', 'llm', 'all']), filter: z.nullable(z.string().check(z.maxLength(4000))), startTime: z.number(), endTime: z.number() }),
  z.strictObject({}),
);
