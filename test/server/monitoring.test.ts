// Run stats, the project dashboard and project listings sorted by their figures, against aggregates worked out by
// hand from a small project built here: quantiles as the value at floor(p·n) of the sorted values, error and
// streaming rates, grouping with max_groups, empty buckets, buckets of a day in America/New_York across the change
// to summer time (8 March 2026), and the official client's getRunStats and listProjects.
import assert from 'node:assert/strict';
import { withLocalServer, type LocalServer } from '../harness/localServer';
import { okJson, rawRequest } from '../harness/http';
import { client, collect } from './helpers';

const HOUR = 3_600_000;
/** Saturday 7 March 2026, 12:00 UTC (07:00 in New York, still winter time). */
const T0 = Date.parse('2026-03-07T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

interface Root {
  name: string;
  at: number;
  latencyS: number;
  error?: boolean;
  tags: string[];
  model?: string;
  tokens?: [number, number];
  costs?: [number, number];
  firstTokenS?: number;
  score?: number;
}

/** The project's five root runs (and one LLM call under the first). */
const ROOTS: Root[] = [
  { name: 'a', at: T0, latencyS: 1, tags: ['prod'], model: 'm1', tokens: [60, 40], costs: [0.001, 0.002], firstTokenS: 0.2, score: 1 },
  { name: 'a', at: T0 + HOUR, latencyS: 2, error: true, tags: ['prod', 'beta'], model: 'm1', score: 0 },
  { name: 'b', at: T0 + 2 * HOUR, latencyS: 3, tags: ['beta'], model: 'm2', tokens: [30, 20], score: 0.5 },
  // Sunday 8 March, 14:00 and 15:00 UTC (10:00 and 11:00 in New York, summer time).
  { name: 'b', at: T0 + 26 * HOUR, latencyS: 4, tags: [], model: 'm2' },
  { name: 'c', at: T0 + 27 * HOUR, latencyS: 10, error: true, tags: [] },
];

async function buildProject(srv: LocalServer, name: string, roots: Root[]): Promise<{ id: string; runIds: string[] }> {
  const runIds = roots.map(() => crypto.randomUUID());
  const post = roots.map((r, i) => ({
    id: runIds[i], name: r.name, run_type: 'chain', session_name: name, start_time: iso(r.at), end_time: iso(r.at + r.latencyS * 1000),
    inputs: { i }, outputs: r.error ? null : { ok: true, ...(r.costs ? { usage_metadata: { input_cost: r.costs[0], output_cost: r.costs[1] } } : {}) },
    error: r.error ? 'boom' : null, tags: r.tags, extra: { metadata: r.model ? { model: r.model } : {} },
    prompt_tokens: r.tokens?.[0], completion_tokens: r.tokens?.[1], total_tokens: r.tokens ? r.tokens[0] + r.tokens[1] : undefined,
    events: r.firstTokenS === undefined ? [] : [{ name: 'new_token', time: iso(r.at + r.firstTokenS * 1000) }],
  }));
  if (roots === ROOTS) {
    post.push({
      id: crypto.randomUUID(), name: 'llm-x', run_type: 'llm', session_name: name, start_time: iso(T0 + 100), end_time: iso(T0 + 600),
      inputs: { i: 99 }, outputs: { ok: true }, error: null, tags: [], extra: { metadata: {} }, prompt_tokens: 6, completion_tokens: 4, total_tokens: 10,
      events: [], parent_run_id: runIds[0], trace_id: runIds[0],
    } as unknown as (typeof post)[number]);
  }
  await okJson(srv, 'POST', '/runs/batch', { post });
  for (const [i, r] of roots.entries()) {
    if (r.score !== undefined) await okJson(srv, 'POST', '/feedback', { run_id: runIds[i], key: 'score', score: r.score });
  }
  const [project] = await okJson<{ id: string }[]>(srv, 'GET', `/sessions?name=${name}`);
  return { id: project!.id, runIds };
}

describe('monitoring: run stats, the project dashboard, projects sorted by their stats', function () {
  this.timeout(60_000);
  const srv = withLocalServer();
  const name = `monitor-${crypto.randomUUID().slice(0, 8)}`;
  let project: string;

  before(async () => {
    project = (await buildProject(srv(), name, ROOTS)).id;
  });

  const stats = (body: Record<string, unknown>) => okJson<Record<string, any>>(srv(), 'POST', '/runs/stats', { session: [project], ...body });

  describe('POST /runs/stats', () => {
    it('answers the root runs figures: count, quantiles at floor(p·n), rates, tokens, costs, feedback', async () => {
      const s = await stats({ is_root: true });
      assert.equal(s.run_count, 5);
      // Latencies sorted: [1, 2, 3, 4, 10] → p50 is the value at index 2, p99 at index 4.
      assert.equal(s.latency_p50, 3);
      assert.equal(s.latency_p99, 10);
      assert.equal(s.error_rate, 0.4);
      assert.equal(s.first_token_p50, 0.2);
      assert.equal(s.streaming_rate, 0.2);
      assert.equal(s.total_tokens, 150);
      assert.equal(s.prompt_tokens, 90);
      assert.equal(s.completion_tokens, 60);
      assert.equal(s.total_cost, 0.003);
      assert.equal(s.prompt_cost, 0.001);
      assert.equal(s.last_run_start_time, iso(T0 + 27 * HOUR));
      // Scores 1, 0, 0.5: mean 0.5, sample standard deviation 0.5.
      assert.equal(s.feedback_stats.score.n, 3);
      assert.equal(s.feedback_stats.score.avg, 0.5);
      assert.equal(s.feedback_stats.score.stdev, 0.5);
    });

    it('counts every run without is_root, and narrows by filter and time like /runs/query', async () => {
      const all = await stats({});
      assert.equal(all.run_count, 6);
      assert.equal(all.total_tokens, 160);
      const failedSlow = await stats({ filter: 'and(eq(status, "error"), gt(latency, "5s"))' });
      assert.equal(failedSlow.run_count, 1);
      assert.equal(failedSlow.latency_p50, 10);
      const sunday = await stats({ is_root: true, start_time: iso(T0 + 24 * HOUR) });
      assert.equal(sunday.run_count, 2);
      const none = await stats({ filter: 'eq(name, "nothing")' });
      assert.equal(none.run_count, 0);
      assert.equal(none.latency_p50, null);
      assert.equal(none.error_rate, null);
    });

    it('groups by name (the largest max_groups, ties by name), tag and metadata key', async () => {
      const byName = await stats({ is_root: true, group_by: { attribute: 'name', max_groups: 2 } });
      assert.deepEqual(Object.keys(byName).sort(), ['a', 'b']);
      assert.equal(byName.a.run_count, 2);
      assert.equal(byName.a.error_rate, 0.5);
      // [1, 2] → the value at index 1.
      assert.equal(byName.a.latency_p50, 2);
      assert.equal(byName.b.latency_p99, 4);
      assert.equal(byName.a.feedback_stats.score.avg, 0.5);
      const byTag = await stats({ is_root: true, group_by: { attribute: 'tag' } });
      assert.deepEqual(Object.fromEntries(Object.entries(byTag).map(([k, v]) => [k, v.run_count])), { prod: 2, beta: 2 });
      const byModel = await stats({ is_root: true, group_by: { attribute: 'metadata', path: 'model' } });
      assert.deepEqual(Object.fromEntries(Object.entries(byModel).map(([k, v]) => [k, v.run_count])), { m1: 2, m2: 2 });
      assert.equal(byModel.m2.total_tokens, 50);
    });

    it('answers no runs with counts and sums 0 and the rest null', async () => {
      const none = await stats({ is_root: true, start_time: iso(T0 - 10 * HOUR), end_time: iso(T0 - 9 * HOUR) });
      assert.equal(none.run_count, 0);
      assert.equal(none.total_tokens, 0);
      for (const k of ['latency_p50', 'latency_p99', 'latency_avg', 'first_token_p50', 'median_tokens', 'cost_p50', 'total_cost', 'error_rate', 'last_run_start_time']) {
        assert.equal(none[k], null, k);
      }
      assert.deepEqual(await stats({ is_root: true, start_time: iso(T0 - 10 * HOUR), end_time: iso(T0 - 9 * HOUR), group_by: { attribute: 'tag' } }), {});
    });

    it('counts a tag given twice once, and takes quantiles of values finer than a millisecond exactly', async () => {
      const own = `precise-${crypto.randomUUID().slice(0, 8)}`;
      const ids = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
      await okJson(srv(), 'POST', '/runs/batch', {
        post: ids.map((id, i) => ({
          id, name: 'p', run_type: 'llm', session_name: own, start_time: iso(T0 + i * 1000), end_time: iso(T0 + i * 1000 + 500),
          inputs: {}, outputs: {}, tags: i === 0 ? ['x', 'x', 'y'] : ['x'], prompt_tokens: 10 * (i + 1), completion_tokens: 1, total_tokens: 10 * (i + 1) + 1,
        })),
      });
      // Values the server does not write itself (its own are rounded to the millisecond), as a database may hold.
      const db = srv().server.db;
      const set = db.prepare('UPDATE runs SET latency = ?, first_token = ? WHERE id = ?');
      [[0.1234567, 0.05], [0.3000001, null], [0.2, 0.0123456789]].forEach(([l, f], i) => set.run(l, f, ids[i]));
      const [p] = await okJson<{ id: string }[]>(srv(), 'GET', `/sessions?name=${own}`);
      const s = await okJson<any>(srv(), 'POST', '/runs/stats', { session: [p!.id] });
      assert.deepEqual([s.latency_p50, s.latency_p99, s.first_token_p50, s.median_tokens, s.tokens_p99], [0.2, 0.3000001, 0.05, 21, 31]);
      const byTag = await okJson<any>(srv(), 'POST', '/runs/stats', { session: [p!.id], group_by: { attribute: 'tag' } });
      assert.deepEqual([byTag.x.run_count, byTag.y.run_count, byTag.x.latency_p50, byTag.y.latency_p50], [3, 1, 0.2, 0.1234567]);
      const d = await okJson<any>(srv(), 'POST', `/sessions/${p!.id}/dashboard`, { start_time: iso(T0), end_time: iso(T0 + HOUR), stride: { hours: 1 }, timezone: 'UTC', group_by: { attribute: 'tag' } });
      const point = (chart: string, metric: string, group: string) => {
        const c = d.charts.find((x: any) => x.id === chart);
        return c.data.find((q: any) => q.series_id === c.series.find((x: any) => x.metric === metric).id && q.group === group).value;
      };
      assert.deepEqual([point('trace-count', 'run_count', 'x'), point('trace-latency', 'latency_p99', 'x'), point('llm-first-token', 'first_token_p50', 'x')], [3, 0.3000001, 0.05]);
    });

    it('refuses a metadata grouping without a key and an unknown attribute (422)', async () => {
      assert.equal((await rawRequest(srv(), 'POST', '/runs/stats', { session: [project], group_by: { attribute: 'metadata' } })).status, 422);
      assert.equal((await rawRequest(srv(), 'POST', '/runs/stats', { session: [project], group_by: { attribute: 'color' } })).status, 422);
    });

    it('answers the official client getRunStats the same figures', async () => {
      const s = (await client(srv()).getRunStats({ projectIds: [project], isRoot: true })) as Record<string, any>;
      assert.equal(s.run_count, 5);
      assert.equal(s.latency_p99, 10);
      assert.equal(s.error_rate, 0.4);
    });
  });

  describe('POST /sessions/{id}/dashboard', () => {
    const dashboard = (body: Record<string, unknown>) => okJson<any>(srv(), 'POST', `/sessions/${project}/dashboard`, body);
    const values = (d: any, chart: string, metric: string, group?: string) => {
      const c = d.charts.find((x: any) => x.id === chart);
      const s = c.series.find((x: any) => x.metric === metric);
      return c.data.filter((p: any) => p.series_id === s.id && (group === undefined || p.group === group)).map((p: any) => [p.timestamp, p.value]);
    };

    it('buckets a day in New York from local midnight, the day of the change to summer time 23 hours long', async () => {
      // Saturday 7 March 00:00 EST to Tuesday 10 March 00:00 EDT.
      const d = await dashboard({ start_time: '2026-03-07T05:00:00Z', end_time: '2026-03-10T04:00:00Z', stride: { days: 1 }, timezone: 'America/New_York' });
      assert.equal(d.session_id, project);
      const days = ['2026-03-07T05:00:00.000Z', '2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z'];
      assert.deepEqual(values(d, 'trace-count', 'run_count'), [[days[0], 3], [days[1], 2], [days[2], 0]]);
      assert.deepEqual(values(d, 'trace-error-rate', 'error_rate'), [[days[0], 1 / 3], [days[1], 0.5], [days[2], null]]);
      // [1, 2, 3] → index 1; [4, 10] → index 1; an empty day has none.
      assert.deepEqual(values(d, 'trace-latency', 'latency_p50'), [[days[0], 2], [days[1], 10], [days[2], null]]);
      assert.deepEqual(values(d, 'tokens', 'total_tokens'), [[days[0], 160], [days[1], 0], [days[2], 0]]);
      assert.deepEqual(values(d, 'llm-count', 'run_count'), [[days[0], 1], [days[1], 0], [days[2], 0]]);
      assert.deepEqual(values(d, 'feedback', 'feedback_score_avg'), [[days[0], 0.5], [days[1], null], [days[2], null]]);
      const feedback = d.charts.find((c: any) => c.id === 'feedback');
      assert.deepEqual(feedback.series.map((s: any) => s.feedback_key), ['score']);
    });

    it('has every hour of a window, empty ones 0 or null, across the change to summer time', async () => {
      // 23:00 EST on the 7th to 05:00 EDT on the 8th: local 23, 0, 1, 3 and 4 o'clock.
      const d = await dashboard({ start_time: '2026-03-08T04:00:00Z', end_time: '2026-03-08T09:00:00Z', stride: { hours: 1 }, timezone: 'America/New_York' });
      const counts = values(d, 'trace-count', 'run_count');
      assert.deepEqual(counts.map(([t]: [string]) => t.slice(11, 13)), ['04', '05', '06', '07', '08']);
      assert.ok(counts.every(([, v]: [string, number]) => v === 0));
      assert.ok(values(d, 'trace-latency', 'latency_p99').every(([, v]: [string, number | null]) => v === null));
    });

    it('splits series by the requested grouping, and keeps the charts grouped by their own', async () => {
      const d = await dashboard({ start_time: '2026-03-07T00:00:00Z', end_time: '2026-03-09T00:00:00Z', stride: { days: 1 }, group_by: { attribute: 'name', max_groups: 2 } });
      const count = d.charts.find((c: any) => c.id === 'trace-count');
      assert.deepEqual(count.series[0].group_by, { attribute: 'name', path: null, max_groups: 2, set_by: 'section' });
      assert.deepEqual(values(d, 'trace-count', 'run_count', 'a'), [['2026-03-07T00:00:00.000Z', 2], ['2026-03-08T00:00:00.000Z', 0]]);
      assert.deepEqual(values(d, 'trace-count', 'run_count', 'b'), [['2026-03-07T00:00:00.000Z', 1], ['2026-03-08T00:00:00.000Z', 1]]);
      assert.equal(values(d, 'trace-count', 'run_count', 'c').length, 0, 'only the two largest groups');
      const types = d.charts.find((c: any) => c.id === 'run-types');
      assert.equal(types.series[0].group_by.set_by, 'series');
      assert.deepEqual(values(d, 'run-types', 'run_count', 'llm'), [['2026-03-07T00:00:00.000Z', 1], ['2026-03-08T00:00:00.000Z', 0]]);
    });

    it('puts a run starting on a bucket edge in the later bucket, and leaves out one starting at the window end', async () => {
      // Roots at T0 (and the LLM call at T0 + 100 ms), T0 + 1 h and T0 + 2 h; the window ends at T0 + 2 h.
      const d = await dashboard({ start_time: iso(T0), end_time: iso(T0 + 2 * HOUR), stride: { hours: 1 }, timezone: 'UTC' });
      assert.deepEqual(values(d, 'trace-count', 'run_count'), [[iso(T0), 1], [iso(T0 + HOUR), 1]]);
      assert.deepEqual(values(d, 'run-types', 'run_count', 'chain'), [[iso(T0), 1], [iso(T0 + HOUR), 1]]);
      assert.deepEqual(values(d, 'run-types', 'run_count', 'llm'), [[iso(T0), 1], [iso(T0 + HOUR), 0]]);
      assert.deepEqual(values(d, 'llm-first-token', 'first_token_p50'), [[iso(T0), null], [iso(T0 + HOUR), null]]);
      // The first root's own first token (0.2 s) is a root's: the LLM chart's is of LLM calls only.
      assert.deepEqual(values(d, 'trace-latency', 'latency_p99'), [[iso(T0), 1], [iso(T0 + HOUR), 2]]);
    });

    it('answers an empty window with counts and sums 0 and the rest null', async () => {
      const d = await dashboard({ start_time: iso(T0 - 10 * HOUR), end_time: iso(T0 - 8 * HOUR), stride: { hours: 1 }, timezone: 'UTC', group_by: { attribute: 'tag' } });
      for (const c of d.charts) {
        for (const p of c.data) assert.equal(p.value, ['run_count', 'total_tokens', 'prompt_tokens', 'completion_tokens', 'total_cost', 'prompt_cost', 'completion_cost'].includes(c.series.find((s: any) => s.id === p.series_id).metric) ? 0 : null, `${c.id} ${p.timestamp}`);
      }
    });

    it('splits by tag: a group with no runs in a bucket has 0 or null there', async () => {
      const d = await dashboard({ start_time: '2026-03-07T00:00:00Z', end_time: '2026-03-09T00:00:00Z', stride: { days: 1 }, timezone: 'UTC', group_by: { attribute: 'tag' } });
      const days = ['2026-03-07T00:00:00.000Z', '2026-03-08T00:00:00.000Z'];
      assert.deepEqual(values(d, 'trace-count', 'run_count', 'prod'), [[days[0], 2], [days[1], 0]]);
      assert.deepEqual(values(d, 'trace-count', 'run_count', 'beta'), [[days[0], 2], [days[1], 0]]);
      // prod: [1, 2]; beta: [2, 3]; neither has a run on the 8th.
      assert.deepEqual(values(d, 'trace-latency', 'latency_p50', 'prod'), [[days[0], 2], [days[1], null]]);
      assert.deepEqual(values(d, 'trace-latency', 'latency_p50', 'beta'), [[days[0], 3], [days[1], null]]);
      assert.deepEqual(values(d, 'trace-error-rate', 'error_rate', 'beta'), [[days[0], 0.5], [days[1], null]]);
      assert.deepEqual(values(d, 'tokens', 'total_tokens', 'prod'), [[days[0], 100], [days[1], 0]]);
    });

    it('answers the charts without data with omit_data, and refuses a bad time zone or stride (422)', async () => {
      const d = await dashboard({ start_time: iso(T0), end_time: iso(T0 + 48 * HOUR), stride: { hours: 1 }, omit_data: true });
      assert.ok(d.charts.length >= 10);
      for (const c of d.charts) assert.ok(c.data.length === 0 && c.series.length > 0, `${c.id}: series, no data`);
      const bad = (body: unknown) => rawRequest(srv(), 'POST', `/sessions/${project}/dashboard`, body);
      assert.match((await bad({ start_time: iso(T0), timezone: 'Mars/Olympus' })).body.detail, /timezone/);
      assert.equal((await bad({ start_time: iso(T0), stride: { days: 0, hours: 0, minutes: 0 } })).status, 422);
      assert.equal((await bad({ start_time: '2020-01-01T00:00:00Z', stride: { minutes: 1 } })).status, 422);
      assert.equal((await rawRequest(srv(), 'POST', `/sessions/${crypto.randomUUID()}/dashboard`, {})).status, 404);
    });
  });

  describe('GET /sessions sorted by figures', () => {
    const prefix = `sorted-${crypto.randomUUID().slice(0, 8)}`;
    before(async () => {
      // p50 latency 5 s with no errors; 1 s with half failed; 3 s with a third failed.
      await buildProject(srv(), `${prefix}-slow`, [{ name: 'x', at: T0, latencyS: 5, tags: [] }]);
      await buildProject(srv(), `${prefix}-fast`, [{ name: 'x', at: T0, latencyS: 1, tags: [] }, { name: 'x', at: T0 + HOUR, latencyS: 1, error: true, tags: [] }]);
      await buildProject(srv(), `${prefix}-mid`, [
        { name: 'x', at: T0, latencyS: 3, tags: [] }, { name: 'x', at: T0 + 2 * HOUR, latencyS: 3, tags: [] }, { name: 'x', at: T0 + 3 * HOUR, latencyS: 4, error: true, tags: [] },
      ]);
    });
    const names = async (query: string) =>
      (await okJson<{ name: string; latency_p50?: number }[]>(srv(), 'GET', `/sessions?name_contains=${prefix}&include_stats=true&${query}`)).map((p) => p.name.slice(prefix.length + 1));

    it('sorts by latency_p50, error_rate, runs_count and name, either way', async () => {
      assert.deepEqual(await names('sort_by=latency_p50&sort_by_desc=false'), ['fast', 'mid', 'slow']);
      assert.deepEqual(await names('sort_by=latency_p50'), ['slow', 'mid', 'fast']);
      assert.deepEqual(await names('sort_by=error_rate'), ['fast', 'mid', 'slow']);
      assert.deepEqual(await names('sort_by=runs_count&sort_by_desc=false'), ['slow', 'fast', 'mid']);
      assert.deepEqual(await names('sort_by=name&sort_by_desc=false'), ['fast', 'mid', 'slow']);
      assert.deepEqual(await names('sort_by=latency_p50&sort_by_desc=false&limit=1&offset=1'), ['mid']);
    });

    it('answers first-token and streaming figures, and counts only runs after stats_start_time', async () => {
      const [p] = await okJson<Record<string, any>[]>(srv(), 'GET', `/sessions?name=${name}&include_stats=true`);
      assert.equal(p!.run_count, 5);
      assert.equal(p!.latency_p50, 3);
      assert.equal(p!.first_token_p50, 0.2);
      assert.equal(p!.streaming_rate, 0.2);
      const [since] = await okJson<Record<string, any>[]>(srv(), 'GET', `/sessions?name=${name}&include_stats=true&stats_start_time=${iso(T0 + 24 * HOUR)}`);
      assert.equal(since!.run_count, 2);
      assert.equal(since!.latency_p99, 10);
      assert.equal(since!.error_rate, 0.5);
    });

    it('gives the official client listProjects with includeStats the same figures', async () => {
      const [p] = await collect(client(srv()).listProjects({ name, includeStats: true }));
      assert.equal(p!.run_count, 5);
      assert.equal(p!.latency_p99, 10);
      assert.equal((p as { error_rate?: number }).error_rate, 0.4);
    });
  });
});
