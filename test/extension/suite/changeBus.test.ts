// The change bus in the real extension host: what a command, a panel or an agent tool publishes reaches the trees,
// which update only the row it names, taking the numbers the publisher gave instead of reading them again; a change
// that names no entity reloads the list; an agent's write publishes its ids and numbers (no tool names involved).
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../../src/extension';
import type { Change } from '../../../src/protocol/changes';
import type { TreeNode } from '../../../src/views/treeNode';
import { activateWorkbench, get, http } from './support';

type AnyNode = TreeNode & Record<string, any>;
const token = new vscode.CancellationTokenSource().token;

describe('the change bus', function () {
  this.timeout(60_000);
  let api: WorkbenchApi;
  const tag = randomUUID().slice(0, 6);
  const text = (node: TreeNode | undefined) => String(node?.treeItem().description ?? '');
  const rows = async (view: 'datasets' | 'prompts' | 'queues') => (await api.views[view].provider.getChildren()) as AnyNode[];

  /** What the tests made, removed after them so the other suites see the demo data as it was. */
  const made: string[] = [];

  before(async () => {
    api = await activateWorkbench();
  });

  after(async () => {
    for (const path of made.reverse()) await http('DELETE', path).catch(() => undefined);
    api.views.refreshAll();
  });

  it('gives a prompt’s row the commit count its publisher knows, without reading the prompt again', async () => {
    const name = `bus-${tag}`;
    await http('POST', '/api/v1/repos', { repo_handle: name, is_public: false });
    made.push(`/api/v1/repos/-/${name}`);
    api.views.prompts.refresh();
    const row = async () => (await rows('prompts')).find((n) => n.repo?.repo_handle === name);
    const handle = ((await row())?.repo?.owner as string | undefined) ?? null;
    assert.ok(await row(), 'the prompt is listed');
    // 41 commits: a figure the server does not have (the prompt has none), so the row can only have it from the change.
    api.changes.publish({ kind: 'prompt', name, handle, commits: 41 });
    await api.views.rowReload;
    assert.match(text(await row()), /41 commits/);
    // Without a figure the row is read again: back to what the server says.
    api.changes.publish({ kind: 'prompt', name, handle });
    await api.views.rowReload;
    assert.doesNotMatch(text(await row()), /41 commits/);
  });

  it('reloads one dataset’s row by id, with the example count given, and the list when no id is given', async () => {
    const a = await http<{ id: string }>('POST', '/api/v1/datasets', { name: `bus-a-${tag}` });
    made.push(`/api/v1/datasets/${a.id}`);
    api.views.datasets.refresh();
    const row = async (id: string) => (await rows('datasets')).find((n) => n.id === `dataset/${id}`);
    assert.match(text(await row(a.id)), /^0 examples/);
    api.changes.publish({ kind: 'dataset', datasetId: a.id, examples: 12 });
    await api.views.rowReload;
    assert.match(text(await row(a.id)), /^12 examples/);
    // A dataset made elsewhere is not shown until the list is told it changed.
    const b = await http<{ id: string }>('POST', '/api/v1/datasets', { name: `bus-b-${tag}` });
    made.push(`/api/v1/datasets/${b.id}`);
    assert.equal(await row(b.id), undefined);
    api.changes.publish({ kind: 'dataset' });
    assert.ok(await row(b.id), 'a change with no id reloads the list');
  });

  it('hears from an agent’s write what it changed: the queue’s id and its new size, which the row shows', async () => {
    const queue = await http<{ id: string }>('POST', '/api/v1/annotation-queues', { name: `bus-q-${tag}` });
    made.push(`/api/v1/annotation-queues/${queue.id}`);
    const session = (await get<{ id: string }[]>('/api/v1/sessions?name=demo-support-chatbot'))[0]!.id;
    const runIds = (await http<{ runs: { id: string }[] }>('POST', '/api/v1/runs/query', { session: [session], is_root: true, limit: 3, select: ['id'] })).runs.map((r) => r.id);
    api.views.queues.refresh();
    const row = async () => (await rows('queues')).find((n) => n.id === `queue/${queue.id}`);
    assert.equal(text(await row()), '0 runs');
    const heard: Change[] = [];
    const sub = api.changes.onDidChange((c) => heard.push(c));
    try {
      await api.agent.tools.tools.get('langsmith_add_runs_to_annotation_queue')!.invoke({ input: { queue: queue.id, runIds }, toolInvocationToken: undefined }, token);
    } finally {
      sub.dispose();
    }
    assert.deepEqual(heard, [{ kind: 'queue', queueId: queue.id, items: true, size: 3 }]);
    // The row has its size at once, from the tool's own figure.
    assert.equal(text(await row()), '3 runs');
  });

  it('publishes nothing for a dry run', async () => {
    const heard: Change[] = [];
    const sub = api.changes.onDidChange((c) => heard.push(c));
    try {
      await api.agent.tools.tools.get('langsmith_create_dataset')!.invoke({ input: { name: `bus-dry-${tag}`, dryRun: true }, toolInvocationToken: undefined }, token);
    } finally {
      sub.dispose();
    }
    assert.deepEqual(heard, []);
  });
});
