// Experiments as the comparison reads them: v2 experiment-runs (examples with each experiment's root runs and
// their feedback) and project stats, checked against what the official client's evaluate() recorded and what
// listRuns / listFeedback read back; selects, paging, validation, filters, sort, tenants, and the demo experiments.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Client } from 'langsmith';
import { evaluate } from 'langsmith/evaluation';
import type { Run } from 'langsmith/schemas';
import { startLocalServer, withLocalServer, type LocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { client, collect } from './helpers';

const QA = [
  ['How do I reset my password?', 'Open Settings then Security and choose reset password.'],
  ['What is the refund window?', 'Annual plans are refunded within 30 days.'],
  ['Can I export to CSV?', 'Yes, choose Export then CSV.'],
  ['Which regions host data?', 'US and EU.'],
  ['Please fail on this one', 'Never answered.'],
  ['How do I invite a teammate?', 'Open Members and click Invite.'],
];

const words = (t: unknown) => new Set(String(t ?? '').toLowerCase().match(/[a-z0-9]+/g) ?? []);
/** Share of the reference's words in the answer, to 2 decimals. */
const overlap = (answer: unknown, reference: unknown) => {
  const ref = [...words(reference)];
  const ans = words(answer);
  return ref.length ? Math.round((ref.filter((w) => ans.has(w)).length / ref.length) * 100) / 100 : 0;
};

type Item = { id: string; inputs: Record<string, unknown>; outputs: Record<string, unknown> | null; metadata: unknown; runs: Array<Record<string, any>> };

async function experimentRuns(srv: LocalServer, datasetId: string, body: Record<string, unknown>, apiKey?: string) {
  return rawRequest(srv, 'POST', `/api/v2/datasets/${datasetId}/experiment-runs`, body, { apiKey });
}

/** Seconds between a run's start and end, as the server rounds them (milliseconds). */
const latencyOf = (r: Run) => (Date.parse(String(r.end_time)) - Date.parse(String(r.start_time))) / 1000;

describe('experiments: v2 experiment-runs and experiment stats', function () {
  this.timeout(120_000);
  const srv = withLocalServer();
  let c: Client;
  let datasetId: string;
  let exampleIds: string[];
  const experiments: Array<{ id: string; name: string }> = [];

  before(async () => {
    c = client(srv());
    const ds = await c.createDataset('exp-qa');
    datasetId = ds.id;
    // One at a time, so the dataset's order (creation time) is the order of QA.
    exampleIds = [];
    for (const [question, answer] of QA) exampleIds.push((await c.createExample({ question }, { answer }, { datasetId })).id as string);
    const targets = [
      // A copies the first half of the reference's words; B answers the reference itself, but fails on one question.
      (inputs: any) => ({ answer: QA.find(([q]) => q === inputs.question)![1].split(' ').slice(0, 3).join(' ') }),
      (inputs: any) => {
        if (String(inputs.question).includes('fail')) throw new Error('target failed on purpose');
        return { answer: QA.find(([q]) => q === inputs.question)![1] };
      },
    ];
    for (const [i, target] of targets.entries()) {
      const result = await evaluate(target, {
        data: 'exp-qa', client: c, experimentPrefix: `exp-${'ab'[i]}`, maxConcurrency: 2,
        evaluators: [
          ({ outputs, referenceOutputs }: any) => ({ key: 'exact', score: outputs?.answer === referenceOutputs?.answer ? 1 : 0, comment: 'exact match' }),
          ({ outputs, referenceOutputs }: any) => {
            const score = overlap(outputs?.answer, referenceOutputs?.answer);
            return { key: 'overlap', score, comment: `overlap ${score}` };
          },
        ],
      } as any);
      await c.awaitPendingTraceBatches();
      const project = await c.readProject({ projectName: result.experimentName });
      experiments.push({ id: project.id, name: result.experimentName });
    }
  });

  /** Each experiment's root runs (listRuns by project) and their feedback (listFeedback by run). */
  async function recorded() {
    const runs = new Map<string, Run>();
    for (const e of experiments) for (const r of await collect(c.listRuns({ projectId: e.id, isRoot: true }))) runs.set(r.id, r);
    const feedback = await collect(c.listFeedback({ runIds: [...runs.keys()] }));
    return { runs, feedback };
  }

  it('reads an evaluate() experiment back through experiment-runs as listRuns and listFeedback record it', async () => {
    const { runs, feedback } = await recorded();
    assert.equal(runs.size, QA.length * 2);
    const items: Item[] = [];
    const selects = ['ID', 'TRACE_ID', 'PROJECT_ID', 'REFERENCE_EXAMPLE_ID', 'OUTPUTS', 'ERROR', 'STATUS', 'START_TIME', 'END_TIME', 'LATENCY_SECONDS', 'TOTAL_TOKENS', 'FEEDBACK_STATS'] as const;
    // The official client pages through by next_cursor.
    for await (const item of c.datasets.experimentRuns.query(datasetId, { experiment_ids: experiments.map((e) => e.id), selects: [...selects], page_size: 4 })) items.push(item as Item);
    assert.deepEqual(items.map((i) => i.id), exampleIds, 'every example once, in the dataset order');
    for (const [n, item] of items.entries()) {
      assert.deepEqual(item.inputs, { question: QA[n]![0] });
      assert.deepEqual(item.outputs, { answer: QA[n]![1] });
      assert.equal(item.runs.length, 2, 'one root run per experiment');
      assert.deepEqual(item.runs.map((r) => r.project_id).sort(), experiments.map((e) => e.id).sort());
      for (const r of item.runs) {
        const run = runs.get(r.id);
        assert.ok(run, `run ${r.id} is a root run of an experiment`);
        assert.equal(r.trace_id, run.trace_id);
        assert.equal(r.reference_example_id, item.id);
        assert.equal(run.reference_example_id, item.id);
        assert.deepEqual(r.outputs ?? null, run.outputs ?? null);
        assert.equal(r.error ?? null, run.error ?? null);
        assert.equal(r.status, run.error ? 'ERROR' : 'SUCCESS');
        assert.ok(Math.abs(r.latency_seconds - latencyOf(run)) < 0.002, `latency ${r.latency_seconds} vs ${latencyOf(run)}`);
        assert.equal(r.total_tokens, run.total_tokens ?? 0);
        const mine = feedback.filter((f) => f.run_id === r.id);
        assert.deepEqual(Object.keys(r.feedback_stats).sort(), [...new Set(mine.map((f) => f.key))].sort());
        for (const [key, stats] of Object.entries<any>(r.feedback_stats)) {
          const ofKey = mine.filter((f) => f.key === key);
          const scores = ofKey.map((f) => Number(f.score));
          assert.equal(stats.n, ofKey.length);
          assert.equal(stats.avg, scores.reduce((a, b) => a + b, 0) / scores.length);
          assert.deepEqual([...stats.comments].sort(), ofKey.map((f) => f.comment).filter(Boolean).sort());
          assert.deepEqual(stats.sources, ['model'], 'evaluate() records its evaluators as model feedback');
        }
      }
      const failed = item.runs.find((r) => r.error);
      assert.equal(!!failed, QA[n]![0].includes('fail'), 'only the failing question errored');
    }
    assert.equal(srv().server.stats().internalErrors, 0);
  });

  it('gives each experiment run count, error rate, latency p50/p99, tokens and feedback n/avg per key from its runs', async () => {
    const { runs, feedback } = await recorded();
    const listed = (await rawRequest(srv(), 'GET', `/sessions?reference_dataset=${datasetId}&include_stats=true`)).body as any[];
    assert.deepEqual(listed.map((s) => s.id).sort(), experiments.map((e) => e.id).sort());
    for (const e of experiments) {
      const mine = [...runs.values()].filter((r) => r.session_id === e.id);
      const one = (await rawRequest(srv(), 'GET', `/sessions/${e.id}?include_stats=true`)).body;
      const fromList = listed.find((s) => s.id === e.id);
      for (const s of [one, fromList]) {
        assert.equal(s.run_count, mine.length);
        assert.equal(s.error_rate, mine.filter((r) => r.error).length / mine.length);
        const lat = mine.map(latencyOf).sort((a, b) => a - b);
        assert.ok(Math.abs(s.latency_p50 - lat[Math.floor(lat.length / 2)]!) < 0.002, `p50 ${s.latency_p50} of ${lat}`);
        assert.ok(Math.abs(s.latency_p99 - lat[Math.min(lat.length - 1, Math.floor(0.99 * lat.length))]!) < 0.002);
        assert.equal(s.total_tokens, mine.reduce((a, r) => a + (r.total_tokens ?? 0), 0));
        assert.equal(s.total_cost, null, 'no run reported a cost');
        for (const key of ['exact', 'overlap']) {
          const scores = feedback.filter((f) => f.key === key && mine.some((r) => r.id === f.run_id)).map((f) => Number(f.score));
          assert.equal(s.feedback_stats[key].n, scores.length);
          assert.ok(Math.abs(s.feedback_stats[key].avg - scores.reduce((a, b) => a + b, 0) / scores.length) < 1e-9);
        }
      }
    }
  });

  it('sums costs the runs report into the stats and the runs of experiment-runs, a trace counted once', async () => {
    const ds = await c.createDataset('exp-costs');
    const ex = await c.createExample({ q: 1 }, { a: 1 }, { datasetId: ds.id });
    const project = await c.createProject({ projectName: 'exp-costs-1', referenceDatasetId: ds.id });
    const root = crypto.randomUUID();
    const llm = crypto.randomUUID();
    const t = Date.now() - 10_000;
    const usage = { input_tokens: 30, output_tokens: 10, total_tokens: 40, input_cost: 0.003, output_cost: 0.002 };
    await c.batchIngestRuns({
      runCreates: [
        { id: root, trace_id: root, dotted_order: `${new Date(t).toISOString().replace(/[-:.]/g, '')}${root}`, name: 'chain', run_type: 'chain', inputs: { q: 1 }, outputs: { a: 1 }, start_time: t, end_time: t + 900, session_name: project.name, reference_example_id: ex.id },
        { id: llm, trace_id: root, parent_run_id: root, dotted_order: `${new Date(t).toISOString().replace(/[-:.]/g, '')}${root}.${new Date(t + 1).toISOString().replace(/[-:.]/g, '')}${llm}`, name: 'llm', run_type: 'llm', inputs: {}, outputs: { text: 'x', usage_metadata: usage }, start_time: t + 1, end_time: t + 800, session_name: project.name, prompt_tokens: 30, completion_tokens: 10, total_tokens: 40 },
      ] as never,
    });
    const stats = (await rawRequest(srv(), 'GET', `/sessions/${project.id}?include_stats=true`)).body;
    assert.equal(stats.run_count, 1);
    assert.deepEqual([stats.total_tokens, stats.prompt_tokens, stats.completion_tokens], [40, 30, 10], 'the root reports none: its trace’s runs count');
    assert.deepEqual([Number(stats.total_cost), Number(stats.prompt_cost), Number(stats.completion_cost)], [0.005, 0.003, 0.002]);
    assert.equal(typeof stats.total_cost, 'string', 'costs are decimal strings, as LangSmith’s sessions answer them');
    const res = await experimentRuns(srv(), ds.id, { experiment_ids: [project.id], selects: ['ID', 'TOTAL_TOKENS', 'TOTAL_COST', 'PROMPT_COST'] });
    assert.deepEqual(res.body.items[0].runs, [{ id: root, total_tokens: 40, total_cost: 0.005, prompt_cost: 0.003 }]);
  });

  it('answers the selected run fields only: the id without selects, no inputs or outputs unless asked', async () => {
    const ids = experiments.map((e) => e.id);
    const bare = (await experimentRuns(srv(), datasetId, { experiment_ids: ids })).body;
    assert.equal(bare.items.length, QA.length);
    for (const item of bare.items) {
      assert.deepEqual(Object.keys(item).sort(), ['attachment_urls', 'created_at', 'dataset_id', 'id', 'inputs', 'metadata', 'modified_at', 'name', 'outputs', 'runs', 'source_run_id']);
      for (const r of item.runs) assert.deepEqual(Object.keys(r), ['id']);
    }
    const light = (await experimentRuns(srv(), datasetId, { experiment_ids: ids, selects: ['ID', 'STATUS', 'LATENCY_SECONDS', 'FEEDBACK_STATS'] })).body;
    for (const r of light.items.flatMap((i: Item) => i.runs)) {
      assert.deepEqual(Object.keys(r).sort(), ['feedback_stats', 'id', 'latency_seconds', 'status']);
    }
    const full = (await experimentRuns(srv(), datasetId, { experiment_ids: ids, selects: ['ID', 'INPUTS', 'OUTPUTS', 'METADATA'] })).body;
    const withIo = full.items.flatMap((i: Item) => i.runs);
    assert.ok(withIo.every((r: any) => r.inputs && typeof r.inputs.question === 'string' && 'metadata' in r));
    assert.ok(withIo.filter((r: any) => r.outputs).length >= QA.length * 2 - 1);
  });

  it('pages by cursor (20 by default, at most 100) and keeps to example_ids; refuses bad requests with the field named', async () => {
    const ids = experiments.map((e) => e.id);
    const first = (await experimentRuns(srv(), datasetId, { experiment_ids: ids, page_size: 4 })).body;
    assert.equal(first.items.length, 4);
    assert.ok(first.next_cursor);
    const second = (await experimentRuns(srv(), datasetId, { experiment_ids: ids, page_size: 4, cursor: first.next_cursor })).body;
    assert.deepEqual([...first.items, ...second.items].map((i: Item) => i.id), exampleIds);
    assert.equal(second.next_cursor, undefined, 'no cursor after the last page');
    const some = (await experimentRuns(srv(), datasetId, { experiment_ids: ids, example_ids: [exampleIds[3], exampleIds[1], crypto.randomUUID()] })).body;
    assert.deepEqual(some.items.map((i: Item) => i.id), [exampleIds[1], exampleIds[3]], 'the listed examples of this dataset, in its order');

    const refused = async (body: Record<string, unknown>, status: number, detail: RegExp) => {
      const res = await experimentRuns(srv(), datasetId, body);
      assert.equal(res.status, status, `${JSON.stringify(body).slice(0, 80)} → ${res.status} ${res.text}`);
      assert.match(String(res.body.detail), detail);
    };
    await refused({ experiment_ids: ids, example_ids: Array.from({ length: 1001 }, () => crypto.randomUUID()) }, 422, /body\.example_ids: at most 1000 example ids/);
    await refused({ experiment_ids: ids, page_size: 101 }, 422, /body\.page_size: must be between 1 and 100/);
    await refused({ selects: ['ID'] }, 422, /body\.experiment_ids: Field required/);
    await refused({ experiment_ids: [] }, 422, /body\.experiment_ids: at least one experiment id/);
    await refused({ experiment_ids: ['nope'] }, 422, /body\.experiment_ids\.0: "nope" is not a valid UUID/);
    await refused({ experiment_ids: ids, limit: 5 }, 422, /limit/);
    await refused({ experiment_ids: ids, selects: ['EVERYTHING'] }, 422, /body\.selects\.0/);
    await refused({ experiment_ids: ids, cursor: 'garbage' }, 422, /cursor/);
    await refused({ experiment_ids: ids, sort: { by: 'feedback.exact' } }, 422, /body\.sort: .*exactly one experiment/);
    await refused({ experiment_ids: [ids[0]], sort: { by: 'feedback.exact', order: 'UP' } }, 422, /body\.sort\.order/);
    await refused({ experiment_ids: [ids[0]], filters: { [ids[1]!]: ['eq(status, "error")'] } }, 422, /body\.filters\..*not one of experiment_ids/);
    await refused({ experiment_ids: [ids[0]], filters: { [ids[0]!]: ['eq(nonsense, 1)'] } }, 400, /Invalid filter/);
    await refused({ experiment_ids: [crypto.randomUUID()] }, 404, /Session/);
    const malformed = await rawRequest(srv(), 'POST', `/api/v2/datasets/${datasetId}/experiment-runs`, undefined, { rawBody: '{"experiment_ids": [', headers: { 'content-type': 'application/json' } });
    assert.equal(malformed.status, 400);
  });

  it('filters examples by an experiment’s run and sorts one experiment by a feedback key', async () => {
    const { runs, feedback } = await recorded();
    const [a, b] = experiments;
    const scoreOf = (exp: string, example: string, key: string) => {
      const run = [...runs.values()].find((r) => r.session_id === exp && r.reference_example_id === example);
      return feedback.find((f) => f.run_id === run?.id && f.key === key)?.score ?? null;
    };
    // B's exact matches, with both experiments' runs for them (A's unfiltered).
    const exact = (await experimentRuns(srv(), datasetId, {
      experiment_ids: [a!.id, b!.id], filters: { [b!.id]: ['and(eq(feedback_key, "exact"), eq(feedback_score, 1))'] }, selects: ['ID', 'PROJECT_ID'],
    })).body;
    assert.deepEqual(exact.items.map((i: Item) => i.id), exampleIds.filter((id) => scoreOf(b!.id, id, 'exact') === 1));
    assert.ok(exact.items.length >= 4 && exact.items.length < QA.length);
    assert.ok(exact.items.every((i: Item) => i.runs.length === 2));
    // B's errored run.
    const errored = (await experimentRuns(srv(), datasetId, { experiment_ids: [b!.id], filters: { [b!.id]: ['eq(status, "error")'] } })).body;
    assert.deepEqual(errored.items.map((i: Item) => i.id), [exampleIds[4]]);

    for (const order of ['ASC', 'DESC'] as const) {
      const sorted = (await experimentRuns(srv(), datasetId, { experiment_ids: [a!.id], sort: { by: 'feedback.overlap', order }, selects: ['ID', 'FEEDBACK_STATS'] })).body;
      const scores = sorted.items.map((i: Item) => i.runs[0]!.feedback_stats.overlap.avg as number);
      assert.deepEqual(scores, exampleIds.map((id) => Number(scoreOf(a!.id, id, 'overlap'))).sort((x, y) => (order === 'ASC' ? x - y : y - x)));
    }
    // `feedback.` is optional; DESC by default.
    const bare = (await experimentRuns(srv(), datasetId, { experiment_ids: [a!.id], sort: { by: 'overlap' }, selects: ['ID', 'FEEDBACK_STATS'] })).body;
    const desc = bare.items.map((i: Item) => i.runs[0]!.feedback_stats.overlap.avg as number);
    assert.deepEqual(desc, [...desc].sort((x, y) => y - x));
  });

  it('keeps a dataset’s baseline experiment (PATCH baseline_experiment_id, read back on the dataset)', async () => {
    assert.equal((await rawRequest(srv(), 'GET', `/datasets/${datasetId}`)).body.baseline_experiment_id, null);
    const patched = await rawRequest(srv(), 'PATCH', `/datasets/${datasetId}`, { baseline_experiment_id: experiments[1]!.id });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.baseline_experiment_id, experiments[1]!.id);
    assert.equal(((await c.readDataset({ datasetId })) as { baseline_experiment_id?: string }).baseline_experiment_id, experiments[1]!.id);
    assert.equal((await rawRequest(srv(), 'PATCH', `/datasets/${datasetId}`, { baseline_experiment_id: crypto.randomUUID() })).status, 404);
  });

  it('keeps pairwise feedback to the comparative experiment asked for', async () => {
    const [a, b] = experiments;
    const comparative = await c.createComparativeExperiment({ name: 'a-vs-b', experimentIds: [a!.id, b!.id], referenceDatasetId: datasetId } as any);
    const { runs } = await recorded();
    const runOfA = [...runs.values()].find((r) => r.session_id === a!.id && r.reference_example_id === exampleIds[0])!;
    await c.createFeedback(runOfA.id, 'preference', { score: 1, comparativeExperimentId: comparative.id } as any);
    const read = async (extra: Record<string, unknown>) =>
      ((await experimentRuns(srv(), datasetId, { experiment_ids: [a!.id], example_ids: [exampleIds[0]], selects: ['ID', 'FEEDBACK_STATS'], ...extra })).body.items[0].runs[0].feedback_stats);
    assert.ok(!('preference' in (await read({}))), 'pairwise feedback is left out without the comparative experiment');
    assert.equal((await read({ comparative_experiment_id: comparative.id })).preference.n, 1);
    assert.equal((await experimentRuns(srv(), datasetId, { experiment_ids: [a!.id], comparative_experiment_id: crypto.randomUUID() })).status, 404);
  });

  it('answers another workspace’s dataset, experiments and comparative experiments with 404 and shows none of their runs', async () => {
    const other = srv().otherApiKey;
    const ids = experiments.map((e) => e.id);
    const foreign = await experimentRuns(srv(), datasetId, { experiment_ids: ids, selects: ['ID', 'OUTPUTS'] }, other);
    assert.equal(foreign.status, 404);
    assert.match(foreign.body.detail, /Dataset/);
    // The other workspace's own dataset with this workspace's experiments.
    const theirs = await rawRequest(srv(), 'POST', '/datasets', { name: 'exp-theirs' }, { apiKey: other });
    const res = await experimentRuns(srv(), theirs.body.id, { experiment_ids: ids }, other);
    assert.equal(res.status, 404);
    assert.match(res.body.detail, /Session/);
    assert.ok(!res.text.includes(exampleIds[0]!) && !res.text.includes('Open Settings'));
    // And the other way round: this workspace cannot read theirs either.
    assert.equal((await experimentRuns(srv(), theirs.body.id, { experiment_ids: ids })).status, 404);
    const stats = (await rawRequest(srv(), 'GET', `/sessions?reference_dataset=${datasetId}&include_stats=true`, undefined, { apiKey: other })).body;
    assert.deepEqual(stats, []);
    // Their dataset's baseline cannot be this workspace's experiment.
    const baseline = await rawRequest(srv(), 'PATCH', `/datasets/${theirs.body.id}`, { baseline_experiment_id: ids[0] }, { apiKey: other });
    assert.equal(baseline.status, 404);
    assert.equal((await rawRequest(srv(), 'GET', `/datasets/${theirs.body.id}`, undefined, { apiKey: other })).body.baseline_experiment_id, null);
  });

  it('reads 1,000 examples × 3 experiments in pages of 100, every run once', async () => {
    const ds = await c.createDataset('exp-large');
    // The multipart upload the client's createExamples uses, without its read-back of each example.
    const { example_ids: exIds } = await c.uploadExamplesMultipart(ds.id, Array.from({ length: 1000 }, (_, i) => ({ inputs: { i }, outputs: { o: i } })));
    const created = exIds.map((id) => ({ id }));
    const projects = [];
    for (let p = 0; p < 3; p++) projects.push(await c.createProject({ projectName: `exp-large-${p}`, referenceDatasetId: ds.id }));
    const t = Date.now() - 60_000;
    const creates = projects.flatMap((p, pi) =>
      created.map((ex, i) => {
        const id = crypto.randomUUID();
        return { id, trace_id: id, dotted_order: `${new Date(t + i).toISOString().replace(/[-:.]/g, '')}${id}`, name: 'r', run_type: 'chain', inputs: { i }, outputs: { o: i + pi }, start_time: t + i, end_time: t + i + 100 + pi, session_name: p.name, reference_example_id: ex.id };
      }),
    );
    for (let i = 0; i < creates.length; i += 500) await c.batchIngestRuns({ runCreates: creates.slice(i, i + 500) as never });
    const seen = new Set<string>();
    let items = 0;
    let cursor: string | undefined;
    do {
      const page: { items: Item[]; next_cursor?: string } = (await experimentRuns(srv(), ds.id, { experiment_ids: projects.map((p) => p.id), selects: ['ID', 'OUTPUTS', 'LATENCY_SECONDS', 'FEEDBACK_STATS'], page_size: 100, cursor })).body;
      for (const item of page.items) {
        items++;
        assert.equal(item.runs.length, 3);
        for (const r of item.runs) seen.add(r.id);
      }
      cursor = page.next_cursor;
    } while (cursor);
    assert.equal(items, 1000);
    assert.equal(seen.size, 3000);
  });
});

describe('experiments: the demo data', function () {
  this.timeout(60_000);
  let srv: LocalServer;
  before(async () => {
    srv = await startLocalServer({ seed: 'demo' });
  });
  after(async () => srv?.close());

  it('has two support-answer experiments on demo-support-qa where v2 regresses on some examples and improves on others', async () => {
    const [dataset] = (await rawRequest(srv, 'GET', '/datasets?name=demo-support-qa')).body;
    const sessions = (await rawRequest(srv, 'GET', `/sessions?reference_dataset=${dataset.id}&include_stats=true`)).body as any[];
    const v1 = sessions.find((s) => s.name === 'support-answer-v1');
    const v2 = sessions.find((s) => s.name === 'support-answer-v2');
    assert.ok(v1 && v2, sessions.map((s) => s.name).join(', '));
    assert.ok(Date.parse(v2.start_time) - Date.parse(v1.start_time) >= 2 * 86_400_000, 'made days apart');
    for (const s of [v1, v2]) {
      assert.equal(s.reference_dataset_id, dataset.id);
      assert.deepEqual([s.extra.metadata.prompt, s.extra.metadata.model], ['support-answer', 'local-echo']);
      assert.ok(s.extra.metadata.prompt_commit);
      assert.equal(s.run_count, dataset.example_count);
      assert.deepEqual(Object.keys(s.feedback_stats).sort(), ['contains', 'helpfulness', 'similarity']);
      assert.ok(s.total_tokens > 0 && s.latency_p50 > 0);
    }
    assert.equal(dataset.baseline_experiment_id, v1.id, 'v1 is the baseline');
    assert.equal(v1.error_rate, 0);
    assert.equal(v2.error_rate, 1 / v2.run_count, 'one errored run in v2');

    const items = (await rawRequest(srv, 'POST', `/api/v2/datasets/${dataset.id}/experiment-runs`, {
      experiment_ids: [v1.id, v2.id], selects: ['ID', 'PROJECT_ID', 'OUTPUTS', 'ERROR', 'FEEDBACK_STATS'], page_size: 100,
    })).body.items as Item[];
    assert.equal(items.length, dataset.example_count, 'one item per example of the latest version');
    let better = 0;
    let worse = 0;
    for (const item of items) {
      const runOf = (id: string) => item.runs.find((r) => r.project_id === id);
      const [a, b] = [runOf(v1.id), runOf(v2.id)];
      assert.ok(a && b, 'each experiment has a run for each example');
      for (const r of [a, b]) if (!r.error) for (const k of Object.values<any>(r.feedback_stats)) assert.ok(k.avg >= 0 && k.avg <= 1 && k.sources[0] === 'model');
      const [sa, sb] = [a.feedback_stats.similarity?.avg, b.feedback_stats.similarity?.avg];
      if (sa === undefined || sb === undefined) continue;
      if (sb > sa) better++;
      if (sb < sa) worse++;
    }
    assert.ok(better >= 3, `${better} improvements`);
    assert.ok(worse >= 3, `${worse} regressions`);
    assert.equal(items.filter((i) => i.runs.some((r) => r.error)).length, 1);
  });
});
