// The remaining item and view commands: links, likes, visibility, searches and filters, shared datasets,
// queue create/delete/remove, opening examples. Each is run inside the extension host and checked through
// the tree, the clipboard, an opened document or the local server.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../../src/extension';
import type { TreeNode } from '../../../src/views/treeNode';
import { ScriptedPrompter, type Answer } from './scriptedPrompter';
import { activateWorkbench, endpoint, get, http, runScripted, raw } from './support';

type AnyNode = TreeNode & Record<string, any>;


describe('item and view commands', function () {
  let workbench: WorkbenchApi;
  const kids = async (view: 'projects' | 'datasets' | 'prompts' | 'queues', node?: TreeNode) => (await workbench.views[view].provider.getChildren(node)) as AnyNode[];
  const label = (node: TreeNode) => {
    const l = node.treeItem().label;
    return typeof l === 'string' ? l : (l?.label ?? '');
  };


  const run = async (command: string, answers: Answer[], ...args: unknown[]) =>
    (await runScripted(workbench, command, new ScriptedPrompter(answers), ...args)).script;

  before(async () => {
    workbench = await activateWorkbench();
  });

  it('copies web links that the server answers: project, run, dataset, prompt, commit', async () => {
    const project = (await kids('projects')).find((p) => label(p) === 'demo-support-chatbot')!;
    const run0 = (await kids('projects', project)).find((n) => n.id.startsWith('run/'))!;
    const dataset = (await kids('datasets')).find((d) => label(d) === 'demo-support-qa')!;
    const prompt = (await kids('prompts')).find((p) => p.id.startsWith('prompt/'))!;
    const commit = (await kids('prompts', prompt)).find((c) => c.id.includes('/commit/'))!;
    const settings = await get<{ id: string; tenant_handle: string }>('/settings');
    const expected: [AnyNode, RegExp][] = [
      [project, new RegExp(`/o/[^/]+/projects/p/${project.project.id}$`)],
      [run0, new RegExp(`/o/[^/]+/projects/p/${project.project.id}\\?peek=${run0.run.id}$`)],
      [dataset, new RegExp(`/o/[^/]+/datasets/${dataset.dataset.id}$`)],
      [prompt, new RegExp(`/prompts/${prompt.repo.repo_handle}\\?organizationId=${settings.id}$`)],
      [commit, new RegExp(`/prompts/${prompt.repo.repo_handle}/${commit.commit.commit_hash.slice(0, 8)}\\?organizationId=${settings.id}$`)],
    ];
    for (const [node, shape] of expected) {
      await vscode.commands.executeCommand('langsmith.copyLink', node);
      const url = await vscode.env.clipboard.readText();
      assert.ok(url.startsWith(endpoint), `${url} is on the server's own origin`);
      assert.match(url, shape);
      assert.equal((await fetch(url)).status, 200, `${url} answers`);
    }
  });

  it('likes and unlikes a prompt', async () => {
    const prompt = (await kids('prompts')).find((p) => p.id.startsWith('prompt/'))!;
    const handle = prompt.repo.repo_handle;
    const likes = async () => (await get<{ repo: { num_likes: number } }>(`/repos/-/${handle}`)).repo.num_likes;
    const before = await likes();
    await vscode.commands.executeCommand('langsmith.likePrompt', prompt);
    assert.equal(await likes(), before + 1);
    const again = (await kids('prompts')).find((p) => p.repo?.repo_handle === handle)!;
    await vscode.commands.executeCommand('langsmith.unlikePrompt', again);
    assert.equal(await likes(), before);
  });

  it('makes a public prompt private, and declining to make it public again changes nothing', async () => {
    const find = async () => (await kids('prompts')).find((p) => p.repo?.repo_handle === 'demo-classifier')!;
    const isPublic = async () => (await get<{ repo: { is_public: boolean } }>('/repos/-/demo-classifier')).repo.is_public;
    assert.equal(await isPublic(), true);
    await vscode.commands.executeCommand('langsmith.makePromptPrivate', await find());
    assert.equal(await isPublic(), false);
    await run('langsmith.makePromptPublic', [{ confirm: false }], await find());
    assert.equal(await isPublic(), false);
    await run('langsmith.makePromptPublic', [{ confirm: true }], await find());
    assert.equal(await isPublic(), true);
  });

  it('filters projects and datasets by name, and searches own and public prompts', async () => {
    await run('langsmith.filterProjects', [{ input: 'research' }]);
    assert.deepEqual((await kids('projects')).map(label), ['demo-research-agent']);
    await run('langsmith.filterProjects', [{ input: '' }]);
    assert.ok((await kids('projects')).length >= 3);

    await run('langsmith.filterDatasets', [{ input: 'chat' }]);
    assert.deepEqual((await kids('datasets')).map(label), ['demo-chat-transcripts']);
    await run('langsmith.filterDatasets', [{ input: '' }]);

    await run('langsmith.searchPrompts', [{ input: 'summar' }]);
    assert.deepEqual((await kids('prompts')).filter((p) => p.id.startsWith('prompt/')).map(label), ['demo-summarizer']);
    await run('langsmith.searchPrompts', [{ input: '' }]);

    const publicNode = (await kids('prompts'))[0];
    await run('langsmith.searchPublicPrompts', [{ input: 'no-such-prompt-anywhere' }]);
    const none = await kids('prompts', publicNode);
    assert.equal(none.length, 1);
    assert.match(label(none[0]), /^No public prompt matches/);
    await run('langsmith.searchPublicPrompts', [{ input: '' }]);
    assert.ok((await kids('prompts', publicNode)).some((p) => p.id.startsWith('prompt/other/')));
  });

  it('opens a shared dataset by link, and refuses text that is no link or token', async () => {
    const dataset = (await kids('datasets')).find((d) => label(d) === 'demo-chat-transcripts')!;
    const share = await http<{ share_token: string }>('PUT', `/datasets/${dataset.dataset.id}/share`);
    const bad = await run('langsmith.openPublicDataset', [{ input: 'definitely not a link' }]);
    assert.equal(bad.rejected.length, 1);
    assert.match(bad.rejected[0], /^Invalid public dataset URL or token/);

    await run('langsmith.openPublicDataset', [{ input: `${endpoint}/public/${share.share_token}/d` }]);
    const shown = JSON.parse(vscode.window.activeTextEditor!.document.getText());
    assert.equal(shown.dataset.name, 'demo-chat-transcripts');
    assert.equal(shown.examples.length, 10);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await http('DELETE', `/datasets/${dataset.dataset.id}/share`);
  });

  it('opens an example as read-only JSON', async () => {
    const dataset = (await kids('datasets')).find((d) => label(d) === 'demo-support-qa')!;
    const example = (await kids('datasets', dataset)).find((n) => n.id.startsWith('example/'))!;
    await vscode.commands.executeCommand('langsmith.openExample', example);
    const doc = vscode.window.activeTextEditor!.document;
    assert.equal(doc.uri.scheme, 'langsmith');
    assert.deepEqual(JSON.parse(doc.getText()).inputs, example.example.inputs);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('creates a queue, removes a run from a queue after confirmation, and deletes the queue', async () => {
    const bad = await run('langsmith.createQueue', [{ input: '' }]);
    assert.deepEqual(bad.rejected, ['Give the queue a name.']);
    await run('langsmith.createQueue', [{ input: 'ext-queue-2' }, { input: '' }, { input: '' }]);
    const [queue] = (await get<{ id: string; name: string }[]>('/annotation-queues')).filter((q) => q.name === 'ext-queue-2');
    assert.ok(queue, 'the queue was created');

    const project = (await kids('projects')).find((p) => label(p) === 'demo-support-chatbot')!;
    const runs = (await kids('projects', project)).filter((n) => n.id.startsWith('run/')).slice(0, 2);
    await http('POST', `/annotation-queues/${queue.id}/runs`, runs.map((r) => r.run.id));
    workbench.views.queues.refresh();
    const queueNode = (await kids('queues')).find((q) => q.queue?.id === queue.id)!;
    const [mine] = await kids('queues', queueNode);
    const queued = await kids('queues', mine);
    assert.equal(queued.length, 2);

    await run('langsmith.removeRunFromQueue', [{ confirm: false }], queued[0]);
    assert.equal((await get<{ size: number }>(`/annotation-queues/${queue.id}/size`)).size, 2, 'declining removes nothing');
    await run('langsmith.removeRunFromQueue', [{ confirm: true }], queued[0]);
    assert.equal((await get<{ size: number }>(`/annotation-queues/${queue.id}/size`)).size, 1);

    const fresh = (await kids('queues')).find((q) => q.queue?.id === queue.id)!;
    await run('langsmith.deleteQueue', [{ confirm: true }], fresh);
    const res = await raw('GET', `/annotation-queues/${queue.id}`);
    assert.equal(res.status, 404);
  });
});
