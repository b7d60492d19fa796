// Annotation review with several reviewers of one workspace (two API keys, two users): statuses, order and
// sections per reviewer, reservations, reviewers per item, assigned reviewers, and the feedback configs the
// rubric scores — through the official client (`client.annotationQueues…`) wherever it has a call.
import assert from 'node:assert/strict';
import type { Client } from 'langsmith';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { buildApp } from '../../server/index';
import { openDatabase } from '../../server/db';
import { client, collect } from './helpers';

type SectionName = 'needs_my_review' | 'needs_others_review' | 'archived';

describe('annotation queues: several reviewers per workspace', () => {
  const srv = withLocalServer();
  const runIds: string[] = [];
  let projectId: string;
  /** User "you" (local-dev-key) and user "reviewer" (local-reviewer-key) of the same workspace. */
  let me: Client;
  let rev: Client;

  before(async () => {
    me = client(srv());
    rev = client(srv(), { apiKey: srv().reviewerApiKey });
    const t0 = Date.now() - 60_000;
    for (let i = 0; i < 3; i++) {
      const id = crypto.randomUUID();
      runIds.push(id);
      await me.createRun({ id, name: `reviewers-run-${i}`, run_type: 'chain', inputs: { i }, project_name: 'aq-reviewers', start_time: t0 + i * 1000 });
    }
    projectId = (await me.readProject({ projectName: 'aq-reviewers' })).id;
  });

  async function queueWith(name: string, settings: Record<string, unknown> = {}) {
    const q = await me.annotationQueues.annotationQueues({ name, ...settings });
    const added = await me.annotationQueues.items.create(q.id, { items: runIds.map((run_id) => ({ run_id, project_id: projectId })) });
    return { queueId: q.id, items: (added.items ?? []).map((i) => i.id!) };
  }

  const list = async (c: Client, queueId: string, status: SectionName) => collect(c.annotationQueues.items.list(queueId, { status }));
  const ids = async (c: Client, queueId: string, status: SectionName) => (await list(c, queueId, status)).map((i) => i.id);
  const counts = async (c: Client, queueId: string) =>
    Promise.all((['all', 'needs_my_review', 'needs_others_review', 'archived'] as const).map(async (status) => (await c.annotationQueues.items.retrieveCount(queueId, { status })).count));

  it('each reviewer has their own status; one Done archives an item of a one-reviewer queue for both', async () => {
    const { queueId, items } = await queueWith('aqr-one', { enable_reservations: false });
    await me.annotationQueues.items.createStatus(items[0]!, { status: 'completed' });
    assert.deepEqual(await ids(me, queueId, 'archived'), [items[0]]);
    assert.deepEqual(await ids(rev, queueId, 'archived'), [items[0]], 'archived is the same for everyone');
    assert.deepEqual(await ids(rev, queueId, 'needs_my_review'), [items[1], items[2]]);
    const [archived] = await list(rev, queueId, 'archived');
    assert.deepEqual(archived!.completed_by, [srv().userId]);
  });

  it('num_reviewers_per_item=2: my Done waits for the other reviewer; both Done archive it; null re-shows it to me only', async () => {
    const { queueId, items } = await queueWith('aqr-two', { num_reviewers_per_item: 2, enable_reservations: false });
    const mine = await me.annotationQueues.items.createStatus(items[0]!, { status: 'completed' });
    assert.deepEqual(mine, { queue_item_id: items[0], status: 'completed', is_archived: false });
    assert.deepEqual(await ids(me, queueId, 'needs_my_review'), [items[1], items[2]]);
    assert.deepEqual(await ids(me, queueId, 'needs_others_review'), [items[0]]);
    assert.deepEqual(await ids(rev, queueId, 'needs_my_review'), items, "another reviewer's Done does not complete it for me");
    assert.deepEqual(await ids(rev, queueId, 'needs_others_review'), []);
    assert.deepEqual(await counts(me, queueId), [3, 2, 1, 0]);
    assert.deepEqual(await counts(rev, queueId), [3, 3, 0, 0]);
    const [waiting] = await list(rev, queueId, 'needs_my_review');
    assert.deepEqual(waiting!.completed_by, [srv().userId], 'completed_by carries user ids');

    const theirs = await rev.annotationQueues.items.createStatus(items[0]!, { status: 'completed' });
    assert.equal(theirs.is_archived, true);
    assert.deepEqual(await ids(me, queueId, 'archived'), [items[0]]);
    assert.deepEqual(await ids(rev, queueId, 'archived'), [items[0]]);
    const [both] = await list(me, queueId, 'archived');
    assert.deepEqual(both!.completed_by, [srv().userId, srv().reviewerUserId]);
    assert.deepEqual(await counts(rev, queueId), [3, 2, 0, 1]);
    // The legacy routes agree.
    assert.deepEqual(await me.annotationQueues.retrieveTotalArchived(queueId), { size: 1 });
    assert.deepEqual(await rev.annotationQueues.retrieveSize(queueId, { status: 'completed' }), { size: 1 });
    const [legacy] = await me.annotationQueues.runs.list(queueId, { archived: true });
    assert.deepEqual(legacy!.completed_by, [srv().userId, srv().reviewerUserId]);

    const reshown = await me.annotationQueues.items.createStatus(items[0]!, {});
    assert.deepEqual(reshown, { queue_item_id: items[0], is_archived: false });
    assert.deepEqual(await ids(me, queueId, 'needs_my_review'), items);
    assert.deepEqual(await ids(rev, queueId, 'needs_others_review'), [items[0]], 'still done by the other reviewer');
    assert.deepEqual((await me.annotationQueues.items.retrievePlacement(items[0]!, { queue_id: queueId })).section, 'needs_my_review');
    assert.deepEqual((await rev.annotationQueues.items.retrievePlacement(items[0]!, { queue_id: queueId })).section, 'needs_others_review');
  });

  it('Requeue (viewed + override_added_at now) moves an item to the end of my order only', async () => {
    const { queueId, items } = await queueWith('aqr-requeue', { enable_reservations: false });
    // A requeue comes after the items were added: in the same millisecond it would tie with the last one added.
    await new Promise((r) => setTimeout(r, 5));
    const now = new Date().toISOString();
    const requeued = await me.annotationQueues.items.createStatus(items[0]!, { status: 'viewed', override_added_at: now });
    assert.deepEqual(requeued, { queue_item_id: items[0], status: 'viewed', is_archived: false, override_added_at: now });
    assert.deepEqual(await ids(me, queueId, 'needs_my_review'), [items[1], items[2], items[0]]);
    assert.deepEqual(await ids(rev, queueId, 'needs_my_review'), items);
    const place = async (c: Client) => (await c.annotationQueues.items.retrievePlacement(items[0]!, { queue_id: queueId })).position;
    assert.deepEqual([await place(me), await place(rev)], [2, 0]);
    const [mineLast] = (await list(me, queueId, 'needs_my_review')).slice(-1);
    assert.equal(mineLast!.effective_added_at, now);
    assert.notEqual((await list(rev, queueId, 'needs_my_review'))[0]!.effective_added_at, now);
    assert.deepEqual((await me.annotationQueues.runs.list(queueId)).map((r) => r.queue_run_id), [items[1], items[2], items[0]], 'the run listing follows my order');
    assert.deepEqual((await rev.annotationQueues.runs.list(queueId)).map((r) => r.queue_run_id), items);
  });

  it('reservations: my viewed hides the item from the other reviewer until it expires or I complete it', async () => {
    const { queueId, items } = await queueWith('aqr-reserve', { num_reviewers_per_item: 2 });
    const q = await me.annotationQueues.retrieve(queueId);
    assert.deepEqual([q.enable_reservations, q.reservation_minutes], [true, 1], "LangSmith's defaults");
    await me.annotationQueues.items.createStatus(items[0]!, { status: 'viewed' });
    assert.deepEqual(await ids(me, queueId, 'needs_my_review'), items, 'my own reservation never hides it from me');
    assert.deepEqual((await list(me, queueId, 'needs_my_review'))[0]!.reserved_by, [srv().userId]);
    assert.deepEqual(await ids(rev, queueId, 'needs_my_review'), [items[1], items[2]]);
    const [held] = await list(rev, queueId, 'needs_others_review');
    assert.deepEqual([held!.id, held!.reserved_by], [items[0], [srv().userId]]);
    assert.deepEqual(await counts(rev, queueId), [3, 2, 1, 0]);
    assert.deepEqual(await rev.annotationQueues.retrieveSize(queueId, { status: 'needs_my_review' }), { size: 2 });
    assert.deepEqual((await rev.annotationQueues.runs.list(queueId, { status: 'needs_others_review' }))[0]!.reserved_by, [srv().userId]);
    assert.equal((await rev.annotationQueues.items.retrievePlacement(items[0]!, { queue_id: queueId })).section, 'needs_others_review');

    // The other reviewer's viewed does not take it over while I hold it.
    await rev.annotationQueues.items.createStatus(items[0]!, { status: 'viewed' });
    assert.deepEqual(await ids(rev, queueId, 'needs_my_review'), [items[1], items[2]]);

    // Expired (checked when read): it is back for the other reviewer.
    srv().server.db.prepare('UPDATE queue_runs SET reserved_until = ? WHERE id = ?').run(new Date(Date.now() - 1000).toISOString(), items[0]);
    assert.deepEqual(await ids(rev, queueId, 'needs_my_review'), items);
    assert.equal((await list(rev, queueId, 'needs_my_review'))[0]!.reserved_by, undefined);

    // I take it again, then complete it: that releases it (the queue wants a second reviewer).
    await me.annotationQueues.items.createStatus(items[0]!, { status: 'viewed' });
    assert.deepEqual(await ids(rev, queueId, 'needs_my_review'), [items[1], items[2]]);
    await me.annotationQueues.items.createStatus(items[0]!, { status: 'completed' });
    assert.deepEqual(await ids(rev, queueId, 'needs_my_review'), items);
    assert.deepEqual(await ids(me, queueId, 'needs_others_review'), [items[0]]);
  });

  it('reservations off: a viewed hides nothing; a short reservation_minutes is stored and answered', async () => {
    const { queueId, items } = await queueWith('aqr-noreserve', { enable_reservations: false });
    await me.annotationQueues.items.createStatus(items[1]!, { status: 'viewed' });
    assert.deepEqual(await ids(rev, queueId, 'needs_my_review'), items);
    await me.annotationQueues.update(queueId, { enable_reservations: true, reservation_minutes: 5 });
    await me.annotationQueues.items.createStatus(items[1]!, { status: 'viewed' });
    assert.deepEqual(await ids(rev, queueId, 'needs_my_review'), [items[0], items[2]]);
    const until = srv().server.db.prepare('SELECT reserved_until FROM queue_runs WHERE id = ?').pluck().get(items[1]) as string;
    const minutes = (Date.parse(until) - Date.now()) / 60_000;
    assert.ok(minutes > 4.5 && minutes <= 5, `reserved for ${minutes} minutes`);
  });

  it('assigned reviewers: stored and answered; with reviewer_access_mode "assigned" only they have items to review', async () => {
    const { queueId, items } = await queueWith('aqr-assigned', { enable_reservations: false });
    const path = `/api/v1/platform/annotation-queues/${queueId}/reviewers`;
    const added = await rawRequest(srv(), 'POST', path, { identity_id: srv().reviewerUserId });
    assert.equal(added.status, 200, added.text);
    assert.deepEqual(added.body, { identity_id: srv().reviewerUserId });
    const q = await me.annotationQueues.retrieve(queueId);
    assert.deepEqual(q.assigned_reviewers, [{ id: srv().reviewerUserId, name: 'reviewer', email: null }]);
    assert.deepEqual(q.reviewer_access_mode, 'any');
    assert.deepEqual(await ids(me, queueId, 'needs_my_review'), items, 'mode "any": everyone reviews');

    await me.annotationQueues.update(queueId, { reviewer_access_mode: 'assigned' });
    assert.deepEqual(await ids(me, queueId, 'needs_my_review'), []);
    assert.deepEqual(await ids(me, queueId, 'needs_others_review'), items);
    assert.deepEqual(await counts(me, queueId), [3, 0, 3, 0]);
    assert.deepEqual(await ids(rev, queueId, 'needs_my_review'), items);
    const mine = await collect(rev.annotationQueues.retrieveAnnotationQueues({ assigned_to_me: true }));
    assert.deepEqual(mine.map((x) => x.id), [queueId]);
    assert.deepEqual(await collect(me.annotationQueues.retrieveAnnotationQueues({ assigned_to_me: true })), []);

    assert.equal((await rawRequest(srv(), 'POST', path, { identity_id: crypto.randomUUID() })).status, 404);
    assert.equal((await rawRequest(srv(), 'POST', path, { identity_id: srv().reviewerUserId }, { apiKey: srv().otherApiKey })).status, 404);
    assert.equal((await rawRequest(srv(), 'POST', path, {})).status, 422);
    assert.equal((await rawRequest(srv(), 'DELETE', `${path}/${srv().reviewerUserId}`)).status, 200);
    assert.deepEqual((await me.annotationQueues.retrieve(queueId)).assigned_reviewers, []);
    assert.equal((await rawRequest(srv(), 'DELETE', `${path}/${srv().reviewerUserId}`)).status, 404);
  });

  it('THREAD items: a conversation thread of a project, reviewed per reviewer like a run', async () => {
    for (let turn = 0; turn < 2; turn++) {
      await me.createRun({
        id: crypto.randomUUID(), name: `turn-${turn}`, run_type: 'chain', inputs: { turn }, project_name: 'aq-reviewers',
        extra: { metadata: { thread_id: 'aqr-thread-1' } }, start_time: Date.now() - 10_000 + turn * 1000,
      });
    }
    const q = await me.annotationQueues.annotationQueues({ name: 'aqr-threads', enable_reservations: false });
    const added = await me.annotationQueues.items.create(q.id, {
      items: [{ item_type: 'THREAD', thread_id: 'aqr-thread-1', project_id: projectId }, { run_id: runIds[0], project_id: projectId }],
    });
    const [thread, run] = added.items!;
    assert.deepEqual([thread!.item_type, thread!.thread_id, thread!.project_id, thread!.run_id], ['THREAD', 'aqr-thread-1', projectId, undefined]);
    const again = await me.annotationQueues.items.create(q.id, { items: [{ item_type: 'THREAD', thread_id: 'aqr-thread-1', project_id: projectId }] });
    assert.equal(again.items![0]!.id, thread!.id, 'a thread is queued once');
    const threads = await collect(me.annotationQueues.items.list(q.id, { status: 'needs_my_review', item_type: 'THREAD' }));
    assert.deepEqual(threads.map((i) => i.id), [thread!.id]);
    const runsOnly = await collect(me.annotationQueues.items.list(q.id, { status: 'needs_my_review', item_type: 'RUN' }));
    assert.deepEqual(runsOnly.map((i) => i.id), [run!.id]);
    await me.annotationQueues.items.createStatus(thread!.id!, { status: 'completed' });
    assert.deepEqual(await ids(me, q.id, 'archived'), [thread!.id]);
    assert.equal((await me.annotationQueues.items.retrievePlacement(thread!.id!, { queue_id: q.id })).item_type, 'THREAD');
    assert.deepEqual((await me.annotationQueues.runs.list(q.id)).map((r) => r.id), [runIds[0]], 'the legacy run routes list runs only');
  });

  it('removing items and queues removes their statuses', async () => {
    const { queueId, items } = await queueWith('aqr-cleanup', { enable_reservations: false });
    await me.annotationQueues.items.createStatus(items[0]!, { status: 'completed' });
    await rev.annotationQueues.items.createStatus(items[1]!, { status: 'viewed' });
    const statuses = () => srv().server.db.prepare('SELECT COUNT(*) FROM queue_item_status WHERE queue_id = ?').pluck().get(queueId);
    assert.equal(statuses(), 2);
    await me.annotationQueues.items.deleteAll(queueId, { item_ids: [items[0]!] });
    assert.equal(statuses(), 1);
    await me.annotationQueues.delete(queueId);
    assert.equal(statuses(), 0);
  });

  it('feedback configs for the rubric: create, list, update and delete in LangSmith shape', async () => {
    const made = await me.createFeedbackConfig({
      feedbackKey: 'aqr-correctness',
      feedbackConfig: { type: 'categorical', categories: [{ value: 0, label: 'incorrect' }, { value: 1, label: 'correct' }] } as never,
    });
    assert.deepEqual(Object.keys(made).sort(), ['feedback_config', 'feedback_key', 'is_lower_score_better', 'modified_at', 'tenant_id']);
    assert.deepEqual([made.feedback_key, made.tenant_id, made.is_lower_score_better], ['aqr-correctness', srv().tenantId, false]);
    await rev.createFeedbackConfig({ feedbackKey: 'aqr-helpfulness', feedbackConfig: { type: 'continuous', min: 0, max: 1 } as never });
    const listed = await collect(me.listFeedbackConfigs({ nameContains: 'aqr-' }));
    assert.deepEqual(listed.map((x) => x.feedback_key), ['aqr-correctness', 'aqr-helpfulness'], 'both users share the workspace configs');
    const updated = await me.updateFeedbackConfig('aqr-helpfulness', { isLowerScoreBetter: true });
    assert.deepEqual([updated.is_lower_score_better, updated.feedback_config], [true, { type: 'continuous', min: 0, max: 1 }]);
    await rev.deleteFeedbackConfig('aqr-helpfulness');
    assert.deepEqual((await collect(me.listFeedbackConfigs({ nameContains: 'aqr-' }))).map((x) => x.feedback_key), ['aqr-correctness']);
    assert.deepEqual(await collect(client(srv(), { apiKey: srv().otherApiKey }).listFeedbackConfigs({ nameContains: 'aqr-' })), [], 'not another workspace');
  });

  it('every answer on these routes is a 2xx or 4xx, never a 500', () => {
    assert.equal(srv().server.stats().internalErrors, 0);
  });
});

describe('annotation queues: statuses kept before there were several reviewers', () => {
  it('become the status of the workspace’s first user when the server starts', () => {
    const db = openDatabase(':memory:');
    try {
      const { ctx } = buildApp(db, { quiet: true });
      const [local] = ctx.tenants;
      const now = new Date().toISOString();
      db.prepare('INSERT INTO annotation_queues (id, tenant_id, name, created_at, updated_at, num_reviewers_per_item) VALUES (?, ?, ?, ?, ?, 1)').run('q1', local!.id, 'old', now, now);
      const item = db.prepare('INSERT INTO queue_runs (id, queue_id, run_id, added_at, status, status_at, override_added_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
      item.run('i1', 'q1', 'r1', now, 'completed', now, null);
      item.run('i2', 'q1', 'r2', now, 'viewed', now, '2030-01-01T00:00:00.000Z');
      buildApp(db, { quiet: true }); // the next start
      const you = ctx.users.find((u) => u.tenant === local && u.name === 'you')!;
      assert.deepEqual(db.prepare('SELECT item_id, user_id, status, override_added_at FROM queue_item_status ORDER BY item_id').all(), [
        { item_id: 'i1', user_id: you.id, status: 'completed', override_added_at: null },
        { item_id: 'i2', user_id: you.id, status: 'viewed', override_added_at: '2030-01-01T00:00:00.000Z' },
      ]);
      assert.deepEqual(db.prepare('SELECT id, status, completed_count FROM queue_runs ORDER BY id').all(), [
        { id: 'i1', status: null, completed_count: 1 },
        { id: 'i2', status: null, completed_count: 0 },
      ]);
    } finally {
      db.close();
    }
  });
});
