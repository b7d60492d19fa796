import assert from 'node:assert/strict';
import { LangSmithClient, LangSmithNotFoundError, LangSmithValidationError, collect } from '../../src/client';
import { withLocalServer } from '../harness/localServer';
import { clientFor, unique } from './_server';

describe('client ↔ local server: feedback', () => {
  const srv = withLocalServer();
  let c: LangSmithClient;
  let runId: string;
  let projectId: string;
  before(async () => {
    c = clientFor(srv());
    const projectName = unique('fb');
    const t = new LangSmithClient({ apiUrl: srv().url, apiKey: srv().apiKey, tracing: { manualFlush: true, projectName } });
    const r = t.tracing.startRun({ name: 'scored', inputs: {} }).end({ outputs: {} }).post();
    await t.tracing.flush();
    runId = r.id;
    projectId = (await c.projects.read({ projectName })).id;
  });

  it('creates feedback on a run (source api by default) and on a project, reads, updates, lists and deletes it', async () => {
    const fb = await c.feedback.create({ runId, key: 'correctness', score: 1, comment: 'good', value: 'yes', correction: { fixed: true } });
    assert.equal(fb.run_id, runId);
    assert.equal(fb.feedback_source?.type, 'api');
    const model = await c.feedback.create({
      runId,
      key: 'helpfulness',
      score: 0.5,
      feedbackSourceType: 'model',
      sourceInfo: { evaluator: 'x' },
      feedbackConfig: { type: 'continuous', min: 0, max: 1 },
    });
    assert.equal(model.feedback_source?.type, 'model');
    const onProject = await c.feedback.create({ projectId, key: 'summary', score: 0 });
    assert.equal(onProject.session_id, projectId);
    assert.equal((await c.feedback.read(fb.id)).comment, 'good');
    const u = await c.feedback.update(fb.id, { score: 0, comment: 'changed' });
    assert.equal(u.score, 0);
    assert.equal(u.comment, 'changed');
    const forRun = await collect(c.feedback.list({ runIds: [runId] }));
    assert.deepEqual(forRun.map((f) => f.key).sort(), ['correctness', 'helpfulness']);
    assert.equal((await collect(c.feedback.list({ runIds: [runId], feedbackKeys: ['helpfulness'] }))).length, 1);
    assert.equal((await collect(c.feedback.list({ runIds: [runId], feedbackSourceTypes: ['model'] }))).length, 1);
    await c.feedback.delete(fb.id);
    await assert.rejects(c.feedback.read(fb.id), LangSmithNotFoundError);
  });

  it('needs exactly one of runId and projectId', async () => {
    await assert.rejects(c.feedback.create({ key: 'k' }), (e: unknown) => {
      assert.ok(e instanceof LangSmithValidationError);
      assert.equal(e.message, 'One of runId or projectId must be provided');
      return true;
    });
    await assert.rejects(c.feedback.create({ key: 'k', runId, projectId }), { message: 'Only one of runId or projectId can be provided' });
  });

  it('creates presigned feedback tokens: 3 hours by default, or a given moment or duration; lists them', async () => {
    const t0 = Date.now();
    const tok = await c.feedback.createToken({ runId, feedbackKey: 'thumbs' });
    assert.ok(tok.url.includes(tok.id));
    const hours = (new Date(tok.expires_at!).getTime() - t0) / 3_600_000;
    assert.ok(hours > 2.9 && hours < 3.1, `expires in ${hours} h`);
    const at = new Date(Date.now() + 60 * 60_000);
    const tokAt = await c.feedback.createToken({ runId, feedbackKey: 'thumbs', expiration: at });
    assert.ok(Math.abs(new Date(tokAt.expires_at!).getTime() - at.getTime()) < 2000);
    const tokDays = await c.feedback.createToken({ runId, feedbackKey: 'stars', expiration: { days: 1 }, feedbackConfig: { type: 'continuous', min: 1, max: 5 } });
    const days = (new Date(tokDays.expires_at!).getTime() - t0) / 86_400_000;
    assert.ok(days > 0.99 && days < 1.01);
    const listed = await collect(c.feedback.listTokens({ runId }));
    assert.deepEqual(listed.map((x) => x.id).sort(), [tok.id, tokAt.id, tokDays.id].sort());
    // The link accepts feedback without an API key.
    const res = await fetch(`${tok.url}?score=1`, { method: 'GET' });
    assert.ok(res.ok, `token submit answered ${res.status}`);
    assert.equal((await collect(c.feedback.list({ runIds: [runId], feedbackKeys: ['thumbs'] }))).length, 1);
  });
});
