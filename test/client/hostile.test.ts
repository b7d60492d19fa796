/**
 * Servers that hang or answer nonsense (issue 13), on loopback: the client gives a clear error naming the
 * action within its configured limits, never crashes, never leaves a promise rejection unhandled, and never
 * shows the API key. Both transports: the client's own (undici) and a passed fetch (an editor's).
 */
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { LangSmithClient, LangSmithError, LangSmithTimeoutError, collect, type LangSmithClientOptions } from '../../src/client';
import { recordFigures } from '../harness/report';
import { type HostileServer, sendJson, sendRaw, startHostileServer, startSilentServer } from '../harness/hostileServer';

const KEY = 'lsv2_pt_hostile_test_secret_0123456789';
const RUN = '0193f5a0-0000-7000-8000-000000000001';
const DATASET = '0193f5a0-0000-7000-8000-000000000002';
const TRANSPORTS: [string, Partial<LangSmithClientOptions>][] = [
  ['own transport', {}],
  ['a fetch', { fetch: globalThis.fetch }],
];

/** The error a call ends with (the test fails if it succeeds). */
async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    (v) => assert.fail(`expected a failure, got ${inspect(v, { depth: 2 }).slice(0, 200)}`),
    (e: unknown) => e,
  );
}

/** A clear error of ours: the right class, naming the action, without the key anywhere in it. */
function assertClear(e: unknown, action: string, what: string): asserts e is LangSmithError {
  assert.ok(e instanceof LangSmithError, `${what}: not a LangSmithError: ${inspect(e)}`);
  assert.equal(e.action, action, what);
  assert.ok(e.message.startsWith(`Failed to ${action}: `), `${what}: ${e.message}`);
  assert.ok(!inspect(e, { depth: 10 }).includes(KEY), `${what}: the API key shows in the error`);
  assert.ok(!String(e.stack).includes(KEY), what);
}

describe('client against hanging and hostile servers', function () {
  this.timeout(60_000);
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  const figures: Record<string, unknown> = {};
  before(() => process.on('unhandledRejection', onUnhandled));
  after(() => {
    process.off('unhandledRejection', onUnhandled);
    recordFigures('hostileServers', figures);
  });
  afterEach(() => assert.deepEqual(unhandled, [], 'no unhandled promise rejection'));

  describe('a server that never answers', () => {
    const TIMEOUT = 300;
    const BACKOFF = 50;
    // Scheduling on a busy 2-core machine: timers may fire late, never early.
    const SLACK = 1500;

    for (const [via, extra] of TRANSPORTS) {
      it(`accepts the connection and stays silent: a timeout naming the action, within timeout × attempts + backoff (${via})`, async () => {
        const silent = await startSilentServer();
        try {
          const client = new LangSmithClient({ apiUrl: silent.url, apiKey: KEY, timeoutMs: TIMEOUT, maxRetries: 1, retryBaseDelayMs: BACKOFF, retryMaxDelayMs: BACKOFF, ...extra });
          let t0 = performance.now();
          const e = await failure(collect(client.datasets.list()));
          let elapsed = performance.now() - t0;
          assertClear(e, 'list datasets', 'silent GET');
          assert.ok(e instanceof LangSmithTimeoutError);
          assert.equal(e.message, `Failed to list datasets: no answer within ${TIMEOUT} ms`);
          assert.equal(client.http.stats.requests, 2, 'a GET is tried again after a timeout');
          assert.ok(elapsed >= 2 * TIMEOUT - 20, `${elapsed} ms: each attempt waited its timeout`);
          assert.ok(elapsed < 2 * TIMEOUT + BACKOFF + SLACK, `${elapsed} ms`);
          figures[`silentGet (${via})`] = { timeoutMs: TIMEOUT, attempts: 2, elapsedMs: Math.round(elapsed) };

          // A prompt repository create is repeated too (a repeat that meets "already exists" reads its own back):
          // two attempts, each waiting its timeout.
          t0 = performance.now();
          const post = await failure(client.prompts.create('never-answered'));
          elapsed = performance.now() - t0;
          assertClear(post, 'create prompt', 'silent POST');
          assert.ok(post instanceof LangSmithTimeoutError);
          assert.equal(client.http.stats.requests, 4, 'tried again once');
          assert.ok(elapsed >= 2 * TIMEOUT - 20 && elapsed < 2 * TIMEOUT + BACKOFF + SLACK, `${elapsed} ms`);
          figures[`silentPost (${via})`] = { timeoutMs: TIMEOUT, attempts: 2, elapsedMs: Math.round(elapsed) };
        } finally {
          await silent.close();
        }
      });

      it(`sends the headers, then stalls the body: a timeout naming the action (${via})`, async () => {
        const stalling = await startSilentServer({ stallAfterHeaders: true });
        try {
          const client = new LangSmithClient({ apiUrl: stalling.url, apiKey: KEY, timeoutMs: TIMEOUT, maxRetries: 1, retryBaseDelayMs: BACKOFF, retryMaxDelayMs: BACKOFF, ...extra });
          const t0 = performance.now();
          const e = await failure(client.runs.read(RUN));
          const elapsed = performance.now() - t0;
          assertClear(e, 'read run', 'stalled body');
          assert.ok(e instanceof LangSmithTimeoutError);
          assert.match(e.message, new RegExp(`^Failed to read run: no (complete )?answer within ${TIMEOUT} ms$`));
          assert.equal(stalling.requests, 2, 'the headers of both attempts arrived');
          assert.ok(elapsed >= 2 * TIMEOUT - 20 && elapsed < 2 * TIMEOUT + BACKOFF + SLACK, `${elapsed} ms`);
          figures[`stalledBody (${via})`] = { timeoutMs: TIMEOUT, attempts: 2, elapsedMs: Math.round(elapsed) };
        } finally {
          await stalling.close();
        }
      });
    }
  });

  describe('malformed answers', () => {
    let hostile: HostileServer;
    let elsewhere: HostileServer;
    before(async () => {
      hostile = await startHostileServer();
      elsewhere = await startHostileServer();
    });
    after(async () => {
      await hostile.close();
      await elsewhere.close();
    });

    const manifest = { lc: 1, type: 'constructor', id: ['langchain', 'prompts', 'prompt', 'PromptTemplate'], kwargs: { template: '{q}', input_variables: ['q'] } };

    /** Representative calls: the route whose answer is spoilt, and malformed bodies fitting its shape. */
    const calls: {
      call: string;
      action: string;
      route: string;
      run: (c: LangSmithClient) => Promise<unknown>;
      wrongTypes: unknown;
      /** null: the call has no required field in its answer (see below). */
      missingFields: unknown;
    }[] = [
      { call: 'list datasets', action: 'list datasets', route: 'GET /datasets', run: (c) => collect(c.datasets.list()), wrongTypes: [{ id: 42, name: false }], missingFields: [{ description: 'no id, no name' }] },
      { call: 'read run', action: 'read run', route: `GET /runs/${RUN}`, run: (c) => c.runs.read(RUN), wrongTypes: { id: 7, name: ['x'], start_time: {} }, missingFields: { name: 'no id' } },
      {
        call: 'create example',
        action: 'create examples',
        route: `POST /v1/platform/datasets/${DATASET}/examples`,
        run: (c) => c.examples.create({ datasetId: DATASET, examples: [{ inputs: { q: 1 } }] }),
        wrongTypes: { count: 'one', example_ids: 5 },
        // Every field of this answer is optional (the client knows the ids it sent), so `{}` is accepted.
        missingFields: null,
      },
      { call: 'push prompt', action: 'create commit', route: 'POST /commits/-/hostile', run: (c) => c.prompts.push('hostile', { manifest }), wrongTypes: { commit: { commit_hash: 12 } }, missingFields: { commit: { id: 'no hash' } } },
      { call: 'create feedback', action: 'create feedback', route: 'POST /feedback', run: (c) => c.feedback.create({ runId: RUN, key: 'k', score: 1 }), wrongTypes: { id: 1, key: 2 }, missingFields: { score: 1 } },
    ];

    type Spoil = (res: import('node:http').ServerResponse, call: (typeof calls)[number]) => void;
    const HTML = '<!DOCTYPE html><html><head><title>Sign in</title></head><body><h1>Welcome to the proxy</h1></body></html>';
    const kinds: [string, Spoil | null, RegExp][] = [
      ['wrong types', null, /: unexpected answer from the server\n/],
      ['missing required fields', null, /: unexpected answer from the server\n/],
      ['an HTML page with status 200', (res) => sendRaw(res, 200, { 'content-type': 'text/html' }, HTML), /: the server's answer is not JSON$/],
      ['truncated JSON', (res) => sendRaw(res, 200, { 'content-type': 'application/json' }, '{"id": "0193f5a0-0000-7000-8000-00000000000'), /: the server's answer is not JSON$/],
      ['an empty body with status 200', (res) => sendRaw(res, 200, { 'content-type': 'application/json' }, ''), /: unexpected answer from the server\n/],
      [
        'a body cut off by a closed connection',
        (res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
          res.write('{"id": "');
          setTimeout(() => res.socket?.destroy(), 5);
        },
        /^Failed to [a-z ]+: /,
      ],
      ['a 302 to another origin', (res) => sendRaw(res, 302, { location: `${elsewhereUrl()}/steal` }, ''), /: 302 Found: the server redirects to http:\/\/127\.0\.0\.1:\d+\/steal, which is not followed \(the API key is only sent to http:\/\/127\.0\.0\.1:\d+\)$/],
      // A bulk write (create example) also says how far it got.
      ['a huge Retry-After', (res) => sendRaw(res, 429, { 'content-type': 'application/json', 'retry-after': '86400' }, '{"detail": "slow down"}'), /: 429 Too Many Requests\nslow down(\n0 of 1 done before the failure; retry\(\) finishes the rest without duplicates\.)?$/],
    ];
    const elsewhereUrl = () => elsewhere.url;

    /** What every call needs besides the spoilt route: /info, /settings, the prompt's repository. */
    function serveTheRest(): void {
      hostile.on('GET /info', (_q, res) => sendJson(res, 200, { version: '0.16.0', instance_flags: { dataset_examples_multipart_enabled: true } }));
      hostile.on('GET /settings', (_q, res) => sendJson(res, 200, { id: '0193f5a0-0000-7000-8000-000000000009', tenant_handle: 'hostile' }));
      hostile.on('GET /repos/-/hostile', (_q, res) => sendJson(res, 200, { repo: { id: 'r', repo_handle: 'hostile', last_commit_hash: null } }));
    }

    for (const [via, extra] of TRANSPORTS) {
      it(`gives a clear error naming the action for every malformed answer, never the key, never a crash (${via})`, async () => {
        let cases = 0;
        let longestMs = 0;
        for (const call of calls) {
          for (const [kind, spoil, expected] of kinds) {
            const body = kind === 'wrong types' ? call.wrongTypes : kind === 'missing required fields' ? call.missingFields : undefined;
            if (kind === 'missing required fields' && body === null) continue;
            hostile.reset();
            elsewhere.reset();
            serveTheRest();
            hostile.on(call.route, (_q, res) => (spoil ? spoil(res, call) : sendJson(res, 200, body)));
            const client = new LangSmithClient({ apiUrl: hostile.url, apiKey: KEY, timeoutMs: 5000, maxRetries: 1, retryBaseDelayMs: 5, retryMaxDelayMs: 100, ...extra });
            const what = `${call.call} / ${kind}`;
            const t0 = performance.now();
            const e = await failure(call.run(client));
            const elapsed = performance.now() - t0;
            longestMs = Math.max(longestMs, elapsed);
            assertClear(e, call.action, what);
            assert.match(e.message, expected, what);
            assert.ok(hostile.requests.length > 0 && hostile.requests.every((r) => r.headers['x-api-key'] === KEY), `${what}: the key went to the API`);
            assert.equal(elsewhere.requests.length, 0, `${what}: nothing went to the other origin`);
            if (kind === 'a huge Retry-After') {
              // A day's Retry-After is capped by retryMaxDelayMs (100 ms here; 30 s by default), then the call fails. A
              // bulk write's batch retries by time and honours it as given: a day is beyond its budget, so it stops at once.
              const bulk = call.call === 'create example';
              assert.ok(elapsed < 100 + 2000, `${what}: ${elapsed} ms`);
              assert.equal(hostile.requests.filter((r) => `${r.method} ${r.path}` === call.route).length, bulk ? 1 : 2, `${what}: tried ${bulk ? 'once' : 'twice'}`);
            }
            cases++;
          }
        }
        assert.equal(cases, calls.length * kinds.length - 1);
        figures[`malformedAnswers (${via})`] = { cases, longestMs: Math.round(longestMs) };
      });
    }

    it('a create of examples answered 200 with {} (no field of that answer is required) counts the batch it sent', async () => {
      hostile.reset();
      serveTheRest();
      hostile.on(`POST /v1/platform/datasets/${DATASET}/examples`, (_q, res) => sendJson(res, 200, {}));
      const client = new LangSmithClient({ apiUrl: hostile.url, apiKey: KEY, maxRetries: 0 });
      const res = await client.examples.create({ datasetId: DATASET, examples: [{ inputs: { q: 1 } }, { inputs: { q: 2 } }] });
      assert.equal(res.example_ids.length, 2);
      assert.equal(res.count, 2, 'not 0: the server took the batch without saying how many');
    });
  });
});
