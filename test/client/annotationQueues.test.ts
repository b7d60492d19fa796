import assert from 'node:assert/strict';
import { LangSmithClient, LangSmithNotFoundError, collect } from '../../src/client';
import { withLocalServer } from '../harness/localServer';
import { clientFor, otherClientFor, recordingFetch, unique } from './_server';

describe('client ↔ local server: annotation queues', () => {
  const srv = withLocalServer();
  let c: LangSmithClient;
  const runIds: string[] = [];
  before(async () => {
    c = clientFor(srv());
    const t = new LangSmithClient({ apiUrl: srv().url, apiKey: srv().apiKey, tracing: { manualFlush: true, projectName: unique('q') } });
    for (let i = 0; i < 3; i++) runIds.push(t.tracing.startRun({ name: `r${i}`, inputs: { i } }).end({ outputs: {} }).post().id);
    await t.tracing.flush();
  });

  it('creates, reads, updates, lists (pages of at most 100) and deletes queues', async () => {
    const prefix = unique('queue');
    const q = await c.annotationQueues.create({ name: `${prefix}-a`, description: 'd', rubricInstructions: 'be fair' });
    assert.equal(q.rubric_instructions, 'be fair');
    for (let i = 0; i < 4; i++) await c.annotationQueues.create({ name: `${prefix}-${i}` });
    assert.equal((await c.annotationQueues.read(q.id)).name, `${prefix}-a`);
    await c.annotationQueues.update(q.id, { name: `${prefix}-b`, rubricInstructions: 'be kind' });
    const r = await c.annotationQueues.read(q.id);
    assert.equal(r.name, `${prefix}-b`);
    assert.equal(r.rubric_instructions, 'be kind');
    assert.equal((await collect(c.annotationQueues.list({ nameContains: prefix, pageSize: 2 }))).length, 5);
    const wire = recordingFetch();
    assert.equal((await collect(clientFor(srv(), { fetch: wire.fetch }).annotationQueues.list({ nameContains: prefix, pageSize: 1000 }))).length, 5);
    assert.deepEqual(wire.seen.filter((r) => r.url.pathname === '/annotation-queues').map((r) => r.url.searchParams.get('limit')), ['100'], 'pages capped at 100');
    assert.equal((await collect(c.annotationQueues.list({ name: `${prefix}-b` }))).length, 1);
    assert.equal((await collect(c.annotationQueues.list({ queueIds: [q.id] }))).length, 1);
    await c.annotationQueues.delete(q.id);
    await assert.rejects(c.annotationQueues.read(q.id), LangSmithNotFoundError);
  });

  it('adds runs, reads them by position, counts and removes them', async () => {
    const q = await c.annotationQueues.create({ name: unique('runs') });
    const added = await c.annotationQueues.addRuns(q.id, runIds);
    assert.equal(added.length, 3);
    assert.equal(await c.annotationQueues.size(q.id), 3);
    const first = await c.annotationQueues.getRun(q.id, 0);
    assert.ok(runIds.includes(first.id));
    assert.ok(first.queue_run_id);
    await assert.rejects(c.annotationQueues.getRun(q.id, 3), LangSmithNotFoundError);
    const listed = await collect(c.annotationQueues.listRuns(q.id));
    assert.deepEqual(listed.map((r) => r.id), runIds);
    await c.annotationQueues.deleteRun(q.id, first.queue_run_id!);
    assert.equal(await c.annotationQueues.size(q.id), 2);
  });

  it('keeps tenants apart', async () => {
    const q = await c.annotationQueues.create({ name: unique('mine') });
    await assert.rejects(otherClientFor(srv()).annotationQueues.read(q.id), LangSmithNotFoundError);
  });
});
