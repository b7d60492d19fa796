import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { Agent } from 'undici';
import net, { type AddressInfo } from 'node:net';
import { LangSmithAuthError, LangSmithError, LangSmithTimeoutError, collect, type LangSmithClient } from '../../src/client';
import { HttpClient } from '../../src/client/http';
import { startTlsFront } from '../harness/tlsFront';
import { withLocalServer } from '../harness/localServer';
import { clientFor, fakeClock, setFaults, unique } from './_server';

describe('client ↔ local server: transport', () => {
  const srv = withLocalServer();
  let c: LangSmithClient;
  before(() => {
    c = clientFor(srv());
  });
  afterEach(() => setFaults(srv(), ''));

  it('rides out injected 429, 503 and connection resets with retries', async () => {
    const ds = await c.datasets.create({ name: unique('flaky') });
    await c.examples.create({ datasetId: ds.id, examples: Array.from({ length: 30 }, (_, i) => ({ inputs: { i } })) });
    // About one request in three fails; with 14 retries the chance that one request of the ~40 below
    // fails 15 times in a row is below 1e-5, so the test does not depend on luck.
    await setFaults(srv(), '429:0.15,503:0.1,reset:0.1');
    const flaky = clientFor(srv(), { maxRetries: 14, retryBaseDelayMs: 2, retryMaxDelayMs: 20 });
    for (let i = 0; i < 5; i++) {
      const rows = await collect(flaky.examples.list({ datasetId: ds.id, pageSize: 10 }));
      assert.equal(rows.length, 30);
    }
    const p = await flaky.projects.create({ name: unique('retried') });
    assert.equal((await flaky.projects.read({ projectId: p.id })).id, p.id);
    assert.ok(flaky.http.stats.retries > 0, 'some requests were retried');
  });

  it('waits as long as a 429 answer\'s Retry-After says before trying again', async () => {
    await setFaults(srv(), '429:1'); // the server answers 429 with "Retry-After: 1"
    // The client's wait is the clock's: it says how long was waited, and meanwhile the server stops refusing.
    const clock = fakeClock(() => setFaults(srv(), ''));
    const patient = clientFor(srv(), { maxRetries: 1, retryBaseDelayMs: 1, retryMaxDelayMs: 5000, clock });
    assert.equal((await patient.settings()).tenant_handle, 'local');
    assert.deepEqual(clock.waits, [1000], 'the retry came after the server\'s Retry-After, not the 1 ms backoff');
    assert.equal(patient.http.stats.retries, 1);
  });

  it('gives up after its retries with the status of the last answer', async () => {
    await setFaults(srv(), '503:1');
    const h = clientFor(srv(), { maxRetries: 2, retryBaseDelayMs: 1 });
    await assert.rejects(h.datasets.read({ datasetName: 'x' }), (e: unknown) => {
      assert.ok(e instanceof LangSmithError);
      assert.equal(e.status, 503);
      assert.equal(e.action, 'read dataset');
      assert.match(e.message, /^Failed to read dataset: 503/);
      return true;
    });
    assert.equal(h.http.stats.requests, 3);
  });

  it('times out slow answers', async () => {
    await setFaults(srv(), 'latency:400-400ms');
    const slow = clientFor(srv(), { timeoutMs: 50, maxRetries: 0 });
    await assert.rejects(slow.settings(), LangSmithTimeoutError);
  });

  it('takes a timeout beyond what a timer can hold (Infinity too) as no timeout, not as an instant one', async () => {
    // Node fires a timer longer than 2^31 - 1 ms at once; such timeouts must still wait for the answer.
    await setFaults(srv(), 'latency:100-100ms');
    for (const timeoutMs of [2 ** 31, Infinity]) {
      const patient = clientFor(srv(), { timeoutMs, maxRetries: 0 });
      assert.equal(typeof (await patient.settings()).id, 'string');
      assert.equal(typeof (await c.http.request<{ id: string }>({ path: '/settings', action: 'read settings', timeoutMs })).id, 'string');
    }
  });

  it('passes caller cancellation through', async () => {
    await setFaults(srv(), 'latency:400-400ms');
    const ctl = new AbortController();
    const p = c.projects.read({ projectName: 'x', signal: ctl.signal });
    setTimeout(() => ctl.abort(new Error('stop')), 20);
    await assert.rejects(p, { message: 'stop' });
  });

  it('reports a wrong key as an auth error without echoing the key', async () => {
    const bad = clientFor(srv(), { apiKey: 'lsv2_wrong_secret_value' });
    await assert.rejects(bad.settings(), (e: unknown) => {
      assert.ok(e instanceof LangSmithAuthError);
      assert.equal(e.status, 401);
      assert.ok(!e.message.includes('lsv2_wrong_secret_value'));
      return true;
    });
  });

  it('sends the workspace as x-tenant-id; the wrong one is refused', async () => {
    const tenantId = (await c.settings()).id;
    assert.equal((await clientFor(srv(), { workspaceId: tenantId }).settings()).tenant_handle, 'local');
    await assert.rejects(clientFor(srv(), { workspaceId: '00000000-0000-4000-8000-000000000009' }).settings(), (e: unknown) => {
      assert.ok(e instanceof LangSmithAuthError);
      assert.equal(e.status, 403);
      return true;
    });
  });

  it('answers the same through its own transport and through a fetch (an editor\'s): bodies, forms, errors, timeouts', async () => {
    const viaFetch = clientFor(srv(), { fetch: globalThis.fetch });
    const own = c;
    for (const client of [own, viaFetch]) {
      // A JSON body, a multipart body built from bytes, and a FormData body (CSV upload).
      const ds = await client.datasets.create({ name: unique('both-ways') });
      await client.examples.create({ datasetId: ds.id, examples: [{ inputs: { q: 'ü ✓' }, outputs: { a: 1 } }] });
      const csv = await client.datasets.uploadCsv({ csv: 'q,a\nhello,world\n', inputKeys: ['q'], outputKeys: ['a'], name: unique('csv-both') });
      const rows = await collect(client.examples.list({ datasetId: csv.id }));
      assert.deepEqual(rows.map((r) => [r.inputs, r.outputs]), [[{ q: 'hello' }, { a: 'world' }]]);
      assert.deepEqual((await collect(client.examples.list({ datasetId: ds.id })))[0]!.inputs, { q: 'ü ✓' });
      // An error keeps status, status text and the server's detail.
      await assert.rejects(client.prompts.latestCommitHash('nobody-has-this-prompt'), (e: unknown) => {
        assert.ok(e instanceof LangSmithError);
        assert.equal(e.status, 404);
        assert.match(e.message, /^Error 404: Not Found\n/);
        return true;
      });
    }
    await setFaults(srv(), 'latency:300-300ms');
    await assert.rejects(clientFor(srv(), { fetch: globalThis.fetch, timeoutMs: 50, maxRetries: 0 }).settings(), LangSmithTimeoutError);
  });

  it('reports a refused connection as a network error naming the action', async () => {
    const closed = clientFor(srv(), { apiUrl: 'http://127.0.0.1:9', maxRetries: 1, retryBaseDelayMs: 1 });
    await assert.rejects(closed.settings(), (e: unknown) => {
      assert.ok(e instanceof LangSmithError);
      assert.equal(e.status, undefined);
      assert.match(e.message, /^Failed to read settings: .*ECONNREFUSED/);
      return true;
    });
    assert.equal(closed.http.stats.requests, 2, 'a network error is retried');
  });

  it('reaches an HTTPS server with a private CA through a dispatcher that trusts it, and refuses it otherwise', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-client-tls-'));
    const front = await startTlsFront(dir, Number(new URL(srv().url).port));
    const agent = new Agent({ connect: { ca: [...tls.rootCertificates, fs.readFileSync(front.caFile, 'utf8')] } });
    try {
      const url = `https://127.0.0.1:${front.port}`;
      assert.equal((await clientFor(srv(), { apiUrl: url, dispatcher: agent }).settings()).tenant_handle, 'local');
      await assert.rejects(clientFor(srv(), { apiUrl: url, maxRetries: 0 }).settings(), (e: unknown) => {
        assert.ok(e instanceof LangSmithError);
        assert.match(e.message, /^Failed to read settings: .*certificate/i);
        return true;
      });
    } finally {
      await agent.close();
      await front.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('times out a request still queued for a connection, without waiting for the one ahead of it', async () => {
    const silent = net.createServer(() => undefined); // accepts, never answers
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const agent = new Agent({ connections: 1 });
    try {
      const h = new HttpClient({ apiUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, dispatcher: agent, maxRetries: 0 });
      const ahead = h.request({ path: '/slow', action: 'read slow', timeoutMs: 1500 });
      ahead.catch(() => undefined);
      const started = performance.now();
      await assert.rejects(h.request({ path: '/queued', action: 'read queued', timeoutMs: 100 }), LangSmithTimeoutError);
      assert.ok(performance.now() - started < 1000, 'the queued request gave up at its own timeout');
      await assert.rejects(ahead, LangSmithTimeoutError);
    } finally {
      await agent.destroy();
      silent.close();
    }
  });

  describe('redirects', () => {
    // A small HTTP server that answers with redirects, and another host that must never see the key.
    let front: http.Server;
    let elsewhere: http.Server;
    let frontUrl = '';
    const elsewhereSaw: (string | undefined)[] = [];
    before(async () => {
      elsewhere = http.createServer((req, res) => {
        elsewhereSaw.push(req.headers['x-api-key'] as string | undefined);
        res.end('{}');
      });
      await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
      const elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
      front = http.createServer((req, res) => {
        const to = (status: number, location: string) => res.writeHead(status, { location }).end();
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          if (req.url === '/moved') return to(307, '/target?x=1');
          if (req.url === '/created') return to(303, `${frontUrl}/target`);
          if (req.url === '/kept') return to(308, '/echo');
          if (req.url === '/away') return to(302, `${elsewhereUrl}/steal`);
          if (req.url === '/loop') return to(307, '/loop');
          if (req.url === '/bad-location') return to(302, 'http://[bad');
          if (req.url === '/bom') return res.writeHead(200, { 'content-type': 'application/json' }).end('\ufeff{"ok":true}');
          if (req.url === '/odd-headers') return res.writeHead(503, { constructor: 'x', toString: 'y', 'content-type': 'application/json' }).end('{"detail":"down"}');
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ url: req.url, method: req.method, key: req.headers['x-api-key'], body }));
        });
      });
      await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
      frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    });
    after(() => {
      front.close();
      elsewhere.close();
    });

    for (const [name, extra] of [['own transport', {}], ['a fetch', { fetch: globalThis.fetch }]] as const) {
      it(`follows redirects within the API's origin and refuses others (${name})`, async () => {
        const h = new HttpClient({ apiUrl: frontUrl, apiKey: 'lsv2_redirect_key', maxRetries: 0, ...extra });
        type Echo = { url: string; method: string; key: string; body: string };
        assert.deepEqual(await h.request<Echo>({ path: '/moved', action: 'read moved' }), { url: '/target?x=1', method: 'GET', key: 'lsv2_redirect_key', body: '' });
        // 303 after a POST continues as a GET without the body; 308 keeps the method and body.
        const seen = await h.request<Echo>({ method: 'POST', path: '/created', json: { a: 1 }, action: 'create thing' });
        assert.deepEqual([seen.url, seen.method, seen.body], ['/target', 'GET', '']);
        const kept = await h.request<Echo>({ method: 'POST', path: '/kept', json: { a: 1 }, action: 'create thing' });
        assert.deepEqual([kept.url, kept.method, kept.body], ['/echo', 'POST', '{"a":1}']);
        await assert.rejects(h.request({ path: '/away', action: 'read away' }), (e: unknown) => {
          assert.ok(e instanceof LangSmithError);
          assert.equal(e.status, 302);
          assert.match(e.message, /^Failed to read away: 302 Found: the server redirects to http:\/\/127\.0\.0\.1:\d+\/steal, which is not followed/);
          return true;
        });
        assert.deepEqual(elsewhereSaw, [], 'the other host was never asked');
        await assert.rejects(h.request({ path: '/bad-location', action: 'read it' }), {
          message: 'Failed to read it: 302 Found: the server redirects to an invalid location: http://[bad',
        });
        assert.equal(h.stats.retries, 0, 'a bad redirect is not a network failure to retry');
        assert.deepEqual(await h.request({ path: '/bom', action: 'read bom' }), { ok: true });
        // Header names that are also names of object members do not trip the header lookup.
        const retrying = new HttpClient({ apiUrl: frontUrl, maxRetries: 1, retryBaseDelayMs: 1, ...extra });
        await assert.rejects(retrying.request({ path: '/odd-headers', action: 'read odd' }), (e: unknown) => {
          assert.ok(e instanceof LangSmithError);
          assert.equal(e.status, 503);
          assert.match(e.message, /^Failed to read odd: 503 Service Unavailable/);
          return true;
        });
        assert.equal(retrying.stats.retries, 1);
        await assert.rejects(h.request({ path: '/loop', action: 'read loop' }), {
          message: 'Failed to read loop: 307 Temporary Redirect: more than 5 redirects, the last to /loop',
        });
      });
    }
  });
});
