// Commands that ask questions, answered by a script, checked through the local server afterwards; bad answers
// get the input box's message and change nothing.
import * as assert from 'node:assert/strict';
import type { WorkbenchApi } from '../../../src/extension';
import { ScriptedPrompter, type Answer } from './scriptedPrompter';
import { activateWorkbench, get, runScripted, raw } from './support';

describe('commands that ask', function () {
  let workbench: WorkbenchApi;

  before(async () => {
    workbench = await activateWorkbench();
  });


  /** Runs a command with scripted answers; all of them must be used. */
  const run = async (command: string, answers: Answer[], ...args: unknown[]) =>
    (await runScripted(workbench, command, new ScriptedPrompter(answers), ...args)).script;

  it('creates a project with a description', async () => {
    await run('langsmith.createProject', [{ input: 'ext-test-project' }, { input: 'made by a test' }]);
    const found = await get<{ name: string; description: string }[]>('/sessions?name=ext-test-project');
    assert.equal(found.length, 1);
    assert.equal(found[0].description, 'made by a test');
  });

  it('refuses an empty project name with a clear message and creates nothing', async () => {
    const before = (await get<unknown[]>('/sessions?limit=100')).length;
    const script = await run('langsmith.createProject', [{ input: '   ' }]);
    assert.deepEqual(script.rejected, ['Give the project a name.']);
    assert.equal((await get<unknown[]>('/sessions?limit=100')).length, before);
  });

  it('deletes a project only after confirmation', async () => {
    const [project] = await get<{ id: string; name: string }[]>('/sessions?name=ext-test-project');
    const node = (await workbench.views.projects.provider.getChildren()).find((n) => n.id === `project/${project.id}`);
    assert.ok(node, 'the new project is in the tree');
    await run('langsmith.deleteProject', [{ confirm: false }], node);
    assert.equal((await get<unknown[]>('/sessions?name=ext-test-project')).length, 1, 'declining keeps it');
    await run('langsmith.deleteProject', [{ confirm: true }], node);
    assert.equal((await get<unknown[]>('/sessions?name=ext-test-project')).length, 0);
  });

  it('creates and deletes a dataset', async () => {
    await run('langsmith.createDataset', [{ input: 'ext-test-dataset' }, { input: '' }]);
    const [dataset] = await get<{ id: string }[]>('/datasets?name=ext-test-dataset');
    assert.ok(dataset);
    const node = (await workbench.views.datasets.provider.getChildren()).find((n) => n.id === `dataset/${dataset.id}`);
    assert.ok(node);
    await run('langsmith.deleteDataset', [{ confirm: true }], node);
    assert.equal((await get<unknown[]>('/datasets?name=ext-test-dataset')).length, 0);
  });

  it('adds selected runs to a new annotation queue made on the way', async () => {
    const projects = await workbench.views.projects.provider.getChildren();
    const project = projects.find((p) => (p as unknown as { project: { name: string } }).project.name === 'demo-research-agent')!;
    const runs = (await workbench.views.projects.provider.getChildren(project)).filter((n) => n.id.startsWith('run/')).slice(0, 3);
    const script = await run(
      'langsmith.addRunsToQueue',
      [{ pick: 'New queue…' }, { input: 'ext-test-queue' }, { input: 'three research runs' }, { input: 'Is the summary faithful?' }],
      runs[0],
      runs,
    );
    assert.ok(script.offered[0].some((l) => l === 'demo-review'), 'existing queues are offered');
    const [queue] = (await get<{ id: string; name: string; rubric_instructions: string }[]>('/annotation-queues')).filter((q) => q.name === 'ext-test-queue');
    assert.equal(queue.rubric_instructions, 'Is the summary faithful?');
    const size = await get<{ size: number }>(`/annotation-queues/${queue.id}/size`);
    assert.equal(size.size, 3);
  });

  it('refuses a prompt name that is not a valid handle and creates nothing', async () => {
    const script = await run('langsmith.createPrompt', [{ input: 'My Prompt' }]);
    assert.deepEqual(script.rejected, ['Use lowercase letters, digits, - and _ (starting with a letter or digit).']);
    const res = await raw('GET', `/repos/-/my-prompt`);
    assert.equal(res.status, 404);
  });

  it('creates a prompt, makes it public after confirmation, archives, restores and deletes it', async () => {
    await run('langsmith.createPrompt', [{ input: 'ext-test-prompt' }, { input: 'test prompt' }]);
    const provider = workbench.views.prompts.provider;
    const active = async () => (await provider.getChildren()).find((n) => n.id.endsWith('/ext-test-prompt'));
    const repo = async () => (await get<{ repo: { is_public: boolean; is_archived: boolean } }>('/repos/-/ext-test-prompt')).repo;

    await run('langsmith.makePromptPublic', [{ confirm: true }], await active());
    assert.equal((await repo()).is_public, true);

    await run('langsmith.archivePrompt', [], await active());
    assert.equal((await repo()).is_archived, true);
    assert.equal(await active(), undefined, 'an archived prompt leaves the active list');
    const archivedGroup = (await provider.getChildren()).find((n) => n.id === 'prompts/archived')!;
    const archived = (await provider.getChildren(archivedGroup)).find((n) => n.id.endsWith('/ext-test-prompt'));
    assert.ok(archived, 'it is listed under Archived prompts');

    await run('langsmith.unarchivePrompt', [], archived);
    assert.equal((await repo()).is_archived, false);

    await run('langsmith.deletePrompt', [{ confirm: true }], await active());
    const res = await raw('GET', `/repos/-/ext-test-prompt`);
    assert.equal(res.status, 404);
  });
});
