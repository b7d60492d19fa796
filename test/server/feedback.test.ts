import assert from 'node:assert/strict';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { client, collect } from './helpers';

describe('feedback, feedback configs and presigned feedback tokens', () => {
  const srv = withLocalServer();
  let runId: string;
  let projectId: string;

  before(async () => {
    const c = client(srv());
    runId = crypto.randomUUID();
    await c.createRun({ id: runId, name: 'judged', run_type: 'llm', inputs: { q: 1 }, project_name: 'fb-project' });
    projectId = (await c.readProject({ projectName: 'fb-project' })).id;
  });

  it('POST /feedback (createFeedback) and GET /feedback/{id}', async () => {
    const c = client(srv());
    const f = await c.createFeedback(runId, 'correctness', { score: 0.8, comment: 'close', value: 'ok', correction: { answer: 2 }, sessionId: projectId } as any);
    const read = await c.readFeedback(f.id);
    assert.equal(read.key, 'correctness');
    assert.equal(read.score, 0.8);
    assert.equal(read.comment, 'close');
    assert.deepEqual(read.correction, { answer: 2 });
    assert.equal(read.run_id, runId);
    assert.equal((read as any).session_id, projectId);
    assert.equal(read.feedback_source?.type, 'api');
    const run = await c.readRun(runId);
    assert.deepEqual(run.feedback_stats?.correctness, { n: 1, avg: 0.8 });
  });

  it('feedback on a project, by evaluators (source model), and the runId/projectId rule', async () => {
    const c = client(srv());
    const f = await c.createFeedback({ projectId, key: 'summary', score: 1, feedbackSourceType: 'model' } as any);
    const read = await c.readFeedback(f.id);
    assert.equal(read.run_id, null);
    assert.equal(read.feedback_source?.type, 'model');
    await assert.rejects(c.createFeedback({ key: 'x' } as any), /One of runId or projectId/);
  });

  it('feedback may arrive before its run (batched tracing) and is linked when the run lands; other tenants’ runs are 404', async () => {
    const c = client(srv());
    const early = crypto.randomUUID();
    const f = await rawRequest(srv(), 'POST', '/feedback', { key: 'early', run_id: early, score: 1 });
    assert.equal(f.status, 200);
    assert.equal(f.body.session_id, null);
    await c.createRun({ id: early, name: 'late run', run_type: 'chain', inputs: {}, project_name: 'fb-project' });
    const linked = await c.readFeedback(f.body.id);
    assert.equal((linked as any).session_id, projectId);
    assert.equal((linked as any).trace_id, early);
    const otherRun = crypto.randomUUID();
    await client(srv(), { apiKey: srv().otherApiKey }).createRun({ id: otherRun, name: 'theirs', run_type: 'chain', inputs: {}, project_name: 'x' });
    assert.equal((await rawRequest(srv(), 'POST', '/feedback', { key: 'x', run_id: otherRun })).status, 404);
  });

  it('accepts feedback_config and feedbackConfig, and checks scores against it', async () => {
    const snake = await rawRequest(srv(), 'POST', '/feedback', { run_id: runId, key: 'rating', score: 4, feedback_config: { type: 'continuous', min: 1, max: 5 } });
    assert.equal(snake.status, 200);
    assert.deepEqual(snake.body.feedback_config, { type: 'continuous', min: 1, max: 5 });
    const c = client(srv());
    const camel = await c.createFeedback(runId, 'stars', { score: 3, feedbackConfig: { type: 'continuous', min: 0, max: 5 }, sessionId: projectId } as any);
    assert.deepEqual(((await c.readFeedback(camel.id)) as any).feedback_config, { type: 'continuous', min: 0, max: 5 });
    const tooHigh = await rawRequest(srv(), 'POST', '/feedback', { run_id: runId, key: 'rating', score: 9, feedback_config: { type: 'continuous', min: 1, max: 5 } });
    assert.equal(tooHigh.status, 400);
    const configs = await rawRequest(srv(), 'GET', '/feedback-configs?key=stars');
    assert.deepEqual(configs.body[0].feedback_config, { type: 'continuous', min: 0, max: 5 });
  });

  it('PATCH, list with filters (run, key, source), DELETE', async () => {
    const c = client(srv());
    const f = await c.createFeedback(runId, 'helpfulness', { score: 0, sessionId: projectId } as any);
    await c.updateFeedback(f.id, { score: 1, comment: 'changed my mind' });
    const read = await c.readFeedback(f.id);
    assert.equal(read.score, 1);
    assert.equal(read.comment, 'changed my mind');
    const byKey = await collect(c.listFeedback({ runIds: [runId], feedbackKeys: ['helpfulness'] }));
    assert.deepEqual(byKey.map((x) => x.id), [f.id]);
    const models = await collect(c.listFeedback({ feedbackSourceTypes: ['model'] }));
    assert.ok(models.length >= 1 && models.every((x) => x.feedback_source?.type === 'model'));
    await c.deleteFeedback(f.id);
    await assert.rejects(c.readFeedback(f.id), /404/);
    const other = client(srv(), { apiKey: srv().otherApiKey });
    assert.equal((await collect(other.listFeedback({ runIds: [runId] }))).length, 0);
  });

  it('feedback tokens: create (default 3 h), list, submit without an API key (POST and GET), expiry', async () => {
    const c = client(srv());
    const t = await c.createPresignedFeedbackToken(runId, 'thumbs', { feedbackConfig: { type: 'categorical', categories: [{ value: 0 }, { value: 1 }] } as any });
    const hours = (Date.parse(t.expires_at as any) - Date.now()) / 3_600_000;
    assert.ok(hours > 2.9 && hours <= 3, `expires in ${hours} h`);
    assert.ok(t.url.startsWith(srv().url));
    const listed = await collect(c.listPresignedFeedbackTokens(runId));
    assert.ok(listed.some((x) => x.id === t.id));
    const post = await fetch(t.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ score: 1, comment: 'from a link' }) });
    assert.equal(post.status, 200);
    const get = await fetch(`${t.url}?score=0`);
    assert.equal(get.status, 200);
    const notACategory = await fetch(`${t.url}?score=7`);
    assert.equal(notACategory.status, 400);
    const thumbs = await collect(c.listFeedback({ runIds: [runId], feedbackKeys: ['thumbs'] }));
    assert.deepEqual(thumbs.map((f) => f.score).sort(), [0, 1]);
    const expired = await c.createPresignedFeedbackToken(runId, 'late', { expiration: new Date(Date.now() - 1000).toISOString() } as any);
    const late = await fetch(expired.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"score": 1}' });
    assert.equal(late.status, 410);
    assert.equal((await collect(c.listFeedback({ runIds: [runId], feedbackKeys: ['late'] }))).length, 0);
    const shortLived = await c.createPresignedFeedbackToken(runId, 'short', { expiration: { minutes: 5 } } as any);
    assert.ok(Date.parse(shortLived.expires_at as any) - Date.now() <= 5 * 60_000);
  });
});
