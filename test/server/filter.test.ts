// The filter language end to end: every comparator and combinator on runs (listRuns: filter, traceFilter, treeFilter)
// and on examples (listExamples: filter), through the official client, against seeded rows whose expected answer
// each case computes from the seed itself; and the filters the server does not understand (400 naming the problem).
import assert from 'node:assert/strict';
import type { Client } from 'langsmith';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { client, collect, dottedSegment } from './helpers';

const T0 = new Date('2026-03-01T10:00:00.000Z').getTime();
const iso = (ms: number) => new Date(ms).toISOString();

/** The seeded runs as the test knows them: what each filter is checked against. */
interface SeedRun {
  key: string;
  id: string;
  parent?: string;
  name: string;
  run_type: string;
  start: number;
  end?: number;
  error?: string;
  tags: string[];
  metadata: Record<string, unknown>;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  total_tokens?: number;
  feedback: { key: string; score: number }[];
}

function seedRuns(): SeedRun[] {
  const id = () => crypto.randomUUID();
  const r1 = id();
  const r3 = id();
  return [
    {
      key: 'r1', id: r1, name: 'alpha', run_type: 'llm', start: T0, end: T0 + 1000, tags: ['prod', 'beta'],
      metadata: { user_id: 'u1', env: 'production', n: 3 }, inputs: { q: 'What is Image Classification?' }, outputs: { a: 'cats' },
      total_tokens: 120, feedback: [{ key: 'correctness', score: 1 }, { key: 'helpfulness', score: 0.2 }],
    },
    {
      key: 'r2', id: id(), parent: r1, name: 'beta-tool', run_type: 'tool', start: T0 + 100, end: T0 + 600, error: 'boom',
      tags: ['experimental'], metadata: { user_id: 'u2', env: 'staging' }, inputs: { q: 'lookup' }, outputs: { hits: 0 }, total_tokens: 10, feedback: [],
    },
    {
      key: 'r3', id: r3, name: 'gamma', run_type: 'chain', start: T0 + 2000, end: T0 + 5000, tags: [],
      metadata: { conversation_id: 'c-1', env: 'production', n: 1 }, inputs: { q: 'sourdough' }, outputs: { a: 'starter' },
      feedback: [{ key: 'correctness', score: 0 }, { key: 'helpfulness', score: 0.9 }],
    },
    {
      key: 'r4', id: id(), parent: r3, name: 'extractor', run_type: 'llm', start: T0 + 2500, end: T0 + 4500, tags: ['beta'],
      metadata: { env: 'staging', user_id: 'u1' }, inputs: { text: 'gamma' }, outputs: { a: 'dough' }, total_tokens: 40,
      feedback: [{ key: 'user_score', score: 1 }],
    },
    { key: 'r5', id: id(), name: 'delta', run_type: 'retriever', start: T0 + 6000, tags: [], metadata: {}, inputs: { query: 'x' }, outputs: {}, feedback: [] },
  ];
}

const latency = (r: SeedRun) => (r.end === undefined ? undefined : (r.end - r.start) / 1000);
const status = (r: SeedRun) => (r.error ? 'error' : r.end !== undefined ? 'success' : 'pending');
const rootOf = (runs: SeedRun[], r: SeedRun) => runs.find((x) => x.id === (r.parent ?? r.id))!;

describe('filter language: runs (listRuns filter, traceFilter, treeFilter)', () => {
  const srv = withLocalServer();
  let c: Client;
  let runs: SeedRun[];
  let projectId: string;
  const project = 'filter-runs';
  const keysOf = (ids: string[]) => ids.map((id) => runs.find((r) => r.id === id)?.key ?? id).sort();
  const expected = (pred: (r: SeedRun) => boolean) => runs.filter(pred).map((r) => r.key).sort();
  const listed = async (p: { filter?: string; traceFilter?: string; treeFilter?: string }) =>
    keysOf((await collect(c.listRuns({ projectName: project, ...p }))).map((r) => r.id));

  before(async () => {
    c = client(srv());
    runs = seedRuns();
    const dotted = new Map<string, string>();
    const creates = runs.map((r) => {
      const own = dottedSegment(new Date(r.start), r.id);
      const d = r.parent ? `${dotted.get(r.parent)}.${own}` : own;
      dotted.set(r.id, d);
      return {
        id: r.id, name: r.name, run_type: r.run_type, start_time: r.start, end_time: r.end, error: r.error, tags: r.tags,
        extra: { metadata: r.metadata }, inputs: r.inputs, outputs: r.outputs, total_tokens: r.total_tokens, session_name: project,
        trace_id: r.parent ?? r.id, parent_run_id: r.parent, dotted_order: d,
      };
    });
    await c.batchIngestRuns({ runCreates: creates as never });
    for (const r of runs) for (const f of r.feedback) await c.createFeedback(r.id, f.key, { score: f.score });
    projectId = (await c.readProject({ projectName: project })).id;
    assert.deepEqual(await listed({}), ['r1', 'r2', 'r3', 'r4', 'r5']);
  });

  const cases: [string, (r: SeedRun) => boolean][] = [
    // eq / neq on run fields
    ['eq(name, "alpha")', (r) => r.name === 'alpha'],
    ["eq(name, 'alpha')", (r) => r.name === 'alpha'],
    ['neq(run_type, "llm")', (r) => r.run_type !== 'llm'],
    ['eq(status, "error")', (r) => status(r) === 'error'],
    ['eq(status, "pending")', (r) => status(r) === 'pending'],
    ['neq(status, "success")', (r) => status(r) !== 'success'],
    ['neq(error, null)', (r) => r.error !== undefined],
    ['eq(error, null)', (r) => r.error === undefined],
    ['eq(is_root, true)', (r) => !r.parent],
    ['eq(is_root, false)', (r) => !!r.parent],
    // gt / gte / lt / lte: latency in seconds or as a duration, tokens, timestamps
    ['gt(latency, "1.5s")', (r) => (latency(r) ?? -1) > 1.5],
    ['gt(latency, "1500ms")', (r) => (latency(r) ?? -1) > 1.5],
    ['gte(latency, 2)', (r) => (latency(r) ?? -1) >= 2],
    ['lt(latency, 1)', (r) => latency(r) !== undefined && latency(r)! < 1],
    ['lte(latency, 1)', (r) => latency(r) !== undefined && latency(r)! <= 1],
    ['gt(total_tokens, 30)', (r) => (r.total_tokens ?? -1) > 30],
    ['lte(total_tokens, 40)', (r) => r.total_tokens !== undefined && r.total_tokens <= 40],
    [`gt(start_time, "${iso(T0 + 1000)}")`, (r) => r.start > T0 + 1000],
    [`gte(start_time, "${iso(T0 + 2000)}")`, (r) => r.start >= T0 + 2000],
    [`lt(end_time, "${iso(T0 + 4600)}")`, (r) => r.end !== undefined && r.end < T0 + 4600],
    // Timestamps as LangSmith writes them, without milliseconds.
    ['gt(start_time, "2026-03-01T10:00:02Z")', (r) => r.start > T0 + 2000],
    // in, has, search
    ['in(run_type, ["tool", "retriever"])', (r) => ['tool', 'retriever'].includes(r.run_type)],
    ['in(name, [])', () => false],
    ['has(tags, "beta")', (r) => r.tags.includes('beta')],
    ['in(tags, ["prod", "experimental"])', (r) => r.tags.includes('prod') || r.tags.includes('experimental')],
    ['search("image classification")', (r) => JSON.stringify(r.inputs).toLowerCase().includes('image classification')],
    ['search("BOOM")', (r) => r.error === 'boom'],
    ['search(name, "TA")', (r) => r.name.toLowerCase().includes('ta')],
    ['search("50%")', () => false],
    // and, or, not
    ['and(eq(run_type, "llm"), gt(latency, 1.5))', (r) => r.run_type === 'llm' && (latency(r) ?? -1) > 1.5],
    ['and(or(has(tags, "experimental"), has(tags, "beta")), gt(latency, 0.4))', (r) => (r.tags.includes('experimental') || r.tags.includes('beta')) && (latency(r) ?? -1) > 0.4],
    ['or(eq(name, "alpha"), eq(name, "delta"))', (r) => r.name === 'alpha' || r.name === 'delta'],
    ['not(has(tags, "prod"))', (r) => !r.tags.includes('prod')],
    // not() of a comparison that has no value (a pending run's latency) holds.
    ['not(gt(latency, 1.5))', (r) => !((latency(r) ?? -1) > 1.5)],
    // metadata as key/value pairs, as LangSmith writes them
    ['eq(metadata_key, "conversation_id")', (r) => 'conversation_id' in r.metadata],
    ["and(eq(metadata_key, 'user_id'), eq(metadata_value, 'u1'))", (r) => r.metadata.user_id === 'u1'],
    ["and(neq(metadata_key, 'user_id'))", (r) => !('user_id' in r.metadata)],
    ["and(eq(metadata_key, 'env'), neq(metadata_value, 'production'))", (r) => 'env' in r.metadata && r.metadata.env !== 'production'],
    ["and(neq(metadata_key, 'user_id'), eq(metadata_value, 'production'))", (r) => !('user_id' in r.metadata) && Object.values(r.metadata).includes('production')],
    ['and(in(metadata_key, ["session_id", "conversation_id", "thread_id"]), eq(metadata_value, "c-1"))', (r) => r.metadata.conversation_id === 'c-1'],
    // A key and a value of different keys do not make a pair.
    ["and(eq(metadata_key, 'user_id'), eq(metadata_value, 'production'))", () => false],
    ['and(eq(metadata_key, "n"), gt(metadata_value, 2))', (r) => typeof r.metadata.n === 'number' && r.metadata.n > 2],
    ['and(eq(input_key, "q"), search(input_value, "image"))', (r) => String(r.inputs.q ?? '').toLowerCase().includes('image')],
    ['eq(output_key, "a")', (r) => 'a' in r.outputs],
    ['and(eq(output_key, "a"), eq(output_value, "dough"))', (r) => r.outputs.a === 'dough'],
    // metadata paths, has() and exists() on metadata
    ['eq(metadata.env, "production")', (r) => r.metadata.env === 'production'],
    ['neq(metadata.env, "production")', (r) => r.metadata.env !== 'production'],
    ['gt(metadata.n, 2)', (r) => typeof r.metadata.n === 'number' && r.metadata.n > 2],
    ['in(metadata.user_id, ["u2", "nobody"])', (r) => r.metadata.user_id === 'u2'],
    ['eq(inputs.q, "sourdough")', (r) => r.inputs.q === 'sourdough'],
    ['has(metadata, \'{"env": "staging", "user_id": "u2"}\')', (r) => r.metadata.env === 'staging' && r.metadata.user_id === 'u2'],
    ['exists(metadata, "conversation_id")', (r) => 'conversation_id' in r.metadata],
    ['eq(thread_id, "c-1")', (r) => r.metadata.conversation_id === 'c-1'],
    // feedback: key and score in one and() are one feedback
    ['eq(feedback_key, "correctness")', (r) => r.feedback.some((f) => f.key === 'correctness')],
    ['and(eq(feedback_key, "correctness"), gt(feedback_score, 0.5))', (r) => r.feedback.some((f) => f.key === 'correctness' && f.score > 0.5)],
    ['and(eq(feedback_key, "helpfulness"), lt(feedback_score, 0.5))', (r) => r.feedback.some((f) => f.key === 'helpfulness' && f.score < 0.5)],
    ['and(neq(feedback_key, "correctness"))', (r) => !r.feedback.some((f) => f.key === 'correctness')],
    [
      `and(gt(start_time, "${iso(T0 + 50)}"), or(neq(error, null), and(eq(feedback_key, "correctness"), eq(feedback_score, 0.0))))`,
      (r) => r.start > T0 + 50 && (r.error !== undefined || r.feedback.some((f) => f.key === 'correctness' && f.score === 0)),
    ],
    // Family conditions mixed with others, in any order: each value is compared where it is written.
    ['and(eq(feedback_key, "correctness"), eq(name, "alpha"))', (r) => r.name === 'alpha' && r.feedback.some((f) => f.key === 'correctness')],
    [
      'and(eq(run_type, "chain"), eq(metadata_key, "env"), eq(feedback_key, "helpfulness"), eq(metadata_value, "production"), gt(feedback_score, 0.5))',
      (r) => r.run_type === 'chain' && r.metadata.env === 'production' && r.feedback.some((f) => f.key === 'helpfulness' && f.score > 0.5),
    ],
    // execution order: the root runs first in its trace
    ['eq(execution_order, 1)', (r) => !r.parent],
    ['gt(execution_order, 1)', (r) => !!r.parent],
  ];

  for (const [filter, pred] of cases) {
    it(`filter ${filter}`, async () => {
      const want = expected(pred);
      assert.deepEqual(await listed({ filter }), want);
    });
  }

  it('ids (any case), trace, parent and project', async () => {
    const [r1, , r3] = runs;
    assert.deepEqual(await listed({ filter: `eq(id, "${r1.id.toUpperCase()}")` }), ['r1']);
    assert.deepEqual(await listed({ filter: `eq(trace_id, "${r3.id}")` }), expected((r) => (r.parent ?? r.id) === r3.id));
    assert.deepEqual(await listed({ filter: `eq(parent_run_id, "${r1.id}")` }), expected((r) => r.parent === r1.id));
    assert.deepEqual(await listed({ filter: `in(id, ["${r1.id}", "${r3.id}"])` }), ['r1', 'r3']);
    assert.deepEqual(await listed({ filter: `eq(session_id, "${projectId}")` }), expected(() => true));
    assert.deepEqual(await listed({ filter: `eq(project_name, "${project}")` }), expected(() => true));
    assert.deepEqual(await listed({ filter: 'eq(project_name, "another")' }), []);
  });

  it('traceFilter applies to the root of the trace, treeFilter to any run of it', async () => {
    const traceFeedback = (r: SeedRun, key: string, score: number) => rootOf(runs, r).feedback.some((f) => f.key === key && f.score === score);
    assert.deepEqual(
      await listed({ filter: 'eq(name, "extractor")', traceFilter: 'and(eq(feedback_key, "correctness"), eq(feedback_score, 0))' }),
      expected((r) => r.name === 'extractor' && traceFeedback(r, 'correctness', 0)),
    );
    assert.deepEqual(
      await listed({ filter: 'eq(run_type, "llm")', traceFilter: 'and(eq(feedback_key, "correctness"), eq(feedback_score, 1))' }),
      expected((r) => r.run_type === 'llm' && traceFeedback(r, 'correctness', 1)),
    );
    const inTree = (r: SeedRun, name: string) => runs.some((x) => rootOf(runs, x).id === rootOf(runs, r).id && x.name === name);
    assert.deepEqual(await listed({ filter: 'eq(is_root, true)', treeFilter: 'eq(name, "beta-tool")' }), expected((r) => !r.parent && inTree(r, 'beta-tool')));
    assert.deepEqual(await listed({ treeFilter: 'has(tags, "beta")' }), expected((r) => runs.some((x) => rootOf(runs, x).id === rootOf(runs, r).id && x.tags.includes('beta'))));
  });

  const rejected: [string, RegExp][] = [
    ['eq(nope, 1)', /unknown field "nope"/],
    ['like(name, "x")', /unknown operator like\(\)/],
    ['gt(latency, "soon")', /latency is compared with seconds/],
    ['eq(is_root, "maybe")', /is_root is compared with true or false/],
    ['gt(is_root, true)', /use eq or neq/],
    [`gt(start_time, "yesterday")`, /start_time is compared with a timestamp/],
    ['gt(tags, "x")', /tags is a list/],
    ['eq(metadata, "x")', /metadata is a JSON object/],
    ['has(metadata, "not json")', /has\(metadata, …\) takes a JSON object/],
    ['has(name, "x")', /has\(\) looks in a list/],
    ['exists(name, "x")', /exists\(object, "key"\)/],
    ['eq(name)', /eq\(\) takes two arguments/],
    ['in(name, "x")', /takes a list/],
    ['gt(name, null)', /only eq and neq compare with null/],
    ['eq(name, other)', /takes a value/],
    ['search(total_tokens, "1")', /is not text/],
    ['and()', /and\(\) needs arguments/],
    ['not(eq(name, "a"), eq(name, "b"))', /not\(\) takes one argument/],
    ['eq(name, "x"', /expected , or \)/],
    ['name', /expected a condition/],
  ];
  for (const [filter, why] of rejected) {
    it(`400 for ${filter}`, async () => {
      const res = await rawRequest(srv(), 'POST', '/runs/query', { session: [projectId], filter });
      assert.equal(res.status, 400, res.text);
      const detail = (res.body as { detail: string }).detail;
      assert.ok(detail.startsWith('Invalid filter'), detail);
      assert.match(detail, why);
    });
  }

  it('the official client reports a filter the server does not understand', async () => {
    await assert.rejects(collect(c.listRuns({ projectName: project, filter: 'like(name, "x")' })), /400|unknown operator/);
    await assert.rejects(collect(c.listRuns({ projectName: project, traceFilter: 'eq(nope, 1)' })), /400|unknown field/);
  });
});

interface SeedExample {
  key: string;
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  metadata: Record<string, unknown>;
  splits: string[];
  created: number;
}

describe('filter language: examples (listExamples filter)', () => {
  const srv = withLocalServer();
  let c: Client;
  let datasetId: string;
  let examples: SeedExample[];
  const expected = (pred: (e: SeedExample) => boolean) => examples.filter(pred).map((e) => e.key).sort();
  const listed = async (filter: string) =>
    (await collect(c.listExamples({ datasetId, filter }))).map((x) => examples.find((e) => e.id === x.id)?.key ?? x.id).sort();

  before(async () => {
    c = client(srv());
    datasetId = (await c.createDataset('filter-examples')).id;
    examples = [
      {
        key: 'e1', id: crypto.randomUUID(), inputs: { q: 'How do I bake bread?', lang: 'en' }, outputs: { a: 'flour', score: 5 },
        metadata: { topic: 'baking', level: 1, tags: ['x', 'y'], nested: { k: 'v', z: 1 } }, splits: ['train'], created: T0,
      },
      {
        key: 'e2', id: crypto.randomUUID(), inputs: { q: 'Image classification basics', lang: 'fr' }, outputs: { a: 'pixels', score: 2 },
        metadata: { topic: 'vision', level: 3 }, splits: ['test', 'train'], created: T0 + 1000,
      },
      {
        key: 'e3', id: crypto.randomUUID(), inputs: { q: 'Sourdough', lang: 'en' }, outputs: { a: 'starter' },
        metadata: { topic: 'baking', level: 2, tenant_id: 't1' }, splits: ['test'], created: T0 + 2000,
      },
    ];
    await c.createExamples(
      examples.map((e) => ({ id: e.id, dataset_id: datasetId, inputs: e.inputs, outputs: e.outputs, metadata: e.metadata, split: e.splits, created_at: iso(e.created) })) as never,
    );
    assert.deepEqual(await listed('gte(modified_at, "2000-01-01T00:00:00Z")'), ['e1', 'e2', 'e3']);
  });

  const cases: [string, (e: SeedExample) => boolean][] = [
    // LangSmith's documented example filters
    ['has(metadata, \'{"topic": "baking"}\')', (e) => e.metadata.topic === 'baking'],
    ['exists(metadata, "tenant_id")', (e) => 'tenant_id' in e.metadata],
    ['and(not(has(metadata, \'{"topic": "baking"}\')), exists(metadata, "level"))', (e) => e.metadata.topic !== 'baking' && 'level' in e.metadata],
    // has() is containment: nested objects by their keys, lists by their items
    ['has(metadata, \'{"nested": {"k": "v"}}\')', (e) => (e.metadata.nested as { k?: string } | undefined)?.k === 'v'],
    ['has(metadata, \'{"tags": ["y"]}\')', (e) => ((e.metadata.tags as string[] | undefined) ?? []).includes('y')],
    ['has(metadata, \'{"level": 2}\')', (e) => e.metadata.level === 2],
    ['has(metadata, \'{"level": "2"}\')', () => false],
    ['has(outputs, \'{"a": "pixels"}\')', (e) => e.outputs.a === 'pixels'],
    ['exists(outputs, "score")', (e) => 'score' in e.outputs],
    // paths into inputs, outputs, metadata with every comparator
    ['eq(inputs.lang, "en")', (e) => e.inputs.lang === 'en'],
    ['neq(inputs.lang, "en")', (e) => e.inputs.lang !== 'en'],
    ['gt(metadata.level, 1)', (e) => (e.metadata.level as number) > 1],
    ['gte(metadata.level, 2)', (e) => (e.metadata.level as number) >= 2],
    ['lt(outputs.score, 5)', (e) => typeof e.outputs.score === 'number' && e.outputs.score < 5],
    ['lte(outputs.score, 5)', (e) => typeof e.outputs.score === 'number' && e.outputs.score <= 5],
    ['eq(metadata.nested.k, "v")', (e) => (e.metadata.nested as { k?: string } | undefined)?.k === 'v'],
    ['in(metadata.topic, ["vision", "nope"])', (e) => e.metadata.topic === 'vision'],
    ['exists(metadata.tenant_id)', (e) => 'tenant_id' in e.metadata],
    // splits
    ['has(splits, "train")', (e) => e.splits.includes('train')],
    ['eq(splits, "test")', (e) => e.splits.includes('test')],
    ['neq(splits, "test")', (e) => !e.splits.includes('test')],
    ['in(splits, ["nope", "test"])', (e) => e.splits.includes('test')],
    // search
    ['search("sourdough")', (e) => JSON.stringify(e.inputs).toLowerCase().includes('sourdough')],
    ['search(inputs, "BREAD")', (e) => JSON.stringify(e.inputs).toLowerCase().includes('bread')],
    ['search(outputs.a, "ix")', (e) => String(e.outputs.a).includes('ix')],
    // key/value pairs
    ['and(eq(metadata_key, "topic"), eq(metadata_value, "vision"))', (e) => e.metadata.topic === 'vision'],
    ['and(eq(input_key, "lang"), neq(input_value, "en"))', (e) => 'lang' in e.inputs && e.inputs.lang !== 'en'],
    // created_at, combinators
    [`gt(created_at, "${iso(T0 + 500)}")`, (e) => e.created > T0 + 500],
    [`lte(created_at, "${iso(T0 + 1000)}")`, (e) => e.created <= T0 + 1000],
    ['or(eq(inputs.lang, "fr"), exists(metadata, "tenant_id"))', (e) => e.inputs.lang === 'fr' || 'tenant_id' in e.metadata],
    ['not(eq(inputs.lang, "fr"))', (e) => e.inputs.lang !== 'fr'],
    ['and(has(splits, "train"), gt(metadata.level, 2))', (e) => e.splits.includes('train') && (e.metadata.level as number) > 2],
  ];
  for (const [filter, pred] of cases) {
    it(`filter ${filter}`, async () => {
      assert.deepEqual(await listed(filter), expected(pred));
    });
  }

  it('ids', async () => {
    const [e1, e2, e3] = examples;
    assert.deepEqual(await listed(`eq(id, "${e2.id.toUpperCase()}")`), ['e2']);
    assert.deepEqual(await listed(`in(id, ["${e1.id}", "${e3.id}"])`), ['e1', 'e3']);
    assert.deepEqual(await listed(`eq(dataset_id, "${datasetId}")`), ['e1', 'e2', 'e3']);
  });

  const rejected: [string, RegExp][] = [
    ['eq(nope, 1)', /unknown field "nope"/],
    ['eq(latency, 1)', /unknown field "latency"/],
    ['has(metadata, "[1]")', /takes a JSON object/],
    ['has(metadata, 5)', /takes a JSON object/],
    ['gt(splits, "a")', /splits is a list/],
    ['gt(created_at, "never")', /created_at is compared with a timestamp/],
    ['exists(inputs, null)', /holds text/],
    ['unknown(metadata)', /unknown operator unknown\(\)/],
  ];
  for (const [filter, why] of rejected) {
    it(`400 for ${filter}`, async () => {
      const res = await rawRequest(srv(), 'GET', `/examples?dataset=${datasetId}&filter=${encodeURIComponent(filter)}`);
      assert.equal(res.status, 400, res.text);
      assert.match((res.body as { detail: string }).detail, why);
    });
  }

  it('the official client reports a filter the server does not understand', async () => {
    await assert.rejects(collect(c.listExamples({ datasetId, filter: 'eq(nope, 1)' })), /400|unknown field/);
  });
});
