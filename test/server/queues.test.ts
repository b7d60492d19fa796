import assert from 'node:assert/strict';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { client, collect } from './helpers';

describe('annotation queues', () => {
  const srv = withLocalServer();
  const runIds: string[] = [];
  let projectId: string;

  before(async () => {
    const c = client(srv());
    for (let i = 0; i < 4; i++) {
      const id = crypto.randomUUID();
      runIds.push(id);
      await c.createRun({ id, name: `q-run-${i}`, run_type: 'chain', inputs: { i }, project_name: 'aq-project', start_time: Date.now() + i });
    }
    projectId = (await c.readProject({ projectName: 'aq-project' })).id;
  });

  it('create, read, list (name filters, limit ≤ 100), update, delete', async () => {
    const c = client(srv());
    const q = await c.createAnnotationQueue({ name: 'aq-crud', description: 'desc', rubricInstructions: 'Be fair' });
    assert.equal(q.name, 'aq-crud');
    const read = await c.readAnnotationQueue(q.id);
    assert.equal(read.rubric_instructions, 'Be fair');
    await c.createAnnotationQueue({ name: 'aq-other' });
    const byContains = await collect(c.listAnnotationQueues({ nameContains: 'aq-' }));
    assert.deepEqual(byContains.map((x) => x.name).sort(), ['aq-crud', 'aq-other']);
    const byName = await collect(c.listAnnotationQueues({ name: 'aq-crud' }));
    assert.deepEqual(byName.map((x) => x.id), [q.id]);
    assert.equal((await rawRequest(srv(), 'GET', '/annotation-queues?limit=101')).status, 422);
    await c.updateAnnotationQueue(q.id, { name: 'aq-crud-2', description: 'new' });
    assert.equal((await c.readAnnotationQueue(q.id)).name, 'aq-crud-2');
    await c.deleteAnnotationQueue(q.id);
    await assert.rejects(c.readAnnotationQueue(q.id), /404/);
  });

  it('add runs (ids and by key), keep order, run at index, 404 past the end, remove, size', async () => {
    const c = client(srv());
    const q = await c.createAnnotationQueue({ name: 'aq-runs' });
    await c.addRunsToAnnotationQueue(q.id, [runIds[2], runIds[0]]);
    const created = await rawRequest(srv(), 'POST', `/annotation-queues/${q.id}/runs/by-key`, [
      { run_id: runIds[1], session_id: projectId, start_time: new Date().toISOString() },
    ]);
    assert.equal(created.status, 200);
    assert.equal(created.body[0].run_id, runIds[1]);
    assert.equal(created.body[0].queue_id, q.id);
    assert.deepEqual(await c.getSizeFromAnnotationQueue(q.id), { size: 3 });
    const first = await c.getRunFromAnnotationQueue(q.id, 0);
    const second = await c.getRunFromAnnotationQueue(q.id, 1);
    const third = await c.getRunFromAnnotationQueue(q.id, 2);
    assert.deepEqual([first.id, second.id, third.id], [runIds[2], runIds[0], runIds[1]], 'queue order is insertion order');
    assert.ok((first as any).queue_run_id && (first as any).added_at);
    await assert.rejects(c.getRunFromAnnotationQueue(q.id, 3), /404/);
    // Adding a run twice keeps one entry.
    await c.addRunsToAnnotationQueue(q.id, [runIds[2]]);
    assert.deepEqual(await c.getSizeFromAnnotationQueue(q.id), { size: 3 });
    // Remove by queue-run id, and by run id.
    await c.deleteRunFromAnnotationQueue(q.id, (first as any).queue_run_id);
    await c.deleteRunFromAnnotationQueue(q.id, runIds[1]);
    assert.deepEqual(await c.getSizeFromAnnotationQueue(q.id), { size: 1 });
    assert.equal((await c.getRunFromAnnotationQueue(q.id, 0)).id, runIds[0]);
    const listed = await collect(c.listRunsFromAnnotationQueue(q.id));
    assert.deepEqual(listed.map((r) => r.id), [runIds[0]]);
    const wrongSession = await rawRequest(srv(), 'POST', `/annotation-queues/${q.id}/runs/by-key`, [
      { run_id: runIds[3], session_id: crypto.randomUUID(), start_time: new Date().toISOString() },
    ]);
    assert.equal(wrongSession.status, 422);
    const unknownRun = await rawRequest(srv(), 'POST', `/annotation-queues/${q.id}/runs`, [crypto.randomUUID()]);
    assert.equal(unknownRun.status, 404);
    assert.deepEqual(await c.getSizeFromAnnotationQueue(q.id), { size: 1 }, 'failed adds change nothing');
  });

  it("another tenant can't see the queue", async () => {
    const q = await client(srv()).createAnnotationQueue({ name: 'aq-private' });
    await assert.rejects(client(srv(), { apiKey: srv().otherApiKey }).readAnnotationQueue(q.id), /404/);
  });
  it('a queue created with a client-chosen id keeps that id', async () => {
    const c = client(srv());
    const queueId = crypto.randomUUID();
    const q = await c.createAnnotationQueue({ name: 'aq-own-id', description: 'mine', queueId });
    assert.equal(q.id, queueId);
    assert.equal((await c.readAnnotationQueue(queueId)).name, 'aq-own-id');
    assert.deepEqual((await collect(c.listAnnotationQueues({ name: 'aq-own-id' }))).map((x) => x.id), [queueId]);
    // The same id again is a conflict, not a second queue.
    await assert.rejects(c.createAnnotationQueue({ name: 'aq-own-id-2', queueId }), /409/);
  });

  it('rubric_instructions: absent on the create answer when unset, null on a read, set and updated', async () => {
    const c = client(srv());
    const a = await c.createAnnotationQueue({ name: 'aq-rubric-a', queueId: crypto.randomUUID() });
    assert.equal('rubric_instructions' in a, false, 'the create answer has no rubric_instructions when none was given');
    assert.strictEqual((await c.readAnnotationQueue(a.id)).rubric_instructions, null);
    const b = await c.createAnnotationQueue({ name: 'aq-rubric-b', queueId: crypto.randomUUID(), rubricInstructions: 'Check the facts' });
    assert.equal((await c.readAnnotationQueue(b.id)).rubric_instructions, 'Check the facts');
    for (const q of [a, b]) await c.updateAnnotationQueue(q.id, { name: q.name, rubricInstructions: 'Updated rubric' });
    for (const q of [a, b]) assert.equal((await c.readAnnotationQueue(q.id)).rubric_instructions, 'Updated rubric');
  });
});
