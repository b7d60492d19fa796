import assert from 'node:assert/strict';
import { HttpClient, parseRetryAfter } from '../../../src/client/http';
import { LangSmithError, LangSmithTimeoutError } from '../../../src/client';

type Step = number | 'reset' | { status: number; headers?: Record<string, string>; body?: string };

/** A fetch that plays a script of answers (fault injection), recording what was asked. */
function scripted(steps: Step[]) {
  const calls: { url: string; method: string; headers: Record<string, string>; at: number }[] = [];
  const f = (async (url: string, init: RequestInit) => {
    calls.push({ url, method: String(init.method), headers: init.headers as Record<string, string>, at: Date.now() });
    const step = steps.shift() ?? 200;
    if (step === 'reset') throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
    const s = typeof step === 'number' ? { status: step } : step;
    return new Response(s.body ?? (s.status < 300 ? '{"ok":true}' : '{"detail":"nope"}'), { status: s.status, headers: s.headers });
  }) as unknown as typeof fetch;
  return { f, calls };
}

const fast = { retryBaseDelayMs: 1, retryMaxDelayMs: 50 };

describe('client http', () => {
  it('sends x-api-key and x-tenant-id and accepts …/api/v1 endpoints', async () => {
    const { f, calls } = scripted([200]);
    const h = new HttpClient({ apiUrl: 'https://h.example/api/v1/', apiKey: 'secret-key', workspaceId: 'ws', fetch: f });
    await h.request({ path: '/datasets', query: { limit: 1, id: ['a', 'b'], metadata: { k: 1 } }, action: 'list' });
    assert.equal(calls[0]!.url, 'https://h.example/api/v1/datasets?limit=1&id=a&id=b&metadata=%7B%22k%22%3A1%7D');
    assert.equal(calls[0]!.headers['x-api-key'], 'secret-key');
    assert.equal(calls[0]!.headers['x-tenant-id'], 'ws');
    assert.equal(h.platformPath('datasets/x/examples'), '/platform/datasets/x/examples');
    assert.equal(new HttpClient({ apiUrl: 'https://api.smith.langchain.com' }).platformPath('datasets/x/examples'), '/v1/platform/datasets/x/examples');
  });

  it('retries 408, 425, 429, 500, 502, 503, 504 and network errors on idempotent requests', async () => {
    const { f, calls } = scripted([408, 425, 429, 500, 502, 503, 504, 'reset', 200]);
    const h = new HttpClient({ fetch: f, maxRetries: 8, ...fast });
    assert.deepEqual(await h.request({ path: '/x', action: 'read x' }), { ok: true });
    assert.equal(calls.length, 9);
  });

  it('gives up after maxRetries with the last error', async () => {
    const { f, calls } = scripted([503, 503, 503]);
    const h = new HttpClient({ fetch: f, maxRetries: 2, ...fast });
    await assert.rejects(h.request({ path: '/x', action: 'read x' }), { message: 'Failed to read x: 503 Service Unavailable\nnope' });
    assert.equal(calls.length, 3);
  });

  it('does not repeat a plain POST after a 503 or a network error, but does after 429', async () => {
    const a = scripted([503]);
    await assert.rejects(new HttpClient({ fetch: a.f, ...fast }).request({ method: 'POST', path: '/x', json: {}, action: 'create x' }), { status: 503 });
    assert.equal(a.calls.length, 1);
    const b = scripted(['reset']);
    await assert.rejects(new HttpClient({ fetch: b.f, ...fast }).request({ method: 'POST', path: '/x', json: {}, action: 'create x' }), /Failed to create x: fetch failed \(ECONNRESET\)/);
    assert.equal(b.calls.length, 1);
    const c = scripted([429, 200]);
    await new HttpClient({ fetch: c.f, ...fast }).request({ method: 'POST', path: '/x', json: {}, action: 'create x' });
    assert.equal(c.calls.length, 2);
    const d = scripted([503, 200]);
    await new HttpClient({ fetch: d.f, ...fast }).request({ method: 'POST', path: '/x', json: {}, action: 'create x', idempotent: true });
    assert.equal(d.calls.length, 2);
  });

  it('honours Retry-After', async () => {
    const { f, calls } = scripted([{ status: 429, headers: { 'retry-after': '0.3' } }, 200]);
    await new HttpClient({ fetch: f, retryBaseDelayMs: 1, retryMaxDelayMs: 5000 }).request({ path: '/x', action: 'x' });
    assert.ok(calls[1]!.at - calls[0]!.at >= 280, `waited ${calls[1]!.at - calls[0]!.at} ms`);
    assert.equal(parseRetryAfter('2'), 2000);
    assert.equal(parseRetryAfter(new Date(Date.now() + 5000).toUTCString(), Date.now())! > 3000, true);
    assert.equal(parseRetryAfter('soon'), undefined);
  });

  it('passes caller cancellation through without retrying', async () => {
    const ctl = new AbortController();
    const f = ((_u: string, init: RequestInit) =>
      new Promise((_r, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)))) as unknown as typeof fetch;
    const h = new HttpClient({ fetch: f, ...fast });
    const p = h.request({ path: '/x', action: 'x', signal: ctl.signal });
    ctl.abort(new Error('user cancelled'));
    await assert.rejects(p, { message: 'user cancelled' });
    assert.equal(h.stats.requests, 1);
  });

  it('times out each attempt with an abort signal', async () => {
    const f = ((_u: string, init: RequestInit) =>
      new Promise((_r, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)))) as unknown as typeof fetch;
    const h = new HttpClient({ fetch: f, timeoutMs: 30, maxRetries: 1, ...fast });
    await assert.rejects(h.request({ path: '/x', action: 'read x' }), (e: unknown) => {
      assert.ok(e instanceof LangSmithTimeoutError);
      assert.equal(e.message, 'Failed to read x: no answer within 30 ms');
      return true;
    });
    assert.equal(h.stats.requests, 2);
  });

  it('never shows the API key in errors or when the client is printed', async () => {
    const { f } = scripted([{ status: 401, body: '{"detail":"Invalid token"}' }]);
    const h = new HttpClient({ fetch: f, apiKey: 'lsv2_super_secret', maxRetries: 0 });
    await assert.rejects(h.request({ path: '/x', action: 'read x' }), (e: unknown) => {
      assert.ok(e instanceof LangSmithError);
      assert.ok(!JSON.stringify({ m: e.message, s: e.stack, d: e.detail }).includes('lsv2_super_secret'));
      return true;
    });
    assert.ok(!JSON.stringify(h).includes('lsv2_super_secret'));
    const { inspect } = await import('node:util');
    assert.ok(!inspect(h, { depth: Infinity, showHidden: true }).includes('lsv2_super_secret'), 'not even in an inspection of hidden fields');
    const { LangSmithClient } = await import('../../../src/client');
    const c = new LangSmithClient({ apiUrl: 'http://127.0.0.1:9', apiKey: 'lsv2_super_secret' });
    assert.ok(!inspect(c, { depth: Infinity, showHidden: true }).includes('lsv2_super_secret'));
    assert.ok(!JSON.stringify(c).includes('lsv2_super_secret'));
  });

  it('turns a malformed answer into a clear error', async () => {
    const { z } = await import('zod');
    const { f } = scripted([{ status: 200, body: '{"id": 5}' }]);
    await assert.rejects(
      new HttpClient({ fetch: f }).request({ path: '/x', action: 'read x', schema: z.object({ id: z.string() }) }),
      /Failed to read x: unexpected answer from the server\nid: /,
    );
  });
});

describe('client http: streamed answers', () => {
  /** A fetch whose answer body is written by `feed` (pieces with pauses), over real WHATWG streams. */
  function streaming(status: number, feed: (push: (text: string) => void, close: () => void) => void) {
    let asked = 0;
    const f = (async (_url: string, init: RequestInit) => {
      asked++;
      const enc = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          init.signal?.addEventListener('abort', () => controller.error(init.signal!.reason));
          feed(
            (t) => controller.enqueue(enc.encode(t)),
            () => controller.close(),
          );
        },
      });
      return new Response(body, { status, headers: { 'content-type': 'text/event-stream' } });
    }) as unknown as typeof fetch;
    return { f, asked: () => asked };
  }
  const read = async (g: AsyncGenerator<string>) => {
    let all = '';
    for await (const t of g) all += t;
    return all;
  };

  it('yields the body as it arrives, decoding UTF-8 split across pieces', async () => {
    const bytes = new TextEncoder().encode('é');
    const f = (async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(new TextEncoder().encode('data: a'));
            c.enqueue(bytes.slice(0, 1));
            c.enqueue(bytes.slice(1));
            c.close();
          },
        }),
        { status: 200 },
      )) as unknown as typeof fetch;
    const h = new HttpClient({ fetch: f });
    assert.equal(await read(await h.stream({ path: '/s', method: 'POST', action: 'stream' })), 'data: aé');
  });

  it('a pause longer than the timeout ends the stream with a timeout error; an error status is raised before it', async () => {
    const { f } = streaming(200, (push) => {
      push('first');
      // …and nothing more.
    });
    const h = new HttpClient({ fetch: f, timeoutMs: 80 });
    const pieces: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const t of await h.stream({ path: '/s', method: 'POST', action: 'stream it' })) pieces.push(t);
      })(),
      (e: unknown) => e instanceof LangSmithTimeoutError && /^Failed to stream it: the answer stopped for 80 ms/.test(e.message),
    );
    assert.deepEqual(pieces, ['first']);
    const bad = streaming(401, (push, close) => {
      push('{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}');
      close();
    });
    await assert.rejects(new HttpClient({ fetch: bad.f }).stream({ path: '/s', method: 'POST', action: 'stream it' }), (e: unknown) => {
      assert.ok(e instanceof LangSmithError);
      assert.equal(e.status, 401);
      assert.equal(e.detail, 'Incorrect API key provided');
      return true;
    });
  });

  it('the caller’s signal stops a stream in the middle, and a retryable status before the answer is retried', async () => {
    const ctl = new AbortController();
    let tick: NodeJS.Timeout | undefined;
    const { f } = streaming(200, (push) => {
      let i = 0;
      tick = setInterval(() => push(`p${i++} `), 5);
    });
    const h = new HttpClient({ fetch: f });
    const seen: string[] = [];
    try {
      await assert.rejects(
        (async () => {
          for await (const t of await h.stream({ path: '/s', method: 'POST', action: 'stream', signal: ctl.signal, idempotent: true })) {
            seen.push(t);
            if (seen.length === 3) ctl.abort(new Error('user stop'));
          }
        })(),
        /user stop/,
      );
    } finally {
      clearInterval(tick);
    }
    assert.equal(seen.length, 3);
    const { f: flaky, calls } = scripted([503, { status: 200, body: 'data: ok\n\n' }]);
    const h2 = new HttpClient({ fetch: flaky, ...fast });
    assert.equal(await read(await h2.stream({ path: '/s', method: 'POST', action: 'stream', idempotent: true })), 'data: ok\n\n');
    assert.equal(calls.length, 2);
  });
});
