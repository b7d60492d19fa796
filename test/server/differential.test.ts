// A differential test: one scenario — a dataset with examples and attachments, an edit (a new version), tags,
// sharing, a traced run with feedback, an annotation queue, a prompt pushed twice with a commit tag — done once
// through the official `langsmith` client and once through the project's client, each against a fresh server.
// Afterwards the two databases must hold the same things: every table's rows, the versions and what each tag
// points at, which objects are shared. Ids and times differ by nature, so they are replaced by what they refer
// to (a row's id by that row's place among its table's rows, a dataset version's time by its number), and the
// few columns each SDK fills with facts about itself (run `extra`, `events`, `serialized`) are left out.
import assert from 'node:assert/strict';
import { Client } from 'langsmith';
import { LangSmithClient } from '../../src/client';
import type { DB } from '../../server/db';
import { startLocalServer, type LocalServer } from '../harness/localServer';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

const EXAMPLES = [
  { inputs: { question: 'What is 2+2?' }, outputs: { answer: '4' }, metadata: { source: 'math' }, split: 'train' },
  { inputs: { question: 'Capital of France?' }, outputs: { answer: 'Paris' }, metadata: { source: 'geo' }, split: 'test' },
  { inputs: { question: 'Describe the picture.' }, outputs: { answer: 'A logo.' }, metadata: { source: 'vision' }, split: 'train' },
];

function chatPrompt(system: string) {
  const message = (cls: string, template: string, vars: string[]) => ({
    lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'chat', cls],
    kwargs: { prompt: { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'prompt', 'PromptTemplate'], kwargs: { template, template_format: 'f-string', input_variables: vars } } },
  });
  return {
    lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'chat', 'ChatPromptTemplate'],
    kwargs: { input_variables: ['question'], messages: [message('SystemMessagePromptTemplate', system, []), message('HumanMessagePromptTemplate', '{question}', ['question'])] },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The scenario through the official client. */
async function throughOfficial(srv: LocalServer): Promise<void> {
  const c = new Client({ apiUrl: srv.url, apiKey: srv.apiKey, autoBatchTracing: false, timeout_ms: 20_000 });
  const ds = await c.createDataset('qa', { description: 'Questions and answers', metadata: { owner: 'team-a' } });
  const created = await c.createExamples({
    datasetId: ds.id,
    inputs: EXAMPLES.map((e) => e.inputs),
    outputs: EXAMPLES.map((e) => e.outputs),
    metadata: EXAMPLES.map((e) => e.metadata),
    splits: EXAMPLES.map((e) => e.split),
  });
  const byQuestion = new Map(created.map((e) => [String(e.inputs.question), e.id]));
  await sleep(5);
  await c.updateExample({ id: byQuestion.get('Describe the picture.')!, dataset_id: ds.id, attachments: { 'logo.png': ['image/png', PNG] } });
  await sleep(5);
  await c.updateExample({ id: byQuestion.get('What is 2+2?')!, dataset_id: ds.id, outputs: { answer: 'Four' } });
  const versions = await versionTimes(srv, ds.id);
  await c.updateDatasetTag({ datasetId: ds.id, asOf: versions[0]!, tag: 'v1' });
  await c.updateDatasetTag({ datasetId: ds.id, asOf: versions[versions.length - 1]!, tag: 'prod' });
  await c.shareDataset(ds.id);

  const project = await c.createProject({ projectName: 'support-bot', description: 'Production traces' });
  const runId = crypto.randomUUID();
  const start = new Date();
  await c.createRun({ id: runId, name: 'answer', run_type: 'chain', inputs: { question: 'Hi?' }, project_name: project.name, start_time: start.getTime() });
  await c.updateRun(runId, { outputs: { answer: 'Hello!' }, end_time: start.getTime() + 250 });
  await c.createFeedback(runId, 'correctness', { score: 1, comment: 'right answer' });
  await c.shareRun(runId);
  const queue = await c.createAnnotationQueue({ name: 'review', description: 'Needs a second look' });
  await c.addRunsToAnnotationQueue(queue.id, [runId]);

  await c.createPrompt('summarizer', { description: 'Summarizes', tags: ['text'] });
  await c.pushPrompt('summarizer', { object: chatPrompt('Summarize briefly.') });
  await c.pushPrompt('summarizer', { object: chatPrompt('Summarize in one line.'), commitTags: ['production'] });
}

/** The same scenario through the project's client. */
async function throughOurs(srv: LocalServer): Promise<void> {
  const c = new LangSmithClient({ apiUrl: srv.url, apiKey: srv.apiKey });
  const ds = await c.datasets.create({ name: 'qa', description: 'Questions and answers', metadata: { owner: 'team-a' } });
  const created = await c.examples.create({ datasetId: ds.id, examples: EXAMPLES.map((e) => ({ ...e })) });
  const ids = created.example_ids;
  const byQuestion = new Map(EXAMPLES.map((e, i) => [e.inputs.question, ids[i]!]));
  await sleep(5);
  await c.examples.update({ datasetId: ds.id, updates: [{ id: byQuestion.get('Describe the picture.')!, attachments: { 'logo.png': { mimeType: 'image/png', data: PNG } } }] });
  await sleep(5);
  await c.examples.update({ datasetId: ds.id, updates: [{ id: byQuestion.get('What is 2+2?')!, outputs: { answer: 'Four' } }] });
  const versions = await versionTimes(srv, ds.id);
  await c.datasets.updateTag({ datasetId: ds.id, asOf: versions[0]!, tag: 'v1' });
  await c.datasets.updateTag({ datasetId: ds.id, asOf: versions[versions.length - 1]!, tag: 'prod' });
  await c.datasets.share({ datasetId: ds.id });

  const project = await c.projects.create({ name: 'support-bot', description: 'Production traces' });
  const tracer = c.createTracer({ manualFlush: true, projectName: project.name });
  const start = new Date();
  const run = tracer.startRun({ name: 'answer', runType: 'chain', inputs: { question: 'Hi?' }, startTime: start });
  run.end({ outputs: { answer: 'Hello!' }, endTime: new Date(start.getTime() + 250) }).post();
  await tracer.flush();
  await c.feedback.create({ runId: run.id, key: 'correctness', score: 1, comment: 'right answer' });
  await c.runs.share(run.id);
  const queue = await c.annotationQueues.create({ name: 'review', description: 'Needs a second look' });
  await c.annotationQueues.addRuns(queue.id, [run.id]);

  await c.prompts.create('summarizer', { description: 'Summarizes', tags: ['text'] });
  await c.prompts.push('summarizer', { manifest: chatPrompt('Summarize briefly.') });
  await c.prompts.push('summarizer', { manifest: chatPrompt('Summarize in one line.') });
  const [latest] = await collect(c.prompts.listCommits('summarizer', { limit: 1 }));
  if (!latest?.id) throw new Error('the pushed commit is not listed');
  await c.prompts.createTag('summarizer', { tagName: 'production', commitId: latest.id });
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The dataset's version times, oldest first (what a user picks from when tagging). */
async function versionTimes(srv: LocalServer, datasetId: string): Promise<string[]> {
  const rows = srv.server.db.prepare('SELECT as_of FROM dataset_versions WHERE dataset_id = ? ORDER BY as_of').all(datasetId) as { as_of: string }[];
  return rows.map((r) => r.as_of);
}

// ---- the snapshot ---------------------------------------------------------------------------------------------

/** Columns each SDK fills with facts about itself (runtime, library versions, its own events): not the scenario. */
const SDK_OWN: Record<string, string[]> = { runs: ['extra', 'events', 'serialized'] };
/** Keys inside a JSON column that an SDK writes about itself (the official client marks its datasets `source: "sdk"`). */
const SDK_OWN_KEYS: Record<string, Record<string, string[]>> = { datasets: { extra: ['source'] } };
/** Counters that only say in which order rows were inserted. */
const ORDINALS = new Set(['seq', 'rev']);
/** Made from the content and the moment of the commit (as LangSmith's are): ids by another name. */
const MINTED = new Set(['commit_hash']);

/** The columns that hold a dataset version's time (as opposed to a moment something happened). */
const VERSION_COLUMNS = new Set(['dataset_versions.as_of', 'dataset_tags.as_of', 'example_revisions.valid_from', 'example_revisions.valid_to']);
/** Tables whose rows are versions of a thing with an id of its own column (an example's revisions). */
const IDENTITY: Record<string, string> = { example_revisions: 'example_id' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const DOTTED = /^\d{8}T\d{6,}Z[0-9a-f-]{36}(\.\d{8}T\d{6,}Z[0-9a-f-]{36})*$/i;

type Row = Record<string, unknown>;

function tables(db: DB): string[] {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'examples_fts%' AND name != 'meta' ORDER BY name").all() as { name: string }[];
  return rows.map((r) => r.name);
}

/**
 * Every table's rows with ids and times replaced by what they stand for, so two databases that went through the
 * same scenario compare equal. First every row is masked (uuids → "<id>", times → "<time>") and sorted, which
 * gives each row a place; an id is then written as "<table>#<place>" wherever it appears. A dataset version time
 * becomes "v<n>" (its number among the dataset's versions) wherever it appears, so tags and example revisions
 * still say which version they belong to.
 */
function snapshot(db: DB): Record<string, unknown[]> {
  const all = new Map<string, Row[]>();
  for (const t of tables(db)) {
    const drop = new Set([...(SDK_OWN[t] ?? [])]);
    const rows = (db.prepare(`SELECT * FROM ${t}`).all() as Row[]).map((r) =>
      Object.fromEntries(Object.entries(r).filter(([k]) => !drop.has(k) && !ORDINALS.has(k)).map(([k, v]) => [k, MINTED.has(k) ? '<minted>' : withoutKeys(v, SDK_OWN_KEYS[t]?.[k])])),
    );
    all.set(t, rows);
  }
  const versionName = new Map<string, string>();
  for (const ds of (all.get('datasets') ?? []) as Row[]) {
    const times = ((all.get('dataset_versions') ?? []) as Row[]).filter((v) => v.dataset_id === ds.id).map((v) => String(v.as_of)).sort();
    times.forEach((t, i) => versionName.set(t, `v${i + 1}`));
  }
  const masked = (v: unknown, column = ''): unknown => {
    if (typeof v === 'string') {
      if (VERSION_COLUMNS.has(column) && versionName.has(v)) return versionName.get(v);
      if (UUID.test(v)) return '<id>';
      if (TIME.test(v)) return '<time>';
      if (DOTTED.test(v)) return '<dotted-order>';
      if (v.startsWith('{') || v.startsWith('[')) {
        try {
          return JSON.stringify(deep(JSON.parse(v), (x) => masked(x)));
        } catch {
          return v;
        }
      }
    }
    return v;
  };
  const label = new Map<string, string>();
  const ordered = new Map<string, Row[]>();
  for (const [t, rows] of all) {
    const keyed = rows.map((r) => ({ r, key: JSON.stringify(Object.entries(r).map(([k, v]) => [k, masked(v, `${t}.${k}`)])) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const idColumn = IDENTITY[t] ?? 'id';
    keyed.forEach(({ r }, i) => {
      const id = r[idColumn];
      if (typeof id === 'string' && UUID.test(id) && !label.has(id.toLowerCase())) label.set(id.toLowerCase(), `${t}#${i}`);
    });
    ordered.set(t, keyed.map((k) => k.r));
  }
  const named = (v: unknown, column = ''): unknown => {
    if (typeof v === 'string') {
      if (VERSION_COLUMNS.has(column) && versionName.has(v)) return versionName.get(v);
      if (UUID.test(v)) return label.get(v.toLowerCase()) ?? '<id>';
      if (TIME.test(v)) return '<time>';
      if (DOTTED.test(v)) return v.split('.').map((seg) => label.get(seg.slice(-36).toLowerCase()) ?? '<id>').join('.');
      if (v.startsWith('{') || v.startsWith('[')) {
        try {
          return deep(JSON.parse(v), (x) => named(x));
        } catch {
          return v;
        }
      }
    }
    if (v instanceof Uint8Array) return `<${v.length} bytes>`;
    return v;
  };
  const out: Record<string, unknown[]> = {};
  for (const [t, rows] of ordered) out[t] = rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, named(v, `${t}.${k}`)])));
  return out;
}

function withoutKeys(v: unknown, keys: string[] | undefined): unknown {
  if (!keys || typeof v !== 'string') return v;
  const o = JSON.parse(v) as Record<string, unknown>;
  for (const k of keys) delete o[k];
  return JSON.stringify(o);
}

/** Applies `f` to every string inside a JSON value (keys too, so ids used as keys are named as well). */
function deep(v: unknown, f: (s: unknown) => unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => deep(x, f));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [String(f(k)), deep(x, f)]));
  return f(v);
}

describe('differential: the same scenario through the official client and through ours leaves equal servers', function () {
  this.timeout(60_000);
  let official: LocalServer;
  let ours: LocalServer;
  before(async () => {
    [official, ours] = await Promise.all([startLocalServer(), startLocalServer()]);
  });
  after(async () => {
    await Promise.all([official?.close(), ours?.close()]);
  });

  it('rows, versions, tags and share tokens are the same (ids and times aside)', async () => {
    await throughOfficial(official);
    await throughOurs(ours);
    const a = snapshot(official.server.db);
    const b = snapshot(ours.server.db);
    // The scenario did reach every part it names, so an empty comparison cannot pass.
    for (const t of ['datasets', 'example_revisions', 'dataset_versions', 'dataset_tags', 'blobs', 'sessions', 'runs', 'feedback', 'annotation_queues', 'queue_runs', 'repos', 'commits', 'repo_tags']) {
      assert.ok((a[t] ?? []).length > 0, `the official client's scenario left ${t} empty`);
    }
    assert.equal((a.dataset_versions ?? []).length, 3, 'three dataset versions: the create and two edits');
    assert.ok((a.datasets as Row[]).every((d) => d.share_token === '<id>'), 'the dataset is shared');
    assert.ok((a.runs as Row[]).every((r) => r.share_token === '<id>'), 'the run is shared');
    const differing = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((t) => JSON.stringify(a[t]) !== JSON.stringify(b[t]));
    for (const t of differing) assert.deepEqual(b[t], a[t], `table ${t} differs (all that differ: ${differing.join(', ')})`);
  });
});
