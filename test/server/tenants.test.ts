// Tenant isolation on every route: workspace B (the other API key) tries workspace A's ids on every route the
// app has, read from its route table, so a route added later without a tenant check fails here until it is
// covered. Each answers 404 (403 for prompt writes on A's *public* repo, as LangSmith), no 2xx answer carries
// any of A's ids, and nothing in the database changes.
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { withLocalServer, type LocalServer } from '../harness/localServer';
import { rawRequest, type RawResponse } from '../harness/http';
import { stableUuid } from '../../server/ids';

/** A's first user (the default workspace `local`'s user "you"), for the assigned-reviewer routes. */
const A_USER = stableUuid('user:local:you');

interface Route {
  method: string;
  url: string;
}

/** Every method + URL the app serves (HEAD aside: the GET handler answers it), from fastify's route tree. */
function routesOf(app: FastifyInstance): Route[] {
  const out: Route[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const url = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = url;
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) if (method !== 'HEAD') out.push({ method, url });
  }
  return out;
}

/** A route's URL without its API prefix, marked `platform:` or `v2:` where those serve other handlers. */
function baseOf(url: string): string {
  for (const [prefix, mark] of [['/api/v1/platform', 'platform:'], ['/v1/platform', 'platform:'], ['/api/v2', 'v2:'], ['/v2', 'v2:'], ['/api/v1', '']] as const) {
    if (url.startsWith(prefix + '/')) return mark + url.slice(prefix.length);
  }
  return url;
}

/** Routes that take no API key or hold no tenant data, and why they are not tried with another tenant's ids. */
const EXEMPT: Array<[RegExp, string]> = [
  [/^\/info(\/health)?$/, 'server information, no tenant data'],
  [/^(v2:)?\/public\/:token\//, 'public share reads: the share token is the capability (the owner shares and unshares)'],
  [/^\/feedback\/tokens\/:token$/, 'presigned feedback URL: the token is the capability, until it expires'],
  [/^\/attachments\/:hash$/, 'content-addressed attachment bytes: the SHA-256 is the capability'],
  [/^\/(o\/:tenant\/|prompts\/:repo|hub\/:owner\/:repo)/, 'read-only web pages for "Open in LangSmith" links: a browser sends no API key (documented in server/README.md)'],
  [/^\/v1\/(models|chat)/, 'OpenAI-compatible chat endpoint: stores and reads nothing'],
  [/^\/__local\//, 'server-wide test switches (fault injection, counters), not tenant data'],
  [/^\/(\.well-known\/oauth-authorization-server|oauth\/(token|device\/code))$/, 'OAuth metadata and token endpoints: no API key; a refresh token is the credential (test/server/oauth.test.ts)'],
];
const exemptReason = (base: string) => EXEMPT.find(([re]) => re.test(base))?.[1];

/** Routes without an id in the path that take no id of a tenant's object at all. */
const NO_IDS = new Set([
  'GET /settings', 'GET /workspaces', 'GET /workspaces/current/shared', 'GET /workspaces/current/members', 'GET /sessions', 'GET /datasets', 'GET /annotation-queues',
  'GET /feedback', 'GET /feedback-configs', 'GET /repos', 'POST /repos', 'POST /datasets/upload', 'POST /feedback-configs',
]);

interface Ids {
  project: string;
  run: string;
  child: string;
  dataset: string;
  example: string;
  example2: string;
  feedback: string;
  feedbackToken: string;
  queue: string;
  queueRun: string;
  comparative: string;
  experiments: string[];
  runShare: string;
  datasetShare: string;
  repo: string;
  commitId: string;
  commitHash: string;
  promptTag: string;
  publicRepo: string;
  publicCommitId: string;
  publicCommitHash: string;
  publicTag: string;
  attachmentHashes: string[];
}

interface Own {
  project: string;
  run: string;
  dataset: string;
  queue: string;
  experiment: string;
}

type Body = { json?: unknown; form?: () => FormData };

const json = (v: unknown): Body => ({ json: v });
const blob = (v: unknown) => new Blob([JSON.stringify(v)], { type: 'application/json' });

/** A valid body for each write route, so validation passes and the tenant check is what answers. */
function bodyFor(method: string, base: string, a: Ids, b: Own, repo: 'private' | 'public'): Body | undefined {
  const commitId = repo === 'public' ? a.publicCommitId : a.commitId;
  const bodies: Record<string, Body> = {
    'PATCH /sessions/:id': json({ description: 'B was here' }),
    'POST /annotation-queues/status/:queueRunId': json({ status: 'completed' }),
    'POST platform:/annotation-queues/:id/items': json({ items: [{ run_id: b.run }] }),
    'PATCH platform:/annotation-queues/:id/items/:itemId': json({}),
    'POST platform:/annotation-queues/items/:itemId/status': json({ status: 'completed' }),
    'POST platform:/annotation-queues/:id/items/delete': json({ item_ids: [a.queueRun] }),
    'POST platform:/annotation-queues/:id/reviewers': json({ identity_id: A_USER }),
    'PATCH /runs/:id': json({ outputs: { b: 1 } }),
    'PUT /runs/:id/share': json({}),
    'PATCH /datasets/:id': json({ description: 'B was here' }),
    'PUT /datasets/:id/share': json({}),
    'PUT /datasets/:id/tags': json({ as_of: 'latest', tag: 'b-tag' }),
    'PUT /datasets/:id/splits': json({ split_name: 'b-split', examples: [a.example] }),
    'POST /datasets/:id/index': json({}),
    'POST /datasets/:id/search': json({ inputs: { q: 'secret question' } }),
    'PATCH /feedback/:id': json({ score: 0 }),
    'PATCH /annotation-queues/:id': json({ name: 'b-renamed' }),
    'POST /annotation-queues/:id/runs': json([b.run]),
    'POST /annotation-queues/:id/runs/by-key': json([{ run_id: b.run, session_id: b.project, start_time: new Date().toISOString() }]),
    'PATCH /annotation-queues/:id/runs/:queueRunId': json({}),
    'PATCH /repos/:owner/:repo': json({ description: 'B was here' }),
    'POST /commits/:owner/:repo': json({ manifest: { b: 1 } }),
    'POST /repos/:owner/:repo/tags': json({ tag_name: 'b-tag', commit_id: commitId }),
    'PATCH /repos/:owner/:repo/tags/:tag': json({ commit_id: commitId }),
    'POST /likes/:owner/:repo': json({ like: true }),
    'POST platform:/datasets/:id/examples': {
      form: () => {
        const fd = new FormData();
        const id = crypto.randomUUID();
        fd.append(`${id}.inputs`, blob({ q: 'from B' }));
        return fd;
      },
    },
    'PATCH platform:/datasets/:id/examples': {
      form: () => {
        const fd = new FormData();
        fd.append(`${a.example}.inputs`, blob({ q: 'changed by B' }));
        return fd;
      },
    },
  };
  return bodies[`${method} ${base}`];
}

/** The query a GET route with an id in its path needs to get past validation (so the tenant check answers). */
const QUERY_FOR: Record<string, string> = {
  'GET platform:/annotation-queues/:id/items': '?status=needs_my_review',
  'GET platform:/annotation-queues/:id/items/count': '?status=all',
};

/** Which of A's ids goes into a path parameter: keyed by the last literal segment before it and its name. */
function paramsFor(a: Ids, repo: 'private' | 'public'): Record<string, string> {
  return {
    'sessions:id': a.project,
    'runs:id': a.run,
    'traces:trace_id': a.run,
    'threads:thread_id': 'a-secret-thread',
    'datasets:id': a.dataset,
    'comparative:id': a.comparative,
    'examples:id': a.example,
    'feedback:id': a.feedback,
    'annotation-queues:id': a.queue,
    'runs:queueRunId': a.queueRun,
    'status:queueRunId': a.queueRun,
    'items:itemId': a.queueRun,
    'reviewers:identityId': A_USER,
    'run:index': '0',
    'repos:owner': 'local',
    'repos:repo': repo === 'public' ? a.publicRepo : a.repo,
    'tags:tag': repo === 'public' ? a.publicTag : a.promptTag,
    'commits:owner': 'local',
    'commits:repo': repo === 'public' ? a.publicRepo : a.repo,
    'commits:ref': repo === 'public' ? a.publicCommitHash : a.commitHash,
    'likes:owner': 'local',
    'likes:repo': repo === 'public' ? a.publicRepo : a.repo,
  };
}

/** The URL with A's ids in it, or the parameters nobody said how to fill. */
function fill(url: string, params: Record<string, string>): { path: string; missing: string[] } {
  let last = '';
  const missing: string[] = [];
  const path = url
    .split('/')
    .map((seg) => {
      if (!seg.startsWith(':')) {
        if (seg) last = seg;
        return seg;
      }
      const key = `${last}:${seg.slice(1)}`;
      if (!(key in params)) missing.push(key);
      return encodeURIComponent(params[key] ?? 'unknown');
    })
    .join('/');
  return { path, missing };
}

/** Every row of every table, to show that nothing changed. */
function snapshot(srv: LocalServer): Record<string, unknown[]> {
  const db = srv.server.db;
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>;
  return Object.fromEntries(tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}"`).all()]));
}

describe('tenant isolation: the other workspace tries our ids on every route', function () {
  this.timeout(120_000);
  const srv = withLocalServer();
  const a = {} as Ids;
  const b = {} as Own;
  let routes: Route[];

  const asA = async (method: string, path: string, body?: unknown, form?: FormData): Promise<RawResponse> => {
    const r = await rawRequest(srv(), method, path, body, form ? { rawBody: form } : {});
    assert.ok(r.status >= 200 && r.status < 300, `A: ${method} ${path} → ${r.status} ${r.text.slice(0, 300)}`);
    return r;
  };
  const asB = (method: string, path: string, body?: Body, headers?: Record<string, string>) =>
    rawRequest(srv(), method, path, body?.json, { apiKey: srv().otherApiKey, ...(body?.form ? { rawBody: body.form() } : {}), ...(headers ? { headers } : {}) });

  /** A's ids and the names and tokens that only A's data holds: none may appear in an answer to B. */
  const secrets = () => [
    a.project, a.run, a.child, a.dataset, a.example, a.example2, a.feedback, a.feedbackToken, a.queue, a.queueRun, a.comparative,
    ...a.experiments, a.runShare, a.datasetShare, a.repo, a.commitId, a.commitHash, a.promptTag, 'a-secret-feedback-key',
    'a-secret-dataset-tag', 'a-secret-thread', 'a secret question', 'a secret run input', 'a-secret-project', 'a-secret-dataset', 'a-secret-queue',
    ...a.attachmentHashes,
  ];
  const leaks = (r: RawResponse) => (r.status >= 200 && r.status < 300 ? secrets().filter((s) => r.text.toLowerCase().includes(s.toLowerCase())) : []);

  before(async () => {
    routes = routesOf(srv().server.app);
    // A project with a trace of two runs (the root with an attachment), shared.
    a.project = (await asA('POST', '/sessions', { name: 'a-secret-project' })).body.id;
    a.run = crypto.randomUUID();
    a.child = crypto.randomUUID();
    const runs = new FormData();
    runs.append(`post.${a.run}`, blob({ name: 'a-root', run_type: 'chain', inputs: { q: 'a secret run input' }, extra: { metadata: { thread_id: 'a-secret-thread' } }, session_id: a.project, start_time: new Date().toISOString() }));
    runs.append(`attachment.${a.run}.note`, new Blob(['a-run-attachment-bytes'], { type: 'text/plain' }));
    await asA('POST', '/runs/multipart', undefined, runs);
    await asA('POST', '/runs', { id: a.child, parent_run_id: a.run, name: 'a-child', run_type: 'llm', inputs: {}, session_id: a.project });
    await asA('PATCH', `/runs/${a.run}`, { outputs: { answer: 42 }, end_time: new Date().toISOString() });
    a.runShare = (await asA('PUT', `/runs/${a.run}/share`, {})).body.share_token;
    // A dataset with two examples (one with an attachment), a split, a tagged version, an index, shared.
    a.dataset = (await asA('POST', '/datasets', { name: 'a-secret-dataset' })).body.id;
    a.example = crypto.randomUUID();
    a.example2 = crypto.randomUUID();
    const examples = new FormData();
    examples.append(`${a.example}.inputs`, blob({ q: 'a secret question' }));
    examples.append(`${a.example}.outputs`, blob({ a: 'an answer' }));
    examples.append(`${a.example}.attachment.file`, new Blob(['a-example-attachment-bytes'], { type: 'text/plain' }));
    examples.append(`${a.example2}.inputs`, blob({ q: 'another' }));
    await asA('POST', `/v1/platform/datasets/${a.dataset}/examples`, undefined, examples);
    await asA('PUT', `/datasets/${a.dataset}/splits`, { split_name: 'train', examples: [a.example] });
    await asA('PUT', `/datasets/${a.dataset}/tags`, { as_of: 'latest', tag: 'a-secret-dataset-tag' });
    await asA('POST', `/datasets/${a.dataset}/index`, {});
    a.datasetShare = (await asA('PUT', `/datasets/${a.dataset}/share`, {})).body.share_token;
    const ex = (await asA('GET', `/examples/${a.example}`)).body;
    const run = (await asA('GET', `/runs/${a.run}`)).body;
    a.attachmentHashes = [ex.attachment_urls['attachment.file'].presigned_url, run.s3_urls['attachment.note'].presigned_url].map(
      (u: string) => /\/attachments\/([0-9a-f]{64})/.exec(u)![1]!,
    );
    // Feedback, a feedback config, a feedback token.
    a.feedback = (await asA('POST', '/feedback', { run_id: a.run, key: 'a-secret-feedback-key', score: 1 })).body.id;
    await asA('POST', '/feedback-configs', { feedback_key: 'a-secret-feedback-key', feedback_config: { type: 'continuous', min: 0, max: 1 } });
    a.feedbackToken = (await asA('POST', '/feedback/tokens', { run_id: a.run, feedback_key: 'a-token-key' })).body.id;
    // An annotation queue with the run in it.
    a.queue = (await asA('POST', '/annotation-queues', { name: 'a-secret-queue' })).body.id;
    a.queueRun = (await asA('POST', `/annotation-queues/${a.queue}/runs`, [a.run])).body[0].id;
    // Two experiments on the dataset and a comparative experiment of them.
    a.experiments = [];
    for (const name of ['a-exp-1', 'a-exp-2']) a.experiments.push((await asA('POST', '/sessions', { name, reference_dataset_id: a.dataset })).body.id);
    a.comparative = (await asA('POST', '/datasets/comparative', { name: 'a-comparison', experiment_ids: a.experiments })).body.id;
    // A private prompt and a public one, each with a commit and a commit tag.
    for (const [field, handle, isPublic] of [['', 'a-secret-prompt', false], ['public', 'a-public-prompt', true]] as const) {
      await asA('POST', '/repos', { repo_handle: handle, is_public: isPublic });
      const commit = (await asA('POST', `/commits/-/${handle}`, { manifest: { lc: 1, type: 'constructor', id: ['x', handle] } })).body.commit;
      const tag = `${handle}-tag`;
      await asA('POST', `/repos/-/${handle}/tags`, { tag_name: tag, commit_id: commit.id });
      if (field) Object.assign(a, { publicRepo: handle, publicCommitId: commit.id, publicCommitHash: commit.commit_hash, publicTag: tag });
      else Object.assign(a, { repo: handle, commitId: commit.id, commitHash: commit.commit_hash, promptTag: tag });
    }
    // B's own objects, to put A's ids into.
    const own = async (method: string, path: string, body?: unknown) => {
      const r = await asB(method, path, json(body));
      assert.ok(r.status < 300, `B: ${method} ${path} → ${r.status} ${r.text}`);
      return r.body;
    };
    b.project = (await own('POST', '/sessions', { name: 'b-project' })).id;
    b.run = crypto.randomUUID();
    await own('POST', '/runs', { id: b.run, name: 'b-run', run_type: 'chain', inputs: {}, session_id: b.project });
    b.dataset = (await own('POST', '/datasets', { name: 'b-dataset' })).id;
    b.queue = (await own('POST', '/annotation-queues', { name: 'b-queue' })).id;
    b.experiment = (await own('POST', '/sessions', { name: 'b-exp', reference_dataset_id: b.dataset })).id;
  });

  it('reads the route table (and every route is either covered below or exempt with a reason)', () => {
    assert.ok(routes.length > 150, `${routes.length} routes`);
    for (const r of ['GET /sessions/:id', 'PATCH /api/v1/runs/:id', 'POST /v1/platform/datasets/:id/examples', 'GET /v2/runs/:id', 'GET /public/:token/run', 'PUT /__local/faults']) {
      assert.ok(routes.some((x) => `${x.method} ${x.url}` === r), r);
    }
  });

  it('every route but the exempt ones needs an API key', async () => {
    const open: string[] = [];
    const params = paramsFor(a, 'private');
    for (const r of routes) {
      const base = baseOf(r.url);
      if (exemptReason(base)) continue;
      const { path } = fill(r.url, params);
      const res = await rawRequest(srv(), r.method, path, r.method === 'GET' || r.method === 'DELETE' ? undefined : {}, { apiKey: null });
      if (res.status !== 401) open.push(`${r.method} ${r.url} → ${res.status}`);
    }
    assert.deepEqual(open, []);
  });

  it("B gets 404 for A's ids on every route with an id in its path, sees none of A's data, and changes nothing", async () => {
    const before = snapshot(srv());
    const failures: string[] = [];
    const params = paramsFor(a, 'private');
    let tried = 0;
    for (const r of routes) {
      const base = baseOf(r.url);
      if (exemptReason(base) || !r.url.includes('/:')) continue;
      const { path, missing } = fill(r.url, params);
      if (missing.length) {
        failures.push(`${r.method} ${r.url}: which of A's ids goes into ${missing.join(', ')}? Add it to paramsFor (and check the route's tenant rule)`);
        continue;
      }
      const body = r.method === 'GET' || r.method === 'DELETE' ? undefined : (bodyFor(r.method, base, a, b, 'private') ?? json({}));
      const res = await asB(r.method, path + (QUERY_FOR[`${r.method} ${base}`] ?? ''), body);
      tried++;
      if (res.status !== 404) failures.push(`${r.method} ${path} → ${res.status} ${res.text.slice(0, 200)}`);
      const leaked = leaks(res);
      if (leaked.length) failures.push(`${r.method} ${path} leaks ${leaked.join(', ')}`);
    }
    assert.deepEqual(failures, []);
    assert.ok(tried > 80, `${tried} routes tried`);
    assert.deepEqual(snapshot(srv()), before, "B's requests changed the database");
  });

  it("B's lists and queries filtered by A's ids are empty; A's ids inside B's own objects are 404 (409 for an id A's object already has); nothing changes", async () => {
    const before = snapshot(srv());
    const form = (parts: Record<string, unknown>) => ({
      form: () => {
        const fd = new FormData();
        for (const [name, v] of Object.entries(parts)) fd.append(name, blob(v));
        return fd;
      },
    });
    const start = new Date().toISOString();
    /** Routes without an id in the path: what B sends with A's ids in the query or the body, and the answer. */
    const cases: Record<string, Array<{ path?: string; body?: Body; status: number | 'ok' }>> = {
      'POST /sessions': [
        { body: json({ name: 'b-x', reference_dataset_id: a.dataset }), status: 404 },
        { body: json({ name: 'b-y', default_dataset_id: a.dataset }), status: 404 },
        { body: json({ name: 'b-z', id: a.project }), status: 409 },
      ],
      'POST /runs': [
        { body: json({ name: 'b', run_type: 'chain', inputs: {}, session_id: a.project }), status: 404 },
        { body: json({ id: a.run, name: 'b', run_type: 'chain', inputs: {} }), status: 409 },
      ],
      'POST /runs/batch': [
        { body: json({ patch: [{ id: a.run, outputs: { b: 1 } }] }), status: 404 },
        { body: json({ post: [{ id: crypto.randomUUID(), name: 'b', run_type: 'chain', inputs: {}, session_id: a.project }] }), status: 404 },
      ],
      'POST /runs/multipart': [
        { body: form({ [`patch.${a.run}`]: { outputs: { b: 1 } } }), status: 404 },
        { body: form({ [`post.${a.child}`]: { name: 'b', run_type: 'chain', inputs: {} } }), status: 409 },
      ],
      'POST /runs/query': [
        { body: json({ session: [a.project] }), status: 'ok' },
        { body: json({ id: [a.run, a.child] }), status: 'ok' },
        { body: json({ trace: [a.run] }), status: 'ok' },
        { body: json({ parent_run: [a.run] }), status: 'ok' },
        { body: json({ reference_example: [a.example] }), status: 'ok' },
        { body: json({ filter: `eq(id, "${a.run}")` }), status: 'ok' },
      ],
      'POST /runs/stats': [
        { body: json({ session: [a.project] }), status: 'ok' },
        { body: json({ id: [a.run, a.child], group_by: { attribute: 'name' } }), status: 'ok' },
        { body: json({ trace: a.run, group_by: { attribute: 'metadata', path: 'secret' } }), status: 'ok' },
        { body: json({ filter: `eq(id, "${a.run}")`, group_by: { attribute: 'tag' } }), status: 'ok' },
      ],
      'POST v2:/runs/query': [
        { body: json({ project_ids: [a.project] }), status: 'ok' },
        { body: json({ ids: [a.run] }), status: 'ok' },
        { body: json({ trace_id: a.run }), status: 'ok' },
      ],
      'POST v2:/traces/query': [{ body: json({ project_id: a.project }), status: 'ok' }, { body: json({ project_id: b.project, trace_ids: [a.run] }), status: 'ok' }],
      'POST v2:/threads/query': [{ body: json({ project_id: a.project }), status: 'ok' }],
      'GET /sessions': [{ path: `?id=${a.project}`, status: 'ok' }, { path: `?reference_dataset=${a.dataset}`, status: 'ok' }, { path: '?name=a-secret-project', status: 'ok' }],
      'GET /datasets': [{ path: `?id=${a.dataset}`, status: 'ok' }, { path: '?name=a-secret-dataset', status: 'ok' }],
      'POST /datasets': [{ body: json({ name: 'b-ds', id: a.dataset }), status: 409 }],
      'POST /datasets/comparative': [
        { body: json({ experiment_ids: a.experiments }), status: 404 },
        { body: json({ experiment_ids: [b.experiment], reference_dataset_id: a.dataset }), status: 404 },
        { body: json({ id: a.comparative, experiment_ids: [b.experiment] }), status: 409 },
      ],
      'GET /examples': [{ path: `?dataset=${a.dataset}`, status: 404 }, { path: `?id=${a.example}&id=${a.example2}`, status: 'ok' }],
      'DELETE /examples': [{ path: `?example_ids=${a.example}`, status: 404 }],
      'GET /examples/count': [{ path: `?dataset=${a.dataset}`, status: 404 }],
      'POST platform:/datasets/examples/delete': [
        { body: json({ example_ids: [a.example] }), status: 404 },
        { body: json({ example_ids: [a.example2], hard_delete: true }), status: 404 },
      ],
      'POST /feedback': [
        { body: json({ run_id: a.run, key: 'b' }), status: 404 },
        { body: json({ session_id: a.project, key: 'b' }), status: 404 },
        { body: json({ run_id: b.run, key: 'b', comparative_experiment_id: a.comparative }), status: 404 },
        { body: json({ id: a.feedback, run_id: b.run, key: 'b' }), status: 409 },
      ],
      'GET /feedback': [{ path: `?run=${a.run}`, status: 'ok' }, { path: `?session=${a.project}`, status: 'ok' }, { path: `?comparative_experiment_id=${a.comparative}`, status: 'ok' }, { path: '?key=a-secret-feedback-key', status: 'ok' }],
      'POST /feedback/tokens': [{ body: json({ run_id: a.run, feedback_key: 'b' }), status: 404 }],
      'GET /feedback/tokens': [{ path: `?run_id=${a.run}`, status: 404 }],
      'PATCH /feedback-configs': [{ body: json({ feedback_key: 'a-secret-feedback-key', feedback_config: { type: 'freeform' } }), status: 404 }],
      'DELETE /feedback-configs': [{ path: '?feedback_key=a-secret-feedback-key', status: 404 }],
      'GET /feedback-configs': [{ path: '?key=a-secret-feedback-key', status: 'ok' }],
      'POST /annotation-queues': [{ body: json({ name: 'b-q', id: a.queue }), status: 409 }],
      'GET /annotation-queues': [{ path: `?ids=${a.queue}`, status: 'ok' }, { path: '?name=a-secret-queue', status: 'ok' }],
      'DELETE /annotation-queues': [{ path: `?queue_ids=${a.queue}`, status: 404 }],
      'GET /repos': [{ path: '?tenant_handle=local', status: 'ok' }, { path: '?is_public=true', status: 'ok' }, { path: '?query=a-secret', status: 'ok' }],
    };
    /** A's ids inside B's own objects (routes with B's id in the path). */
    const inOwn: Array<[string, string, Body, number, Record<string, string>?]> = [
      ['POST', `/annotation-queues/${b.queue}/runs`, json([a.run]), 404],
      ['POST', `/annotation-queues/${b.queue}/runs/by-key`, json([{ run_id: a.run, session_id: a.project, start_time: start }]), 404],
      ['PATCH', `/annotation-queues/${b.queue}/runs/${a.queueRun}`, json({}), 404],
      ['DELETE', `/annotation-queues/${b.queue}/runs/${a.run}`, json(undefined), 404],
      ['POST', `/v1/platform/annotation-queues/${b.queue}/items`, json({ items: [{ run_id: a.run }] }), 404],
      ['PATCH', `/v1/platform/annotation-queues/${b.queue}/items/${a.queueRun}`, json({}), 404],
      ['POST', `/v1/platform/annotation-queues/${b.queue}/items/delete`, json({ item_ids: [a.queueRun] }), 200],
      // The queues a run is in: its path takes a run id.
      ['GET', `/annotation-queues/${a.run}/queues`, json(undefined), 404],
      ['PUT', `/datasets/${b.dataset}/splits`, json({ split_name: 'x', examples: [a.example] }), 404],
      ['PATCH', `/v1/platform/datasets/${b.dataset}/examples`, form({ [`${a.example}.inputs`]: { q: 'B' } }), 404],
      ['POST', `/v1/platform/datasets/${b.dataset}/examples`, form({ [crypto.randomUUID()]: { source_run_id: a.run, use_source_run_io: true } }), 404],
      ['POST', `/v1/platform/datasets/${b.dataset}/examples`, form({ [crypto.randomUUID()]: { source_run_id: a.run, use_source_run_attachments: ['note'] }, }), 404],
      ['POST', `/v1/platform/datasets/${b.dataset}/examples`, form({ [`${a.example}.inputs`]: { q: 'B' } }), 409],
      ['PATCH', `/sessions/${b.project}`, json({ default_dataset_id: a.dataset }), 404],
      ['GET', `/runs/${b.run}?project_id=${a.project}`, json(undefined), 200],
      ['GET', `/v2/runs/${b.run}?project_id=${a.project}`, json(undefined), 404],
      ['GET', `/datasets/${b.dataset}/comparative?id=${a.comparative}`, json(undefined), 200],
      ['GET', `/commits/local/${a.publicRepo}/${a.commitHash}`, json(undefined), 404],
      // B's key naming A's workspace.
      ['GET', '/sessions', json(undefined), 403, { 'x-tenant-id': srv().tenantId }],
      ['POST', '/datasets', json({ name: 'b-in-a' }), 403, { 'x-tenant-id': srv().tenantId }],
    ];
    const failures: string[] = [];
    const seen = new Set<string>();
    for (const r of routes) {
      const base = baseOf(r.url);
      const key = `${r.method} ${base}`;
      if (exemptReason(base) || r.url.includes('/:') || seen.has(key)) continue;
      seen.add(key);
      const list = cases[key];
      if (!list && !NO_IDS.has(key)) {
        failures.push(`${key}: takes no id in its path; add what B sends with A's ids to the cases (or to NO_IDS if it takes none)`);
        continue;
      }
      // A route that takes no ids: its reads must still show B nothing of A's.
      for (const c of list ?? (r.method === 'GET' ? [{ status: 'ok' as const }] : [])) {
        const res = await asB(r.method, r.url + (c.path ?? ''), c.body);
        const ok = c.status === 'ok' ? res.status >= 200 && res.status < 300 : res.status === c.status;
        if (!ok) failures.push(`${key}${c.path ?? ''} ${JSON.stringify(c.body?.json ?? '')} → ${res.status} (expected ${c.status}) ${res.text.slice(0, 200)}`);
        const leaked = leaks(res);
        if (leaked.length) failures.push(`${key}${c.path ?? ''} leaks ${leaked.join(', ')}`);
      }
    }
    for (const key of Object.keys(cases)) if (!seen.has(key)) failures.push(`case for ${key}, which is not a route (any more)`);
    for (const [method, path, body, status, headers] of inOwn) {
      const res = await asB(method, path, body, headers);
      if (res.status !== status) failures.push(`${method} ${path} → ${res.status} (expected ${status}) ${res.text.slice(0, 200)}`);
      const leaked = leaks(res);
      if (leaked.length) failures.push(`${method} ${path} leaks ${leaked.join(', ')}`);
    }
    assert.deepEqual(failures, []);
    assert.deepEqual(snapshot(srv()), before, "B's requests changed the database");
  });

  it("A's public prompt: B reads and likes it (200), every write is 403, and A's repo, commits and tags stay as they were", async () => {
    const view = async () => {
      const repo = (await asA('GET', `/repos/-/${a.publicRepo}`)).body.repo;
      const commits = (await asA('GET', `/commits/-/${a.publicRepo}`)).body;
      const tags = (await asA('GET', `/repos/-/${a.publicRepo}/tags`)).body;
      return { repo: { ...repo, num_likes: 0, num_downloads: 0, liked_by_auth_user: false }, commits, tags };
    };
    const before = await view();
    const failures: string[] = [];
    const params = paramsFor(a, 'public');
    for (const r of routes) {
      const base = baseOf(r.url);
      if (exemptReason(base) || !/:owner\/:repo/.test(r.url)) continue;
      const { path } = fill(r.url, params);
      const body = r.method === 'GET' || r.method === 'DELETE' ? undefined : (bodyFor(r.method, base, a, b, 'public') ?? json({}));
      const res = await asB(r.method, path, body);
      const expected = r.method === 'GET' || base === '/likes/:owner/:repo' ? 200 : 403;
      if (res.status !== expected) failures.push(`${r.method} ${path} → ${res.status} (expected ${expected}) ${res.text.slice(0, 200)}`);
    }
    assert.deepEqual(failures, []);
    assert.deepEqual(await view(), before);
  });

  it("what B may write with A's ids in it (a parent run, a trace id, feedback for a run not there yet) never shows in A's views", async () => {
    // A's views of its trace and project, before.
    const open = async (path: string) => {
      const r = await rawRequest(srv(), 'GET', path, undefined, { apiKey: null });
      assert.equal(r.status, 200, `${path}: ${r.text.slice(0, 300)}`);
      return r;
    };
    const aViews = async () => ({
      trace: (await open(`/public/${a.runShare}/runs`)).text,
      child: (await open(`/public/${a.runShare}/run/${a.child}`)).body.id,
      query: (await asA('POST', '/runs/query', { trace: [a.run] })).body.runs.map((r: { id: string }) => r.id).sort(),
      feedbacks: (await open(`/public/${a.runShare}/feedbacks`)).body.map((f: { key: string }) => f.key).sort(),
      page: (await open(`/public/${a.runShare}/r`)).text,
      appPage: (await open(`/o/${srv().tenantId}/projects/p/${a.project}/r/${a.run}`)).text,
    });
    const root = (await asA('GET', `/runs/${a.run}`)).body;
    // B: a run under A's run, and one that names A's trace and dotted order outright.
    const under = crypto.randomUUID();
    const named = crypto.randomUUID();
    const r1 = await asB('POST', '/runs', json({ id: under, parent_run_id: a.run, name: 'b-injected-under', run_type: 'chain', inputs: {}, session_id: b.project }));
    assert.equal(r1.status, 202, r1.text);
    const t = new Date(Date.parse(root.start_time) + 1).toISOString().replace(/[-:]/g, '').replace('.', '').replace('Z', '000Z');
    const r2 = await asB('POST', '/runs', json({
      id: named, parent_run_id: a.run, trace_id: a.run, dotted_order: `${root.dotted_order}.${t}${named}`, name: 'b-injected-named', run_type: 'chain', inputs: {}, session_id: b.project,
    }));
    assert.equal(r2.status, 202, r2.text);
    // B's run under A's parent learns nothing of A's trace.
    const mine = (await asB('GET', `/runs/${under}`)).body;
    assert.notEqual(mine.trace_id, a.run);
    assert.ok(!String(mine.dotted_order ?? '').includes(a.run), mine.dotted_order);
    // B: feedback for a run id that A then creates (feedback may come before its run).
    const future = crypto.randomUUID();
    assert.equal((await asB('POST', '/feedback', json({ run_id: future, key: 'b-injected-feedback', score: 0 }))).status, 200);
    await asA('POST', '/runs', { id: future, parent_run_id: a.run, trace_id: a.run, name: 'a-later', run_type: 'tool', inputs: {}, session_id: a.project });
    const after = await aViews();
    assert.ok(!after.trace.includes('b-injected'), 'shared trace lists B runs');
    assert.ok(!after.page.includes('b-injected') && !after.appPage.includes('b-injected'), "A's trace pages show B's runs");
    assert.ok(after.page.includes('a-later') && after.appPage.includes('a-later') && after.trace.includes('a-later'));
    assert.equal(after.child, a.child);
    assert.deepEqual(after.query, [a.child, a.run, future].sort());
    assert.ok(!after.feedbacks.includes('b-injected-feedback'), "B's feedback shows on A's shared trace");
    assert.equal((await rawRequest(srv(), 'GET', `/public/${a.runShare}/run/${named}`, undefined, { apiKey: null })).status, 404);
    const later = (await asA('GET', `/runs/${future}`)).body;
    assert.deepEqual(later.feedback_stats, {}, "B's feedback counts in A's run stats");
    const project = (await asA('GET', `/sessions/${a.project}?include_stats=true`)).body;
    assert.ok(!('b-injected-feedback' in (project.feedback_stats ?? {})), "B's feedback counts in A's project stats");
    assert.equal((await asA('GET', `/feedback?run=${future}`)).body.length, 0);
    // And A deleting its project leaves B's feedback alone.
    await asA('DELETE', `/sessions/${a.project}`);
    assert.equal((await asB('GET', `/feedback?run=${future}`)).body.length, 1);
  });
});
