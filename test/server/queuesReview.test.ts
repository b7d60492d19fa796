// Annotation review as LangSmith has it: rubric items, queue settings, queue items with the reviewer's status
// (viewed / completed = "Done"), review sections, counts, placement and cursors — driven through the official
// client's methods (`client.annotationQueues…`) wherever it has one.
import assert from 'node:assert/strict';
import type { Client } from 'langsmith';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { client, collect } from './helpers';

/** The HTTP status an official-client call failed with (its generated API client puts it on the error). */
async function failure(p: Promise<unknown>): Promise<{ status: number | undefined; detail: string }> {
  try {
    await p;
  } catch (e) {
    const err = e as { status?: number; error?: { detail?: unknown }; message?: string };
    return { status: err.status, detail: String(err.error?.detail ?? err.message) };
  }
  assert.fail('expected the call to fail');
}

describe('annotation queues: review', () => {
  const srv = withLocalServer();
  const runIds: string[] = [];
  let projectId: string;
  let c: Client;

  before(async () => {
    c = client(srv());
    const t0 = Date.now() - 60_000;
    for (let i = 0; i < 5; i++) {
      const id = crypto.randomUUID();
      runIds.push(id);
      await c.createRun({ id, name: `review-run-${i}`, run_type: 'chain', inputs: { i }, project_name: 'aq-review', start_time: t0 + i * 1000 });
    }
    projectId = (await c.readProject({ projectName: 'aq-review' })).id;
  });

  /** A queue with the given runs added through the items API; answers the queue id and the item ids in order. */
  async function queueWith(name: string, runs: string[], settings: Record<string, unknown> = {}) {
    const q = await c.annotationQueues.annotationQueues({ name, ...settings });
    const added = await c.annotationQueues.items.create(q.id, { items: runs.map((run_id) => ({ run_id, project_id: projectId })) });
    return { queueId: q.id, itemIds: (added.items ?? []).map((i) => i.id!) };
  }

  const listIds = async (queueId: string, status: 'needs_my_review' | 'needs_others_review' | 'archived', pageSize?: number) =>
    (await collect(c.annotationQueues.items.list(queueId, { status, ...(pageSize ? { page_size: pageSize } : {}) }))).map((i) => i.id);

  describe('rubric items and settings', () => {
    it('are validated on create, stored with every field, returned on read, and replaced on update', async () => {
      const q = await c.createAnnotationQueue({
        name: 'aq-rubric',
        rubricInstructions: 'Score what matters',
        rubricItems: [
          { feedback_key: 'correctness', description: 'Is it right?', score_descriptions: { '0': 'wrong', '1': 'right' }, is_required: true },
          { feedback_key: 'tone', value_descriptions: { polite: 'kind words', rude: 'harsh words' } },
        ],
      });
      const read = await c.readAnnotationQueue(q.id);
      assert.equal(read.rubric_instructions, 'Score what matters');
      assert.deepEqual(read.rubric_items, [
        { feedback_key: 'correctness', description: 'Is it right?', value_descriptions: null, score_descriptions: { '0': 'wrong', '1': 'right' }, is_required: true, is_assertion: null },
        { feedback_key: 'tone', description: null, value_descriptions: { polite: 'kind words', rude: 'harsh words' }, score_descriptions: null, is_required: null, is_assertion: null },
      ]);
      await c.updateAnnotationQueue(q.id, { name: 'aq-rubric', rubricItems: [{ feedback_key: 'helpfulness', is_required: false }] });
      const after = await c.annotationQueues.retrieve(q.id);
      assert.deepEqual(after.rubric_items, [
        { feedback_key: 'helpfulness', description: null, value_descriptions: null, score_descriptions: null, is_required: false, is_assertion: null },
      ]);
      assert.equal(after.rubric_instructions, 'Score what matters', 'an update without instructions keeps them');
    });

    it('a bad rubric is a 422 naming the field, and nothing is created', async () => {
      const bad: Array<[unknown, RegExp]> = [
        [[{ description: 'no key' }], /body\.rubric_items\.0\.feedback_key/],
        [[{ feedback_key: 'k', bogus: 1 }], /body\.rubric_items\.0: unknown field "bogus"/],
        [[{ feedback_key: 'k', score_descriptions: { '1': 5 } }], /body\.rubric_items\.0\.score_descriptions\.1/],
        [[{ feedback_key: 'k' }, { feedback_key: 'k' }], /body\.rubric_items\.1\.feedback_key: "k" is already in the rubric/],
        ['not a list', /body\.rubric_items/],
      ];
      for (const [rubric_items, detail] of bad) {
        const res = await rawRequest(srv(), 'POST', '/annotation-queues', { name: 'aq-bad-rubric', rubric_items });
        assert.equal(res.status, 422, JSON.stringify(rubric_items));
        assert.match(res.body.detail, detail);
      }
      const f = await failure(c.annotationQueues.annotationQueues({ name: 'aq-bad-rubric', rubric_items: [{ feedback_key: '' }] }));
      assert.equal(f.status, 422);
      assert.deepEqual(await collect(c.listAnnotationQueues({ name: 'aq-bad-rubric' })), []);
      const q = await c.createAnnotationQueue({ name: 'aq-rubric-patch' });
      const patch = await rawRequest(srv(), 'PATCH', `/annotation-queues/${q.id}`, { rubric_items: [{ feedback_key: 'k', is_required: 'yes' }] });
      assert.equal(patch.status, 422);
      assert.match(patch.body.detail, /body\.rubric_items\.0\.is_required/);
    });

    it('queue settings are stored and returned with LangSmith defaults when not given', async () => {
      const plain = await c.annotationQueues.annotationQueues({ name: 'aq-defaults' });
      assert.equal(plain.num_reviewers_per_item, 1);
      assert.equal(plain.enable_reservations, true);
      assert.equal(plain.reservation_minutes, 1);
      assert.equal(plain.reviewer_access_mode, 'any');
      assert.equal(plain.queue_type, 'single');
      assert.equal(plain.default_dataset, null);
      assert.equal(plain.metadata, null);
      assert.deepEqual(plain.assigned_reviewers, []);
      const ds = await c.createDataset('aq-settings-ds');
      const q = await c.annotationQueues.annotationQueues({
        name: 'aq-settings', num_reviewers_per_item: 3, enable_reservations: false, reservation_minutes: 10, default_dataset: ds.id, metadata: { team: 'a' },
      });
      const read = await c.annotationQueues.retrieve(q.id);
      assert.deepEqual(
        [read.num_reviewers_per_item, read.enable_reservations, read.reservation_minutes, read.default_dataset, read.metadata],
        [3, false, 10, ds.id, { team: 'a' }],
      );
      await c.annotationQueues.update(q.id, { num_reviewers_per_item: 2, metadata: null });
      const updated = await c.annotationQueues.retrieve(q.id);
      assert.deepEqual([updated.num_reviewers_per_item, updated.metadata, updated.reservation_minutes], [2, null, 10]);
      const byDataset = await collect(c.annotationQueues.retrieveAnnotationQueues({ dataset_id: ds.id }));
      assert.deepEqual(byDataset.map((x) => [x.id, x.total_runs]), [[q.id, 0]]);
      assert.equal((await failure(c.annotationQueues.annotationQueues({ name: 'aq-nodata', default_dataset: crypto.randomUUID() }))).status, 404);
      assert.equal((await failure(c.annotationQueues.update(q.id, { reviewer_access_mode: 'everyone' as 'any' }))).status, 422);
    });

    it('a queue made from projects holds their root runs', async () => {
      const q = await c.annotationQueues.annotationQueues({ name: 'aq-from-project', session_ids: [projectId] });
      const runs = await c.annotationQueues.runs.list(q.id);
      assert.deepEqual(runs.map((r) => r.id), runIds);
      assert.equal((await failure(c.annotationQueues.annotationQueues({ name: 'aq-from-nothing', session_ids: [crypto.randomUUID()] }))).status, 404);
      assert.deepEqual(await collect(c.listAnnotationQueues({ name: 'aq-from-nothing' })), [], 'a 404 creates no queue');
    });
  });

  describe('items (the platform items API)', () => {
    it('adds RUN items and answers them in LangSmith shape; adding a run twice keeps one item', async () => {
      const q = await c.annotationQueues.annotationQueues({ name: 'aq-items-add' });
      const res = await c.annotationQueues.items.create(q.id, { items: [{ run_id: runIds[1], project_id: projectId }, { run_id: runIds[0], item_type: 'RUN' }] });
      assert.equal(res.items?.length, 2);
      const [first] = res.items!;
      assert.deepEqual(Object.keys(first!).sort(), ['added_at', 'id', 'item_type', 'last_reviewed_time', 'project_id', 'queue_id', 'run_id', 'start_time']);
      assert.deepEqual([first!.queue_id, first!.run_id, first!.item_type, first!.project_id, first!.last_reviewed_time], [q.id, runIds[1], 'RUN', projectId, null]);
      const again = await c.annotationQueues.items.create(q.id, { items: [{ run_id: runIds[1] }] });
      assert.equal(again.items![0]!.id, first!.id);
      assert.deepEqual(await c.annotationQueues.items.retrieveCount(q.id, { status: 'all' }), { count: 2 });
    });

    it('refuses a run in another project, unknown fields and missing run ids (422) and unknown runs or threads (404)', async () => {
      const q = await c.annotationQueues.annotationQueues({ name: 'aq-items-bad' });
      const cases: Array<[Record<string, unknown>, number, RegExp]> = [
        [{ item_type: 'THREAD', thread_id: 't1', project_id: projectId }, 404, /Thread t1/],
        [{ item_type: 'THREAD', thread_id: 't1' }, 422, /project_id: required for a THREAD item/],
        [{ item_type: 'THREAD', project_id: projectId }, 422, /thread_id: required/],
        [{ run_id: runIds[0], project_id: crypto.randomUUID() }, 422, /is not in session/],
        [{ run_id: runIds[0], colour: 'red' }, 422, /unknown field "colour"/],
        [{ item_type: 'RUN' }, 422, /run_id: required/],
        [{ run_id: crypto.randomUUID() }, 404, /not found/],
      ];
      for (const [item, status, detail] of cases) {
        const f = await failure(c.annotationQueues.items.create(q.id, { items: [item] }));
        assert.equal(f.status, status, JSON.stringify(item));
        assert.match(f.detail, detail);
      }
      assert.deepEqual(await c.annotationQueues.items.retrieveCount(q.id, { status: 'all' }), { count: 0 });
    });

    it('"Done" (completed) moves an item from needs_my_review to archived; null re-shows it', async () => {
      const { queueId, itemIds } = await queueWith('aq-items-done', [runIds[0], runIds[1], runIds[2]]);
      assert.deepEqual(await listIds(queueId, 'needs_my_review'), itemIds);
      const done = await c.annotationQueues.items.createStatus(itemIds[1]!, { status: 'completed' });
      assert.deepEqual(done, { queue_item_id: itemIds[1], status: 'completed', is_archived: true });
      assert.deepEqual(await listIds(queueId, 'needs_my_review'), [itemIds[0], itemIds[2]]);
      assert.deepEqual(await listIds(queueId, 'archived'), [itemIds[1]]);
      assert.deepEqual(await listIds(queueId, 'needs_others_review'), []);
      const counts = async () =>
        Promise.all((['all', 'needs_my_review', 'needs_others_review', 'archived'] as const).map(async (status) => (await c.annotationQueues.items.retrieveCount(queueId, { status })).count));
      assert.deepEqual(await counts(), [3, 2, 0, 1]);
      const [archived] = await collect(c.annotationQueues.items.list(queueId, { status: 'archived' }));
      assert.ok(archived!.last_reviewed_time, 'completing an item reviews it');
      assert.deepEqual(archived!.completed_by, [srv().userId], 'the user of the key, not the workspace');
      const reshown = await c.annotationQueues.items.createStatus(itemIds[1]!, {});
      assert.deepEqual(reshown, { queue_item_id: itemIds[1], is_archived: false });
      assert.deepEqual(await counts(), [3, 3, 0, 0]);
    });

    it('"viewed" keeps an item to review, moved to override_added_at in the order', async () => {
      const { queueId, itemIds } = await queueWith('aq-items-viewed', [runIds[0], runIds[1], runIds[2]]);
      const later = new Date(Date.now() + 60_000).toISOString();
      const viewed = await c.annotationQueues.items.createStatus(itemIds[0]!, { status: 'viewed', override_added_at: later });
      assert.deepEqual(viewed, { queue_item_id: itemIds[0], status: 'viewed', is_archived: false, override_added_at: later });
      assert.deepEqual(await listIds(queueId, 'needs_my_review'), [itemIds[1], itemIds[2], itemIds[0]]);
      const [, , moved] = await collect(c.annotationQueues.items.list(queueId, { status: 'needs_my_review' }));
      assert.equal(moved!.effective_added_at, later);
      assert.notEqual(moved!.added_at, later);
      assert.equal(moved!.last_reviewed_time, null, 'viewing is not reviewing');
    });

    it('with two reviewers wanted, my "Done" waits in needs_others_review (queuesReviewers.test.ts has the second reviewer)', async () => {
      const { queueId, itemIds } = await queueWith('aq-items-two', [runIds[0], runIds[1]], { num_reviewers_per_item: 2 });
      const done = await c.annotationQueues.items.createStatus(itemIds[0]!, { status: 'completed' });
      assert.equal(done.is_archived, false);
      assert.deepEqual(await listIds(queueId, 'needs_others_review'), [itemIds[0]]);
      assert.deepEqual(await listIds(queueId, 'needs_my_review'), [itemIds[1]]);
      assert.deepEqual(await c.annotationQueues.items.retrieveCount(queueId, { status: 'archived' }), { count: 0 });
    });

    it('pages by cursor, forward and backward, and placement gives the section, position and a cursor at the item', async () => {
      const { queueId, itemIds } = await queueWith('aq-items-pages', runIds);
      assert.deepEqual(await listIds(queueId, 'needs_my_review', 2), itemIds, 'following next_cursor 2 at a time');
      const first = await c.annotationQueues.items.list(queueId, { status: 'needs_my_review', page_size: 2 });
      assert.deepEqual(first.items.map((i) => i.id), itemIds.slice(0, 2));
      assert.ok(first.next_cursor);
      const place = await c.annotationQueues.items.retrievePlacement(itemIds[3]!, { queue_id: queueId });
      assert.equal(place.section, 'needs_my_review');
      assert.equal(place.position, 3);
      assert.equal(place.item_type, 'RUN');
      const fromItem = await c.annotationQueues.items.list(queueId, { status: 'needs_my_review', page_size: 2, cursor: place.cursor });
      assert.deepEqual(fromItem.items.map((i) => i.id), [itemIds[3], itemIds[4]]);
      assert.equal(fromItem.next_cursor, '');
      const before = await c.annotationQueues.items.list(queueId, { status: 'needs_my_review', page_size: 2, cursor: place.cursor, direction: 'backward' });
      assert.deepEqual(before.items.map((i) => i.id), [itemIds[1], itemIds[2]]);
      await c.annotationQueues.items.createStatus(itemIds[3]!, { status: 'completed' });
      assert.deepEqual(await c.annotationQueues.items.retrievePlacement(itemIds[3]!, { queue_id: queueId }).then((p) => [p.section, p.position]), ['archived', 0]);
      assert.equal((await failure(c.annotationQueues.items.list(queueId, { status: 'needs_my_review', cursor: 'nonsense' }).then((p) => p.items))).status, 422);
      assert.equal((await failure(c.annotationQueues.items.list(queueId, { status: 'needs_my_review', direction: 'backward' }).then((p) => p.items))).status, 422);
      assert.equal((await failure(c.annotationQueues.items.list(queueId, { status: 'everything' as 'archived' }).then((p) => p.items))).status, 422);
    });

    it('updates an item’s times (null or absent leaves them), and deletes items by id', async () => {
      const { queueId, itemIds } = await queueWith('aq-items-edit', [runIds[0], runIds[1], runIds[2]]);
      const reviewed = '2026-01-02T03:04:05.000Z';
      const u = await c.annotationQueues.items.update(itemIds[2]!, { queue_id: queueId, last_reviewed_time: reviewed });
      assert.equal(u.last_reviewed_time, reviewed);
      const early = '2020-01-01T00:00:00.000Z';
      const moved = await c.annotationQueues.items.update(itemIds[2]!, { queue_id: queueId, added_at: early });
      assert.deepEqual([moved.added_at, moved.last_reviewed_time], [early, reviewed]);
      assert.deepEqual(await listIds(queueId, 'needs_my_review'), [itemIds[2], itemIds[0], itemIds[1]], 'added_at orders the queue');
      assert.equal((await failure(c.annotationQueues.items.update(itemIds[2]!, { queue_id: queueId, added_at: 'yesterday' }))).status, 422);
      await c.annotationQueues.items.deleteAll(queueId, { item_ids: [itemIds[0]!, itemIds[2]!] });
      assert.deepEqual(await listIds(queueId, 'needs_my_review'), [itemIds[1]]);
      assert.equal((await failure(c.annotationQueues.items.retrievePlacement(itemIds[0]!, { queue_id: queueId }))).status, 404);
    });

    it("another workspace can't see, review or remove the items", async () => {
      const { queueId, itemIds } = await queueWith('aq-items-private', [runIds[0]]);
      const other = client(srv(), { apiKey: srv().otherApiKey });
      assert.equal((await failure(other.annotationQueues.items.list(queueId, { status: 'needs_my_review' }).then((p) => p.items))).status, 404);
      assert.equal((await failure(other.annotationQueues.items.createStatus(itemIds[0]!, { status: 'completed' }))).status, 404);
      assert.equal((await failure(other.annotationQueues.items.deleteAll(queueId, { item_ids: [itemIds[0]!] }))).status, 404);
      assert.equal((await failure(other.annotationQueues.items.retrieveCount(queueId, { status: 'all' }))).status, 404);
      assert.deepEqual(await listIds(queueId, 'needs_my_review'), itemIds, 'untouched');
    });
  });

  describe('the run routes (deprecated in LangSmith, still served)', () => {
    it('list runs by status and archived; sizes by status; total_archived and total_size', async () => {
      const q = await c.createAnnotationQueue({ name: 'aq-runs-status' });
      await c.addRunsToAnnotationQueue(q.id, runIds.slice(0, 4).map((runId) => ({ runId, sessionId: projectId, startTime: new Date() })));
      const runs = await c.annotationQueues.runs.list(q.id);
      assert.deepEqual(runs.map((r) => r.id), runIds.slice(0, 4));
      const before = new Date(Date.now() - 1000).toISOString();
      await c.annotationQueues.createRunStatus(runs[0]!.queue_run_id, { status: 'completed' });
      await c.annotationQueues.createRunStatus(runs[2]!.queue_run_id, { status: 'completed' });
      await c.annotationQueues.createRunStatus(runs[3]!.queue_run_id, { status: 'viewed' });
      const ids = (rs: Array<{ id: string }>) => rs.map((r) => r.id);
      assert.deepEqual(ids(await c.annotationQueues.runs.list(q.id, { status: 'needs_my_review' })), [runIds[1], runIds[3]]);
      assert.deepEqual(ids(await c.annotationQueues.runs.list(q.id, { status: 'completed' })), [runIds[0], runIds[2]]);
      assert.deepEqual(ids(await c.annotationQueues.runs.list(q.id, { archived: true })), [runIds[0], runIds[2]]);
      assert.deepEqual(ids(await c.annotationQueues.runs.list(q.id, { archived: false })), [runIds[1], runIds[3]]);
      const [completed] = await c.annotationQueues.runs.list(q.id, { status: 'completed' });
      assert.ok(completed!.last_reviewed_time);
      assert.equal(completed!.completed_by?.length, 1);
      assert.deepEqual(await c.annotationQueues.retrieveSize(q.id), { size: 2 }, 'what is left to review');
      assert.deepEqual(await c.annotationQueues.retrieveSize(q.id, { status: 'completed' }), { size: 2 });
      assert.deepEqual(await c.getSizeFromAnnotationQueue(q.id), { size: 2 });
      assert.deepEqual(await c.annotationQueues.retrieveTotalSize(q.id), { size: 4 });
      assert.deepEqual(await c.annotationQueues.retrieveTotalArchived(q.id), { size: 2 });
      assert.deepEqual(await c.annotationQueues.retrieveTotalArchived(q.id, { start_time: before }), { size: 2 });
      assert.deepEqual(await c.annotationQueues.retrieveTotalArchived(q.id, { end_time: before }), { size: 0 });
      assert.equal((await failure(c.annotationQueues.createRunStatus(runs[1]!.queue_run_id, { status: 'finished' }))).status, 422);
      assert.equal((await failure(c.annotationQueues.runs.list(q.id, { status: 'done' as 'completed' }))).status, 422);
    });

    it('PATCH sets review and added times; bulk delete by run ids or all but some; the queues of a run', async () => {
      const q = await c.createAnnotationQueue({ name: 'aq-runs-edit' });
      await c.addRunsToAnnotationQueue(q.id, runIds.map((runId) => ({ runId, sessionId: projectId, startTime: new Date() })));
      const [first] = await c.annotationQueues.runs.list(q.id);
      await c.annotationQueues.runs.update(first!.queue_run_id, { queue_id: q.id, last_reviewed_time: '2026-02-03T04:05:06Z', added_at: '2030-01-01T00:00:00Z' });
      const runs = await c.annotationQueues.runs.list(q.id);
      assert.equal(runs[runs.length - 1]!.id, runIds[0], 'a later added_at moves the run to the end');
      assert.equal(runs[runs.length - 1]!.last_reviewed_time, '2026-02-03T04:05:06.000Z');
      const queues = await c.annotationQueues.retrieveQueues(runIds[4]!);
      assert.ok(queues.some((x) => x.id === q.id));
      await c.annotationQueues.runs.deleteAll(q.id, { run_ids: [runIds[0]!, runIds[1]!] });
      assert.deepEqual((await c.annotationQueues.runs.list(q.id)).map((r) => r.id), runIds.slice(2));
      await c.annotationQueues.runs.deleteAll(q.id, { delete_all: true, exclude_run_ids: [runIds[4]!] });
      assert.deepEqual((await c.annotationQueues.runs.list(q.id)).map((r) => r.id), [runIds[4]]);
      assert.equal((await failure(c.annotationQueues.runs.deleteAll(q.id, {}))).status, 422);
      assert.equal((await failure(c.annotationQueues.retrieveQueues(crypto.randomUUID()))).status, 404);
    });

    it('adds runs given as objects with a source proposal, and deletes queues in bulk', async () => {
      const q = await c.createAnnotationQueue({ name: 'aq-runs-objects' });
      const proposal = crypto.randomUUID();
      const added = await c.annotationQueues.runs.create(q.id, { body: [{ run_id: runIds[0]!, source_proposed_example_id: proposal }] });
      assert.equal(added[0]!.source_proposed_example_id, proposal);
      const other = await c.createAnnotationQueue({ name: 'aq-runs-objects-2' });
      const del = await rawRequest(srv(), 'DELETE', `/annotation-queues?queue_ids=${q.id}&queue_ids=${other.id}`);
      assert.equal(del.status, 200);
      assert.deepEqual(await collect(c.listAnnotationQueues({ nameContains: 'aq-runs-objects' })), []);
    });
  });

  it('bad bodies, queries and ids on every queue route are a 4xx with a detail, never a 500', async () => {
    const { queueId, itemIds } = await queueWith('aq-robust', [runIds[0]]);
    const item = itemIds[0]!;
    const bodies: Array<{ body?: unknown; rawBody?: string }> = [
      { rawBody: '{"broken": ' }, { body: [] }, { body: {} }, { body: { bogus: 1 } }, { body: 42 }, { body: 'text' }, { body: [{ bogus: 1 }] },
      { body: { items: 'x', item_ids: 'x', status: 7, rubric_items: {}, name: 5, added_at: 5 } },
    ];
    const writes: Array<[string, string]> = [
      ['POST', '/annotation-queues'], ['PATCH', `/annotation-queues/${queueId}`], ['POST', `/annotation-queues/${queueId}/runs`],
      ['POST', `/annotation-queues/${queueId}/runs/by-key`], ['PATCH', `/annotation-queues/${queueId}/runs/${item}`],
      ['POST', `/annotation-queues/${queueId}/runs/delete`], ['POST', `/annotation-queues/status/${item}`],
      ['POST', `/api/v1/platform/annotation-queues/${queueId}/items`], ['PATCH', `/api/v1/platform/annotation-queues/${queueId}/items/${item}`],
      ['POST', `/api/v1/platform/annotation-queues/items/${item}/status`], ['POST', `/api/v1/platform/annotation-queues/${queueId}/items/delete`],
    ];
    for (const [method, path] of writes) {
      for (const b of bodies) {
        const res = await rawRequest(srv(), method, path, b.body, b.rawBody ? { rawBody: b.rawBody, headers: { 'content-type': 'application/json' } } : {});
        // A PATCH/status of {} is a valid no-op or a status reset; everything else here is refused.
        if (res.status < 300) continue;
        assert.ok(res.status >= 400 && res.status < 500, `${method} ${path} ${JSON.stringify(b)} → ${res.status}`);
        assert.equal(typeof res.body.detail, 'string', `${method} ${path} answers a detail`);
      }
    }
    const reads = [
      '/annotation-queues/x', '/annotation-queues/x/runs', `/annotation-queues/${queueId}/runs?status=bogus`, `/annotation-queues/${queueId}/runs?limit=0`,
      `/annotation-queues/${queueId}/size?status=x`, `/annotation-queues/${queueId}/total_archived?start_time=never`, `/annotation-queues/${queueId}/run/x`,
      '/annotation-queues/x/queues', `/api/v1/platform/annotation-queues/${queueId}/items`, `/api/v1/platform/annotation-queues/${queueId}/items?status=x`,
      `/api/v1/platform/annotation-queues/${queueId}/items?status=archived&page_size=1000`, `/api/v1/platform/annotation-queues/${queueId}/items/count`,
      `/api/v1/platform/annotation-queues/${queueId}/items/x/placement`, `/api/v1/platform/annotation-queues/x/items?status=archived`,
      '/annotation-queues?queue_type=triple', '/annotation-queues?dataset_id=x',
    ];
    for (const path of reads) {
      const res = await rawRequest(srv(), 'GET', path);
      assert.equal(res.status, 422, `GET ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    }
    assert.equal(srv().server.stats().internalErrors, 0);
  });
});
