// The monitor's arithmetic: the stride chosen for a range and those offered, the query's checks, and the runs
// behind a point (webview-ui/src/apps/monitor/model.ts): its window and LangSmith's filter for its group.
import assert from 'node:assert/strict';
import { defaultQuery, movedToNow, Query, strideFor, strideMs, stridesFor, type Chart, type Series } from '../../src/protocol/monitor';
import { formatTime, formatValue, groupFilter, quoted, runsTarget } from '../../webview-ui/src/apps/monitor/model';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

function series(over: Partial<Series> = {}): Series {
  return { id: 's', name: 'Traces', metric: 'run_count', feedbackKey: null, filter: null, group: null, groupBy: null, ...over };
}
function chart(title: string, s: Series): Chart {
  return { id: 'c', title, section: 'Traces', kind: 'line', unit: 'count', series: [s], values: [[1]] };
}

describe('monitor: strides', () => {
  it('chooses a stride that fits each range in at most 120 buckets', () => {
    assert.deepEqual(strideFor(HOUR), { days: 0, hours: 0, minutes: 1 });
    assert.deepEqual(strideFor(DAY), { days: 0, hours: 0, minutes: 15 });
    assert.deepEqual(strideFor(7 * DAY), { days: 0, hours: 3, minutes: 0 });
    assert.deepEqual(strideFor(30 * DAY), { days: 0, hours: 6, minutes: 0 });
    assert.deepEqual(strideFor(2 * DAY), { days: 0, hours: 0, minutes: 30 });
    assert.deepEqual(strideFor(90 * DAY), { days: 1, hours: 0, minutes: 0 });
    for (const span of [HOUR, 5 * HOUR, DAY, 3 * DAY, 7 * DAY, 30 * DAY, 100 * DAY]) assert.ok(span / strideMs(strideFor(span)) <= 120, `${span}`);
  });

  it('offers the strides that make 2 to 1,000 buckets: one hour over 30 days, not one minute', () => {
    const month = stridesFor(30 * DAY).map(strideMs);
    assert.ok(month.includes(HOUR));
    assert.ok(!month.includes(MIN) && !month.includes(30 * MIN));
    assert.deepEqual(month, [HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 7 * DAY]);
    assert.deepEqual(stridesFor(HOUR).map(strideMs), [MIN, 5 * MIN, 15 * MIN, 30 * MIN]);
  });

  it('checks a query: an end after the start, a stride, at most 1,000 buckets', () => {
    const q = defaultQuery(Date.UTC(2026, 0, 10), 'Europe/Paris');
    assert.equal(Query.safeParse(q).success, true);
    assert.equal(q.endTime - q.startTime, 7 * DAY);
    assert.equal(Query.safeParse({ ...q, endTime: q.startTime }).success, false);
    assert.equal(Query.safeParse({ ...q, stride: { days: 0, hours: 0, minutes: 0 } }).success, false);
    assert.equal(Query.safeParse({ ...q, stride: { days: 0, hours: 0, minutes: 1 } }).success, false, '10,080 buckets');
    assert.equal(Query.safeParse({ ...q, groupBy: { attribute: 'metadata', path: 'ls_model_name' } }).success, true);
    assert.equal(Query.safeParse({ ...q, groupBy: { attribute: 'feedback', path: null } }).success, false);
    for (const zone of ['UTC', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5']) assert.equal(Query.safeParse({ ...q, timezone: zone }).success, true, zone);
    assert.equal(Query.safeParse({ ...q, timezone: '<script>' }).success, false);
  });

  it('moves a preset up to now and leaves a custom range where it was', () => {
    const q = defaultQuery(1_000 * DAY, 'UTC');
    const later = movedToNow(q, 1_001 * DAY);
    assert.deepEqual([later.startTime, later.endTime], [994 * DAY, 1_001 * DAY]);
    const custom = { ...q, range: 'custom' as const };
    assert.deepEqual(movedToNow(custom, 2_000 * DAY), custom);
  });
});

describe('monitor: the runs behind a point', () => {
  const stride = { days: 0, hours: 1, minutes: 0 };
  const t = Date.UTC(2026, 0, 12, 14);

  it('opens the bucket’s window with no filter for an ungrouped series', () => {
    assert.deepEqual(runsTarget(chart('Trace Count', series()), { series: series(), time: t }, stride), { scope: 'all', filter: null, startTime: t, endTime: t + HOUR });
  });

  it('cuts the window at the end of the range', () => {
    assert.deepEqual(runsTarget(chart('Trace Count', series()), { series: series(), time: t }, stride, t + 20 * MIN), { scope: 'all', filter: null, startTime: t, endTime: t + 20 * MIN });
  });

  it('writes the group as LangSmith’s filter, for each grouping', () => {
    const of = (groupBy: Series['groupBy'], group: string) => runsTarget(chart('Trace Count', series()), { series: series({ group, groupBy }), time: t }, stride).filter;
    assert.equal(of({ attribute: 'name', path: null }, 'retrieve_docs'), 'eq(name, "retrieve_docs")');
    assert.equal(of({ attribute: 'run_type', path: null }, 'llm'), 'eq(run_type, "llm")');
    assert.equal(of({ attribute: 'tag', path: null }, 'prod'), 'has(tags, "prod")');
    assert.equal(of({ attribute: 'metadata', path: 'ls_model_name' }, 'gpt-4o'), 'and(eq(metadata_key, "ls_model_name"), eq(metadata_value, "gpt-4o"))');
  });

  it('adds the failed runs on the error chart, with the series’ own filter', () => {
    const err = series({ metric: 'error_rate', name: 'Error rate', filter: 'eq(is_root, true)', group: 'gpt-4o', groupBy: { attribute: 'metadata', path: 'ls_model_name' } });
    assert.equal(
      runsTarget(chart('Trace Error Rate', err), { series: err, time: t }, stride).filter,
      'and(and(eq(metadata_key, "ls_model_name"), eq(metadata_value, "gpt-4o")), eq(status, "error"))',
    );
    // Root runs and LLM calls are the runs panel's scopes; another series filter stays a filter over all runs.
    assert.equal(runsTarget(chart('Trace Error Rate', err), { series: err, time: t }, stride).scope, 'root');
    const llm = series({ metric: 'latency_p50', filter: 'eq(run_type, "llm")' });
    assert.deepEqual(runsTarget(chart('LLM Latency', llm), { series: llm, time: t }, stride), { scope: 'llm', filter: null, startTime: t, endTime: t + HOUR });
    const tools = series({ filter: 'eq(run_type, "tool")', group: 'web_search', groupBy: { attribute: 'name', path: null } });
    assert.deepEqual(runsTarget(chart('Top Tools', tools), { series: tools, time: t }, stride), { scope: 'all', filter: 'and(eq(run_type, "tool"), eq(name, "web_search"))', startTime: t, endTime: t + HOUR });
    // A count of errors is an error chart too; a series already filtered on its status is not filtered twice.
    assert.equal(runsTarget(chart('Errors', series()), { series: series(), time: t }, stride).filter, 'eq(status, "error")');
    const failed = series({ name: 'Error', filter: 'eq(status, "error")' });
    assert.equal(runsTarget(chart('Trace Count', failed), { series: failed, time: t }, stride).filter, 'eq(status, "error")');
    // Latency is not.
    const p50 = series({ metric: 'latency_p50', name: 'p50' });
    assert.equal(runsTarget(chart('Trace Latency', p50), { series: p50, time: t }, stride).filter, null);
  });

  it('escapes quotes and backslashes in a group', () => {
    assert.equal(quoted('say "hi" \\ bye'), '"say \\"hi\\" \\\\ bye"');
    assert.equal(groupFilter({ attribute: 'tag', path: null }, 'a"b'), 'has(tags, "a\\"b")');
  });

  it('reads values with their units', () => {
    assert.equal(formatValue(0.85, 'seconds'), '850 ms');
    assert.equal(formatValue(2.4, 'seconds'), '2.4 s');
    assert.equal(formatValue(0.032, 'share'), '3.2%');
    assert.equal(formatValue(12345, 'tokens'), '12,345 tokens');
    assert.equal(formatValue(0.00123, 'usd'), '$0.00123');
    assert.equal(formatValue(3.5, 'usd'), '$3.5');
    assert.equal(formatValue(null, 'count'), '—');
    assert.equal(formatTime(Date.UTC(2026, 0, 11, 6), { days: 0, hours: 3, minutes: 0 }, 'UTC'), 'Jan 11, 06:00');
    assert.equal(formatTime(Date.UTC(2026, 0, 11, 6), { days: 1, hours: 0, minutes: 0 }, 'Asia/Tokyo'), 'Jan 11');
    assert.match(formatTime(Date.UTC(2026, 0, 11, 6), { days: 0, hours: 3, minutes: 0 }, 'Not/AZone'), /^Jan 1[01], \d\d:00$/);
  });
});
