// An experiment run by the engine on the local server's model, then read back two ways: with the official
// `langsmith` client (runs by project, feedback by run: what LangSmith's UI would show) and with our
// client.experiments (summaries, example ids, comparison rows on v1 and, where the server has it, v2).
import assert from 'node:assert/strict';
import { Client } from 'langsmith';
import { collect, type LangSmithClient } from '../../src/client';
import {
  CANCELLED_RUN_ERROR,
  parseJudgeAnswer,
  runExperiment,
  similarity,
  words,
  type EvaluatorSpec,
  type RunExperimentOptions,
  type RunOutcome,
  type RunProgress,
} from '../../src/experiments';
import { localEchoAnswer } from '../../server/chatModel';
import { withLocalServer, type LocalServer } from '../harness/localServer';
import { clientFor, setFaults, unique } from './_server';

const SYSTEM = 'You answer support questions in one sentence.';
const manifest = {
  lc: 1,
  type: 'constructor',
  id: ['langchain_core', 'prompts', 'chat', 'ChatPromptTemplate'],
  kwargs: {
    input_variables: ['question'],
    messages: [
      {
        lc: 1,
        type: 'constructor',
        id: ['langchain_core', 'prompts', 'chat', 'SystemMessagePromptTemplate'],
        kwargs: { prompt: { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'prompt', 'PromptTemplate'], kwargs: { template: SYSTEM, template_format: 'f-string', input_variables: [] } } },
      },
      {
        lc: 1,
        type: 'constructor',
        id: ['langchain_core', 'prompts', 'chat', 'HumanMessagePromptTemplate'],
        kwargs: { prompt: { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'prompt', 'PromptTemplate'], kwargs: { template: 'Question: {question}', template_format: 'f-string', input_variables: ['question'] } } },
      },
    ],
  },
};

/** What local-echo answers this prompt for a question. */
const answerFor = (question: string) =>
  localEchoAnswer({ model: 'local-echo', messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: `Question: ${question}` }] });

const base = { output: null, reference: null, lowerIsBetter: false };
const EVALUATORS: EvaluatorSpec[] = [
  { ...base, type: 'contains', key: 'contains', ignoreCase: true },
  { ...base, type: 'similarity', key: 'similarity' },
  { ...base, type: 'regex', key: 'echoes', pattern: '^local-echo heard', flags: '' },
  { ...base, type: 'llm_judge', key: 'helpfulness', rubric: 'Does the answer address the question?', model: null },
];

/** Questions with references: even ones the echo contains, odd ones it does not. The 4th lacks the question. */
function examples(n: number, failing = true): { inputs: Record<string, unknown>; outputs: Record<string, unknown>; split: string }[] {
  return Array.from({ length: n }, (_, i) => {
    const question = `How do I reset password number ${i}?`;
    return {
      inputs: failing && i === 3 ? { query: question } : { question },
      outputs: { answer: i % 2 === 0 ? `reset password number ${i}` : `Open Settings and choose Security ${i}.` },
      split: i < n / 2 ? 'first' : 'second',
    };
  });
}

async function dataset(c: LangSmithClient, n: number, failing = true): Promise<{ id: string; name: string }> {
  const ds = await c.datasets.create({ name: unique('exp-ds') });
  await c.examples.create({ datasetId: ds.id, examples: examples(n, failing) });
  return { id: ds.id, name: ds.name };
}

function options(srv: LocalServer, ds: { id: string; name: string }, more: Partial<RunExperimentOptions> = {}): RunExperimentOptions {
  return {
    dataset: ds,
    experimentName: unique('support-qa'),
    prompt: { name: 'support-qa', commit: 'abc12345', manifest },
    mapping: {},
    model: { baseUrl: `${srv.url}/v1`, apiKey: srv.apiKey, model: 'local-echo' },
    evaluators: EVALUATORS,
    concurrency: 3,
    ...more,
  };
}

function official(srv: LocalServer): Client {
  return new Client({ apiUrl: srv.url, apiKey: srv.apiKey, autoBatchTracing: false, timeout_ms: 20_000 });
}

describe('experiments: run a prompt over a dataset, read it back', function () {
  this.timeout(60_000);
  const srv = withLocalServer();
  let c: LangSmithClient;
  let ds: { id: string; name: string };
  let outcome: RunOutcome;
  const progress: RunProgress[] = [];
  /** Whether the local model answers a judge-shaped request by its rule (with {"score","comment"} JSON). */
  let judgeRule = false;

  before(async () => {
    c = clientFor(srv());
    ds = await dataset(c, 6);
    outcome = await runExperiment(c, options(srv(), ds, { onProgress: (p) => progress.push(p) }));
    const probe = await fetch(`${srv().url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${srv().apiKey}` },
      body: JSON.stringify({ model: 'local-echo', messages: [{ role: 'system', content: 'You are an evaluator.' }, { role: 'user', content: '## Rubric\nr\n## Input\ni\n## Reference\nx\n## Answer\nx' }] }),
    });
    judgeRule = parseJudgeAnswer(((await probe.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content) !== null;
  });

  it('answers the counts: every example run, the one without the variable errored, feedback from each evaluator', () => {
    assert.deepEqual({ total: outcome.total, done: outcome.done, errored: outcome.errored, feedback: outcome.feedback, cancelled: outcome.cancelled }, {
      total: 6, done: 6, errored: 1, feedback: 5 * EVALUATORS.length, cancelled: false,
    });
    assert.ok(outcome.experiment.url?.includes(outcome.experiment.id));
    assert.deepEqual(progress[0], { total: 6, done: 0, errored: 0, feedback: 0 });
    assert.deepEqual(progress.at(-1), { total: 6, done: 6, errored: 1, feedback: 20 });
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i]!.done >= progress[i - 1]!.done);
  });

  it('records the experiment as LangSmith does: the project, root runs per example, their children', async () => {
    const ls = official(srv());
    const project = await ls.readProject({ projectId: outcome.experiment.id });
    assert.equal(project.reference_dataset_id, ds.id);
    assert.deepEqual(project.extra?.['metadata'], {
      prompt: 'support-qa', prompt_commit: 'abc12345', model: 'local-echo', evaluators: ['contains', 'similarity', 'echoes', 'helpfulness'], concurrency: 3,
    });
    const exampleList = await collect(ls.listExamples({ datasetId: ds.id }));
    const roots = await collect(ls.listRuns({ projectId: outcome.experiment.id, isRoot: true }));
    assert.equal(roots.length, 6, 'one root run per example');
    assert.deepEqual(new Set(roots.map((r) => r.reference_example_id)), new Set(exampleList.map((e) => e.id)));
    for (const r of roots) {
      const ex = exampleList.find((e) => e.id === r.reference_example_id)!;
      assert.equal(r.name, 'support-qa');
      assert.deepEqual(r.inputs, ex.inputs);
      if (typeof ex.inputs['question'] === 'string') {
        assert.equal(r.error ?? null, null);
        assert.deepEqual(r.outputs, { output: answerFor(ex.inputs['question']) });
      } else {
        assert.match(r.error ?? '', /Missing value for input question/);
      }
    }
    const all = await collect(ls.listRuns({ projectId: outcome.experiment.id }));
    const ok = roots.find((r) => !r.error)!;
    assert.deepEqual(all.filter((r) => r.parent_run_id === ok.id).map((r) => r.run_type).sort(), ['llm', 'parser', 'prompt']);
    assert.equal(new Set(all.map((r) => r.id)).size, all.length, 'no run twice');
  });

  it('writes each evaluator result as model feedback on the root run', async () => {
    const ls = official(srv());
    const roots = await collect(ls.listRuns({ projectId: outcome.experiment.id, isRoot: true }));
    const exampleList = await collect(ls.listExamples({ datasetId: ds.id }));
    const feedback = await collect(ls.listFeedback({ runIds: roots.map((r) => r.id) }));
    for (const r of roots) {
      const mine = feedback.filter((f) => f.run_id === r.id);
      if (r.error) {
        assert.deepEqual(mine, [], 'an errored run is not evaluated');
        continue;
      }
      assert.deepEqual(mine.map((f) => f.key).sort(), ['contains', 'echoes', 'helpfulness', 'similarity']);
      for (const f of mine) assert.equal(f.feedback_source?.type, 'model');
      const ex = exampleList.find((e) => e.id === r.reference_example_id)!;
      const reference = String(ex.outputs!['answer']);
      const output = String(r.outputs!['output']);
      const score = (k: string) => mine.find((f) => f.key === k)!.score;
      assert.equal(score('contains'), output.toLowerCase().includes(reference.toLowerCase()) ? 1 : 0);
      assert.equal(score('similarity'), similarity(output, reference));
      assert.equal(score('echoes'), 1);
      const judged = mine.find((f) => f.key === 'helpfulness')!;
      // The local model's judge rule (types.ts): the share of the reference's distinct words in the answer.
      assert.ok(judgeRule, 'the local model answers judge requests by its rule');
      const ref = new Set(words(reference));
      const said = new Set(words(output));
      const found = [...ref].filter((w) => said.has(w)).length;
      assert.equal(judged.score, Math.round((found / ref.size) * 100) / 100);
      assert.equal(judged.comment, `local-echo judge: ${found} of ${ref.size} reference words found in the answer.`);
    }
    // The contains rule splits the examples: the even ones score 1.
    assert.deepEqual(
      feedback.filter((f) => f.key === 'contains').map((f) => f.score).sort(),
      [0, 0, 1, 1, 1],
    );
  });

  it('lists and reads the experiment with its figures', async () => {
    const list = await c.experiments.list({ datasetId: ds.id });
    assert.deepEqual(list.map((e) => e.id), [outcome.experiment.id]);
    const [e] = await c.experiments.read({ ids: [outcome.experiment.id] });
    assert.equal(e!.name, outcome.experiment.name);
    assert.equal(e!.datasetId, ds.id);
    assert.equal(e!.runCount, 6);
    assert.ok(Math.abs(e!.errorRate! - 1 / 6) < 1e-9);
    assert.equal(e!.metadata['model'], 'local-echo');
    assert.deepEqual(Object.keys(e!.feedback).sort(), ['contains', 'echoes', 'helpfulness', 'similarity']);
    assert.deepEqual(e!.feedback['contains'], { n: 5, avg: 3 / 5 });
    assert.ok(e!.latencyP50 !== null && e!.latencyP99! >= e!.latencyP50);
  });

  it('lists example ids in the dataset order, by split and limit', async () => {
    const ls = official(srv());
    const ids = await c.experiments.exampleIds({ datasetId: ds.id });
    assert.deepEqual(ids, (await collect(ls.listExamples({ datasetId: ds.id }))).map((e) => e.id));
    const first = await c.experiments.exampleIds({ datasetId: ds.id, split: 'first' });
    assert.deepEqual(first, (await collect(ls.listExamples({ datasetId: ds.id, splits: ['first'] }))).map((e) => e.id));
    assert.equal(first.length, 3);
    assert.deepEqual(await c.experiments.exampleIds({ datasetId: ds.id, limit: 2 }), ids.slice(0, 2));
  });

  it('reads comparison rows in the order asked, the same on v1 and v2', async () => {
    const ids = (await c.experiments.exampleIds({ datasetId: ds.id })).reverse();
    const other = await runExperiment(c, options(srv(), ds, { evaluators: EVALUATORS.slice(0, 1), experimentName: unique('second') }));
    const experimentIds = [outcome.experiment.id, other.experiment.id];
    const v1 = await c.experiments.rows({ datasetId: ds.id, experimentIds, exampleIds: ids, via: 'v1' });
    assert.deepEqual(v1.map((r) => r.exampleId), ids);
    const ls = official(srv());
    for (const row of v1) {
      const ex = await ls.readExample(row.exampleId);
      assert.deepEqual(row.example, { inputs: ex.inputs, outputs: ex.outputs, metadata: ex.metadata ?? null });
      const cell = row.runs[outcome.experiment.id]!;
      const run = await ls.readRun(cell.id);
      assert.equal(run.reference_example_id, row.exampleId);
      assert.deepEqual(cell.outputs, run.outputs ?? null);
      assert.equal(cell.error, run.error ?? null);
      if (!cell.error) {
        assert.deepEqual(Object.keys(cell.feedback).sort(), ['contains', 'echoes', 'helpfulness', 'similarity']);
        assert.deepEqual(Object.keys(row.runs[other.experiment.id]!.feedback), ['contains']);
      }
      assert.ok(cell.latencyMs !== null && cell.latencyMs >= 0);
    }
    const scores = await c.experiments.rows({ datasetId: ds.id, experimentIds, exampleIds: ids, scoresOnly: true, via: 'v1' });
    assert.ok(scores.every((r) => r.example === null && Object.values(r.runs).every((x) => x!.outputs === null)));
    assert.deepEqual(scores.map((r) => r.runs[outcome.experiment.id]!.feedback), v1.map((r) => r.runs[outcome.experiment.id]!.feedback));

    // v2 (what the automatic choice takes on this server) reads the same rows. Tokens and cost are the exception:
    // v2 rolls them up over the trace; v1 answers the root run's own figures, which this server leaves at 0 for a
    // chain run (LangSmith's v1 rolls them up too).
    const auto = clientFor(srv());
    const v2 = await auto.experiments.rows({ datasetId: ds.id, experimentIds, exampleIds: ids });
    assert.equal(auto.experiments.v2RowsMissing, false, 'this server has the v2 rows query');
    const sansTotals = (rows: typeof v1) =>
      rows.map((r) => ({ ...r, runs: Object.fromEntries(Object.entries(r.runs).map(([k, x]) => [k, x && { ...x, totalTokens: null, totalCost: null }])) }));
    assert.deepEqual(sansTotals(v2), sansTotals(v1));
    for (const row of v2) {
      const cell = row.runs[outcome.experiment.id]!;
      if (cell.error) continue;
      const llm = (await collect(ls.listRuns({ projectId: outcome.experiment.id, traceId: cell.traceId }))).filter((r) => r.run_type === 'llm');
      assert.equal(cell.totalTokens, llm.reduce((n, r) => n + (r.total_tokens ?? 0), 0));
      assert.ok(cell.totalTokens! > 0);
    }
    assert.deepEqual(sansTotals(await auto.experiments.rows({ datasetId: ds.id, experimentIds, exampleIds: ids, via: 'v2' })), sansTotals(v1));
    // More examples than one v2 page (100): the pages are followed, the order kept.
    const many = await dataset(c, 130, false);
    const wide = await runExperiment(c, options(srv(), many, { evaluators: EVALUATORS.slice(0, 1), concurrency: 8 }));
    const manyIds = (await c.experiments.exampleIds({ datasetId: many.id })).reverse();
    const wideV2 = await auto.experiments.rows({ datasetId: many.id, experimentIds: [wide.experiment.id], exampleIds: manyIds, scoresOnly: true });
    const wideV1 = await auto.experiments.rows({ datasetId: many.id, experimentIds: [wide.experiment.id], exampleIds: manyIds, scoresOnly: true, via: 'v1' });
    assert.deepEqual(wideV2.map((r) => r.exampleId), manyIds);
    assert.deepEqual(sansTotals(wideV2), sansTotals(wideV1));
    assert.ok(wideV2.every((r) => r.runs[wide.experiment.id] !== null));

    // The index of a comparison: every example with scores only, paged over the dataset on v2 (two requests for 130
    // examples, no listing of ids), the same set of rows as v1; a limit says whether there are more.
    const before = auto.http.stats.requests;
    const indexV2 = await auto.experiments.index({ datasetId: many.id, experimentIds: [wide.experiment.id], limit: 1000 });
    assert.equal(auto.http.stats.requests - before, 2, 'two pages of 100');
    assert.equal(indexV2.more, false);
    const indexV1 = await auto.experiments.index({ datasetId: many.id, experimentIds: [wide.experiment.id], limit: 1000, via: 'v1' });
    const byId = (rows: typeof v1) => sansTotals([...rows].sort((a, b) => a.exampleId.localeCompare(b.exampleId)));
    assert.deepEqual(byId(indexV2.rows), byId(indexV1.rows));
    assert.deepEqual(byId(indexV2.rows), byId(wideV1));
    const cut = await auto.experiments.index({ datasetId: many.id, experimentIds: [wide.experiment.id], limit: 120 });
    assert.equal(cut.rows.length, 120);
    assert.equal(cut.more, true);
    const cutV1 = await auto.experiments.index({ datasetId: many.id, experimentIds: [wide.experiment.id], limit: 120, via: 'v1' });
    assert.equal(cutV1.rows.length, 120);
    assert.equal(cutV1.more, true);

    // A server without the route (the request sent to a path this server does not serve, so its own 404
    // answers): the rows come from v1, and the 404 is remembered for the next read.
    const seen: string[] = [];
    const withoutRoute = clientFor(srv(), {
      fetch: ((input: string | URL | Request, init?: RequestInit) => {
        const url = String(input).replace('/experiment-runs', '/experiment-runs-unknown');
        seen.push(new URL(url).pathname);
        return fetch(url, init);
      }) as typeof fetch,
    });
    assert.deepEqual(await withoutRoute.experiments.rows({ datasetId: ds.id, experimentIds, exampleIds: ids }), v1);
    assert.equal(withoutRoute.experiments.v2RowsMissing, true);
    const asked = seen.length;
    await withoutRoute.experiments.rows({ datasetId: ds.id, experimentIds, exampleIds: ids });
    assert.ok(!seen.slice(asked).some((p) => p.includes('/experiment-runs')), 'the v2 route is not asked again');
    assert.ok(seen.filter((p) => p.includes('/experiment-runs')).length === 1);
    // An example no experiment ran: a row without runs.
    const lone = await c.examples.create({ datasetId: ds.id, examples: [{ inputs: { question: 'new' }, outputs: { answer: 'x' } }] });
    const rows = await c.experiments.rows({ datasetId: ds.id, experimentIds, exampleIds: [lone.example_ids[0]!], via: 'v1' });
    assert.deepEqual(rows[0]!.runs, { [outcome.experiment.id]: null, [other.experiment.id]: null });
  });

  it('makes a new experiment when the name is taken (two runs in the same second): the name gets -2, -3', async () => {
    const small = await dataset(c, 2, false);
    const name = unique('same-second');
    const first = await runExperiment(c, options(srv(), small, { experimentName: name, evaluators: [] }));
    const second = await runExperiment(c, options(srv(), small, { experimentName: name, evaluators: [] }));
    const third = await runExperiment(c, options(srv(), small, { experimentName: name, evaluators: [] }));
    assert.deepEqual([first.experiment.name, second.experiment.name, third.experiment.name], [name, `${name}-2`, `${name}-3`]);
    assert.equal(new Set([first.experiment.id, second.experiment.id, third.experiment.id]).size, 3);
    const ls = official(srv());
    for (const o of [first, second, third]) assert.equal((await collect(ls.listRuns({ projectId: o.experiment.id, isRoot: true }))).length, 2);
  });

  it('refuses bad input before any call', async () => {
    await assert.rejects(c.experiments.rows({ datasetId: ds.id, experimentIds: [], exampleIds: [] }), /At least one experiment is required/);
    const many = Array.from({ length: 1001 }, () => ds.id);
    await assert.rejects(c.experiments.rows({ datasetId: ds.id, experimentIds: [ds.id], exampleIds: many }), /At most 1000 examples/);
    await assert.rejects(c.experiments.read({ ids: ['nope'] }), /Invalid UUID for experimentId: nope/);
    await assert.rejects(runExperiment(c, options(srv(), ds, { concurrency: 0 })), /Concurrency must be a whole number from 1 to 32/);
    await assert.rejects(runExperiment(c, options(srv(), ds, { mapping: { question: 'missing.field' } })), /No dataset input field for the prompt's variable question: map it to one of query, question/);
    await assert.rejects(c.experiments.read({ ids: [ds.id] }), /Experiment not found/);
  });

  it('stops on the signal: examples not started are not run, those in flight are recorded, all traced once', async () => {
    const big = await dataset(c, 24, false);
    const ctl = new AbortController();
    await setFaults(srv(), 'latency:40-60ms');
    let stopped: RunOutcome;
    try {
      stopped = await runExperiment(c, options(srv(), big, { evaluators: [], concurrency: 4, signal: ctl.signal, onProgress: (p) => p.done >= 4 && ctl.abort(new Error('stop')) }));
    } finally {
      await setFaults(srv(), '');
    }
    assert.equal(stopped.cancelled, true);
    assert.ok(stopped.done >= 4 && stopped.done < 24, `done ${stopped.done}`);
    const roots = await collect(official(srv()).listRuns({ projectId: stopped.experiment.id, isRoot: true }));
    assert.equal(roots.length, stopped.done, 'every started example traced, once');
    assert.equal(new Set(roots.map((r) => r.reference_example_id)).size, roots.length);
    const cancelled = roots.filter((r) => r.error === CANCELLED_RUN_ERROR).length;
    assert.equal(cancelled, stopped.errored);
  });
});
