// The monitor page against a fake host whose answers are built from fixtures in LangSmith's own shape (the
// dashboard route's `CustomChartsSection`), through the host's conversion: every chart drawn, the tooltip's numbers,
// a click and the keyboard opening the runs behind a point (window and group), new requests for a new range, stride
// or grouping, a failed load keeping the charts, the empty range, hostile text, and 450 px in both themes.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { Dashboard, MonitorState, Query } from '../../src/protocol/monitor';
import type { DashboardChart, ProjectDashboard } from '../../src/client';
import { dashboardOf } from '../../src/webviews/monitor/dashboardData';
import { HostError, screenshot, withWebviewApps } from './harness';

const HOUR = 3600_000;
const START = Date.UTC(2026, 0, 10);
/** 7 days at 3 hours: 56 buckets. */
const QUERY: Query = { range: '7d', startTime: START, endTime: START + 7 * 24 * HOUR, stride: { days: 0, hours: 3, minutes: 0 }, timezone: 'UTC', groupBy: null };
const BUCKETS = 56;
const iso = (i: number) => new Date(START + i * 3 * HOUR).toISOString().replace('.000Z', 'Z');
const PROJECT = { id: '00000000-0000-4000-8000-0000000000aa', name: 'demo-production' };

/** A daily rhythm with an error spike at bucket 30 and slower answers from bucket 40. */
const traces = (i: number) => 200 + Math.round(120 * Math.sin((i / 8) * Math.PI * 2)) + 120;
const errorRate = (i: number) => (i === 30 ? 0.32 : 0.02 + (i % 5) / 100);
const p50 = (i: number) => (i === 10 ? 0.85 : i >= 40 ? 1.9 : 0.8 + (i % 3) / 20);
const p99 = (i: number) => (i === 10 ? 2.4 : i >= 40 ? 6.5 : 2.2 + (i % 4) / 10);

function chart(id: string, title: string, type: 'line' | 'bar', series: DashboardChart['series'], value: (series: string, i: number, group: string | null) => number | null, groups: (string | null)[] = [null]): DashboardChart {
  const data: DashboardChart['data'] = [];
  for (let i = 0; i < BUCKETS; i++) for (const s of series) for (const group of groups) data.push({ series_id: s.id, timestamp: iso(i), value: value(s.id, i, group), group });
  return { id, title, chart_type: type, index: 0, series, data };
}

/** LangSmith's prebuilt project dashboard: traces, LLM calls, cost and tokens, run names, feedback. */
function section(opts: { groups?: (string | null)[]; empty?: boolean } = {}): ProjectDashboard {
  const groups = opts.groups ?? [null];
  const share = (g: string | null) => (g === null ? 1 : g === groups[0] ? 0.7 : 0.3);
  const z = opts.empty ? 0 : 1;
  const root = { filter: 'eq(is_root, true)' };
  return {
    id: '00000000-0000-4000-8000-0000000000d1',
    title: 'Prebuilt dashboard',
    charts: [],
    sub_sections: [
      {
        id: 'sub-traces',
        title: 'Traces',
        index: 0,
        charts: [
          chart('c-count', 'Trace Count', 'bar', [{ id: 's-count', name: 'Traces', metric: 'run_count', filters: root }], (_s, i, g) => z * Math.round(traces(i) * share(g)), groups),
          chart('c-err', 'Trace Error Rate', 'line', [{ id: 's-err', name: 'Error rate', metric: 'error_rate', filters: root }], (_s, i) => (z ? errorRate(i) : null), groups),
          chart(
            'c-lat',
            'Trace Latency',
            'line',
            [
              { id: 's-p50', name: 'p50', metric: 'latency_p50', filters: root },
              { id: 's-p99', name: 'p99', metric: 'latency_p99', filters: root },
            ],
            (s, i, g) => (z ? (s === 's-p50' ? p50(i) : p99(i)) * (g === groups[1] ? 1.5 : 1) : null),
            groups,
          ),
          chart(
            'c-ttft',
            'Time to First Token',
            'line',
            [
              { id: 's-t50', name: 'p50', metric: 'first_token_p50', filters: root },
              { id: 's-t99', name: 'p99', metric: 'first_token_p99', filters: root },
            ],
            (s, i) => (z ? (s === 's-t50' ? 0.3 : 0.9) + (i % 6) / 50 : null),
            groups,
          ),
        ],
      },
      {
        id: 'sub-cost-tokens',
        title: 'Cost & Tokens',
        index: 1,
        charts: [
          chart('c-tok', 'Total Tokens', 'line', [{ id: 's-tok', name: 'Tokens', metric: 'total_tokens' }], (_s, i, g) => z * traces(i) * 850 * share(g), groups),
          chart('c-cost', 'Total Cost', 'line', [{ id: 's-cost', name: 'Cost', metric: 'total_cost' }], (_s, i, g) => z * traces(i) * 0.0021 * share(g), groups),
        ],
      },
      {
        id: 'sub-run-names',
        title: 'Run names',
        index: 2,
        charts: [
          chart(
            'c-names',
            'Runs by Name',
            'bar',
            ['retrieve_docs', 'ChatOpenAI', 'answer_question'].map((n) => ({ id: `s-${n}`, name: n, metric: 'run_count', filters: { filter: `eq(name, "${n}")` } })),
            (s, i) => z * Math.round(traces(i) * (s === 's-ChatOpenAI' ? 1 : 0.5)),
          ),
          // A series grouped by itself (LangSmith's `set_by: "series"`): a group per tool, whatever the page's grouping.
          chart(
            'c-tools',
            'Top Tools',
            'bar',
            [{ id: 's-tools', name: 'Tool runs', metric: 'run_count', filters: { filter: 'eq(run_type, "tool")' }, group_by: { attribute: 'name', path: null } }],
            (_s, i, g) => z * (g === 'web_search' ? 40 : 15) * (1 + (i % 2)),
            ['web_search', 'sql_query'],
          ),
        ],
      },
      {
        id: 'sub-feedback',
        title: 'Feedback',
        index: 3,
        charts: [
          chart(
            'c-fb',
            'Feedback',
            'line',
            [
              { id: 's-fb1', name: 'correctness', metric: 'feedback_score_avg', feedback_key: 'correctness' },
              { id: 's-fb2', name: 'user_score', metric: 'feedback_score_avg', feedback_key: 'user_score' },
            ],
            (s, i) => (z ? (s === 's-fb1' ? 0.8 - (i >= 40 ? 0.2 : 0) : 0.6 + (i % 4) / 20) : null),
          ),
        ],
      },
    ],
  };
}

const BARS = new Set(['Trace Count', 'Runs by Name', 'Top Tools']);
const TITLES = ['Trace Count', 'Trace Error Rate', 'Trace Latency', 'Time to First Token', 'Total Tokens', 'Total Cost', 'Runs by Name', 'Top Tools', 'Feedback'];

function stateOf(dashboard: Dashboard): MonitorState {
  return { kind: 'monitor', project: PROJECT, dashboard };
}

/** A fake host: the ready answer for QUERY, and each load answered from the fixture (grouped when asked). */
function handlers(over: Record<string, (p: unknown) => unknown> = {}, opts: { empty?: boolean } = {}) {
  const answer = (q: Query) => dashboardOf(section({ ...opts, groups: q.groupBy ? ['gpt-4o', 'claude-3-5-sonnet'] : [null] }), q);
  return {
    'monitor/ready': () => ({ restore: PROJECT, connection: { signedIn: true, endpoint: 'http://localhost' }, state: stateOf(answer(QUERY)) }),
    'monitor/load': (p: unknown) => answer(p as Query),
    'monitor/openRuns': () => ({}),
    ...over,
  };
}

/** The page position of a bucket on a chart's plot, at a height (0 top, 1 bottom) of it. */
async function bucketPoint(page: Page, title: string, index: number, height = 0.5): Promise<{ x: number; y: number }> {
  const over = page.locator(`[data-chart="${title}"] .u-over`);
  await over.scrollIntoViewIfNeeded();
  const box = (await over.boundingBox())!;
  // Bars have half a bucket of room at each end; lines run edge to edge.
  const x = BARS.has(title) ? box.x + (box.width * (index + 0.5)) / BUCKETS : box.x + (box.width * index) / (BUCKETS - 1);
  return { x, y: box.y + box.height * height };
}

describe('webview: monitor', () => {
  const open = withWebviewApps();

  it('draws every chart of the dashboard under its section', async () => {
    const app = await open('monitor', { theme: 'dark', handlers: handlers() });
    await app.page.getByTestId('chart').first().waitFor();
    assert.deepEqual(await app.page.getByTestId('chart').evaluateAll((els) => els.map((e) => e.getAttribute('data-chart'))), TITLES);
    assert.deepEqual(await app.page.locator('.mon-section').allTextContents(), ['Traces', 'Cost & Tokens', 'Run names', 'Feedback']);
    // Each chart is a canvas of its own, with its unit beside the title.
    assert.equal(await app.page.locator('[data-testid=chart] canvas').count(), TITLES.length);
    assert.equal((await app.page.locator('[data-chart="Trace Latency"] .mon-unit').textContent())?.trim(), 'seconds');
    assert.equal(await app.page.locator('[data-chart="Trace Count"] .mon-unit').count(), 0);
    // The names ranked by their runs over the range (ties in the server's order).
    const total = (share: number) => Array.from({ length: BUCKETS }, (_, i) => Math.round(traces(i) * share)).reduce((a, b) => a + b, 0).toLocaleString('en-US');
    assert.deepEqual(await app.page.locator('[data-chart="Runs by Name"] [data-testid=top] li').allTextContents(), [`ChatOpenAI${total(1)}`, `retrieve_docs${total(0.5)}`, `answer_question${total(0.5)}`]);
    assert.match((await app.page.locator('h1').textContent())!, /Monitor: demo-production/);
    await screenshot(app.page, 'monitor-dark');
  });

  it('shows the numbers of the bucket under the pointer', async () => {
    const app = await open('monitor', { theme: 'dark', handlers: handlers() });
    const at = await bucketPoint(app.page, 'Trace Latency', 10);
    await app.page.mouse.move(at.x, at.y);
    const tip = app.page.locator('[data-chart="Trace Latency"] [data-testid=chart-tooltip]');
    await tip.locator('.lsw-chart-tip-time').waitFor();
    assert.equal(await tip.locator('.lsw-chart-tip-time').textContent(), 'Jan 11, 06:00');
    assert.deepEqual(await tip.locator('.lsw-chart-tip-row').allTextContents(), ['p50850 ms', 'p992.4 s']);
    await screenshot(app.page, 'monitor-tooltip');
    // Shares, money and tokens read with their units.
    const err = await bucketPoint(app.page, 'Trace Error Rate', 30);
    await app.page.mouse.move(err.x, err.y);
    assert.deepEqual(await app.page.locator('[data-chart="Trace Error Rate"] .lsw-chart-tip-row').allTextContents(), ['Error rate32%']);
    const cost = await bucketPoint(app.page, 'Total Cost', 0);
    await app.page.mouse.move(cost.x + 1, cost.y);
    assert.deepEqual(await app.page.locator('[data-chart="Total Cost"] .lsw-chart-tip-row').allTextContents(), [`Cost$${(traces(0) * 0.0021).toFixed(2)}`]);
    const tokens = await bucketPoint(app.page, 'Total Tokens', 0);
    await app.page.mouse.move(tokens.x + 1, tokens.y);
    assert.deepEqual(await app.page.locator('[data-chart="Total Tokens"] .lsw-chart-tip-row').allTextContents(), [`Tokens${(traces(0) * 850).toLocaleString('en-US')} tokens`]);
  });

  it('a click on the error chart opens the failed runs of that bucket', async () => {
    const app = await open('monitor', { theme: 'dark', handlers: handlers() });
    const at = await bucketPoint(app.page, 'Trace Error Rate', 30, 0.2);
    await app.page.mouse.click(at.x, at.y);
    await waitFor(() => app.requests('monitor/openRuns').length === 1);
    assert.deepEqual(app.requests('monitor/openRuns'), [{ scope: 'root', filter: 'eq(status, "error")', startTime: START + 30 * 3 * HOUR, endTime: START + 31 * 3 * HOUR }]);
  });

  it('a click on a bar opens that name’s runs of that bucket', async () => {
    const app = await open('monitor', { theme: 'dark', handlers: handlers() });
    // Stacked bars: retrieve_docs at the bottom, ChatOpenAI over it.
    const at = await bucketPoint(app.page, 'Runs by Name', 5, 0.97);
    await app.page.mouse.click(at.x, at.y);
    await waitFor(() => app.requests('monitor/openRuns').length === 1);
    assert.deepEqual(app.requests('monitor/openRuns'), [{ scope: 'all', filter: 'eq(name, "retrieve_docs")', startTime: START + 5 * 3 * HOUR, endTime: START + 6 * 3 * HOUR }]);
  });

  it('a name of the top list opens its runs over the whole range', async () => {
    const app = await open('monitor', { theme: 'dark', handlers: handlers() });
    await app.page.locator('[data-chart="Runs by Name"] .mon-top-item').first().click();
    await waitFor(() => app.requests('monitor/openRuns').length === 1);
    assert.deepEqual(app.requests('monitor/openRuns'), [{ scope: 'all', filter: 'eq(name, "ChatOpenAI")', startTime: QUERY.startTime, endTime: QUERY.endTime }]);
  });

  it('a chart grouped by its own series ranks its groups and opens their runs', async () => {
    const app = await open('monitor', { theme: 'dark', handlers: handlers() });
    const top = app.page.locator('[data-chart="Top Tools"] .mon-top-item');
    await top.first().waitFor();
    assert.deepEqual(await top.locator('.mon-top-name').allTextContents(), ['web_search', 'sql_query']);
    const at = await bucketPoint(app.page, 'Top Tools', 3, 0.97);
    await app.page.mouse.click(at.x, at.y);
    await waitFor(() => app.requests('monitor/openRuns').length === 1);
    assert.deepEqual(app.requests('monitor/openRuns'), [{ scope: 'all', filter: 'and(eq(run_type, "tool"), eq(name, "web_search"))', startTime: START + 3 * 3 * HOUR, endTime: START + 4 * 3 * HOUR }]);
  });

  it('grouped by model, the keyboard reads a group’s point and Enter opens its runs', async () => {
    const app = await open('monitor', { theme: 'dark', handlers: handlers() });
    await app.page.getByTestId('group').selectOption('model');
    await waitFor(() => app.requests('monitor/load').length === 1);
    const asked = app.requests('monitor/load')[0] as Query;
    assert.deepEqual(asked.groupBy, { attribute: 'metadata', path: 'ls_model_name' });
    const legend = app.page.locator('[data-chart="Trace Latency"] .lsw-chart-legend li');
    await legend.first().waitFor();
    assert.deepEqual(await legend.allTextContents(), ['p50 · gpt-4o', 'p50 · claude-3-5-sonnet', 'p99 · gpt-4o', 'p99 · claude-3-5-sonnet']);
    // A colour per model, a pattern per metric: p99 of gpt-4o is dashed in p50 of gpt-4o's colour.
    assert.deepEqual(await legend.locator('.lsw-chart-swatch').evaluateAll((els) => els.map((e) => e.className)), [
      'lsw-chart-swatch lsw-chart-c0',
      'lsw-chart-swatch lsw-chart-c1',
      'lsw-chart-swatch lsw-chart-swatch-line lsw-chart-dash1 lsw-chart-c0',
      'lsw-chart-swatch lsw-chart-swatch-line lsw-chart-dash1 lsw-chart-c1',
    ]);
    await app.page.locator('[data-chart="Trace Latency"]').scrollIntoViewIfNeeded();
    await screenshot(app.page, 'monitor-grouped');
    const plot = app.page.locator('[data-chart="Trace Latency"] .lsw-chart-plot');
    await plot.focus();
    for (let i = 0; i < 3; i++) await app.page.keyboard.press('ArrowRight');
    await app.page.keyboard.press('ArrowDown');
    // Announced for screen readers: the bucket, the series, the value.
    const live = app.page.locator('[data-chart="Trace Latency"] [aria-live]');
    const times = dashboardOf(section({ groups: ['gpt-4o', 'claude-3-5-sonnet'] }), asked).times;
    assert.equal(await live.textContent(), `${new Intl.DateTimeFormat('en-US', { timeZone: asked.timezone, month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(times[2]!)}: p50 · claude-3-5-sonnet 1.35 s`);
    await app.page.keyboard.press('Enter');
    await waitFor(() => app.requests('monitor/openRuns').length === 1);
    const target = app.requests('monitor/openRuns')[0] as { scope: string; filter: string; startTime: number; endTime: number };
    assert.equal(target.scope, 'root');
    assert.equal(target.filter, 'and(eq(metadata_key, "ls_model_name"), eq(metadata_value, "claude-3-5-sonnet"))');
    assert.equal(target.startTime, times[2]);
    assert.equal(target.endTime, Math.min(times[2]! + asked.stride.hours * HOUR + asked.stride.minutes * 60_000 + asked.stride.days * 24 * HOUR, asked.endTime));
  });

  it('asks anew for another range, stride or grouping', async () => {
    const app = await open('monitor', { theme: 'light', handlers: handlers() });
    await app.page.getByTestId('chart').first().waitFor();
    const before = Date.now();
    await app.page.getByTestId('range').selectOption('30d');
    await waitFor(() => app.requests('monitor/load').length === 1);
    const month = app.requests('monitor/load')[0] as Query;
    assert.equal(month.range, '30d');
    assert.equal(month.endTime - month.startTime, 30 * 24 * HOUR);
    assert.ok(month.endTime >= before);
    assert.deepEqual(month.stride, { days: 0, hours: 6, minutes: 0 });
    assert.equal(month.groupBy, null);
    assert.equal(month.timezone, await app.page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone));
    // One hour over 30 days: 720 buckets, offered.
    await app.page.getByTestId('stride').selectOption({ label: '1 h' });
    await waitFor(() => app.requests('monitor/load').length === 2);
    assert.deepEqual((app.requests('monitor/load')[1] as Query).stride, { days: 0, hours: 1, minutes: 0 });
    // A metadata key, typed.
    await app.page.getByTestId('group').selectOption('metadata');
    assert.equal(app.requests('monitor/load').length, 2, 'nothing asked before a key is typed');
    await app.page.getByTestId('metadata-key').fill('customer_tier');
    await app.page.getByTestId('metadata-key').press('Enter');
    await waitFor(() => app.requests('monitor/load').length === 3);
    const grouped = app.requests('monitor/load')[2] as Query;
    assert.deepEqual(grouped.groupBy, { attribute: 'metadata', path: 'customer_tier' });
    assert.deepEqual(grouped.stride, { days: 0, hours: 1, minutes: 0 });
    for (const [choice, groupBy] of [
      ['name', { attribute: 'name', path: null }],
      ['run_type', { attribute: 'run_type', path: null }],
      ['tag', { attribute: 'tag', path: null }],
      ['none', null],
    ] as const) {
      const n = app.requests('monitor/load').length;
      await app.page.getByTestId('group').selectOption(choice);
      await waitFor(() => app.requests('monitor/load').length === n + 1);
      assert.deepEqual((app.requests('monitor/load')[n] as Query).groupBy, groupBy);
    }
    // A custom range.
    await app.page.getByTestId('range').selectOption('custom');
    await app.page.getByTestId('from').fill('2026-01-12T00:00');
    await app.page.getByTestId('to').fill('2026-01-14T00:00');
    const n = app.requests('monitor/load').length;
    await app.page.getByTestId('apply-custom').click();
    await waitFor(() => app.requests('monitor/load').length === n + 1);
    const custom = app.requests('monitor/load')[n] as Query;
    assert.equal(custom.range, 'custom');
    assert.equal(custom.endTime - custom.startTime, 48 * HOUR);
    assert.deepEqual(custom.stride, { days: 0, hours: 0, minutes: 30 });
  });

  it('a failed load keeps the last charts and says why', async () => {
    const app = await open('monitor', {
      theme: 'dark',
      handlers: handlers({
        'monitor/load': () => {
          throw new HostError('requestFailed', 'Failed to read the dashboard: 500 Internal Server Error');
        },
      }),
    });
    await app.page.getByTestId('chart').first().waitFor();
    await app.page.getByTestId('range').selectOption('24h');
    await app.page.getByTestId('error').waitFor();
    assert.equal(await app.page.getByTestId('error').textContent(), 'Failed to read the dashboard: 500 Internal Server Error');
    assert.equal(await app.page.getByTestId('chart').count(), TITLES.length);
  });

  it('a range with no runs says so and offers a longer one', async () => {
    const app = await open('monitor', { theme: 'dark', handlers: handlers({}, { empty: true }) });
    await app.page.getByTestId('empty').waitFor();
    assert.equal(await app.page.getByTestId('empty').locator('p').textContent(), 'No runs in demo-production in the last 7 days.');
    assert.equal(await app.page.getByTestId('chart').count(), 0);
    await app.page.getByTestId('longer').click();
    await waitFor(() => app.requests('monitor/load').length === 1);
    assert.equal((app.requests('monitor/load')[0] as Query).range, '30d');
    await screenshot(app.page, 'monitor-empty');
  });

  it('renders names from the server as text, and the numbers as a table', async () => {
    const hostile = '<img src=x onerror="document.title=1">';
    const wire = section();
    wire.sub_sections![2]!.charts[0]!.series[0]!.name = hostile;
    const app = await open('monitor', {
      theme: 'dark',
      handlers: handlers({ 'monitor/ready': () => ({ restore: PROJECT, connection: { signedIn: true, endpoint: 'x' }, state: { kind: 'monitor', project: { ...PROJECT, name: hostile }, dashboard: dashboardOf(wire, QUERY) } }) }),
    });
    await app.page.getByTestId('chart').first().waitFor();
    assert.ok((await app.page.locator('[data-chart="Runs by Name"] .mon-top-name').allTextContents()).includes(hostile));
    assert.equal(await app.page.locator('.mon-project').textContent(), hostile);
    assert.equal(await app.page.locator('img').count(), 0);
    const card = app.page.locator('[data-chart="Trace Latency"]');
    await card.locator('summary').click();
    await card.locator('tbody tr').first().waitFor();
    assert.equal(await card.locator('tbody tr').count(), BUCKETS);
    assert.deepEqual(await card.locator('tbody tr').nth(10).locator('th, td').allTextContents(), ['Jan 11, 06:00', '850 ms', '2.4 s']);
  });

  it('asks for everything again when the page loads again (a hidden tab shown, a reload)', async () => {
    let readies = 0;
    const base = handlers();
    const app = await open('monitor', {
      theme: 'dark',
      handlers: {
        ...base,
        'monitor/ready': () => {
          readies++;
          const answer = base['monitor/ready']();
          // The second load finds a newer range: the host's answer is what shows, nothing kept from before.
          return readies === 1 ? answer : { ...answer, state: stateOf(dashboardOf(section({ empty: true }), { ...QUERY, range: '24h' })) };
        },
      },
    });
    await app.page.getByTestId('chart').first().waitFor();
    await app.reload();
    await app.page.getByTestId('empty').waitFor();
    assert.equal(readies, 2);
    assert.equal(await app.page.getByTestId('range').inputValue(), '24h');
  });

  it('? opens the keys help and Escape closes it', async () => {
    const app = await open('monitor', { theme: 'dark', handlers: handlers() });
    await app.page.getByTestId('chart').first().waitFor();
    await app.page.keyboard.press('?');
    await app.page.getByTestId('keys-help').waitFor();
    assert.match((await app.page.getByTestId('keys-help').textContent())!, /Enter.*Open the runs of the bucket/);
    await app.page.keyboard.press('Escape');
    await app.page.getByTestId('keys-help').waitFor({ state: 'detached' });
  });

  for (const theme of ['dark', 'light'] as const) {
    it(`is readable at 450 px in the ${theme} theme`, async () => {
      const app = await open('monitor', { theme, width: 450, height: 1400, handlers: handlers() });
      await app.page.getByTestId('chart').first().waitFor();
      // One column, nothing wider than the panel.
      const widths = await app.page.locator('[data-testid=chart] canvas').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right));
      for (const right of widths) assert.ok(right <= 450, `a chart reaches ${right} px`);
      assert.ok(await app.page.evaluate(() => document.documentElement.scrollWidth <= 450), 'the page scrolls sideways');
      const at = await bucketPoint(app.page, 'Trace Latency', 40);
      await app.page.mouse.move(at.x, at.y);
      await app.page.locator('[data-chart="Trace Latency"] .lsw-chart-tip-time').waitFor();
      await screenshot(app.page, `monitor-narrow-${theme}`);
      await app.page.locator('[data-chart="Feedback"]').scrollIntoViewIfNeeded();
      await screenshot(app.page, `monitor-narrow-${theme}-end`);
    });
  }

  it('follows a change of theme without a reload', async () => {
    const app = await open('monitor', { theme: 'dark', handlers: handlers() });
    await app.page.getByTestId('chart').first().waitFor();
    const pixel = () =>
      app.page.evaluate(() => {
        // The first series' colour is the theme's chart blue: find it on the first chart's canvas.
        const canvas = document.querySelector('[data-chart="Trace Count"] canvas') as HTMLCanvasElement;
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        const seen = new Set<string>();
        for (let i = 0; i < data.length; i += 4) if (data[i + 3] === 255) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
        return [...seen];
      });
    assert.ok((await pixel()).includes('55,148,255'), 'dark chart blue drawn');
    await app.page.evaluate(() => {
      document.documentElement.style.setProperty('--vscode-charts-blue', '#1a85ff');
      document.body.className = 'vscode-light';
    });
    await waitFor(async () => (await pixel()).includes('26,133,255'));
  });
});

/** Waits for a condition of the page or the fake host, polling (no fixed delay). */
async function waitFor(check: () => boolean | Promise<boolean>, what = 'the condition'): Promise<void> {
  const until = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
