// The four trees and the item commands, inside the real extension host, against the local server's demo data.
// Nodes come from the extension's own API (activate's return value); the tests drive them through the
// registered commands, and check the outcome through the server.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../../src/extension';
import type { TreeNode } from '../../../src/views/treeNode';
import { activateWorkbench, endpoint, eventuallyText, get, http } from './support';


type AnyNode = TreeNode & Record<string, any>;

describe('trees and commands against the local server', function () {
  let workbench: WorkbenchApi;
  const children = async (view: keyof Pick<WorkbenchApi['views'], 'projects' | 'datasets' | 'prompts' | 'queues'>, node?: TreeNode) =>
    (await workbench.views[view].provider.getChildren(node)) as AnyNode[];
  const label = (node: TreeNode) => {
    const l = node.treeItem().label;
    return typeof l === 'string' ? l : (l?.label ?? '');
  };

  before(async () => {
    assert.ok(endpoint.startsWith('http://127.0.0.1:'), 'the runner passes the local server in LANGSMITH_ENDPOINT');
    workbench = await activateWorkbench();
  });

  it('shows a queue made elsewhere once the view is shown again after being hidden a while', async () => {
    const view = workbench.views.queues;
    const until = async (check: () => boolean, what: string) => {
      const end = Date.now() + 10_000;
      while (!check()) {
        if (Date.now() > end) assert.fail(`never: ${what}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await vscode.commands.executeCommand('langsmith.annotationQueues.focus');
    await until(() => view.treeView.visible, 'the Annotation Queues view is visible');
    await children('queues');
    const name = `made-elsewhere-${Date.now()}`;
    await http('POST', '/annotation-queues', { name });
    assert.ok(!(await children('queues')).some((q) => label(q) === name), 'the listed queues are kept while nothing happens');
    const saved = view.staleAfterMs;
    view.staleAfterMs = 300;
    try {
      // Hidden a moment only: shown again, nothing is reloaded.
      await vscode.commands.executeCommand('workbench.view.explorer');
      await until(() => !view.treeView.visible, 'the view is hidden');
      await vscode.commands.executeCommand('langsmith.annotationQueues.focus');
      await until(() => view.treeView.visible, 'the view is visible again');
      assert.ok(!(await children('queues')).some((q) => label(q) === name), 'a short hide reloads nothing');
      // Hidden longer than that: shown again, the view reloads and the new queue is there.
      await vscode.commands.executeCommand('workbench.view.explorer');
      await until(() => !view.treeView.visible, 'the view is hidden');
      await new Promise((r) => setTimeout(r, 400));
      await vscode.commands.executeCommand('langsmith.annotationQueues.focus');
      await until(() => view.treeView.visible, 'the view is visible again');
      assert.ok((await children('queues')).some((q) => label(q) === name), 'the queue made elsewhere is listed');
    } finally {
      view.staleAfterMs = saved;
    }
  });

  it('lists the demo projects, and a project its root runs newest first, paged with Load more', async () => {
    const projects = await children('projects');
    const names = projects.map(label);
    assert.ok(names.includes('demo-support-chatbot'), `projects: ${names.join(', ')}`);
    const project = projects.find((p) => label(p) === 'demo-support-chatbot')!;

    const first = await children('projects', project);
    const runs = first.filter((n) => n.id.startsWith('run/'));
    assert.equal(runs.length, 50, 'the first page holds 50 runs');
    const more = first.at(-1)!;
    assert.equal(label(more), 'Load more…');
    const starts = runs.map((r) => new Date(r.run.start_time).getTime());
    assert.deepEqual(starts, [...starts].sort((a, b) => b - a), 'root runs come newest first');
    assert.ok(runs.every((r) => r.run.parent_run_id == null), 'only root runs at the top');

    await vscode.commands.executeCommand('langsmith.loadMore', more);
    const second = (await children('projects', project)).filter((n) => n.id.startsWith('run/'));
    assert.ok(second.length > 50, 'Load more appended the next page');
    assert.equal(new Set(second.map((r) => r.id)).size, second.length, 'no run twice');
    assert.deepEqual(second.slice(0, 50).map((r) => r.id), runs.map((r) => r.id), 'the first page stays in place');
  });

  it('shows child runs under a run and opens a run as read-only JSON', async () => {
    const project = (await children('projects')).find((p) => label(p) === 'demo-support-chatbot')!;
    const root = (await children('projects', project)).find((n) => n.id.startsWith('run/'))!;
    const kids = (await children('projects', root)).filter((n) => n.id.startsWith('run/'));
    assert.ok(kids.length > 0, 'a demo trace has child runs');
    assert.ok(kids.every((k) => k.run.parent_run_id === root.run.id));

    await vscode.commands.executeCommand('langsmith.openRun', root);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'an editor opened');
    assert.equal(editor.document.uri.scheme, 'langsmith');
    // The document names the run's project, so the read can go to the v2 run API (which needs it).
    const ref = JSON.parse(new URLSearchParams(editor.document.uri.query).get('ref') ?? '{}') as { id?: string; projectId?: string };
    assert.deepEqual([ref.id, ref.projectId], [root.run.id, project.project.id]);
    const shown = JSON.parse(editor.document.getText());
    assert.equal(shown.id, root.run.id);
    assert.equal(shown.name, root.run.name);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('filters a project to failed runs only', async () => {
    await vscode.commands.executeCommand('langsmith.toggleErrorsOnly');
    try {
      const project = (await children('projects')).find((p) => label(p) === 'demo-support-chatbot')!;
      const runs = (await children('projects', project)).filter((n) => n.id.startsWith('run/'));
      assert.ok(runs.length > 0, 'the demo has failed runs');
      assert.ok(runs.every((r) => r.run.error), 'only failed runs are listed');
    } finally {
      await vscode.commands.executeCommand('langsmith.toggleErrorsOnly');
    }
  });

  it('copies the ids of all selected runs', async () => {
    const project = (await children('projects')).find((p) => label(p) === 'demo-support-chatbot')!;
    const runs = (await children('projects', project)).filter((n) => n.id.startsWith('run/')).slice(0, 2);
    await vscode.commands.executeCommand('langsmith.copyId', runs[0], runs);
    assert.equal(await vscode.env.clipboard.readText(), runs.map((r) => r.run.id).join('\n'));
  });

  it('shows a dataset’s splits, versions with tags, and examples', async () => {
    const dataset = (await children('datasets')).find((d) => label(d) === 'demo-support-qa')!;
    assert.ok(dataset, 'the demo dataset is listed');
    const kids = await children('datasets', dataset);
    assert.deepEqual(kids.slice(0, 3).map(label), ['Splits', 'Versions', 'Experiments']);
    const splits = (await children('datasets', kids[0])).map(label).sort();
    assert.deepEqual(splits, ['test', 'train', 'validation']);
    const versions = await children('datasets', kids[1]);
    const tags = versions.flatMap((v) => v.version.tags ?? []);
    assert.ok(tags.includes('prod') && tags.includes('v1'), `tags: ${tags.join(', ')}`);
    const examples = kids.slice(3).filter((n) => n.id.startsWith('example/'));
    assert.equal(examples.length, 15);
    // Its experiments with their scores, error rate and latency, each one's menu an experiment's.
    const experiments = await children('datasets', kids[2]);
    assert.ok(experiments.length >= 2, `experiments: ${experiments.map(label).join(', ')}`);
    for (const e of experiments) {
      assert.equal(e.treeItem().contextValue, 'project.experiment');
      assert.match(String(e.treeItem().description), /\w+ \d\.\d\d/, `${label(e)}: ${String(e.treeItem().description)}`);
    }
  });

  it('shares a dataset: the public link works, and stops working after unsharing', async () => {
    const dataset = (await children('datasets')).find((d) => label(d) === 'demo-support-qa')!;
    await vscode.commands.executeCommand('langsmith.shareDataset', dataset);
    const url = await vscode.env.clipboard.readText();
    assert.match(url, new RegExp(`^${endpoint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/public/[^/]+/d$`));
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /demo-support-qa/);

    await vscode.commands.executeCommand('langsmith.unshareDataset', dataset);
    assert.equal((await fetch(url)).status, 404);
  });

  it('shares a run through its public link', async () => {
    const project = (await children('projects')).find((p) => label(p) === 'demo-support-chatbot')!;
    const run = (await children('projects', project)).find((n) => n.id.startsWith('run/'))!;
    await vscode.commands.executeCommand('langsmith.shareRun', run);
    const url = await vscode.env.clipboard.readText();
    assert.match(url, /\/public\/[^/]+\/r$/);
    assert.equal((await fetch(url)).status, 200);
    await vscode.commands.executeCommand('langsmith.unshareRun', run);
    assert.equal((await fetch(url)).status, 404);
  });

  it('lists own prompts with their commits and tags, and opens a commit manifest', async () => {
    const prompts = await children('prompts');
    assert.equal(label(prompts[0]), 'Public prompts');
    assert.equal(label(prompts[1]), 'Archived prompts');
    const own = prompts.filter((p) => p.id.startsWith('prompt/'));
    assert.ok(own.length >= 2, `own prompts: ${own.map(label).join(', ')}`);
    const withTag = [];
    for (const p of own) {
      const commits = (await children('prompts', p)).filter((c) => c.id.includes('/commit/'));
      assert.ok(commits.length > 0, `${label(p)} has commits`);
      assert.ok(commits.every((c) => label(c).length === 8), 'commits show their 8-character hash');
      withTag.push(...commits.filter((c) => c.tags.length > 0));
    }
    assert.ok(withTag.length > 0, 'the demo tags a commit');
    // A commit opens as a readable prompt file; its raw manifest is one command away.
    await vscode.commands.executeCommand('langsmith.openCommit', withTag[0]);
    const readable = await eventuallyText(() => vscode.window.activeTextEditor?.document, (t) => /^messages:|^template:/m.test(t));
    assert.match(readable, new RegExp(`^prompt: ${withTag[0].promptNode.repo.repo_handle}$`, 'm'));
    assert.match(readable, /^template_format: (f-string|mustache)$/m);
    assert.ok(!readable.includes('"lc"'), 'no serialized LangChain JSON in the readable form');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await vscode.commands.executeCommand('langsmith.openCommitManifest', withTag[0]);
    const raw = await eventuallyText(() => vscode.window.activeTextEditor?.document, (t) => t.startsWith('{'));
    const pulled = JSON.parse(raw);
    assert.equal(pulled.commit_hash, withTag[0].commit.commit_hash);
    assert.ok(pulled.manifest, 'the manifest is shown');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('finds public prompts of the other workspace, never the own ones, under Public prompts', async () => {
    const publicNode = (await children('prompts'))[0];
    const found = (await children('prompts', publicNode)).filter((p) => p.id.startsWith('prompt/'));
    assert.ok(found.length > 0, 'the other workspace has a public prompt');
    assert.ok(found.every((p) => p.repo.owner === 'other' && p.repo.is_public));
  });

  it('lists annotation queues with their size, their sections and their runs by index', async () => {
    const queues = await children('queues');
    const queue = queues.find((q) => label(q) === 'demo-review')!;
    assert.ok(queue, 'the demo queue is listed');
    const { size } = await get<{ size: number }>(`/annotation-queues/${queue.queue.id}/total_size`);
    assert.equal(queue.treeItem().description, `${size} runs`);
    const opened = await children('queues', queue);
    // The rubric's instructions show where the queue opens, below its sections (all of them in the tooltip).
    assert.equal(label(opened.at(-1)!), 'Rubric: Is the answer correct and grounded in the retrieved documents?');
    const sections = opened.slice(0, -1);
    const counts = sections.map((s) => Number(/\((\d+)\)$/.exec(label(s))?.[1]));
    assert.deepEqual(sections.map((s) => label(s).replace(/ \(\d+\)$/, '')), ['Needs my review', 'Needs others’ review', 'Completed']);
    assert.equal(counts.reduce((a, b) => a + b, 0), size, 'the sections hold every item');
    const runs = await children('queues', sections[0]);
    assert.equal(runs.length, Math.min(counts[0]!, 50) + (counts[0]! > 50 ? 1 : 0));
    if (counts[0]) assert.match(label(runs[0]), /^1\. /, 'queue items count from 1');
  });

  it('never sends the environment’s key to another endpoint: that endpoint is signed out', async () => {
    const config = vscode.workspace.getConfiguration('langsmith');
    await config.update('endpoint', 'http://127.0.0.1:9', vscode.ConfigurationTarget.Global);
    try {
      assert.deepEqual(await children('datasets'), [], 'signed out, the view is empty and shows its sign-in welcome');
      assert.equal(workbench.clients.health, 'signedOut');
    } finally {
      await config.update('endpoint', undefined, vscode.ConfigurationTarget.Global);
    }
    const again = await children('datasets');
    assert.ok(again.some((d) => label(d) === 'demo-support-qa'), 'back on the environment’s endpoint the datasets return');
  });

  it('shows a rejected key in the tree and the connection state when the workspace refuses it', async () => {
    const config = vscode.workspace.getConfiguration('langsmith');
    await config.update('workspaceId', '00000000-0000-4000-8000-000000000000', vscode.ConfigurationTarget.Global);
    try {
      const nodes = await children('datasets');
      assert.equal(nodes.length, 1);
      assert.equal(label(nodes[0]), 'The API key was rejected — sign in again…');
      assert.equal(nodes[0].treeItem().command?.command, 'langsmith.signIn');
      assert.equal(workbench.clients.health, 'authError');
    } finally {
      await config.update('workspaceId', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.ok((await children('datasets')).some((d) => label(d) === 'demo-support-qa'));
    assert.equal(workbench.clients.health, 'connected');
  });
});
