import assert from 'node:assert/strict';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { client, collect } from './helpers';

describe('fault injection', function () {
  this.timeout(90_000);

  describe('switch', () => {
    const srv = withLocalServer();

    it('PUT /__local/faults changes faults at run time; needs a key; rejects a bad spec', async () => {
      assert.equal((await rawRequest(srv(), 'PUT', '/__local/faults', { faults: '503:1' }, { apiKey: null })).status, 401);
      assert.equal((await rawRequest(srv(), 'PUT', '/__local/faults', { faults: '999:2' })).status, 422);
      const on = await rawRequest(srv(), 'PUT', '/__local/faults', { faults: '503:1' });
      assert.deepEqual(on.body, { faults: '503:1' });
      const hit = await rawRequest(srv(), 'GET', '/datasets');
      assert.equal(hit.status, 503);
      assert.equal(hit.headers.get('retry-after'), '1');
      assert.match(hit.body.detail, /Injected/);
      const plain = await rawRequest(srv(), 'PUT', '/__local/faults', undefined, { rawBody: '429:1', headers: { 'content-type': 'text/plain' } });
      assert.deepEqual(plain.body, { faults: '429:1' });
      assert.equal((await rawRequest(srv(), 'GET', '/datasets')).status, 429);
      await rawRequest(srv(), 'PUT', '/__local/faults', { faults: '' });
      assert.equal((await rawRequest(srv(), 'GET', '/datasets')).status, 200);
    });

    it('after:N lets the next N requests through, then the faults apply', async () => {
      await rawRequest(srv(), 'PUT', '/__local/faults', { faults: 'after:2,503:1,retryAfter:0' });
      assert.equal((await rawRequest(srv(), 'GET', '/datasets')).status, 200);
      assert.equal((await rawRequest(srv(), 'GET', '/datasets')).status, 200);
      assert.equal((await rawRequest(srv(), 'GET', '/datasets')).status, 503);
      assert.equal((await rawRequest(srv(), 'GET', '/datasets')).status, 503);
      // Each switch counts afresh.
      await rawRequest(srv(), 'PUT', '/__local/faults', { faults: 'after:1,503:1' });
      assert.equal((await rawRequest(srv(), 'GET', '/datasets')).status, 200);
      assert.equal((await rawRequest(srv(), 'GET', '/datasets')).status, 503);
      assert.equal((await rawRequest(srv(), 'PUT', '/__local/faults', { faults: 'after:-1,503:1' })).status, 422);
      assert.equal((await rawRequest(srv(), 'PUT', '/__local/faults', { faults: 'after:1.5' })).status, 422);
      await rawRequest(srv(), 'PUT', '/__local/faults', { faults: '' });
    });

    it('reset drops the connection; latency delays the answer', async () => {
      await rawRequest(srv(), 'PUT', '/__local/faults', { faults: 'reset:1' });
      await assert.rejects(fetch(`${srv().url}/datasets`, { headers: { 'x-api-key': srv().apiKey } }));
      await rawRequest(srv(), 'PUT', '/__local/faults', { faults: 'latency:150-200ms' });
      const t0 = Date.now();
      assert.equal((await rawRequest(srv(), 'GET', '/datasets')).status, 200);
      assert.ok(Date.now() - t0 >= 140, `took ${Date.now() - t0} ms`);
      await rawRequest(srv(), 'PUT', '/__local/faults', { faults: '' });
    });

    it('resetAfter carries the write out, then drops the connection: the write is there although the client saw no answer', async () => {
      const before = srv().server.stats().faultsInjected;
      await rawRequest(srv(), 'PUT', '/__local/faults', { faults: 'resetAfter:1' });
      const name = `reset-after-${crypto.randomUUID()}`;
      const id = crypto.randomUUID();
      await assert.rejects(
        fetch(`${srv().url}/datasets`, { method: 'POST', headers: { 'x-api-key': srv().apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ id, name }) }),
        (e: any) => {
          assert.equal(e.name, 'TypeError'); // fetch failed: the socket closed without an answer
          return true;
        },
      );
      // Reads are dropped too (after being answered internally).
      await assert.rejects(fetch(`${srv().url}/datasets?name=${name}`, { headers: { 'x-api-key': srv().apiKey } }));
      await rawRequest(srv(), 'PUT', '/__local/faults', { faults: '' });
      const found = await rawRequest(srv(), 'GET', `/datasets?name=${name}`);
      assert.deepEqual(found.body.map((d: any) => d.id), [id], 'the create was committed once');
      assert.equal(srv().server.stats().faultsInjected - before, 2, 'both drops counted');
      assert.equal(srv().server.stats().internalErrors, 0);
      // One roll per request picks at most one fault, so the probabilities may not add up to more than 1.
      assert.equal((await rawRequest(srv(), 'PUT', '/__local/faults', { faults: 'resetAfter:0.6,reset:0.5' })).status, 422, 'probabilities above 1 in total');
      assert.equal((await rawRequest(srv(), 'PUT', '/__local/faults', { faults: 'resetAfter:-1' })).status, 422);
    });

    it('retryAfter sets the Retry-After of injected 429 and 503 answers', async () => {
      await rawRequest(srv(), 'PUT', '/__local/faults', { faults: '429:1,retryAfter:0.02' });
      const hit = await rawRequest(srv(), 'GET', '/datasets');
      assert.equal(hit.status, 429);
      assert.equal(hit.headers.get('retry-after'), '0.02');
      await rawRequest(srv(), 'PUT', '/__local/faults', { faults: 'retryAfter:0' });
      assert.equal((await rawRequest(srv(), 'GET', '/datasets')).status, 200, 'retryAfter alone injects nothing');
      assert.equal((await rawRequest(srv(), 'PUT', '/__local/faults', { faults: '503:1,retryAfter:soon' })).status, 422);
      await rawRequest(srv(), 'PUT', '/__local/faults', { faults: '' });
    });
  });

  describe('the official client completes a scenario through faults', () => {
    const srv = withLocalServer({ faults: '429:0.05,503:0.05,reset:0.04,latency:1-15ms' });

    it('datasets, examples, runs, feedback, queue, prompt — all land exactly once', async () => {
      const c = client(srv());
      const ds = await c.createDataset('faulty-ds');
      // Many small calls in parallel, so retries (1–2 s backoff) overlap.
      const created = await Promise.all(
        Array.from({ length: 25 }, (_, i) => c.createExamples([{ id: crypto.randomUUID(), dataset_id: ds.id, inputs: { i } }])),
      );
      const project = await c.createProject({ projectName: 'faulty-project', upsert: true });
      const runIds = Array.from({ length: 25 }, () => crypto.randomUUID());
      await Promise.all(runIds.map((id, i) => c.createRun({ id, name: `r${i}`, run_type: 'chain', inputs: { i }, session_id: project.id } as any)));
      await Promise.all(runIds.map((id) => c.updateRun(id, { outputs: { ok: true }, end_time: Date.now() })));
      await Promise.all(runIds.map((id) => c.createFeedback(id, 'score', { score: 1, feedbackId: crypto.randomUUID(), sessionId: project.id } as any)));
      const queue = await c.createAnnotationQueue({ name: 'faulty-queue', queueId: crypto.randomUUID() });
      await c.addRunsToAnnotationQueue(queue.id, runIds.slice(0, 10));
      await c.createPrompt('faulty-prompt');
      await c.pushPrompt('faulty-prompt', { object: { lc: 1, type: 'constructor', id: ['x'], kwargs: { template: 'hi' } } });

      // Everything is there, once.
      assert.equal(created.length, 25);
      assert.equal((await collect(c.listExamples({ datasetId: ds.id }))).length, 25);
      const runs = await collect(c.listRuns({ projectId: project.id }));
      assert.equal(runs.length, 25);
      assert.ok(runs.every((r) => r.status === 'success'));
      assert.equal((await collect(c.listFeedback({ runIds }))).length, 25);
      assert.deepEqual(await c.getSizeFromAnnotationQueue(queue.id), { size: 10 });
      assert.equal((await collect(c.listCommits('faulty-prompt'))).length, 1);
      const stats = srv().server.stats();
      assert.ok(stats.faultsInjected > 0, 'faults were injected and retried through');
      assert.equal(stats.internalErrors, 0);
    });
  });
});
