/**
 * Answers the local server never gives (it always has a handle, a share token and the multipart
 * endpoint), injected with a fake fetch so the client's handling of them is covered.
 */
import assert from 'node:assert/strict';
import { LangSmithClient, LangSmithError, LangSmithValidationError } from '../../../src/client';

type Handler = (url: URL, init: RequestInit) => Response | undefined;

function fakeServer(handler: Handler) {
  const seen: string[] = [];
  const f = (async (u: string, init: RequestInit) => {
    const url = new URL(u);
    seen.push(`${init.method} ${url.pathname}`);
    return handler(url, init) ?? new Response('{"detail":"Not Found"}', { status: 404 });
  }) as unknown as typeof fetch;
  return { f, seen };
}

const json = (v: unknown, status = 200) => new Response(JSON.stringify(v), { status, headers: { 'content-type': 'application/json' } });
const RUN = '8a2d3a0e-5a3b-4c1e-9f7e-2b1d2c3e4f50';

describe('client handling of unusual answers (fake server)', () => {
  it('refuses a public prompt without a hub handle', async () => {
    const { f, seen } = fakeServer((url) => (url.pathname === '/settings' ? json({ id: 'org', tenant_handle: null }) : undefined));
    const c = new LangSmithClient({ apiUrl: 'http://fake', apiKey: 'k', fetch: f });
    await assert.rejects(c.prompts.create('p', { isPublic: true }), (e: unknown) => {
      assert.ok(e instanceof LangSmithValidationError);
      assert.equal(e.message, 'Cannot create a public prompt without first creating a LangChain Hub handle.');
      return true;
    });
    await assert.rejects(c.prompts.push('p', { isPublic: true, manifest: {} }), {
      message: 'Cannot create a public prompt without first creating a LangChain Hub handle.',
    });
    await assert.rejects(c.prompts.update('p', { isPublic: true }), (e: unknown) => {
      assert.ok(e instanceof LangSmithValidationError);
      assert.equal(e.message, 'Cannot create a public prompt without first creating a LangChain Hub handle.');
      return true;
    });
    assert.deepEqual(seen.filter((s) => !s.endsWith('/settings')), [], 'nothing but the settings read');
  });

  it('latest-commit lookup: refusals become Error {status}: {statusText} with the detail; an unusable 200 keeps its own message', async () => {
    const answers: Record<string, () => Response> = {
      refused: () => json({ detail: ['first problem', 'second problem'] }, 403),
      bare: () => new Response('', { status: 500, statusText: 'Internal Server Error' }),
      garbled: () => json({ commits: 'not a list' }),
      moved: () => new Response(null, { status: 302, statusText: 'Found', headers: { location: 'https://elsewhere.example/commits' } }),
    };
    const { f } = fakeServer((url) => answers[url.pathname.split('/')[3]!]?.());
    const c = new LangSmithClient({ apiUrl: 'http://fake', apiKey: 'k', fetch: f, maxRetries: 0 });
    await assert.rejects(c.prompts.latestCommitHash('refused'), (e: unknown) => {
      assert.ok(e instanceof LangSmithError);
      assert.equal(e.message, 'Error 403: Forbidden\nfirst problem\nsecond problem');
      assert.equal(e.status, 403);
      return true;
    });
    await assert.rejects(c.prompts.latestCommitHash('bare'), { message: 'Error 500: Internal Server Error\nUnspecified error', status: 500 });
    await assert.rejects(c.prompts.latestCommitHash('garbled'), (e: unknown) => {
      assert.ok(e instanceof LangSmithError);
      assert.match(e.message, /^Failed to get latest commit hash: unexpected answer from the server\ncommits: /);
      return true;
    });
    await assert.rejects(c.prompts.latestCommitHash('moved'), (e: unknown) => {
      assert.ok(e instanceof LangSmithError);
      assert.equal(e.status, 302);
      assert.match(e.message, /^Error 302: Found\nthe server redirects to https:\/\/elsewhere\.example\/commits/);
      return true;
    });
  });

  it('raises Invalid response from server when a share answer lacks share_token', async () => {
    const { f } = fakeServer((url, init) => (url.pathname.endsWith('/share') && init.method === 'PUT' ? json({ run_id: RUN }) : undefined));
    const c = new LangSmithClient({ apiUrl: 'http://fake', apiKey: 'k', fetch: f });
    await assert.rejects(c.runs.share(RUN), (e: unknown) => {
      assert.ok(e instanceof LangSmithError);
      assert.equal(e.message, 'Invalid response from server');
      return true;
    });
    await assert.rejects(c.datasets.share({ datasetId: RUN }), { message: 'Invalid response from server' });
  });

  it('falls back to /runs/batch when the multipart ingest endpoint is missing', async () => {
    let batch: { post: { id: string }[]; patch: unknown[] } | undefined;
    const { f, seen } = fakeServer((url, init) => {
      if (url.pathname === '/info') return json({ version: '0.5.0', batch_ingest_config: { size_limit: 100 } });
      if (url.pathname === '/runs/batch') {
        batch = JSON.parse(String(init.body));
        return json({}, 202);
      }
      return undefined;
    });
    const c = new LangSmithClient({ apiUrl: 'http://fake', apiKey: 'k', fetch: f, tracing: { manualFlush: true } });
    const r = c.tracing.startRun({ name: 'a', inputs: { x: 1 } }).post();
    r.end({ outputs: { y: 2 } }).patch();
    await c.tracing.flush();
    assert.deepEqual(seen, ['GET /info', 'POST /runs/multipart', 'POST /runs/batch']);
    assert.equal(batch!.post.length, 1);
    assert.equal(batch!.post[0]!.id, r.id);
    assert.deepEqual((batch!.post[0] as unknown as { outputs: unknown }).outputs, { y: 2 }, 'post and patch merged');
    c.tracing.startRun({ name: 'b' }).post();
    await c.tracing.flush();
    assert.deepEqual(seen.slice(3), ['POST /runs/batch'], 'remembers the fallback');
  });

  it('treats a conflict on a repeated example batch as success when its ids already exist', async () => {
    let posts = 0;
    const { f, seen } = fakeServer((url, init) => {
      if (url.pathname === '/info') return json({ version: '0.16.0', instance_flags: { dataset_examples_multipart_enabled: true } });
      if (url.pathname.endsWith('/examples') && init.method === 'POST') {
        posts++;
        // The first attempt lands but its answer is lost; the repeat meets the examples it made.
        return posts === 1 ? new Response('', { status: 502 }) : json({ detail: 'Example already exists' }, 409);
      }
      if (url.pathname === '/examples') return json(url.searchParams.getAll('id').map((id) => ({ id })));
      return undefined;
    });
    const c = new LangSmithClient({ apiUrl: 'http://fake', apiKey: 'k', fetch: f, retryBaseDelayMs: 1 });
    const res = await c.examples.create({ datasetId: RUN, examples: [{ inputs: { a: 1 } }, { inputs: { a: 2 } }] });
    assert.equal(res.count, 2);
    assert.deepEqual(seen, ['GET /info', 'POST /v1/platform/datasets/' + RUN + '/examples', 'POST /v1/platform/datasets/' + RUN + '/examples', 'GET /examples']);
  });

  it('a failed flush puts its runs back so that what was queued meanwhile wins', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const sent: string[] = [];
    let ingests = 0;
    const f = (async (u: string, init: RequestInit) => {
      const url = new URL(u);
      if (url.pathname === '/info') return json({ version: '0.10.0', batch_ingest_config: { use_multipart_endpoint: true } });
      if (url.pathname === '/runs/multipart') {
        if (++ingests === 1) {
          await held; // fails only once the update below has been queued
          return new Response('', { status: 500 });
        }
        sent.push(new TextDecoder().decode(init.body as Uint8Array));
        return json({}, 202);
      }
      return new Response('', { status: 404 });
    }) as unknown as typeof fetch;
    const c = new LangSmithClient({ apiUrl: 'http://fake', apiKey: 'k', fetch: f, maxRetries: 0, tracing: { manualFlush: true } });
    // An update queued before the run's creation: the pending entry holds both.
    const r = c.tracing.startRun({ name: 'a', inputs: { x: 1 } });
    r.end({ outputs: { v: 1 } }).patch();
    r.post();
    const failing = c.tracing.flush();
    await new Promise((done) => setTimeout(done, 10));
    r.end({ outputs: { v: 2 } }).patch(); // queued while the flush is in flight
    release();
    await assert.rejects(failing);
    await c.tracing.flush();
    assert.equal(sent.length, 1);
    const outputs = [...sent[0]!.matchAll(new RegExp(`name="(post|patch)\\.${r.id}\\.outputs"[^]*?\\r\\n\\r\\n(.*?)\\r\\n`, 'g'))].map((m) => JSON.parse(m[2]!));
    assert.deepEqual(outputs, [{ v: 2 }], 'the newest outputs, sent once');
  });

  it('automatic mode sends a full batch at once, without waiting for the timer', async () => {
    const { f, seen } = fakeServer((url) => {
      if (url.pathname === '/info') return json({ version: '0.16.0' });
      if (url.pathname === '/runs/multipart') return json({}, 202);
      return undefined;
    });
    const c = new LangSmithClient({ apiUrl: 'http://fake', apiKey: 'k', fetch: f, tracing: { batchSizeLimit: 5, flushIntervalMs: 60_000 } });
    for (let i = 0; i < 5; i++) c.tracing.startRun({ name: `r${i}` }).post();
    await c.tracing.flush();
    assert.deepEqual(seen, ['GET /info', 'POST /runs/multipart']);
    assert.equal(c.tracing.pendingCount, 0);
  });
});
