// Feedback as LangSmith's OpenAPI and the official client describe it: the listing's filters, feedback
// configs that upsert only an identical config, status codes, and the fields a feedback answers with.
import assert from 'node:assert/strict';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { client, collect, sleep } from './helpers';

describe('feedback as LangSmith answers it: filters, configs, tokens, shapes', () => {
  const srv = withLocalServer();
  let rootId: string;
  let childId: string;
  let projectId: string;

  before(async () => {
    const c = client(srv());
    rootId = crypto.randomUUID();
    childId = crypto.randomUUID();
    await c.createRun({ id: rootId, name: 'root', run_type: 'chain', inputs: {}, project_name: 'fbl-project' });
    await c.createRun({ id: childId, name: 'child', run_type: 'llm', inputs: {}, project_name: 'fbl-project', parent_run_id: rootId, trace_id: rootId } as never);
    projectId = (await c.readProject({ projectName: 'fbl-project' })).id;
  });

  it('GET /feedback: has_comment, has_score, level, min/max_created_at; limit above 100 is a 422', async () => {
    const c = client(srv());
    const key = 'fbl-filter';
    const scored = await c.createFeedback(rootId, key, { score: 1, sessionId: projectId });
    const commented = await c.createFeedback(rootId, key, { comment: 'words', sessionId: projectId });
    await sleep(5);
    const cut = new Date().toISOString();
    await sleep(5);
    const onProject = await c.createFeedback({ projectId, key, score: 0 });
    const ids = async (qs: string) => {
      const res = await rawRequest(srv(), 'GET', `/feedback?key=${key}&${qs}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.body as Array<{ id: string }>).map((f) => f.id).sort();
    };
    assert.deepEqual(await ids('has_score=true'), [scored.id, onProject.id].sort());
    assert.deepEqual(await ids('has_score=false'), [commented.id]);
    assert.deepEqual(await ids('has_comment=true'), [commented.id]);
    assert.deepEqual(await ids('has_comment=false'), [scored.id, onProject.id].sort());
    assert.deepEqual(await ids('level=session'), [onProject.id]);
    assert.deepEqual(await ids('level=run'), [scored.id, commented.id].sort());
    assert.deepEqual(await ids(`min_created_at=${encodeURIComponent(cut)}`), [onProject.id]);
    assert.deepEqual(await ids(`max_created_at=${encodeURIComponent(cut)}`), [scored.id, commented.id].sort());
    assert.equal((await rawRequest(srv(), 'GET', '/feedback?level=trace')).status, 422);
    assert.equal((await rawRequest(srv(), 'GET', '/feedback?min_created_at=yesterday')).status, 422);
    assert.equal((await rawRequest(srv(), 'GET', '/feedback?limit=101')).status, 422);
    // The official client's listing still sees them all (it pages by 100).
    assert.equal((await collect(c.listFeedback({ feedbackKeys: [key] }))).length, 3);
  });

  it('a feedback answers every FeedbackSchema field (unset ones null) and is_root for a root run', async () => {
    const c = client(srv());
    const onRoot = await c.createFeedback(rootId, 'fbl-shape', { score: 1, sessionId: projectId });
    const onChild = await c.createFeedback(childId, 'fbl-shape', { score: 1, sessionId: projectId });
    const root = (await c.readFeedback(onRoot.id)) as unknown as Record<string, unknown>;
    for (const f of ['feedback_group_id', 'start_time', 'extra', 'feedback_thread_id', 'comment', 'correction', 'value', 'comparative_experiment_id'])
      assert.ok(f in root && root[f] === null, `${f} is null`);
    assert.equal(root.is_root, true);
    assert.equal(((await c.readFeedback(onChild.id)) as unknown as Record<string, unknown>).is_root, false);
    const created = await rawRequest(srv(), 'POST', '/feedback', { run_id: rootId, key: 'fbl-shape' });
    assert.equal(created.status, 200);
    assert.equal(created.body.is_root, true);
    assert.equal(created.body.feedback_group_id, null);
  });

  it('unknown and mistyped fields are a 422 that names them', async () => {
    const unknown = await rawRequest(srv(), 'POST', '/feedback', { run_id: rootId, key: 'k', colour: 'red' });
    assert.equal(unknown.status, 422);
    assert.match(unknown.body.detail, /body: unknown field "colour"/);
    const mistyped = await rawRequest(srv(), 'POST', '/feedback', { run_id: rootId, key: 'k', score: 'high' });
    assert.equal(mistyped.status, 422);
    assert.match(mistyped.body.detail, /body\.score/);
    const badPatch = await rawRequest(srv(), 'PATCH', `/feedback/${crypto.randomUUID()}`, { comment: 5 });
    assert.equal(badPatch.status, 422);
    assert.match(badPatch.body.detail, /body\.comment/);
    const badToken = await rawRequest(srv(), 'POST', '/feedback/tokens', { run_id: rootId });
    assert.equal(badToken.status, 422);
    assert.match(badToken.body.detail, /body\.feedback_key/);
  });

  it('feedback configs: create upserts only an identical config (a different one is a 400), update, list, delete (204)', async () => {
    const c = client(srv());
    const cfg = { type: 'continuous' as const, min: 0, max: 10 };
    const made = await c.createFeedbackConfig({ feedbackKey: 'fbl-cfg', feedbackConfig: cfg as never });
    assert.deepEqual(made.feedback_config, cfg);
    assert.equal(made.is_lower_score_better, false);
    const again = await c.createFeedbackConfig({ feedbackKey: 'fbl-cfg', feedbackConfig: { max: 10, min: 0, type: 'continuous' } as never });
    assert.equal(again.modified_at, made.modified_at, 'the identical config comes back unchanged');
    await assert.rejects(c.createFeedbackConfig({ feedbackKey: 'fbl-cfg', feedbackConfig: { type: 'continuous', min: 0, max: 5 } as never }), /400/);
    await assert.rejects(c.createFeedbackConfig({ feedbackKey: 'fbl-cfg', feedbackConfig: cfg as never, isLowerScoreBetter: true }), /400/);
    assert.deepEqual((await collect(c.listFeedbackConfigs({ feedbackKeys: ['fbl-cfg'] }))).map((x) => x.feedback_config), [cfg]);

    const updated = await c.updateFeedbackConfig('fbl-cfg', { isLowerScoreBetter: true });
    assert.equal(updated.is_lower_score_better, true);
    assert.deepEqual(updated.feedback_config, cfg);

    const del = await rawRequest(srv(), 'DELETE', '/feedback-configs?feedback_key=fbl-cfg');
    assert.equal(del.status, 204);
    assert.equal(del.body, undefined);
    assert.equal((await collect(c.listFeedbackConfigs({ feedbackKeys: ['fbl-cfg'] }))).length, 0);
    await c.createFeedbackConfig({ feedbackKey: 'fbl-cfg2', feedbackConfig: { type: 'freeform' } as never });
    await c.deleteFeedbackConfig('fbl-cfg2');
    await assert.rejects(c.deleteFeedbackConfig('fbl-cfg2'), /404/);
  });

  it('POST /feedback/tokens is a 200: one token for one request, a list for a list', async () => {
    const one = await rawRequest(srv(), 'POST', '/feedback/tokens', { run_id: rootId, feedback_key: 'fbl-tok' });
    assert.equal(one.status, 200);
    assert.deepEqual(Object.keys(one.body).sort(), ['expires_at', 'feedback_key', 'id', 'url']);
    const many = await rawRequest(srv(), 'POST', '/feedback/tokens', [
      { run_id: rootId, feedback_key: 'fbl-tok-a' },
      { run_id: childId, feedback_key: 'fbl-tok-b', expires_in: { minutes: 1 } },
    ]);
    assert.equal(many.status, 200);
    assert.deepEqual(many.body.map((t: { feedback_key: string }) => t.feedback_key), ['fbl-tok-a', 'fbl-tok-b']);
    const badItem = await rawRequest(srv(), 'POST', '/feedback/tokens', [{ run_id: rootId, feedback_key: 'x' }, { run_id: 'nope', feedback_key: 'y' }]);
    assert.equal(badItem.status, 422);
    assert.match(badItem.body.detail, /body\.1\.run_id/);
    const c = client(srv());
    const t = await c.createPresignedFeedbackToken(childId, 'fbl-tok-client');
    assert.ok((await collect(c.listPresignedFeedbackTokens(childId))).some((x) => x.id === t.id));
  });

  it("a shared trace's feedback: filters by key, source, has_score and has_comment", async () => {
    const c = client(srv());
    const shareUrl = await c.shareRun(rootId);
    const token = shareUrl.split('/public/')[1].split('/')[0];
    const a = await c.createFeedback(childId, 'fbl-pub', { score: 1, sessionId: projectId });
    const b = await c.createFeedback(rootId, 'fbl-pub', { comment: 'only words', sessionId: projectId, feedbackSourceType: 'model' });
    const ids = async (qs: string) => {
      const res = await rawRequest(srv(), 'GET', `/public/${token}/feedbacks?key=fbl-pub&${qs}`, undefined, { apiKey: null });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.body as Array<{ id: string }>).map((f) => f.id).sort();
    };
    assert.deepEqual(await ids(''), [a.id, b.id].sort());
    assert.deepEqual(await ids('has_score=true'), [a.id]);
    assert.deepEqual(await ids('has_comment=true'), [b.id]);
    assert.deepEqual(await ids('source=model'), [b.id]);
    assert.deepEqual(await ids(`run=${childId}`), [a.id]);
    assert.equal((await rawRequest(srv(), 'GET', `/public/${token}/feedbacks?limit=101`, undefined, { apiKey: null })).status, 422, 'at most 100, as in LangSmith');
  });
});
