// Bulk actions of several requests that stop part-way, in the real extension host against the local server's
// fault switch: the server lets the first requests through and then answers 503 to everything (after:N), so the
// action gets exactly that far. The notification says how far it got and what failed, and Retry does the rest.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { WorkbenchApi } from '../../../src/extension';
import type { TreeNode } from '../../../src/views/treeNode';
import { ScriptedPrompter, type Answer } from './scriptedPrompter';
import { activateWorkbench, get, http, raw, runScripted } from './support';

type AnyNode = TreeNode & Record<string, any>;

describe('bulk actions that stop part-way', function () {
  this.timeout(60_000);
  let workbench: WorkbenchApi;
  let datasetId: string;
  const faults = (spec: string) => http('PUT', '/__local/faults', { faults: spec });
  const run = (command: string, answers: Answer[], ...args: unknown[]) => runScripted(workbench, command, new ScriptedPrompter(answers), ...args);
  const stored = async () => (await get<{ id: string }[]>(`/examples?dataset=${datasetId}&limit=100`)).map((e) => e.id).sort();

  const exampleNodes = async () => {
    workbench.views.datasets.refresh();
    const dataset = (await workbench.views.datasets.provider.getChildren()).find((n) => n.id === `dataset/${datasetId}`);
    assert.ok(dataset, 'the dataset is in the Datasets view');
    return ((await workbench.views.datasets.provider.getChildren(dataset)) as AnyNode[]).filter((n) => n.id.startsWith('example/'));
  };

  before(async () => {
    workbench = await activateWorkbench();
  });

  beforeEach(async () => {
    datasetId = (await http<{ id: string }>('POST', '/datasets', { name: `pd-${randomUUID().slice(0, 6)}` })).id;
    const examples = [0, 1, 2, 3].map((i) => ({ inputs: { q: `question ${i}` }, outputs: { a: `answer ${i}` } }));
    await workbench.clients.call((c) => c.examples.create({ datasetId, examples }));
  });

  afterEach(async () => {
    await faults('');
    await raw('DELETE', `/datasets/${datasetId}`);
  });

  it('Delete Examples says how many of how many were deleted and why it stopped; Retry deletes the rest', async () => {
    const nodes = await exampleNodes();
    assert.equal(nodes.length, 4);
    await faults('after:1,503:1,retryAfter:0');
    const script = new ScriptedPrompter([{ confirm: true }, { retry: true, first: async () => void (await faults('')) }]);
    await runScripted(workbench, 'langsmith.deleteExamples', script, nodes[0], nodes);
    assert.equal(script.retryOffers.length, 1);
    assert.match(script.retryOffers[0]!, /^Deleted 1 of 4 examples; 3 not done: .*503/);
    assert.deepEqual(await stored(), [], 'Retry deleted the other three, none twice');
    assert.deepEqual(await exampleNodes(), []);
  });

  it('closing the message keeps what was done, and the tree shows what is left', async () => {
    const nodes = await exampleNodes();
    const ids = nodes.map((n) => n.example.id as string);
    await faults('after:2,503:1,retryAfter:0');
    const { script, errors } = await run('langsmith.deleteExamples', [{ confirm: true }, { retry: false }], nodes[0], nodes);
    assert.equal(errors.length, 0, 'one message only: the one that offered Retry');
    assert.match(script.asked[1]!, /^Deleted 2 of 4 examples; 2 not done: /);
    await faults('');
    assert.deepEqual(await stored(), ids.slice(2).sort(), 'the first two are deleted, the last two kept');
    assert.deepEqual((await exampleNodes()).map((n) => n.example.id).sort(), ids.slice(2).sort());
  });

  it('a failure before anything was done is the plain error, with nothing to retry', async () => {
    const nodes = await exampleNodes();
    await faults('503:1,retryAfter:0');
    const { script, errors } = await run('langsmith.deleteExamples', [{ confirm: true }], nodes[0], nodes);
    assert.equal(script.retryOffers.length, 0);
    assert.equal(errors.length, 1);
    assert.doesNotMatch(errors[0]!, /of 4/);
    await faults('');
    assert.equal((await stored()).length, 4);
  });
});
