// The review calls against the real local server: a queue's rubric settings, items by section with counts and
// cursors, my statuses (Done, requeue, re-show), removal, and the workspace's feedback configs.
import assert from 'node:assert/strict';
import { LangSmithClient, LangSmithValidationError, collect } from '../../src/client';
import { withLocalServer } from '../harness/localServer';
import { clientFor, otherClientFor, recordingFetch, unique } from './_server';

describe('client ↔ local server: annotation review', () => {
  const srv = withLocalServer();
  let c: LangSmithClient;
  const runIds: string[] = [];
  before(async () => {
    c = clientFor(srv());
    const t = new LangSmithClient({ apiUrl: srv().url, apiKey: srv().apiKey, tracing: { manualFlush: true, projectName: unique('review') } });
    for (let i = 0; i < 5; i++) runIds.push(t.tracing.startRun({ name: `r${i}`, inputs: { i } }).end({ outputs: { o: i } }).post().id);
    await t.tracing.flush();
  });

  it('creates a queue with its rubric, default dataset and reviewer settings, and changes them', async () => {
    const ds = await c.datasets.create({ name: unique('review-ds') });
    const q = await c.annotationQueues.create({
      name: unique('rubric'),
      rubricInstructions: 'Judge the answer.',
      rubricItems: [{ feedback_key: 'correct', description: 'Is it right?', is_required: true, value_descriptions: { yes: 'right' } }],
      defaultDatasetId: ds.id,
      numReviewersPerItem: 1,
      enableReservations: false,
    });
    const r = await c.annotationQueues.read(q.id);
    assert.equal(r.rubric_instructions, 'Judge the answer.');
    assert.deepEqual(r.rubric_items?.map((i) => [i.feedback_key, i.is_required, i.value_descriptions]), [['correct', true, { yes: 'right' }]]);
    assert.equal(r.default_dataset, ds.id);
    assert.equal(r.enable_reservations, false);
    await c.annotationQueues.update(q.id, { rubricItems: [{ feedback_key: 'tone' }, { feedback_key: 'correct', is_required: false }], defaultDatasetId: null });
    const u = await c.annotationQueues.read(q.id);
    assert.deepEqual(u.rubric_items?.map((i) => i.feedback_key), ['tone', 'correct']);
    assert.equal(u.default_dataset, null);
  });

  it('refuses a rubric with a key twice, an empty key and bad reviewer counts before any call', async () => {
    const wire = recordingFetch();
    const w = clientFor(srv(), { fetch: wire.fetch });
    await assert.rejects(w.annotationQueues.create({ name: 'x', rubricItems: [{ feedback_key: 'a' }, { feedback_key: 'a' }] }), /"a" is already in the rubric/);
    await assert.rejects(w.annotationQueues.create({ name: 'x', rubricItems: [{ feedback_key: ' ' }] }), LangSmithValidationError);
    await assert.rejects(w.annotationQueues.create({ name: 'x', numReviewersPerItem: 0 }), /reviewers per item/);
    await assert.rejects(w.annotationQueues.update(runIds[0], { reservationMinutes: 1.5 }), /reservation minutes/);
    assert.equal(wire.seen.length, 0);
  });

  it('lists items by section with counts; Done archives for me, requeue moves to the end, null re-shows', async () => {
    const q = await c.annotationQueues.create({ name: unique('items') });
    const added = await c.annotationQueues.items.addRuns(q.id, runIds.map((runId) => ({ runId })));
    assert.equal(added.length, 5);
    assert.deepEqual(await c.annotationQueues.items.counts(q.id), { needs_my_review: 5, needs_others_review: 0, archived: 0 });
    const mine = await collect(c.annotationQueues.items.list(q.id, { section: 'needs_my_review' }));
    assert.deepEqual(mine.map((i) => i.run_id), runIds);

    await c.annotationQueues.items.setStatus(mine[0].id, 'completed');
    const requeued = await c.annotationQueues.items.requeue(mine[1].id);
    assert.equal(requeued.status, 'viewed');
    const after = await collect(c.annotationQueues.items.list(q.id, { section: 'needs_my_review' }));
    assert.deepEqual(after.map((i) => i.run_id), [runIds[2], runIds[3], runIds[4], runIds[1]], 'Done left; the requeued one is last');
    assert.deepEqual(await c.annotationQueues.items.counts(q.id), { needs_my_review: 4, needs_others_review: 0, archived: 1 });
    const archived = await collect(c.annotationQueues.items.list(q.id, { section: 'archived' }));
    assert.equal(archived[0].run_id, runIds[0]);

    await c.annotationQueues.items.setStatus(mine[0].id, null);
    assert.equal(await c.annotationQueues.items.count(q.id, 'needs_my_review'), 5);

    const place = await c.annotationQueues.items.placement(q.id, mine[1].id);
    assert.equal(place.section, 'needs_my_review');
    const fromThere = await c.annotationQueues.items.page(q.id, { section: 'needs_my_review', cursor: place.cursor });
    assert.equal(fromThere.items[0].id, mine[1].id);

    await c.annotationQueues.items.delete(q.id, [mine[2].id]);
    assert.equal(await c.annotationQueues.items.count(q.id, 'all'), 4);
    await assert.rejects(otherClientFor(srv()).annotationQueues.items.count(q.id, 'all'), /not found/i);
  });

  it('two reviewers: my Done waits for the other when two are wanted; an opened item is reserved for me', async () => {
    const other = clientFor(srv(), { apiKey: srv().reviewerApiKey });
    const q = await c.annotationQueues.create({ name: unique('two'), numReviewersPerItem: 2, enableReservations: true, reservationMinutes: 5 });
    const [a, b] = await c.annotationQueues.items.addRuns(q.id, runIds.slice(0, 2).map((runId) => ({ runId })));
    await c.annotationQueues.items.setStatus(a!.id, 'completed');
    assert.deepEqual(await c.annotationQueues.items.counts(q.id), { needs_my_review: 1, needs_others_review: 1, archived: 0 });
    assert.equal(await other.annotationQueues.items.count(q.id, 'needs_my_review'), 2, 'my Done does not complete it for the other reviewer');
    const done = await other.annotationQueues.items.setStatus(a!.id, 'completed');
    assert.equal(done.is_archived, true, 'archived once both reviewers are done');
    const archived = await collect(c.annotationQueues.items.list(q.id, { section: 'archived' }));
    assert.deepEqual(archived.map((i) => i.completed_by?.length), [2]);

    await c.annotationQueues.items.setStatus(b!.id, 'viewed');
    assert.equal(await other.annotationQueues.items.count(q.id, 'needs_my_review'), 0, 'reserved for me while I look at it');
    const held = await collect(other.annotationQueues.items.list(q.id, { section: 'needs_others_review' }));
    assert.deepEqual(held.map((i) => [i.id, i.reserved_by?.length]), [[b!.id, 1]]);
    await c.annotationQueues.items.setStatus(b!.id, 'completed');
    assert.equal(await other.annotationQueues.items.count(q.id, 'needs_my_review'), 1, 'released by my Done');
  });

  it('pages items by cursor, at most 100 per request', async () => {
    const q = await c.annotationQueues.create({ name: unique('paging') });
    await c.annotationQueues.items.addRuns(q.id, runIds.map((runId) => ({ runId })));
    const first = await c.annotationQueues.items.page(q.id, { section: 'needs_my_review', pageSize: 2 });
    assert.equal(first.items.length, 2);
    assert.ok(first.nextCursor);
    const second = await c.annotationQueues.items.page(q.id, { section: 'needs_my_review', pageSize: 2, cursor: first.nextCursor });
    assert.deepEqual(second.items.map((i) => i.run_id), runIds.slice(2, 4));
    const wire = recordingFetch();
    await collect(clientFor(srv(), { fetch: wire.fetch }).annotationQueues.items.list(q.id, { section: 'needs_my_review' }));
    assert.ok(wire.seen.every((r) => r.url.searchParams.get('page_size') === '100'));
    assert.equal((await collect(c.annotationQueues.items.list(q.id, { section: 'needs_my_review', limit: 3 }))).length, 3);
  });

  it('feedback configs: create, read by key, update, upsert, delete; a bad config is refused before any call', async () => {
    const key = unique('fc');
    const made = await c.feedbackConfigs.create({ key, config: { type: 'categorical', categories: [{ value: 0, label: 'no' }, { value: 1, label: 'yes' }] } });
    assert.equal(made.feedback_key, key);
    assert.equal(made.feedback_config.type, 'categorical');
    const read = await c.feedbackConfigs.read([key, unique('absent')]);
    assert.deepEqual([...read.keys()], [key]);
    const changed = await c.feedbackConfigs.update({ key, config: { type: 'continuous', min: 0, max: 5 }, isLowerScoreBetter: true });
    assert.equal(changed.feedback_config.max, 5);
    assert.equal(changed.is_lower_score_better, true);
    const key2 = unique('fc2');
    await c.feedbackConfigs.upsert({ key: key2, config: { type: 'freeform' } });
    await c.feedbackConfigs.upsert({ key: key2, config: { type: 'continuous', min: 1, max: 2 } });
    assert.equal((await c.feedbackConfigs.read([key2])).get(key2)?.feedback_config.type, 'continuous');
    assert.ok((await collect(c.feedbackConfigs.list({ nameContains: key2 }))).length >= 1);
    await c.feedbackConfigs.delete(key2);
    assert.equal((await c.feedbackConfigs.read([key2])).size, 0);

    const wire = recordingFetch();
    const w = clientFor(srv(), { fetch: wire.fetch });
    await assert.rejects(w.feedbackConfigs.create({ key, config: { type: 'continuous', min: 3, max: 1 } }), /min \(3\) must be below max \(1\)/);
    await assert.rejects(w.feedbackConfigs.create({ key, config: { type: 'categorical', categories: [{ value: 1 }, { value: 1 }] } }), /used twice/);
    await assert.rejects(w.feedbackConfigs.create({ key: 'k'.repeat(181), config: { type: 'freeform' } }), /at most 180/);
    assert.equal(wire.seen.length, 0);
  });

  it('feedback written by a reviewer carries the app source and the queue', async () => {
    const q = await c.annotationQueues.create({ name: unique('src') });
    const fb = await c.feedback.create({ runId: runIds[0], key: 'correct', score: 1, value: 'yes', correction: { o: 'fixed' }, feedbackSourceType: 'app', sourceInfo: { annotation_queue_id: q.id } });
    const read = await c.feedback.read(fb.id);
    const src = read.feedback_source as { type?: string; metadata?: Record<string, unknown> } | undefined;
    assert.equal(src?.type, 'app');
    assert.equal(src?.metadata?.annotation_queue_id, q.id);
    assert.deepEqual(read.correction, { o: 'fixed' });
  });
});
