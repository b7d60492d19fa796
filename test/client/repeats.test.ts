/**
 * Creates that are repeated after their first answer was lost, against the real local server. The
 * request reaches the server and is carried out, but the client is told 502 (as when a proxy drops the
 * answer), so it repeats the create and meets its own object: the answer must be that object, made once.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { LangSmithConflictError, type LangSmithClient } from '../../src/client';
import { clientFor, startLocal, unique, type TestServer } from './_server';

/** A fetch that carries out every request but answers the first POST to `path` with a 502. */
function losingFirstAnswer(path: string) {
  const posts: string[] = [];
  let lost = false;
  const f = (async (input: string | URL | Request, init?: RequestInit) => {
    const res = await fetch(input, init);
    const url = new URL(String(input));
    if (init?.method === 'POST' && url.pathname === path) {
      posts.push(url.pathname);
      if (!lost) {
        lost = true;
        await res.arrayBuffer();
        return new Response('{"detail":"answer lost on the way"}', { status: 502, statusText: 'Bad Gateway' });
      }
    }
    return res;
  }) as typeof fetch;
  return { f, posts };
}

describe('client: creates repeated after a lost answer (real local server)', () => {
  let srv: TestServer;
  let c: LangSmithClient;
  before(async () => {
    srv = await startLocal();
    c = clientFor(srv);
  });
  after(() => srv.close());

  const lossy = (path: string) => {
    const { f, posts } = losingFirstAnswer(path);
    return { client: clientFor(srv, { fetch: f }), posts };
  };

  for (const callerId of [false, true]) {
    const idText = callerId ? 'the caller’s id' : 'a generated id';

    it(`project with ${idText}: the repeat’s conflict is answered with the project, made once`, async () => {
      const { client, posts } = lossy('/sessions');
      const name = unique('repeat-project');
      const p = await client.projects.create({ name, ...(callerId ? { id: randomUUID() } : {}) });
      assert.equal(posts.length, 2, 'sent, lost, repeated');
      assert.equal(p.name, name);
      const listed = [];
      for await (const x of c.projects.list({ name })) listed.push(x.id);
      assert.deepEqual(listed, [p.id]);
    });

    it(`dataset with ${idText}: the repeat’s conflict is answered with the dataset, made once`, async () => {
      const { client, posts } = lossy('/datasets');
      const name = unique('repeat-dataset');
      const d = await client.datasets.create({ name, ...(callerId ? { id: randomUUID() } : {}) });
      assert.equal(posts.length, 2);
      assert.equal(d.name, name);
      const listed = [];
      for await (const x of c.datasets.list({ name })) listed.push(x.id);
      assert.deepEqual(listed, [d.id]);
    });

    it(`feedback with ${idText}: the repeat’s conflict is answered with the feedback, made once`, async () => {
      const project = await c.projects.create({ name: unique('repeat-fb') });
      const { client, posts } = lossy('/feedback');
      const key = unique('repeat-key');
      const fb = await client.feedback.create({ projectId: project.id, key, score: 1, ...(callerId ? { feedbackId: randomUUID() } : {}) });
      assert.equal(posts.length, 2);
      assert.equal(fb.key, key);
      const listed = [];
      for await (const x of c.feedback.list({ feedbackKeys: [key] })) listed.push(x.id);
      assert.deepEqual(listed, [fb.id]);
    });

    it(`annotation queue with ${idText}: the repeat’s conflict is answered with the queue, made once`, async () => {
      const { client, posts } = lossy('/annotation-queues');
      const name = unique('repeat-queue');
      const q = await client.annotationQueues.create({ name, ...(callerId ? { queueId: randomUUID() } : {}) });
      assert.equal(posts.length, 2);
      assert.equal(q.name, name);
      const listed = [];
      for await (const x of c.annotationQueues.list({ name })) listed.push(x.id);
      assert.deepEqual(listed, [q.id]);
    });

    it(`comparative experiment with ${idText}: the repeat’s conflict is answered with the comparison, made once`, async () => {
      const ds = await c.datasets.create({ name: unique('repeat-ref') });
      const e1 = await c.projects.create({ name: unique('exp'), referenceDatasetId: ds.id });
      const { client, posts } = lossy('/datasets/comparative');
      const name = unique('repeat-cmp');
      const cmp = await client.comparativeExperiments.create({ name, experimentIds: [e1.id], ...(callerId ? { id: randomUUID() } : {}) });
      assert.equal(posts.length, 2);
      assert.equal(cmp.name, name);
      const res = await fetch(`${srv.url}/datasets/${ds.id}/comparative`, { headers: { 'x-api-key': srv.apiKey } });
      const all = (await res.json()) as { id: string }[];
      assert.deepEqual(all.map((x) => x.id), [cmp.id]);
    });
  }

  it('a caller’s id that already names something is a conflict, not taken for our own create', async () => {
    const first = await c.datasets.create({ name: unique('taken') });
    await assert.rejects(c.datasets.create({ name: unique('other'), id: first.id }), LangSmithConflictError);
    const project = await c.projects.create({ name: unique('taken') });
    await assert.rejects(c.projects.create({ name: unique('other'), id: project.id }), LangSmithConflictError);
    const queue = await c.annotationQueues.create({ name: unique('taken') });
    await assert.rejects(c.annotationQueues.create({ name: unique('other'), queueId: queue.id }), LangSmithConflictError);
  });

  it('a name that is taken stays a conflict although the id was generated', async () => {
    const name = unique('same-name');
    await c.datasets.create({ name });
    await assert.rejects(c.datasets.create({ name }), LangSmithConflictError);
  });
});
