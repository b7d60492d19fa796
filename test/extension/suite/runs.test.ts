// The runs panel's host side against the local server: a project row opens it (its click and Open Runs), its state
// carries the project, the layout and filters kept per project, and values to complete; pages come by cursor in the
// order asked, filtered in LangSmith's language (a refused filter is the server's message); new runs are counted;
// the actions go through the extension's commands (the annotation queue holds the selected runs, Add to Dataset
// makes linked examples after showing them, Compare opens VS Code's diff); a chart's window opens it filtered.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { LangSmithClient } from '../../../src/client';
import type { WorkbenchApi } from '../../../src/extension';
import { EMPTY_QUERY, type RunsQuery, type RunsRow, type RunsState } from '../../../src/protocol/runs';
import type { TreeNode } from '../../../src/views/treeNode';
import { Panels } from '../../../src/webviews/descriptors';
import type { WebviewHost } from '../../../src/webviews/webviewHost';
import { ScriptedPrompter } from './scriptedPrompter';
import { activateWorkbench, hostCall, hostOk, http, runScripted } from './support';

type AnyNode = TreeNode & Record<string, any>;
type Ready = Extract<RunsState, { kind: 'ready' }>;

const tag = randomUUID().slice(0, 8);
const PROJECT = `ext-runs-${tag}`;
const COUNT = 130;
const T0 = Date.now() - 3_600_000;

describe('runs panel', function () {
  this.timeout(90_000);
  let workbench: WorkbenchApi;
  let client: LangSmithClient;
  let projectId: string;
  const ids: string[] = [];
  const cleanup: Array<() => Promise<unknown>> = [];

  const panel = (): WebviewHost => {
    const found = workbench.panels.panelsOf<{ projectId: string }>(Panels.runs).find((p) => p.key.projectId === projectId);
    assert.ok(found, 'the runs panel is open');
    return found.host;
  };
  const page = (query: Partial<RunsQuery>, cursor: string | null = null) => hostOk<{ rows: RunsRow[]; cursor: string | null }>(panel(), 'runs/query', { query: { ...EMPTY_QUERY, ...query }, cursor });

  before(async () => {
    workbench = await activateWorkbench();
    client = await workbench.clients.client();
    // 130 root runs a minute apart, every 10th failed and slow, with tags, metadata and a chat input; one child each.
    const post: Record<string, unknown>[] = [];
    for (let i = 0; i < COUNT; i++) {
      const id = randomUUID();
      ids.push(id);
      const start = new Date(T0 + i * 20_000);
      const failed = i % 10 === 0;
      const end = new Date(start.getTime() + (failed ? 7000 : 500 + i));
      const dotted = `${start.toISOString().replace(/[-:.]/g, '').replace('Z', '')}000Z${id}`;
      post.push({
        id, trace_id: id, dotted_order: dotted, name: i % 2 ? 'AnswerQuestion' : 'RefundAgent', run_type: 'chain', session_name: PROJECT,
        start_time: start.toISOString(), end_time: end.toISOString(),
        inputs: { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: `Where is order ${i}?` }] },
        outputs: failed ? undefined : { answer: `Order ${i} ships tomorrow.` },
        error: failed ? 'TimeoutError: the tool took too long' : undefined,
        tags: i % 3 === 0 ? ['prod'] : ['staging'],
        extra: { metadata: { ls_model_name: i % 2 ? 'gpt-4o' : 'claude-sonnet' } },
      });
      const child = randomUUID();
      post.push({ id: child, trace_id: id, parent_run_id: id, dotted_order: `${dotted}.${start.toISOString().replace(/[-:.]/g, '').replace('Z', '')}001Z${child}`, name: 'ChatOpenAI', run_type: 'llm', session_name: PROJECT, start_time: start.toISOString(), end_time: end.toISOString(), inputs: { messages: [] }, outputs: {}, prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    }
    await http('POST', '/runs/batch', { post });
    projectId = (await client.projects.read({ projectName: PROJECT })).id;
    cleanup.push(() => client.projects.delete({ projectId }));
  });

  after(async () => {
    for (const p of workbench.panels.panelsOf(Panels.runs)) p.host.dispose();
    for (const undo of cleanup.reverse()) await undo().catch(() => undefined);
  });

  it('opens from a project row’s click, with the project, the default layout and values to complete', async () => {
    workbench.views.projects.refresh();
    let row: AnyNode | undefined;
    for (let i = 0; i < 20 && !row; i++) {
      const nodes = (await workbench.views.projects.provider.getChildren(undefined)) as AnyNode[];
      row = nodes.find((n) => n.project?.id === projectId);
      if (!row) {
        const more = nodes.find((n) => n.treeItem().command?.command === 'langsmith.loadMore');
        if (!more) break;
        await vscode.commands.executeCommand('langsmith.loadMore', more);
      }
    }
    assert.ok(row, 'the project is in the tree');
    const item = row.treeItem();
    assert.equal(item.command?.command, 'langsmith.openRuns', 'a click on a project opens its runs');
    // The row's figures come with the listing: runs, error rate, p50 latency, last activity.
    assert.match(String(item.description), /^\d+ runs · 10% errors · p50 \d+ ms · \d+[mh]$/, String(item.description));
    await vscode.commands.executeCommand(item.command!.command, ...(item.command!.arguments ?? []));
    const ready = await hostOk<{ state: RunsState }>(panel(), 'runs/ready', {});
    assert.equal(ready.state.kind, 'ready');
    const s = ready.state as Ready;
    assert.equal(s.project.name, PROJECT);
    assert.match(s.project.url ?? '', new RegExp(projectId));
    assert.deepEqual(s.query, EMPTY_QUERY);
    assert.deepEqual(s.layout.columns.slice(0, 3), ['name', 'input', 'output']);
    assert.equal(s.first?.rows.length, 100, 'the first page comes with the state');
    assert.equal(s.first?.rows[0]?.id, ids[COUNT - 1]);
    assert.deepEqual(new Set(s.seen.names), new Set(['AnswerQuestion', 'RefundAgent', 'ChatOpenAI']));
    assert.ok(s.seen.tags.includes('prod') && s.seen.metadataKeys.includes('ls_model_name'), JSON.stringify(s.seen));
  });

  it('reads pages by cursor, root runs newest first, each row with its texts and figures', async () => {
    const first = await page({});
    assert.equal(first.rows.length, 100);
    assert.ok(first.cursor);
    assert.equal(first.rows[0]!.id, ids[COUNT - 1], 'newest first');
    const r = first.rows[0]!;
    assert.equal(r.input, `Where is order ${COUNT - 1}?`, 'a chat input reads as its last human message');
    assert.equal(r.output, `Order ${COUNT - 1} ships tomorrow.`);
    assert.equal(r.status, 'success');
    assert.equal(r.latency, 500 + COUNT - 1);
    assert.deepEqual(r.metadata, { ls_model_name: 'gpt-4o' });
    const second = await page({}, first.cursor);
    assert.equal(second.rows.length, COUNT - 100);
    assert.equal(second.cursor, null);
    assert.equal(new Set([...first.rows, ...second.rows].map((x) => x.id)).size, COUNT, 'no run twice');
    const oldest = await page({ order: 'asc' });
    assert.equal(oldest.rows[0]!.id, ids[0]);
    const llm = await page({ scope: 'llm' });
    assert.equal(llm.rows.length, 100);
    assert.deepEqual(llm.rows.filter((x) => x.name !== 'ChatOpenAI' || x.tokens !== 15).map((x) => `${x.name} ${x.tokens} ${x.runType}`), []);
    const all = await page({ scope: 'all' });
    assert.equal(all.rows.length, 100);
  });

  it('filters in LangSmith’s language and answers the server’s refusal as the message', async () => {
    const slowFailures = await page({ filter: 'and(eq(status, "error"), gt(latency, "5s"))' });
    assert.equal(slowFailures.rows.length, COUNT / 10);
    assert.ok(slowFailures.rows.every((x) => x.status === 'error' && x.error?.startsWith('TimeoutError')));
    const prodModel = await page({ filter: 'and(has(tags, "prod"), and(eq(metadata_key, "ls_model_name"), eq(metadata_value, "gpt-4o")))' });
    assert.ok(prodModel.rows.length > 0 && prodModel.rows.every((x) => x.tags.includes('prod') && x.metadata['ls_model_name'] === 'gpt-4o'));
    const windowed = await page({ startTime: T0 + 10 * 20_000, endTime: T0 + 19 * 20_000 + 1 });
    assert.equal(windowed.rows.length, 10);
    const withFailedChild = await page({ treeFilter: 'eq(run_type, "llm")', filter: 'eq(status, "error")' });
    assert.equal(withFailedChild.rows.length, COUNT / 10);
    const refused = await hostCall(panel(), 'runs/query', { query: { ...EMPTY_QUERY, filter: 'eq(nosuchfield, 1)' }, cursor: null });
    assert.equal(refused.ok, false);
    assert.match(JSON.stringify(refused), /nosuchfield/);
  });

  it('counts runs newer than the newest row', async () => {
    const since = T0 + (COUNT - 4) * 20_000;
    const answer = await hostOk<{ count: number; more: boolean }>(panel(), 'runs/countNewer', { query: EMPTY_QUERY, since });
    assert.deepEqual(answer, { count: 3, more: false });
  });

  it('labels experiments by when they ran, their dataset beside', async () => {
    const { experimentLabel } = await import('../../../src/views/projectsView');
    assert.equal(experimentLabel('support-answer-20261129-093012'), '11-29 09:30:12 · support-answer');
    assert.equal(experimentLabel('support-answer-20261129-093012-2'), '11-29 09:30:12-2 · support-answer');
    assert.equal(experimentLabel('my own name'), 'my own name');
    const dataset = await client.datasets.create({ name: `ext-runs-exp-${tag}` });
    cleanup.push(() => client.datasets.delete({ datasetId: dataset.id }));
    const experiment = await client.projects.create({ name: `support-answer-${tag}-20261129-093012`, referenceDatasetId: dataset.id });
    cleanup.push(() => client.projects.delete({ projectId: experiment.id }));
    workbench.views.projects.refresh();
    let row: AnyNode | undefined;
    for (let i = 0; i < 20 && !row; i++) {
      const nodes = (await workbench.views.projects.provider.getChildren(undefined)) as AnyNode[];
      row = nodes.find((n) => n.project?.id === experiment.id);
      const more = nodes.find((n) => n.treeItem().command?.command === 'langsmith.loadMore');
      if (!row && more) await vscode.commands.executeCommand('langsmith.loadMore', more);
      else if (!row) break;
    }
    assert.ok(row, 'the experiment is in the tree');
    assert.equal(row.treeItem().label, `11-29 09:30:12 · support-answer-${tag}`);
    assert.match(String(row.treeItem().description), new RegExp(`^on ext-runs-exp-${tag}`));
  });

  it('keeps the layout and named filters per project', async () => {
    const layout = { columns: ['name', 'latency', 'metadata:ls_model_name'], widths: { name: 240 } };
    await hostOk(panel(), 'runs/saveLayout', layout);
    const saved = [{ name: 'slow failures', query: { ...EMPTY_QUERY, filter: 'eq(status, "error")' } }];
    await hostOk(panel(), 'runs/saveFilters', { saved });
    const ready = (await hostOk<{ state: Ready }>(panel(), 'runs/ready', {})).state;
    assert.deepEqual(ready.layout, layout);
    assert.deepEqual(ready.saved, saved);
  });

  it('adds the selected runs to an annotation queue, and to a dataset after showing the examples', async () => {
    const queue = await client.annotationQueues.create({ name: `ext-runs-queue-${tag}` });
    cleanup.push(() => client.annotationQueues.delete(queue.id));
    const picked = ids.slice(0, 3).map((id) => ({ id, traceId: id, start: null }));
    const restore = workbench.setPrompter(new ScriptedPrompter([{ pick: `ext-runs-queue-${tag}` }]));
    try {
      await hostOk(panel(), 'runs/act', { action: 'addToQueue', runs: picked });
    } finally {
      restore();
    }
    const { items } = await client.annotationQueues.items.page(queue.id, { section: 'needs_my_review' });
    assert.deepEqual(new Set(items.map((i) => i.run_id)), new Set(ids.slice(0, 3)));

    const dataset = await client.datasets.create({ name: `ext-runs-dataset-${tag}` });
    cleanup.push(() => client.datasets.delete({ datasetId: dataset.id }));
    const { script } = await runScripted(workbench, 'langsmith.addRunToDataset', new ScriptedPrompter([{ pick: `ext-runs-dataset-${tag}` }, { confirm: true }]), { runIds: ids.slice(1, 3), projectId });
    assert.match(script.asked.join(' | '), /Add 2 examples to “ext-runs-dataset-/);
    const preview = vscode.workspace.textDocuments.find((d) => d.uri.path.includes(`examples-for-ext-runs-dataset-${tag}`));
    assert.ok(preview, 'the examples to be made were shown');
    assert.match(preview.getText(), /"source_run_id"/);
    const examples = [];
    for await (const e of client.examples.list({ datasetId: dataset.id })) examples.push(e);
    assert.deepEqual(new Set(examples.map((e) => e.source_run_id)), new Set(ids.slice(1, 3)), 'each example linked to its run');
    assert.deepEqual(examples.find((e) => e.source_run_id === ids[1])!.outputs, { answer: 'Order 1 ships tomorrow.' });
  });

  it('compares two runs in VS Code’s diff editor and copies ids', async () => {
    await hostOk(panel(), 'runs/act', { action: 'compare', runs: ids.slice(1, 3).map((id) => ({ id, traceId: id, start: null })) });
    for (let i = 0; i < 50 && !vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputTextDiff)); i++) await new Promise((r) => setTimeout(r, 100));
    const diff = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff);
    assert.ok(diff, 'a diff editor opened');
    assert.match(diff.label, /AnswerQuestion ↔ RefundAgent|RefundAgent ↔ AnswerQuestion/);
    const compared = await hostCall(panel(), 'runs/act', { action: 'compare', runs: ids.slice(0, 1).map((id) => ({ id, traceId: id, start: null })) });
    assert.equal(compared.ok, false, 'compare takes two runs');
    await hostOk(panel(), 'runs/act', { action: 'copyIds', runs: ids.slice(0, 2).map((id) => ({ id, traceId: id, start: null })) });
    assert.equal(await vscode.env.clipboard.readText(), ids.slice(0, 2).join('\n'));
  });

  it('opens the project’s monitor from its header', async () => {
    await hostOk(panel(), 'runs/openMonitor', {});
    const monitor = workbench.panels.panelsOf<{ projectId: string }>(Panels.monitor).find((p) => p.key.projectId === projectId);
    assert.ok(monitor, 'the monitor panel of the project is open');
    monitor.host.dispose();
  });

  it('previews a trace on a single click (the next replaces it) and pins it on a double click', async () => {
    const traces = () => workbench.panels.panelsOf<{ traceId?: string }>(Panels.trace).map((p) => p.key.traceId).filter((t) => ids.includes(t ?? ''));
    for (const p of workbench.panels.panelsOf(Panels.trace)) p.host.dispose();
    const act = (action: string, i: number) => hostOk(panel(), 'runs/act', { action, runs: [{ id: ids[i]!, traceId: ids[i]!, start: null }] });
    await act('openTrace', 5);
    assert.deepEqual(traces(), [ids[5]]);
    await act('openTrace', 6);
    assert.deepEqual(traces(), [ids[6]], 'the second preview took the first one’s place');
    await act('pinTrace', 6);
    await act('openTrace', 7);
    assert.deepEqual(new Set(traces()), new Set([ids[6], ids[7]]), 'a pinned trace stays');
    await act('openTrace', 8);
    assert.deepEqual(new Set(traces()), new Set([ids[6], ids[8]]));
    for (const p of workbench.panels.panelsOf(Panels.trace)) p.host.dispose();
  });

  it('opens filtered to a window from a command argument, and shows it in an open panel', async () => {
    const startTime = new Date(T0).toISOString();
    await vscode.commands.executeCommand('langsmith.openRuns', { projectId, projectName: PROJECT, filter: 'eq(status, "error")', startTime, endTime: T0 + 600_000 });
    // The panel was open: it keeps its key; a new one would start with this query.
    panel().dispose();
    await vscode.commands.executeCommand('langsmith.openRuns', { projectId, projectName: PROJECT, filter: 'eq(status, "error")', startTime, endTime: T0 + 600_000 });
    const ready = (await hostOk<{ state: Ready }>(panel(), 'runs/ready', {})).state;
    assert.equal(ready.query.filter, 'eq(status, "error")');
    assert.equal(ready.query.startTime, T0);
    assert.equal(ready.query.endTime, T0 + 600_000);
    const { errors } = await runScripted(workbench, 'langsmith.openRuns', new ScriptedPrompter([]), { projectId: 'not-a-uuid' });
    assert.deepEqual(errors, ['Select a project to open its runs.']);
  });
});
