// The monitor panel's host side against the local server's demo: Monitor Project on a project row opens the panel
// whose state carries the dashboard's charts; another range, stride and grouping are read and remembered; from the
// palette a project is picked; a point opens the runs panel with its window and filter.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands } from '../../../src/constants';
import type { WorkbenchApi } from '../../../src/extension';
import type { Dashboard, MonitorKey, MonitorState, Query } from '../../../src/protocol/monitor';
import type { RunsKey } from '../../../src/protocol/runs';
import type { TreeNode } from '../../../src/views/treeNode';
import { Panels } from '../../../src/webviews/descriptors';
import { ScriptedPrompter } from './scriptedPrompter';
import { activateWorkbench, hostCall, hostOk, runScripted } from './support';

const PROJECT = 'demo-production';
const HOUR = 3600_000;
const DAY = 24 * HOUR;

type AnyNode = TreeNode & Record<string, any>;

describe('monitor panel', function () {
  this.timeout(60_000);
  let workbench: WorkbenchApi;

  const label = (node: TreeNode) => {
    const l = node.treeItem().label;
    return typeof l === 'string' ? l : (l?.label ?? '');
  };
  const panelOf = (name: string) => workbench.panels.panelsOf<MonitorKey>(Panels.monitor).find((p) => p.key.projectName === name);
  const countOf = (d: Dashboard) =>
    d.charts
      .filter((c) => c.series.some((s) => s.metric === 'run_count'))
      .flatMap((c) => c.values.flat())
      .reduce<number>((n, v) => n + (v ?? 0), 0);

  before(async () => {
    workbench = await activateWorkbench();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens on a project row with the charts of its last 7 days', async () => {
    workbench.views.projects.refresh();
    const rows = (await workbench.views.projects.provider.getChildren()) as AnyNode[];
    const row = rows.find((n) => label(n) === PROJECT);
    assert.ok(row, `projects: ${rows.map(label).join(', ')}`);
    assert.equal(row.treeItem().contextValue, 'project');
    await vscode.commands.executeCommand(Commands.monitorProject, row);
    const panel = panelOf(PROJECT);
    assert.ok(panel, 'the monitor panel opened');
    assert.equal(panel.host.panel.title, `Monitor: ${PROJECT}`);
    const { state } = await hostOk<{ state: MonitorState }>(panel.host, 'monitor/ready', {});
    assert.equal(state.kind, 'monitor', JSON.stringify(state).slice(0, 500));
    if (state.kind !== 'monitor') return;
    const d = state.dashboard;
    assert.equal(d.query.range, '7d');
    assert.equal(d.query.endTime - d.query.startTime, 7 * DAY);
    assert.ok(d.charts.length >= 4, `${d.charts.length} charts`);
    assert.ok(d.times.length > 1 && d.times.length <= 120, `${d.times.length} buckets`);
    for (const c of d.charts) for (const row of c.values) assert.equal(row.length, d.times.length, c.title);
    assert.ok(countOf(d) > 0, 'runs counted in the last 7 days');
    assert.ok(d.charts.some((c) => c.series.some((s) => s.metric === 'error_rate')), 'an error rate chart');
    assert.ok(d.charts.some((c) => c.series.some((s) => s.metric.startsWith('latency_p'))), 'a latency chart');
  });

  it('reads 30 days at one hour, grouped by model, and opens on that choice next time', async () => {
    await vscode.commands.executeCommand(Commands.monitorProject, { projectId: await projectId(), projectName: PROJECT });
    const panel = panelOf(PROJECT)!;
    const now = Date.now();
    const query: Query = { range: '30d', startTime: now - 30 * DAY, endTime: now, stride: { days: 0, hours: 1, minutes: 0 }, timezone: 'UTC', groupBy: { attribute: 'metadata', path: 'ls_model_name' } };
    const t0 = Date.now();
    const d = await hostOk<Dashboard>(panel.host, 'monitor/load', query);
    const ms = Date.now() - t0;
    assert.ok(d.times.length >= 700 && d.times.length <= 721, `${d.times.length} buckets`);
    // Series per model (the charts grouped by their own series, such as the top run names, keep their grouping).
    const byModel = d.charts.flatMap((c) => c.series).filter((s) => s.groupBy?.attribute === 'metadata' && s.groupBy.path === 'ls_model_name');
    assert.ok(byModel.length > 0, 'series per model');
    assert.deepEqual(new Set(byModel.map((s) => s.group)), new Set(['gpt-4o-mini', 'gpt-4o', 'claude-3-5-sonnet', 'llama-3.1-70b']));
    console.log(`      30 days at 1 h grouped by model: ${d.charts.length} charts × ${d.times.length} buckets in ${ms} ms`);
    // Refused before the server is asked: too many buckets.
    const bad = await hostCall(panel.host, 'monitor/load', { ...query, stride: { days: 0, hours: 0, minutes: 1 } });
    assert.equal(bad.ok, false);
    // Shown again: the same choice, moved up to now.
    const { state } = await hostOk<{ state: MonitorState }>(panel.host, 'monitor/ready', {});
    assert.ok(state.kind === 'monitor');
    assert.equal(state.dashboard.query.range, '30d');
    assert.deepEqual(state.dashboard.query.stride, query.stride);
    assert.deepEqual(state.dashboard.query.groupBy, query.groupBy);
    assert.ok(state.dashboard.query.endTime >= query.endTime);
    // Back to the default for the other tests.
    await hostOk(panel.host, 'monitor/load', { ...query, range: '7d', startTime: now - 7 * DAY, stride: { days: 0, hours: 3, minutes: 0 }, groupBy: null });
  });

  it('from the palette, asks which project', async () => {
    const script = new ScriptedPrompter([{ pick: PROJECT }]);
    const run = await runScripted(workbench, Commands.monitorProject, script);
    assert.deepEqual(run.errors, []);
    assert.ok(script.offered[0]!.includes(PROJECT), `offered: ${script.offered[0]!.join(', ')}`);
    assert.ok(panelOf(PROJECT), 'the monitor panel opened');
  });

  it('a point opens the runs panel on its window, scope and group', async () => {
    const id = await projectId();
    await vscode.commands.executeCommand(Commands.monitorProject, { projectId: id, projectName: PROJECT });
    const panel = panelOf(PROJECT)!;
    const target = { scope: 'root', filter: 'and(eq(metadata_key, "ls_model_name"), eq(metadata_value, "gpt-4o"), eq(status, "error"))', startTime: Date.UTC(2026, 0, 12, 14), endTime: Date.UTC(2026, 0, 12, 15) };
    await hostOk(panel.host, 'monitor/openRuns', target);
    const runs = workbench.panels.panelsOf<RunsKey>(Panels.runs).find((p) => p.key.projectId === id);
    assert.ok(runs, 'the runs panel opened on the project');
    assert.deepEqual(runs.key, { projectId: id, projectName: PROJECT, query: { scope: 'root', filter: target.filter, startTime: target.startTime, endTime: target.endTime } });
    // A window that is not one is refused before anything opens.
    const bad = await hostCall(panel.host, 'monitor/openRuns', { ...target, endTime: target.startTime });
    assert.equal(bad.ok, false);
  });

  async function projectId(): Promise<string> {
    const client = await workbench.clients.client();
    return (await client.projects.read({ projectName: PROJECT })).id;
  }
});
