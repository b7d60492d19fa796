// The official client's evaluate() end to end: experiment project, traced runs tied to examples, feedback.
import assert from 'node:assert/strict';
import { Client } from 'langsmith';
import { evaluate } from 'langsmith/evaluation';
import { withLocalServer } from '../harness/localServer';
import { collect } from './helpers';

describe('evaluate() from the official client', function () {
  this.timeout(60_000);
  const srv = withLocalServer();

  it('runs an experiment over a dataset and records runs and evaluator feedback', async () => {
    const c = new Client({ apiUrl: srv().url, apiKey: srv().apiKey });
    const ds = await c.createDataset('eval-ds');
    const examples = await c.createExamples([
      { dataset_id: ds.id, inputs: { a: 1 }, outputs: { b: 2 } },
      { dataset_id: ds.id, inputs: { a: 5 }, outputs: { b: 7 } },
      { dataset_id: ds.id, inputs: { a: 9 }, outputs: { b: 10 } },
    ]);
    const results = await evaluate((inputs: any) => ({ b: inputs.a + 1 }), {
      data: 'eval-ds',
      client: c,
      experimentPrefix: 'plus-one',
      evaluators: [({ outputs, referenceOutputs }: any) => ({ key: 'exact', score: outputs.b === referenceOutputs.b ? 1 : 0 })],
    } as any);
    const rows = results.results;
    assert.equal(rows.length, 3);
    assert.deepEqual(rows.map((r: any) => r.evaluationResults.results[0].score).sort(), [0, 1, 1]);
    await c.awaitPendingTraceBatches();

    const project = await c.readProject({ projectName: results.experimentName });
    assert.equal(project.reference_dataset_id, ds.id);
    const runs = await collect(c.listRuns({ projectId: project.id, isRoot: true }));
    assert.equal(runs.length, 3);
    assert.deepEqual(runs.map((r) => r.reference_example_id).sort(), examples.map((e) => e.id).sort());
    assert.ok(runs.every((r) => r.status === 'success'));
    const feedback = await collect(c.listFeedback({ runIds: runs.map((r) => r.id), feedbackKeys: ['exact'] }));
    assert.equal(feedback.length, 3);
    assert.deepEqual(feedback.map((f) => f.score).sort(), [0, 1, 1]);
    assert.equal(srv().server.stats().internalErrors, 0);
  });
});
