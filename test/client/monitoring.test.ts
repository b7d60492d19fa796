// Our client's monitoring calls over HTTP against the local server: runs.stats (whole and grouped),
// projects.dashboard (typed charts, series and points; abort) and projects.list sorted by a figure with stats from a time.
import assert from 'node:assert/strict';
import { collect, LangSmithValidationError, ProjectWithStatsSchema, type DashboardChart, type LangSmithClient, type ProjectDashboard, type RunStats } from '../../src/client';
import { withLocalServer } from '../harness/localServer';
import { okJson } from '../harness/http';
import { clientFor, unique } from './_server';

const T0 = Date.parse('2026-03-07T12:00:00.000Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('client ↔ local server: run stats, dashboard, projects sorted by stats', () => {
  const srv = withLocalServer();
  let c: LangSmithClient;
  const prefix = unique('mon');
  const ids: Record<string, string> = {};

  before(async () => {
    c = clientFor(srv());
    // Two projects: "slow" (3 runs of 4 s, one failed, tagged) and "fast" (1 run of 1 s, streamed).
    const run = (project: string, at: number, latencyS: number, extra: Record<string, unknown> = {}) => ({
      id: crypto.randomUUID(), name: extra.name ?? 'pipeline', run_type: 'chain', session_name: `${prefix}-${project}`, start_time: iso(at),
      end_time: iso(at + latencyS * 1000), inputs: {}, outputs: {}, ...extra,
    });
    await okJson(srv(), 'POST', '/runs/batch', {
      post: [
        run('slow', T0, 4, { tags: ['prod'] }), run('slow', T0 + HOUR, 4, { error: 'boom', tags: ['prod'] }), run('slow', T0 + 30 * HOUR, 4, { name: 'other' }),
        run('fast', T0, 1, { events: [{ name: 'new_token', time: iso(T0 + 300) }] }),
      ],
    });
    for (const p of await collect(c.projects.list({ nameContains: prefix }))) ids[p.name.slice(prefix.length + 1)] = p.id;
  });

  it('runs.stats: a project’s figures, and per group (largest first)', async () => {
    const s: RunStats = await c.runs.stats({ projectId: ids.slow, isRoot: true });
    assert.equal(s.run_count, 3);
    assert.equal(s.latency_p50, 4);
    assert.equal(s.error_rate, 1 / 3);
    const failed = await c.runs.stats({ projectName: `${prefix}-slow`, filter: 'eq(status, "error")' });
    assert.equal(failed.run_count, 1);
    const byName: Record<string, RunStats> = await c.runs.stats({ projectId: ids.slow, groupBy: { attribute: 'name', maxGroups: 1 } });
    assert.deepEqual(Object.keys(byName), ['pipeline']);
    assert.equal(byName.pipeline!.run_count, 2);
    await assert.rejects(c.runs.stats({ projectId: 'nope' }), LangSmithValidationError);
  });

  it('projects.dashboard: typed charts with a point per bucket, grouped on request', async () => {
    const d: ProjectDashboard = await c.projects.dashboard(ids.slow!, {
      startTime: '2026-03-07T00:00:00Z', endTime: '2026-03-09T00:00:00Z', stride: { days: 1 }, timezone: 'UTC', groupBy: { attribute: 'tag' },
    });
    assert.equal(d.session_id, ids.slow);
    const count = d.charts.find((x) => x.id === 'trace-count') as DashboardChart;
    assert.equal(count.chart_type, 'line');
    assert.equal(count.series[0]!.metric, 'run_count');
    assert.equal(count.series[0]!.group_by?.attribute, 'tag');
    assert.deepEqual(count.data.map((p) => [p.timestamp, p.group, p.value]), [
      ['2026-03-07T00:00:00.000Z', 'prod', 2],
      ['2026-03-08T00:00:00.000Z', 'prod', 0],
    ]);
    const bare = await c.projects.dashboard(ids.slow!, { startTime: '2026-03-07T00:00:00Z', endTime: '2026-03-09T00:00:00Z', stride: { hours: 12 }, omitData: true });
    assert.ok(bare.charts.every((x) => x.data.length === 0));
    const aborted = new AbortController();
    aborted.abort();
    await assert.rejects(c.projects.dashboard(ids.slow!, { startTime: iso(T0), stride: { hours: 1 }, signal: aborted.signal }));
  });

  it('projects.list: sorted by a figure either way, stats from a start time, parsed as ProjectWithStats', async () => {
    const names = async (o: Parameters<LangSmithClient['projects']['list']>[0]) =>
      (await collect(c.projects.list({ nameContains: prefix, includeStats: true, ...o }))).map((p) => p.name.slice(prefix.length + 1));
    assert.deepEqual(await names({ sortBy: 'latency_p50' }), ['slow', 'fast']);
    assert.deepEqual(await names({ sortBy: 'latency_p50', sortByDesc: false }), ['fast', 'slow']);
    assert.deepEqual(await names({ sortBy: 'runs_count', sortByDesc: false }), ['fast', 'slow']);
    const [fast] = await collect(c.projects.list({ nameContains: `${prefix}-fast`, includeStats: true }));
    const parsed = ProjectWithStatsSchema.parse(fast);
    assert.equal(parsed.first_token_p50, 0.3);
    assert.equal(parsed.streaming_rate, 1);
    const [later] = await collect(c.projects.list({ nameContains: `${prefix}-slow`, includeStats: true, statsStartTime: new Date(T0 + 24 * HOUR) }));
    assert.equal(ProjectWithStatsSchema.parse(later).run_count, 1);
  });
});
