// `--seed demo`: the content the issue asks for, read back through the official client.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { withLocalServer } from '../harness/localServer';
import { demoInvoices } from '../../server/seed/invoices';
import { DEMO_CHART_NAME, DEMO_THREAD_ID, LARGE_TRACE_RUNS, demoChartPng } from '../../server/seed/traceViewer';
import { rawRequest } from '../harness/http';
import { client, collect } from './helpers';

describe('--seed demo content', function () {
  this.timeout(60_000);
  const srv = withLocalServer({ seed: 'demo' });

  it('projects with a few hundred nested runs: inputs, outputs, errors, latency; feedback', async () => {
    const c = client(srv());
    const projects = await collect(c.listProjects());
    assert.ok(projects.length >= 2, `projects: ${projects.length}`);
    let total = 0;
    let nested = 0;
    let errors = 0;
    let withLatency = 0;
    let withIo = 0;
    const runIds: string[] = [];
    for (const p of projects) {
      for await (const r of c.listRuns({ projectId: p.id })) {
        total++;
        if (r.parent_run_id) nested++;
        if (r.error) errors++;
        if (r.end_time && r.start_time && new Date(r.end_time).getTime() > new Date(r.start_time).getTime()) withLatency++;
        if (r.inputs && Object.keys(r.inputs).length && r.outputs && Object.keys(r.outputs).length) withIo++;
        if (!r.parent_run_id && runIds.length < 200) runIds.push(r.id);
      }
    }
    assert.ok(total >= 200, `a few hundred runs, got ${total}`);
    assert.ok(nested >= total / 2, `nested runs: ${nested} of ${total}`);
    assert.ok(errors > 0 && errors < total / 4, `some errors: ${errors}`);
    assert.ok(withLatency >= total * 0.9, `runs with a latency: ${withLatency}`);
    assert.ok(withIo >= total / 2, `runs with inputs and outputs: ${withIo}`);
    const feedback = await collect(c.listFeedback({ runIds }));
    assert.ok(feedback.length > 0, 'feedback on runs');
  });

  it('datasets with splits, several versions and tags', async () => {
    const c = client(srv());
    const datasets = await collect(c.listDatasets());
    assert.ok(datasets.length >= 2);
    let checked = 0;
    for (const d of datasets) {
      const versions = (await rawRequest(srv(), 'GET', `/datasets/${d.id}/versions`)).body as Array<{ as_of: string; tags?: string[] }>;
      if (versions.length < 3) continue;
      checked++;
      const tags = versions.flatMap((v) => v.tags ?? []);
      assert.ok(tags.includes('v1') && tags.includes('prod'), `tags of ${d.name}: ${tags}`);
      const splits = (await rawRequest(srv(), 'GET', `/datasets/${d.id}/splits`)).body as string[];
      assert.ok(splits.length >= 2, `splits of ${d.name}: ${splits}`);
      const atV1 = await collect(c.listExamples({ datasetId: d.id, asOf: 'v1' }));
      const latest = await collect(c.listExamples({ datasetId: d.id }));
      assert.ok(atV1.length > 0 && latest.length > 0);
      const diff = (await rawRequest(srv(), 'GET', `/datasets/${d.id}/versions/diff?from_version=v1&to_version=latest`)).body;
      assert.ok(diff.examples_added.length + diff.examples_modified.length + diff.examples_removed.length > 0, 'the versions differ');
    }
    assert.ok(checked >= 1, 'a dataset with versions and tags');
  });

  it('an invoice dataset with input and output schemas that its examples conform to', async () => {
    const c = client(srv());
    const ds = await c.readDataset({ datasetName: 'demo-invoices' });
    assert.equal(ds.data_type, 'kv');
    const inSchema = ds.inputs_schema_definition as any;
    const outSchema = ds.outputs_schema_definition as any;
    assert.equal(inSchema?.type, 'object');
    assert.deepEqual(inSchema.required, ['invoice_text']);
    assert.equal(inSchema.properties.invoice_text.type, 'string');
    assert.equal(inSchema.properties.currency.type, 'string');
    assert.ok(Array.isArray(inSchema.properties.currency.enum) && inSchema.properties.currency.enum.length > 1, 'currency is an enum');
    assert.equal(outSchema?.type, 'object');
    assert.deepEqual([...outSchema.required].sort(), ['total', 'vendor']);
    assert.equal(outSchema.properties.total.type, 'number');
    assert.equal(outSchema.properties.vendor.type, 'string');

    // Just enough JSON Schema for these: required keys, no unknown keys, scalar types and enums.
    const violations = (schema: any, value: Record<string, unknown>) => {
      const out: string[] = [];
      for (const k of schema.required ?? []) if (!(k in value)) out.push(`${k} is missing`);
      for (const [k, v] of Object.entries(value)) {
        const prop = schema.properties[k];
        if (!prop) {
          if (schema.additionalProperties === false) out.push(`${k} is not in the schema`);
          continue;
        }
        if (prop.type === 'number' ? typeof v !== 'number' || !Number.isFinite(v) : typeof v !== prop.type) out.push(`${k} is not a ${prop.type}`);
        if (prop.enum && !prop.enum.includes(v)) out.push(`${k} is not one of ${prop.enum}`);
        if (prop.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(String(v))) out.push(`${k} is not a date`);
      }
      return out;
    };
    for (const asOf of ['v1', 'latest-review', undefined]) {
      const examples = await collect(c.listExamples({ datasetId: ds.id, asOf }));
      assert.equal(examples.length, 5, `examples at ${asOf ?? 'latest'}`);
      for (const e of examples) {
        assert.deepEqual(violations(inSchema, e.inputs), [], `inputs of ${e.id} at ${asOf ?? 'latest'}`);
        assert.deepEqual(violations(outSchema, e.outputs ?? {}), [], `outputs of ${e.id} at ${asOf ?? 'latest'}`);
      }
      assert.ok(examples.some((e) => !('currency' in e.inputs)), 'one example leaves the optional currency out');
      const splits = new Set(examples.flatMap((e) => (e.metadata?.dataset_split as string[]) ?? []));
      assert.deepEqual([...splits].sort(), ['test', 'train']);
    }
  });

  it('invoice examples with attachments whose URLs serve the seeded bytes and type', async () => {
    const c = client(srv());
    const ds = await c.readDataset({ datasetName: 'demo-invoices' });
    const expected = demoInvoices().filter((s) => s.files);
    assert.ok(expected.length >= 2, 'at least two examples have attachments');
    // The server's own listing (composed in SQL) and the client's (with select) must both carry them.
    const raw = (await rawRequest(srv(), 'GET', `/api/v1/examples?dataset=${ds.id}&select=attachment_urls`)).body as Array<{ inputs: any; attachment_urls: Record<string, { presigned_url: string; mime_type: string }> }>;
    const listed = await collect(c.listExamples({ datasetId: ds.id, includeAttachments: true }));
    assert.equal(raw.filter((e) => Object.keys(e.attachment_urls).length).length, expected.length);
    assert.equal(listed.filter((e) => Object.keys(e.attachments ?? {}).length).length, expected.length);
    for (const spec of expected) {
      const fromRaw = raw.find((e) => e.inputs.invoice_text === spec.inputs.invoice_text)!;
      const fromClient = listed.find((e) => e.inputs.invoice_text === spec.inputs.invoice_text)!;
      assert.deepEqual(Object.keys(fromRaw.attachment_urls).sort(), Object.keys(spec.files!).map((n) => `attachment.${n}`).sort());
      assert.deepEqual(Object.keys(fromClient.attachments!).sort(), Object.keys(spec.files!).sort());
      for (const [name, file] of Object.entries(spec.files!)) {
        const att = fromRaw.attachment_urls[`attachment.${name}`];
        assert.equal(att.mime_type, file.mime);
        assert.equal(fromClient.attachments![name].mime_type, file.mime);
        assert.equal(fromClient.attachments![name].presigned_url, att.presigned_url);
        assert.ok(att.presigned_url.startsWith(srv().url), `${att.presigned_url} is served by the local server`);
        // Presigned: no API key needed.
        const res = await fetch(att.presigned_url);
        assert.equal(res.status, 200, name);
        assert.equal(res.headers.get('content-type'), file.mime, name);
        const body = Buffer.from(await res.arrayBuffer());
        assert.ok(body.equals(file.data), `${name}: the seeded bytes`);
        assert.ok(att.presigned_url.includes(createHash('sha256').update(body).digest('hex')), `${name}: addressed by its content`);
      }
    }
    // The files are what their types say.
    const all = expected.flatMap((s) => Object.entries(s.files!));
    const byMime = (m: string) => all.filter(([, f]) => f.mime === m).map(([, f]) => f.data);
    assert.ok(byMime('image/png').some((d) => d.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))), 'a PNG');
    assert.ok(byMime('application/pdf').some((d) => d.subarray(0, 5).toString() === '%PDF-' && d.toString('latin1').trimEnd().endsWith('%%EOF')), 'a PDF');
    assert.ok(byMime('text/plain').some((d) => d.toString('utf8').includes('Total due')), 'a text invoice');
  });

  it('invoice dataset versions: v1, then a reviewed correction tagged latest-review', async () => {
    const c = client(srv());
    const ds = await c.readDataset({ datasetName: 'demo-invoices' });
    const versions = (await rawRequest(srv(), 'GET', `/datasets/${ds.id}/versions`)).body as Array<{ as_of: string; tags?: string[] }>;
    assert.equal(versions.length, 2);
    assert.deepEqual(versions.flatMap((v) => v.tags ?? []).sort(), ['latest-review', 'v1']);
    const diff = (await rawRequest(srv(), 'GET', `/datasets/${ds.id}/versions/diff?from_version=v1&to_version=latest-review`)).body;
    assert.deepEqual([diff.examples_added.length, diff.examples_modified.length, diff.examples_removed.length], [0, 1, 0]);
    const [changed] = diff.examples_modified as string[];
    const [before] = await collect(c.listExamples({ datasetId: ds.id, asOf: 'v1', exampleIds: [changed] }));
    const [after] = await collect(c.listExamples({ datasetId: ds.id, asOf: 'latest-review', exampleIds: [changed] }));
    assert.deepEqual(after.inputs, before.inputs);
    assert.notDeepEqual(after.outputs, before.outputs);
    // The files of the examples that were not touched are still there at the reviewed version.
    const reviewed = await collect(c.listExamples({ datasetId: ds.id, asOf: 'latest-review', includeAttachments: true }));
    assert.equal(reviewed.filter((e) => Object.keys(e.attachments ?? {}).length).length, demoInvoices().filter((s) => s.files).length);
  });

  it('prompts with several commits: chat and plain, f-string and mustache', async () => {
    const c = client(srv());
    const prompts = await collect(c.listPrompts({ isArchived: undefined } as any));
    assert.ok(prompts.length >= 3, `prompts: ${prompts.length}`);
    const formats = new Set<string>();
    const kinds = new Set<string>();
    let multiCommit = 0;
    for (const p of prompts) {
      const commits = await collect(c.listCommits(`${p.owner}/${p.repo_handle}`));
      if (commits.length >= 2) multiCommit++;
      const text = JSON.stringify(commits.map((x) => x.manifest));
      for (const f of ['f-string', 'mustache']) if (text.includes(`"template_format":"${f}"`)) formats.add(f);
      for (const x of commits) {
        let m = x.manifest as { id?: string[]; kwargs?: { first?: unknown } };
        if (m.id?.at(-1) === 'RunnableSequence') m = m.kwargs?.first as typeof m;
        const cls = m?.id?.at(-1);
        if (cls === 'ChatPromptTemplate') kinds.add('chat');
        if (cls === 'PromptTemplate') kinds.add('plain');
      }
    }
    assert.ok(multiCommit >= 2, `prompts with several commits: ${multiCommit}`);
    assert.deepEqual([...formats].sort(), ['f-string', 'mustache']);
    assert.ok(kinds.has('chat'), 'a chat prompt');
    assert.ok(kinds.has('plain'), 'a plain prompt');
  });

  it('an annotation queue with runs', async () => {
    const c = client(srv());
    const queues = await collect(c.listAnnotationQueues());
    assert.ok(queues.length >= 1);
    const sizes = await Promise.all(queues.map((q) => c.getSizeFromAnnotationQueue(q.id)));
    assert.ok(sizes.some((s) => s.size > 0), `queue sizes: ${JSON.stringify(sizes)}`);
    const first = queues[sizes.findIndex((s) => s.size > 0)]!;
    const run = await c.getRunFromAnnotationQueue(first.id, 0);
    assert.ok(run.id);
  });

  it('demo-review: five of the chatbot’s first root runs, a rubric over two feedback configs, one item done by "you"', async () => {
    const c = client(srv());
    const reviewer = client(srv(), { apiKey: srv().reviewerApiKey });
    const [q] = await collect(c.listAnnotationQueues({ name: 'demo-review' }));
    const queue = await c.annotationQueues.retrieve(q!.id);
    assert.deepEqual(queue.rubric_items?.map((r) => [r.feedback_key, r.is_required]), [['correctness', true], ['helpfulness', false]]);
    assert.ok(queue.rubric_items?.every((r) => r.description && r.score_descriptions));
    const [qa] = await collect(c.listDatasets({ datasetName: 'demo-support-qa' }));
    assert.equal(queue.default_dataset, qa!.id);
    assert.deepEqual([queue.num_reviewers_per_item, queue.enable_reservations, queue.reservation_minutes], [1, true, 1]);
    const configs = await collect(c.listFeedbackConfigs({ feedbackKeys: ['correctness', 'helpfulness'] }));
    assert.deepEqual(configs.map((x) => [x.feedback_key, x.feedback_config.type]), [['correctness', 'categorical'], ['helpfulness', 'continuous']]);

    const project = await c.readProject({ projectName: 'demo-support-chatbot' });
    const roots = (await collect(c.listRuns({ projectId: project.id, isRoot: true }))).sort((a, b) => Date.parse(a.start_time as string) - Date.parse(b.start_time as string));
    const runs = await c.annotationQueues.runs.list(q!.id);
    assert.deepEqual(runs.map((r) => r.id), roots.slice(0, 5).map((r) => r.id), 'the five oldest root runs, oldest first');
    const count = async (cl: typeof c, status: string) => (await cl.annotationQueues.items.retrieveCount(q!.id, { status })).count;
    assert.deepEqual([await count(c, 'all'), await count(c, 'needs_my_review'), await count(c, 'archived')], [5, 4, 1]);
    const [archived] = await collect(c.annotationQueues.items.list(q!.id, { status: 'archived' }));
    assert.deepEqual([archived!.run_id, archived!.completed_by], [roots[0]!.id, [srv().userId]]);
    assert.equal(await count(reviewer, 'needs_my_review'), 4, 'one reviewer per item: archived for the other reviewer too');
  });
  describe('the trace viewer\'s demo', () => {
    const v2Runs = async (traceId: string, projectId: string, selects: string[]) => {
      const res = await rawRequest(srv(), 'GET', `/api/v2/traces/${traceId}/runs?project_id=${projectId}&${['ID', ...selects].map((x) => `selects=${x}`).join('&')}`);
      assert.equal(res.status, 200, res.text);
      return res.body.items as Array<Record<string, any>>;
    };
    const rootsOf = async (projectName: string) => {
      const c = client(srv());
      const project = await c.readProject({ projectName });
      return { project, roots: await collect(c.listRuns({ projectId: project.id, isRoot: true })) };
    };

    it('demo-assistant: an agent trace with chat messages, tool calls and results, a retriever, costs and a first token', async () => {
      const { project, roots } = await rootsOf('demo-assistant');
      const agent = roots.find((r) => r.name === 'TravelAgent')!;
      assert.ok(agent, 'the agent trace');
      const runs = await v2Runs(agent.id, project.id, ['NAME', 'RUN_TYPE', 'STATUS', 'INPUTS', 'OUTPUTS', 'ERROR', 'PARENT_RUN_IDS', 'TOTAL_COST', 'PROMPT_COST', 'COMPLETION_COST', 'PROMPT_TOKENS', 'COMPLETION_TOKENS', 'FIRST_TOKEN_TIME']);
      assert.deepEqual(new Set(runs.map((r) => r.run_type)), new Set(['CHAIN', 'LLM', 'TOOL', 'RETRIEVER']));
      const llms = runs.filter((r) => r.run_type === 'LLM');
      assert.equal(llms.length, 2);
      const messages = llms.flatMap((r) => r.inputs.messages as Array<Record<string, any>>);
      assert.deepEqual([...new Set(messages.map((m) => m.role))].sort(), ['assistant', 'system', 'tool', 'user']);
      const call = messages.find((m) => m.tool_calls)!.tool_calls[0];
      assert.deepEqual(call, { id: 'call_weather_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } });
      assert.ok(messages.some((m) => m.role === 'tool' && m.tool_call_id === 'call_weather_1'), 'a tool result answers the call');
      assert.equal(llms[0].outputs.choices[0].message.tool_calls[0].function.name, 'get_weather', 'OpenAI-format output with tool calls');
      assert.equal(llms[1].outputs.generations[0][0].message.role, 'assistant', 'LangChain-style generations');
      for (const l of llms) {
        assert.ok(l.prompt_tokens > 0 && l.completion_tokens > 0, 'tokens');
        assert.ok(l.prompt_cost > 0 && l.completion_cost > 0, 'costs');
        assert.equal(l.total_cost, l.prompt_cost + l.completion_cost);
      }
      assert.ok(llms.some((l) => typeof l.first_token_time === 'string'), 'a first token time');
      const retriever = runs.find((r) => r.run_type === 'RETRIEVER')!;
      assert.ok(retriever.outputs.documents.length >= 1);
      for (const d of retriever.outputs.documents) assert.ok(d.page_content && d.metadata.source, 'documents with page_content and a source');
      // Every run hangs off the root.
      for (const r of runs.slice(1)) assert.equal(r.parent_run_ids.at(-1), agent.id);
    });

    it('demo-assistant: one tool step failed with a Python stack, and the trace is marked errored', async () => {
      const { project, roots } = await rootsOf('demo-assistant');
      const agent = roots.find((r) => r.name === 'TravelAgent')!;
      assert.equal(agent.status, 'error');
      const runs = await v2Runs(agent.id, project.id, ['NAME', 'RUN_TYPE', 'STATUS', 'ERROR', 'ERROR_PREVIEW']);
      const failed = runs.filter((r) => r.status === 'ERROR' && r.run_type === 'TOOL');
      assert.deepEqual(failed.map((r) => r.name), ['get_events']);
      assert.match(failed[0].error, /Traceback \(most recent call last\):\n {2}File "[^"]+\.py", line \d+/);
      assert.ok(failed[0].error_preview.length < failed[0].error.length, 'a preview of the error');
      assert.equal(runs[0].status, 'ERROR', 'the trace (its root) is errored');
    });

    it('demo-assistant: a run with an image attachment whose URL serves a PNG', async () => {
      const { project, roots } = await rootsOf('demo-assistant');
      const agent = roots.find((r) => r.name === 'TravelAgent')!;
      const runs = await v2Runs(agent.id, project.id, ['NAME', 'ATTACHMENTS']);
      const withImage = runs.filter((r) => r.attachments && Object.keys(r.attachments).length);
      assert.equal(withImage.length, 1);
      const url = withImage[0].attachments[DEMO_CHART_NAME] as string;
      assert.ok(url.startsWith(srv().url), url);
      // Pre-signed: no API key.
      const res = await fetch(url);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'image/png');
      const body = Buffer.from(await res.arrayBuffer());
      assert.ok(body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'a PNG');
      assert.ok(body.equals(demoChartPng()));
    });

    it('demo-assistant: three turns a minute apart make one thread (official client threads.query/listTraces)', async () => {
      const c = client(srv());
      const project = await c.readProject({ projectName: 'demo-assistant' });
      const threads = await collect(c.threads.query({ project_id: project.id, min_start_time: new Date(Date.now() - 7 * 24 * 3600_000).toISOString() }));
      assert.deepEqual(threads.map((t) => [t.thread_id, t.count]), [[DEMO_THREAD_ID, 3]]);
      const turns = await collect(c.threads.listTraces(DEMO_THREAD_ID, { project_id: project.id, selects: ['NAME', 'START_TIME', 'INPUTS', 'OUTPUTS', 'TOTAL_TOKENS'] }));
      assert.equal(turns.length, 3);
      const starts = turns.map((t) => Date.parse(t.start_time!));
      assert.deepEqual([starts[1] - starts[0], starts[2] - starts[1]], [60_000, 60_000]);
      for (const t of turns as Array<Record<string, any>>) {
        assert.equal(t.inputs.messages[0].role, 'user');
        assert.ok(t.inputs.messages[0].content.endsWith('?'), 'a question');
        assert.equal(t.outputs.messages[0].role, 'assistant');
      }
      const stats = await c.threads.stats(DEMO_THREAD_ID, { session_id: project.id, selects: ['TURNS', 'TOTAL_TOKENS', 'TOTAL_COST'] });
      assert.equal(stats.turns, 3);
      assert.ok((stats.total_tokens ?? 0) > 0, 'the turns\' llm runs count');
      assert.ok((stats.total_cost ?? 0) > 0, 'and their costs');
    });

    it('demo-large-trace: one trace of 3,000 runs, several levels deep, in a correct dotted order', async () => {
      const { project, roots } = await rootsOf('demo-large-trace');
      assert.equal(roots.length, 1);
      const runs = await v2Runs(roots[0].id, project.id, ['NAME', 'RUN_TYPE', 'DOTTED_ORDER', 'PARENT_RUN_IDS', 'START_TIME', 'END_TIME']);
      assert.equal(runs.length, LARGE_TRACE_RUNS);
      const byId = new Map(runs.map((r) => [r.id, r]));
      let deepest = 0;
      for (const r of runs) {
        const parents = r.parent_run_ids as string[];
        deepest = Math.max(deepest, parents.length);
        const parent = parents.length ? byId.get(parents.at(-1)!)! : undefined;
        const seg = (r.dotted_order as string).split('.').at(-1)!;
        assert.ok(seg.endsWith(r.id), 'the last segment names the run');
        if (parent) {
          assert.equal(r.dotted_order, `${parent.dotted_order}.${seg}`, 'under its parent');
          assert.ok(Date.parse(r.start_time) >= Date.parse(parent.start_time) && Date.parse(r.end_time) <= Date.parse(parent.end_time), 'within its parent');
        }
      }
      assert.ok(deepest >= 4, `levels below the root: ${deepest}`);
      const sorted = [...runs].sort((a, b) => (a.dotted_order < b.dotted_order ? -1 : 1));
      assert.deepEqual(runs.map((r) => r.id), sorted.map((r) => r.id), 'answered in tree order');
      assert.deepEqual(new Set(runs.map((r) => r.run_type)), new Set(['CHAIN', 'RETRIEVER', 'LLM', 'TOOL', 'PARSER']));
    });
  });
});
