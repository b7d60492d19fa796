/**
 * Creates that are repeated after their first answer was lost, against the real local server. The
 * request reaches the server and is carried out, but the client is told 502 (as when a proxy drops the
 * answer), so it repeats the create and meets its own object: the answer must be that object, made once.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { LangSmithConflictError, collect, type LangSmithClient } from '../../src/client';
import { rawRequest } from '../harness/http';
import { withLocalServer } from '../harness/localServer';
import { clientFor, unique } from './_server';

/**
 * A fetch to the real server that spoils the first POST to `path`: 'lost' carries it out and answers 502
 * (a proxy dropped the answer), 'dropped' carries it out and fails as a broken connection does, and
 * 'refused' answers 429 without carrying it out (the server did nothing).
 */
function spoilingFirstPost(path: string, how: 'lost' | 'dropped' | 'refused' = 'lost') {
  const posts: string[] = [];
  let spoiled = false;
  const f = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const first = init?.method === 'POST' && url.pathname === path && !spoiled;
    if (init?.method === 'POST' && url.pathname === path) posts.push(url.pathname);
    if (first) spoiled = true;
    if (first && how === 'refused') return new Response('{"detail":"slow down"}', { status: 429, statusText: 'Too Many Requests' });
    const res = await fetch(input, init);
    if (!first) return res;
    await res.arrayBuffer();
    if (how === 'dropped') throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    return new Response('{"detail":"answer lost on the way"}', { status: 502, statusText: 'Bad Gateway' });
  }) as typeof fetch;
  return { f, posts };
}

describe('client: creates repeated after a lost answer (real local server)', () => {
  const srv = withLocalServer();
  let c: LangSmithClient;
  before(() => {
    c = clientFor(srv());
  });

  const lossy = (path: string, how: 'lost' | 'dropped' | 'refused' = 'lost') => {
    const { f, posts } = spoilingFirstPost(path, how);
    return { client: clientFor(srv(), { fetch: f }), posts };
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
      const res = await rawRequest(srv(), 'GET', `/datasets/${ds.id}/comparative`);
      const all = res.body as { id: string }[];
      assert.deepEqual(all.map((x) => x.id), [cmp.id]);
    });
  }

  it('a broken connection after the create was carried out: the repeat answers with the object, for a caller’s id too', async () => {
    const { client, posts } = lossy('/datasets', 'dropped');
    const name = unique('dropped');
    const id = randomUUID();
    const d = await client.datasets.create({ name, id });
    assert.equal(posts.length, 2);
    assert.deepEqual([d.id, d.name], [id, name]);
    const ex = lossy('/v1/platform/datasets/' + d.id + '/examples', 'dropped');
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const made = await ex.client.examples.create({ datasetId: d.id, examples: ids.map((i, n) => ({ id: i, inputs: { n } })) });
    assert.equal(ex.posts.length, 2);
    assert.equal(made.count, 3);
    assert.deepEqual((await collect(c.examples.list({ datasetId: d.id }))).map((e) => e.id).sort(), [...ids].sort());
  });

  for (const how of ['lost', 'dropped'] as const) {
    it(`a commit whose answer was ${how}: the repeat is refused as "nothing to commit" and read back as ours, made once`, async () => {
      const name = unique('repeat-commit');
      const manifest = (text: string) => ({ lc: 1, type: 'constructor', id: ['langchain', 'prompts', 'prompt', 'PromptTemplate'], kwargs: { template: text, input_variables: [], template_format: 'f-string' } });
      await c.prompts.push(name, { manifest: manifest('first') });
      const { client, posts } = lossy(`/commits/-/${name}`, how);
      const url = await client.prompts.push(name, { manifest: manifest('second') });
      assert.equal(posts.length, 2, 'sent, its answer spoiled, repeated');
      const commits = await collect(c.prompts.listCommits(name));
      assert.equal(commits.length, 2, 'one commit per push');
      assert.ok(url.includes(commits[0]!.commit_hash.slice(0, 8)), `${url} names the new commit ${commits[0]!.commit_hash}`);
      assert.deepEqual((commits[0]!.manifest as { kwargs: { template: string } }).kwargs.template, 'second');
      assert.equal(commits[0]!.parent_commit_hash, commits[1]!.commit_hash);
    });
  }

  it('a new prompt whose create answer was dropped: the repeat finds the empty repository and the push goes on', async () => {
    const name = unique('repeat-repo');
    const { client, posts } = lossy('/repos/', 'dropped');
    await client.prompts.push(name, { description: 'made once', manifest: { lc: 1, type: 'constructor', id: ['langchain', 'prompts', 'prompt', 'PromptTemplate'], kwargs: { template: 'x', input_variables: [], template_format: 'f-string' } } });
    assert.equal(posts.length, 2);
    assert.equal((await c.prompts.get(name))?.description, 'made once');
    assert.equal((await collect(c.prompts.listCommits(name))).length, 1);
    // Someone else's repository of that name (with commits) is not taken for ours.
    const { client: again } = lossy('/repos/', 'dropped');
    await assert.rejects(again.prompts.create(name), LangSmithConflictError);
  });

  it('a commit refused as "nothing to commit" on its first attempt stays a conflict', async () => {
    const name = unique('same-commit');
    const manifest = { lc: 1, type: 'constructor', id: ['langchain', 'prompts', 'prompt', 'PromptTemplate'], kwargs: { template: 'same', input_variables: [], template_format: 'f-string' } };
    await c.prompts.push(name, { manifest });
    await assert.rejects(c.prompts.push(name, { manifest }), LangSmithConflictError);
  });

  it('a caller’s id that already names something is a conflict, not taken for our own create', async () => {
    const first = await c.datasets.create({ name: unique('taken') });
    await assert.rejects(c.datasets.create({ name: unique('other'), id: first.id }), LangSmithConflictError);
    const project = await c.projects.create({ name: unique('taken') });
    await assert.rejects(c.projects.create({ name: unique('other'), id: project.id }), LangSmithConflictError);
    const queue = await c.annotationQueues.create({ name: unique('taken') });
    await assert.rejects(c.annotationQueues.create({ name: unique('other'), queueId: queue.id }), LangSmithConflictError);
    const fb = await c.feedback.create({ projectId: project.id, key: unique('k') });
    await assert.rejects(c.feedback.create({ projectId: project.id, key: unique('k'), feedbackId: fb.id }), LangSmithConflictError);
    const e1 = await c.projects.create({ name: unique('exp'), referenceDatasetId: first.id });
    const cmp = await c.comparativeExperiments.create({ name: unique('cmp'), experimentIds: [e1.id] });
    await assert.rejects(c.comparativeExperiments.create({ name: unique('cmp'), experimentIds: [e1.id], id: cmp.id }), LangSmithConflictError);
    const ex = (await c.examples.create({ datasetId: first.id, examples: [{ inputs: { a: 1 } }] })).example_ids[0]!;
    await assert.rejects(c.examples.create({ datasetId: first.id, examples: [{ id: ex, inputs: { a: 2 } }] }), LangSmithConflictError);
  });

  it('a 429 (the server did nothing) followed by a conflict on a caller’s id that was taken stays a conflict', async () => {
    const taken = await c.datasets.create({ name: unique('taken-429') });
    const { client, posts } = lossy('/datasets', 'refused');
    await assert.rejects(client.datasets.create({ name: unique('other'), id: taken.id }), LangSmithConflictError);
    assert.equal(posts.length, 2, 'refused, then repeated');
    const d = await c.datasets.create({ name: unique('ex-429') });
    const ex = (await c.examples.create({ datasetId: d.id, examples: [{ inputs: { a: 1 } }] })).example_ids[0]!;
    const refused = lossy(`/v1/platform/datasets/${d.id}/examples`, 'refused');
    await assert.rejects(refused.client.examples.create({ datasetId: d.id, examples: [{ id: ex, inputs: { a: 2 } }] }), LangSmithConflictError);
    assert.equal(refused.posts.length, 2);
  });

  it('reads a comparative experiment back by a caller’s id given in capitals', async () => {
    const ds = await c.datasets.create({ name: unique('caps-ref') });
    const e1 = await c.projects.create({ name: unique('exp'), referenceDatasetId: ds.id });
    const { client } = lossy('/datasets/comparative');
    const id = randomUUID();
    const cmp = await client.comparativeExperiments.create({ name: unique('caps'), experimentIds: [e1.id], id: id.toUpperCase() });
    assert.equal(cmp.id, id);
  });

  it('a name that is taken stays a conflict although the id was generated', async () => {
    const name = unique('same-name');
    await c.datasets.create({ name });
    await assert.rejects(c.datasets.create({ name }), LangSmithConflictError);
  });
});
