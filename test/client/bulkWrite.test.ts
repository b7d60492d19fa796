/**
 * A bulk write that stops part-way (issue 28), against the real local server with injected faults: the error
 * says what landed and what did not, and its retry() finishes the write with no example created twice; a
 * batch that only meets retryable statuses is retried for the call's timeout (honouring Retry-After), not a
 * fixed number of times.
 */
import assert from 'node:assert/strict';
import { LangSmithPartialWriteError, collect, type ExamplesCreated, type LangSmithClient } from '../../src/client';
import { withLocalServer } from '../harness/localServer';
import { clientFor, fakeClock, setFaults, unique } from './_server';

/** A fetch to the real server that notes each example-batch POST and, before the `nth`, turns faults on. */
function faultingFetch(srv: () => Parameters<typeof setFaults>[0], nth: number, spec: string, now: () => number = Date.now) {
  const posts: number[] = [];
  const f = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    if (init?.method === 'POST' && /\/platform\/datasets\/[^/]+\/examples$/.test(url.pathname)) {
      posts.push(now());
      if (posts.length === nth) await setFaults(srv(), spec);
    }
    return fetch(input, init);
  }) as typeof fetch;
  return { fetch: f, posts };
}

async function partialFailure(p: Promise<unknown>): Promise<LangSmithPartialWriteError<ExamplesCreated>> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof LangSmithPartialWriteError, `expected a partial write error, got ${String(e)}`);
    return e as LangSmithPartialWriteError<ExamplesCreated>;
  }
  assert.fail('the write did not fail');
}

describe('client ↔ local server: a bulk write that fails part-way', () => {
  const srv = withLocalServer();
  afterEach(() => setFaults(srv(), ''));

  async function serverInputs(c: LangSmithClient, datasetId: string): Promise<number[]> {
    const all = await collect(c.examples.list({ datasetId, select: ['id', 'inputs'] }));
    return all.map((e) => (e.inputs as { i: number }).i).sort((a, b) => a - b);
  }

  it('says what landed and what did not, and retry() finishes it with no duplicate (answers lost after the work)', async () => {
    // Batches 1 and 2 land; from batch 3 on, every request is carried out but its answer is lost.
    const wire = faultingFetch(srv, 3, 'resetAfter:1');
    const c = clientFor(srv(), { fetch: wire.fetch, timeoutMs: 1500 });
    const plain = clientFor(srv());
    const ds = await plain.datasets.create({ name: unique('partial') });
    const examples = Array.from({ length: 50 }, (_, i) => ({ inputs: { i } }));

    const err = await partialFailure(c.examples.create({ datasetId: ds.id, examples, batchSize: 10, concurrency: 1 }));
    assert.match(err.message, /^Failed to create examples: /);
    assert.match(err.message, /20 of 50 done before the failure; retry\(\) finishes the rest without duplicates\./);
    assert.equal(err.done, 20);
    assert.equal(err.total, 50);
    assert.equal(err.landedIds.length, 20);
    // Batch 3 (sent, its outcome unknown) and the first example of batch 4 (read to close batch 3).
    assert.equal(err.pendingIds.length, 11);
    assert.equal(new Set([...err.landedIds, ...err.pendingIds]).size, 31);

    await setFaults(srv(), '');
    // Batch 3 did land: the server has 30, and the error's landed ids are among them.
    const landedSoFar = await collect(plain.examples.list({ datasetId: ds.id, select: ['id'] }));
    assert.equal(landedSoFar.length, 30);
    const onServer = new Set(landedSoFar.map((e) => e.id));
    for (const id of err.landedIds) assert.ok(onServer.has(id));

    const done = await err.retry();
    assert.equal(done.count, 50);
    assert.equal(done.example_ids.length, 50);
    assert.equal(new Set(done.example_ids).size, 50);
    assert.deepEqual(done.example_ids.slice(0, 20), err.landedIds, 'the answer keeps the order of the examples');
    assert.deepEqual(await serverInputs(plain, ds.id), examples.map((e) => e.inputs.i), 'each example once');
  });

  it('a batch meeting only retryable statuses is retried for the call’s timeout, honouring Retry-After; retry() then finishes', async () => {
    // From the first batch on, every request is a 503 with Retry-After 0.1 s. The client waits on a clock whose
    // waits return at once: its time is the waits', and the attempts are stamped with it.
    const clock = fakeClock();
    const wire = faultingFetch(srv, 1, '503:1,retryAfter:0.1', clock.now);
    const c = clientFor(srv(), { fetch: wire.fetch, timeoutMs: 1200, maxRetries: 2, retryMaxDelayMs: 1000, clock });
    const plain = clientFor(srv());
    const ds = await plain.datasets.create({ name: unique('budget') });
    const examples = Array.from({ length: 12 }, (_, i) => ({ inputs: { i } }));

    const err = await partialFailure(c.examples.create({ datasetId: ds.id, examples, batchSize: 5, concurrency: 1 }));
    assert.equal(err.status, 503);
    assert.equal(err.done, 0);
    assert.equal(err.landedIds.length, 0);
    assert.equal(err.pendingIds.length, 6);
    // More attempts than the fixed count (1 + maxRetries 2), each after the server's Retry-After, as many as
    // the call's timeout holds: the first, then one after each of 12 waits of 100 ms, the last at 1200 ms.
    assert.equal(wire.posts.length, 13, `${wire.posts.length} attempts`);
    assert.deepEqual(clock.waits, new Array(12).fill(100), 'each attempt after the server\'s Retry-After');
    for (let k = 1; k < wire.posts.length; k++) assert.equal(wire.posts[k]! - wire.posts[k - 1]!, 100, `attempt ${k + 1} came early`);
    assert.ok(wire.posts.at(-1)! - wire.posts[0]! <= 1200, 'no attempt after the timeout');

    await setFaults(srv(), '');
    const done = await err.retry();
    assert.equal(done.count, 12);
    assert.deepEqual(await serverInputs(plain, ds.id), examples.map((e) => e.inputs.i));
  });

  it('a refusal before anything landed stays the plain error (nothing to finish)', async () => {
    const c = clientFor(srv());
    const ds = await c.datasets.create({ name: unique('refused') });
    const id = crypto.randomUUID();
    await c.examples.create({ datasetId: ds.id, examples: [{ id, inputs: { i: 0 } }] });
    await assert.rejects(
      c.examples.create({ datasetId: ds.id, examples: [{ id, inputs: { i: 1 } }] }),
      (e: unknown) => !(e instanceof LangSmithPartialWriteError) && e instanceof Error && /409/.test(e.message),
    );
    await assert.rejects(c.examples.create({ datasetId: ds.id, examples: [], batchSize: 0 }), /batchSize must be a whole number from 1 to 1000/);
  });
});
