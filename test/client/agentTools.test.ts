// A scripted agent session against the demo-seeded local server, through the same call path both fronts use
// (callTool, prepareTool): find the failing runs of the demo project, read one trace, add two runs to the demo
// queue, push an edited demo prompt with a tag. Each write's prepared text is checked to name exactly what will
// change before it happens; the server is checked after.
import assert from 'node:assert/strict';
import { collect } from '../../src/client';
import { callTool, pageOf, PAGE_CHARS, prepareTool, TOOLS, type ToolContext } from '../../src/agent';
import { withLocalServer } from '../harness/localServer';
import { clientFor } from './_server';

const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

describe('agent tools: a scripted session (no model)', function () {
  this.timeout(60_000);
  const srv = withLocalServer({ seed: 'demo' });
  let ctx: ToolContext;
  before(() => {
    ctx = { client: clientFor(srv()), secrets: [srv().apiKey] };
  });

  async function ok(name: string, input: unknown): Promise<string> {
    const a = await callTool(name, input, ctx);
    assert.equal(a.isError, false, `${name}: ${a.text}`);
    assert.ok(!a.text.includes(srv().apiKey));
    return a.text;
  }

  it('finds the failing runs, reads a trace, queues two runs, pushes an edited prompt with a tag', async () => {
    const api = ctx.client;
    // 1. "Which runs of the support chatbot failed?"
    const runsText = await ok('query_runs', { project: 'demo-support-chatbot', errorsOnly: true });
    const runIds = [...runsText.matchAll(/ run ([0-9a-f-]{36})/g)].map((m) => m[1]!);
    const failing = await collect(api.runs.query({ projectName: 'demo-support-chatbot', isRoot: true, error: true, limit: 20 }));
    assert.deepEqual(runIds, failing.map((r) => r.id));
    assert.ok(runIds.length >= 2);

    // 2. "Why did the first one fail?"
    const traceText = await ok('get_trace', { traceId: runIds[0], project: 'demo-support-chatbot', runIds: [runIds[0]] });
    const tree = await api.traces.runs(runIds[0]!);
    assert.deepEqual([...new Set(traceText.slice(traceText.indexOf('Tree:')).match(UUIDS))], tree.runs.map((r) => r.id));
    const errored = tree.runs.filter((r) => r.error_preview);
    assert.match(traceText, new RegExp(`${errored.length} errored run\\(s\\)`));
    for (const r of errored) assert.ok(traceText.includes(r.error_preview!.slice(0, 40)));

    // 3. "Put two failures not yet there in the review queue." — the confirmation names the queue and the runs.
    const queue = (await collect(api.annotationQueues.list({ name: 'demo-review' })))[0]!;
    const listed = await collect(api.annotationQueues.listRuns(queue.id));
    const inQueue = new Set(listed.map((q) => q.id));
    const pick = runIds.filter((id) => !inQueue.has(id)).slice(0, 2);
    assert.equal(pick.length, 2);
    const prepared = await prepareTool('add_runs_to_annotation_queue', { queue: 'demo-review', runIds: pick }, ctx);
    assert.equal(prepared.text, [`Add 2 run(s) to annotation queue “demo-review” (id ${queue.id}):`, `- run ${pick[0]}`, `- run ${pick[1]}`].join('\n'));
    await ok('add_runs_to_annotation_queue', { queue: 'demo-review', runIds: pick });
    const queued = await collect(api.annotationQueues.listRuns(queue.id));
    assert.equal(queued.length, listed.length + 2);
    for (const id of pick) assert.ok(queued.some((q) => q.id === id), id);

    // 4. "Make the summarizer keep ticket ids, push it and tag it staging." — the confirmation is the diff.
    const latest = (await api.prompts.latestCommitHash('demo-summarizer'))!;
    const edit = {
      prompt: 'demo-summarizer',
      messages: [
        { role: 'system', template: 'You summarize support tickets in {max_words} words. Keep product names and ticket ids.' },
        { role: 'human', template: 'Ticket:\n{ticket}' },
      ],
      description: 'keep ticket ids',
      tags: ['staging'],
    };
    const diff = await prepareTool('push_prompt', edit, ctx);
    assert.equal(diff.isError, false, diff.text);
    assert.equal(
      diff.text,
      [
        `Commit a new version of prompt demo-summarizer on its latest commit ${latest.slice(0, 8)}:`,
        'Message 1 (system) (changed):',
        '  role: system',
        '- You summarize support tickets in {max_words} words. Keep product names.',
        '+ You summarize support tickets in {max_words} words. Keep product names and ticket ids.',
        'Commit description: keep ticket ids',
        'Tags on the new commit: staging',
      ].join('\n'),
    );
    assert.equal(await api.prompts.latestCommitHash('demo-summarizer'), latest, 'prepare changes nothing');
    const pushed = await ok('push_prompt', edit);
    const now = (await api.prompts.latestCommitHash('demo-summarizer'))!;
    assert.notEqual(now, latest);
    assert.ok(pushed.includes(now));
    const staging = (await api.prompts.listTags('demo-summarizer')).find((t) => t.tag_name === 'staging')!;
    assert.equal(staging.commit_hash, now);
    assert.match(JSON.stringify((await api.prompts.pull('demo-summarizer')).manifest), /ticket ids/);
  });

  it('prepares each other write as the exact change', async () => {
    const api = ctx.client;
    const run = (await collect(api.runs.query({ projectName: 'demo-research-agent', isRoot: true, limit: 1 })))[0]!;
    assert.equal((await prepareTool('add_feedback', { runId: run.id, key: 'correctness', score: 1, comment: 'right' }, ctx)).text, `Add feedback “correctness” to run ${run.id}: score 1, comment “right”.`);
    assert.equal((await prepareTool('create_dataset', { name: 'x-ds', dataType: 'chat' }, ctx)).text, 'Create a chat dataset “x-ds”, with no examples.');
    const qa = await api.datasets.read({ datasetName: 'demo-support-qa' });
    assert.equal(
      (await prepareTool('add_examples', { dataset: 'demo-support-qa', examples: [{ inputs: { question: 'q' }, outputs: { answer: 'a' } }], split: 'test' }, ctx)).text,
      `Add 1 example(s) to dataset demo-support-qa (id ${qa.id}):\n- inputs {"question":"q"} · outputs {"answer":"a"} · split test`,
    );
    const tags = await api.prompts.listTags('demo-classifier');
    const production = tags.find((t) => t.tag_name === 'production')!;
    const head = (await api.prompts.latestCommitHash('demo-classifier'))!;
    assert.equal(
      (await prepareTool('tag_prompt_version', { prompt: 'demo-classifier', tag: 'production' }, ctx)).text,
      `On prompt demo-classifier: move tag “production” from commit ${production.commit_hash!.slice(0, 8)} to commit ${head.slice(0, 8)} (${head}).`,
    );
    // Nothing of it happened.
    assert.equal((await api.prompts.listTags('demo-classifier')).find((t) => t.tag_name === 'production')!.commit_hash, production.commit_hash);
    assert.equal(await api.datasets.exists({ datasetName: 'x-ds' }), false);
  });

  it('answers a refused key, a missing dataset and bad input as sentences, without the key', async () => {
    const wrong = 'lsv2_wrong-key-for-this-test';
    const refused = await callTool('list_projects', {}, { client: clientFor(srv(), { apiKey: wrong, maxRetries: 0 }), secrets: [wrong] });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /^LangSmith at http:\/\/127\.0\.0\.1:\d+ refused the API key \(401\)\./);
    assert.ok(!refused.text.includes(wrong));
    const missing = await callTool('list_examples', { dataset: 'no-such-dataset' }, ctx);
    assert.equal(missing.isError, true);
    assert.match(missing.text, /no-such-dataset/);
    const bad = await callTool('query_runs', { project: 'demo-support-chatbot', since: 'yesterday', limit: 1000 }, ctx);
    assert.match(bad.text, /^Invalid input for query_runs: since: .+; limit: .+\. Nothing was done\.$/);
    const trace = (await collect(ctx.client.runs.query({ projectName: 'demo-support-chatbot', isRoot: true, limit: 2 }))).map((r) => r.id);
    const stranger = await callTool('get_trace', { traceId: trace[0], runIds: [trace[1]] }, ctx);
    assert.equal(stranger.text, `Run ${trace[1]} is not part of trace ${trace[0]}: give runIds from its tree.`);
    assert.equal((await callTool('no_such_tool', {}, ctx)).text, 'There is no tool “no_such_tool”.');
  });

  it('pages long answers at 25,000 characters and says how to ask for the next', () => {
    const long = Array.from({ length: 3000 }, (_, i) => `line ${i} ${'x'.repeat(30)}`).join('\n');
    const first = pageOf(long, 1);
    assert.ok(first.length <= PAGE_CHARS);
    assert.match(first, /Page 1 of \d+\. Call again with the same input and page: 2 for the next\.$/);
    const pages = Number(/Page 1 of (\d+)/.exec(first)![1]);
    const all = Array.from({ length: pages }, (_, i) => pageOf(long, i + 1).replace(/\n\nPage \d+ of \d+.*$/, '')).join('\n');
    assert.equal(all, long);
    assert.match(pageOf(long, pages + 1), /There is no page/);
    assert.equal(TOOLS.length, 16);
  });
});
