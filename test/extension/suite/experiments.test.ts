// Experiments in the real extension host against the local server: Run Prompt over Dataset runs a prompt file
// over a dataset made here (its variable mapped to the dataset's field once, remembered), with the evaluators of
// the file beside it, into an experiment the server holds with one run per example and a score per evaluator;
// an unmapped variable and an evaluators file with a problem are refused before any call. The comparison panel's
// handlers (reached through its router, as the page reaches them) answer the index and rows, open a diff of two
// outputs, export CSV and JSONL, keep the baseline, and refuse experiments of another dataset. Evaluators files
// show their problems in Problems; the first paint of 1,000 examples × 3 experiments takes at most 20 requests.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../../src/extension';
import type { CompareKey, CompareState, RowContent } from '../../../src/protocol/compare';
import { LangSmithClient } from '../../../src/client';
import { CompareSession } from '../../../src/webviews/compare/comparePanel';
import { Panels } from '../../../src/webviews/descriptors';
import type { PanelServices } from '../../../src/webviews/panels';
import { ScriptedPrompter } from './scriptedPrompter';
import { activateWorkbench, apiKey, endpoint, get, hostCall, hostOk, http, runScripted } from './support';

interface Session {
  id: string;
  name: string;
  reference_dataset_id: string | null;
  extra?: { metadata?: Record<string, unknown> } | null;
}
interface RunJson {
  id: string;
  reference_example_id: string | null;
  outputs: Record<string, unknown> | null;
}
interface FeedbackJson {
  run_id: string;
  key: string;
  score: number | null;
}

const QUESTIONS = [
  ['How do I reset my password?', 'Use Forgot password on the sign-in page.'],
  ['Where do I download invoices?', 'Billing → Invoices → Download.'],
  ['Can I change my username?', 'Yes, under Settings → Profile.'],
  ['How do I export my data?', 'Settings → Data → Export, as CSV.'],
  ['Does the app work offline?', 'Yes, the mobile app caches your last 30 days.'],
] as const;

describe('experiments', function () {
  this.timeout(120_000);
  let workbench: WorkbenchApi;
  let dir: string;
  const tag = randomUUID().slice(0, 8);
  const datasetName = `exp-qa-${tag}`;
  let datasetId: string;
  let exampleIds: string[];
  let promptUri: vscode.Uri;
  const experiments: Session[] = [];

  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return vscode.Uri.file(file);
  };
  const experimentsOf = (id: string) => get<Session[]>(`/sessions?reference_dataset=${id}&limit=100`);
  const rootRuns = async (sessionId: string) => (await http<{ runs: RunJson[] }>('POST', '/runs/query', { session: [sessionId], is_root: true, limit: 100 })).runs;
  const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);
  const waitFor = async (check: () => boolean, what: string) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(check(), `timed out waiting for ${what}`);
  };
  const comparePanel = (datasetIdOf: string) => {
    const found = workbench.panels.panelsOf<CompareKey>(Panels.compare).find((p) => p.key.datasetId === datasetIdOf);
    assert.ok(found, 'the comparison panel is open');
    return found.host;
  };
  const ready = async (id = datasetId) => (await hostOk<{ state: CompareState }>(comparePanel(id), 'compare/ready', {})).state;

  /** Runs the prompt file over the test dataset with every evaluator; `mapped` when the mapping is remembered. */
  async function runOver(mapped: boolean) {
    const script = new ScriptedPrompter([
      { pick: datasetName },
      { pick: 'All examples' },
      { pick: 'local-echo' },
      { pickMany: ['contains', 'similarity', 'helpfulness'] },
      { input: '3' },
      ...(mapped ? [] : [{ pick: 'question' }]),
    ]);
    return runScripted(workbench, 'langsmith.runPromptOverDataset', script, promptUri);
  }

  before(async () => {
    workbench = await activateWorkbench();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-exp-'));
    datasetId = (await http<{ id: string }>('POST', '/datasets', { name: datasetName, description: 'experiments test' })).id;
    const client = await workbench.clients.client();
    const created = await client.examples.create({
      datasetId,
      examples: QUESTIONS.map(([q, a], i) => ({ inputs: { question: q }, outputs: { answer: a }, split: i < 3 ? 'train' : 'test' })),
    });
    exampleIds = created.example_ids ?? [];
    assert.equal(exampleIds.length, QUESTIONS.length);
    // The prompt calls its variable `query`: the dataset's field is `question`, so the run asks to map it.
    promptUri = write(
      `exp-${tag}.prompt.yaml`,
      ['prompt: exp-answer', 'template_format: f-string', 'input_variables:', '  - query', 'messages:', '  - role: system', '    template: Answer briefly.', '  - role: human', "    template: '{query}'", ''].join('\n'),
    );
    write(
      `exp-${tag}.evaluators.yaml`,
      [`dataset: ${datasetName}`, 'evaluators:', '  - type: contains', '    ignore_case: true', '  - type: similarity', '  - type: llm_judge', '    key: helpfulness', '    rubric: Is the answer right?', ''].join('\n'),
    );
  });

  after(async () => {
    for (const p of workbench.panels.panelsOf(Panels.compare)) p.host.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs a prompt file over a dataset: an experiment with a run per example and a score per evaluator', async () => {
    const { errors, infos, script } = await runOver(false);
    assert.deepEqual(errors, []);
    assert.ok(script.asked.some((q) => q.includes('“query”')), `the mapping step names the variable: ${script.asked.join(' | ')}`);
    const list = await experimentsOf(datasetId);
    assert.equal(list.length, 1, 'one experiment of the dataset');
    const [experiment] = list;
    experiments.push(experiment!);
    assert.match(experiment!.name, /^exp-answer-/);
    assert.equal(experiment!.extra?.metadata?.['prompt'], 'exp-answer', 'the prompt is in its metadata');
    const runs = await rootRuns(experiment!.id);
    assert.deepEqual(runs.map((r) => r.reference_example_id).sort(), [...exampleIds].sort(), 'one run per example, tied to it');
    for (const r of runs) assert.match(JSON.stringify(r.outputs), /Last user message: /, 'the local model answered the mapped question');
    const feedback = await get<FeedbackJson[]>(`/feedback?${runs.map((r) => `run=${r.id}`).join('&')}&limit=100`);
    assert.deepEqual([...new Set(feedback.map((f) => f.key))].sort(), ['contains', 'helpfulness', 'similarity']);
    assert.equal(feedback.length, runs.length * 3, 'each evaluator scored each run once');
    assert.ok(infos.some((m) => m.includes(experiment!.name) && m.includes(`${QUESTIONS.length} of ${QUESTIONS.length}`)), `the end says what ran: ${infos.join(' | ')}`);
  });

  it('remembers the mapping per prompt and dataset: a second run asks none', async () => {
    const { errors, script } = await runOver(true);
    assert.deepEqual(errors, []);
    assert.ok(!script.asked.some((q) => q.includes('“query”')), 'no mapping question');
    const list = await experimentsOf(datasetId);
    assert.equal(list.length, 2);
    experiments.push(list.find((e) => e.id !== experiments[0]!.id)!);
  });

  it('names a variable no field fills before any call, and runs nothing', async () => {
    const uri = write(`unmapped-${tag}.prompt.yaml`, ['prompt: exp-unmapped', 'messages:', '  - role: human', "    template: '{nowhere}'", ''].join('\n'));
    const before = (await experimentsOf(datasetId)).length;
    const script = new ScriptedPrompter([{ pick: datasetName }, { pick: 'All examples' }, { pick: 'local-echo' }, { pickMany: ['contains'] }, { input: '4' }, { dismiss: true }]);
    const { errors } = await runScripted(workbench, 'langsmith.runPromptOverDataset', script, uri);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /“nowhere”/);
    assert.equal((await experimentsOf(datasetId)).length, before, 'no experiment was made');
  });

  it('refuses an evaluators file with a problem, saying where', async () => {
    const otherName = `exp-bad-${tag}`;
    await http('POST', '/datasets', { name: otherName });
    write(`bad-${tag}.evaluators.yaml`, [`dataset: ${otherName}`, 'evaluators:', '  - type: nope', ''].join('\n'));
    const script = new ScriptedPrompter([{ pick: otherName }, { pick: 'local-echo' }]);
    const { errors } = await runScripted(workbench, 'langsmith.runPromptOverDataset', script, promptUri);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, new RegExp(`bad-${tag}\\.evaluators\\.yaml:3:\\d+: `), errors[0]);
  });

  it('shows an evaluators file’s problems in Problems, at their place, and a dataset that does not exist as a warning', async () => {
    const uri = write(`diag-${tag}.evaluators.yaml`, [`dataset: ${datasetName}`, 'evaluators:', '  - type: nope', ''].join('\n'));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const ours = () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'LangSmith');
    await waitFor(() => ours().length > 0, 'a problem in Problems');
    assert.equal(ours()[0]!.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(ours()[0]!.range.start.line, 2, 'on the line of the bad type');
    const editor = vscode.window.activeTextEditor!;
    await editor.edit((e) => e.replace(new vscode.Range(0, 0, doc.lineCount, 0), `dataset: no-such-dataset-${tag}\nevaluators:\n  - type: contains\n`));
    await waitFor(() => ours().length === 1 && ours()[0]!.severity === vscode.DiagnosticSeverity.Warning, 'the warning for an unknown dataset');
    assert.match(ours()[0]!.message, new RegExp(`no-such-dataset-${tag}`));
    await editor.edit((e) => e.replace(new vscode.Range(0, 0, 1, 0), `dataset: ${datasetName}\n`));
    await waitFor(() => ours().length === 0, 'no problem left');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('compares experiments of a dataset picked newest first: the index, the rows, the keys', async () => {
    const script = new ScriptedPrompter([{ pick: datasetName }, { pickMany: experiments.map((e) => e.name) }]);
    const { errors } = await runScripted(workbench, 'langsmith.compareDatasetExperiments', script);
    assert.deepEqual(errors, []);
    assert.deepEqual(script.offered[1], [...experiments].reverse().map((e) => e.name), 'newest first');
    const state = await ready();
    assert.equal(state.kind, 'compare', JSON.stringify(state));
    if (state.kind !== 'compare') return;
    assert.equal(state.dataset.name, datasetName);
    assert.deepEqual(new Set(state.experiments.map((e) => e.id)), new Set(experiments.map((e) => e.id)));
    assert.deepEqual(state.keys.map((k) => k.key).sort(), ['contains', 'helpfulness', 'similarity']);
    assert.ok(state.experiments.every((e) => e.source?.includes('exp-answer')), 'the source line names the prompt');
    assert.deepEqual(state.index.map((r) => r.exampleId).sort(), [...exampleIds].sort());
    for (const row of state.index) for (const e of experiments) assert.ok(row.cells[e.id]?.runId, 'each experiment has a run per example');
    assert.equal(state.rows.length, exampleIds.length, 'the first rows come with the state');
    const asked = [exampleIds[1]!, '00000000-0000-4000-8000-000000000000'];
    const { rows } = await hostOk<{ rows: RowContent[] }>(comparePanel(datasetId), 'compare/rows', { exampleIds: asked });
    assert.deepEqual(rows.map((r) => r.exampleId), [exampleIds[1]], 'an unknown id is left out');
    assert.equal(rows[0]!.inputs, QUESTIONS[1][0]);
    assert.equal(rows[0]!.reference, QUESTIONS[1][1]);
    const bad = await hostCall(comparePanel(datasetId), 'compare/rows', { exampleIds: [] });
    assert.equal(!bad.ok && bad.error.code, 'invalidParams');
  });

  it('opens the diff of two outputs as read-only documents', async () => {
    const [a, b] = experiments;
    const exampleId = exampleIds[0]!;
    await hostOk(comparePanel(datasetId), 'compare/act', { action: 'diff', exampleId, experimentId: a!.id, otherId: b!.id });
    const title = `Example ${exampleId.slice(0, 8)}: ${a!.name} ↔ ${b!.name}`;
    await waitFor(() => tabs().some((t) => t.label === title), `a diff tab titled ${title}`);
    const input = tabs().find((t) => t.label === title)!.input;
    assert.ok(input instanceof vscode.TabInputTextDiff);
    assert.equal(input.original.scheme, 'langsmith');
    const [left, right] = await Promise.all([vscode.workspace.openTextDocument(input.original), vscode.workspace.openTextDocument(input.modified)]);
    assert.match(left.getText(), /How do I reset my password\?/, 'the output of the run for that example');
    assert.equal(left.getText(), right.getText(), 'the same prompt on the same model answers alike');
    const stranger = await hostCall(comparePanel(datasetId), 'compare/act', { action: 'diff', exampleId, experimentId: a!.id, otherId: randomUUID() });
    assert.deepEqual(!stranger.ok && stranger.error, { code: 'invalidParams', message: 'That experiment is not part of this comparison.' });
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('exports the rows shown as CSV and JSONL, every field in full', async () => {
    const [a, b] = experiments;
    const csv = vscode.Uri.file(path.join(dir, 'out.csv'));
    const jsonl = vscode.Uri.file(path.join(dir, 'out.jsonl'));
    const restore = workbench.setPrompter(new ScriptedPrompter([{ file: csv }, { file: jsonl }, { dismiss: true }]));
    try {
      const shown = [exampleIds[2]!, exampleIds[0]!];
      const c = await hostOk<{ path: string; rows: number; message: string }>(comparePanel(datasetId), 'compare/export', { format: 'csv', exampleIds: shown, baselineId: b!.id });
      assert.equal(c.rows, 2);
      assert.equal(c.message, `Exported 2 rows to ${csv.fsPath}`);
      const lines = fs.readFileSync(csv.fsPath, 'utf8').split('\r\n');
      const header = lines[0]!;
      assert.ok(header.startsWith(`example_id,inputs,reference_outputs,${b!.name} output,${b!.name} error,${b!.name} latency_ms,`), `the baseline first: ${header}`);
      assert.ok(header.includes(`${a!.name} helpfulness`));
      assert.ok(lines[1]!.startsWith(`${exampleIds[2]},"{""question"":""${QUESTIONS[2][0]}""}"`), `quoted as CSV: ${lines[1]}`);
      assert.equal(lines.filter(Boolean).length, 3, 'a header and two rows, in the order shown');
      const j = await hostOk<{ rows: number }>(comparePanel(datasetId), 'compare/export', { format: 'jsonl', exampleIds: shown, baselineId: b!.id });
      assert.equal(j.rows, 2);
      const objects = fs.readFileSync(jsonl.fsPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { example_id: string; inputs: unknown; experiments: { experiment_id: string; outputs: unknown; feedback: Record<string, unknown> }[] });
      assert.deepEqual(objects.map((o) => o.example_id), shown);
      assert.deepEqual(objects[0]!.inputs, { question: QUESTIONS[2][0] });
      assert.deepEqual(objects[0]!.experiments.map((e) => e.experiment_id), [b!.id, a!.id]);
      assert.deepEqual(Object.keys(objects[0]!.experiments[0]!.feedback).sort(), ['contains', 'helpfulness', 'similarity']);
      const cancelled = await hostOk<{ path: string | null; rows: number }>(comparePanel(datasetId), 'compare/export', { format: 'csv', exampleIds: shown, baselineId: b!.id });
      assert.deepEqual(cancelled, { path: null, rows: 0, message: null });
    } finally {
      restore();
    }
  });

  it('keeps the baseline chosen on the page for the next time', async () => {
    const second = experiments[1]!.id;
    await hostOk(comparePanel(datasetId), 'compare/setBaseline', { experimentId: second });
    const state = await ready();
    assert.equal(state.kind === 'compare' && state.baselineId, second);
    const stranger = await hostCall(comparePanel(datasetId), 'compare/setBaseline', { experimentId: randomUUID() });
    assert.equal(!stranger.ok && stranger.error.code, 'invalidParams');
  });

  it('refuses experiments of another dataset, saying why', async () => {
    const [chat] = await get<{ id: string }[]>('/datasets?name=demo-chat-transcripts');
    const other = await http<Session>('POST', '/sessions', { name: `exp-other-${tag}`, reference_dataset_id: chat!.id });
    await workbench.panels.show(Panels.compare, { datasetId, experimentIds: [experiments[0]!.id, other.id] });
    const host = workbench.panels.panelsOf<CompareKey>(Panels.compare).find((p) => p.key.experimentIds.includes(other.id))!.host;
    const state = (await hostOk<{ state: CompareState }>(host, 'compare/ready', {})).state;
    assert.equal(state.kind, 'problem');
    assert.match(state.kind === 'problem' ? state.problem.message : '', new RegExp(`“exp-other-${tag}” was run on another dataset`));
    host.dispose();
  });

  it('reads 1,000 examples × 3 experiments in at most 20 requests: one per 100 examples for the scores, and a few more', async () => {
    const bigName = `exp-big-${tag}`;
    const bigId = (await http<{ id: string }>('POST', '/datasets', { name: bigName })).id;
    const client = await workbench.clients.client();
    const ids = (await client.examples.create({ datasetId: bigId, examples: Array.from({ length: 1000 }, (_v, i) => ({ inputs: { question: `q${i}` }, outputs: { answer: `a${i}` } })) })).example_ids ?? [];
    const sessions: string[] = [];
    for (let e = 0; e < 3; e++) {
      const s = await http<Session>('POST', '/sessions', { name: `${bigName}-e${e}`, reference_dataset_id: bigId });
      sessions.push(s.id);
      const t0 = Date.now() - 3_600_000;
      for (let i = 0; i < ids.length; i += 250) {
        const post = ids.slice(i, i + 250).map((exampleId, k) => {
          const id = randomUUID();
          const start = new Date(t0 + (i + k) * 10).toISOString();
          return {
            id, trace_id: id, dotted_order: `${start.replace(/[-:.]/g, '').replace('Z', '000Z')}${id}`, name: 'answer', run_type: 'chain', session_id: s.id,
            reference_example_id: exampleId, start_time: start, end_time: new Date(t0 + (i + k) * 10 + 5).toISOString(),
            inputs: { question: 'q' }, outputs: { answer: `out ${e}` },
          };
        });
        await http('POST', '/runs/batch', { post });
      }
    }
    // A session of the panel's host on a client of its own, so only its requests are counted (an open panel's page
    // would ask for its state too).
    const counted = new LangSmithClient({ apiUrl: endpoint, apiKey });
    const services = {
      clients: { call: <T>(work: (c: LangSmithClient) => Promise<T>) => work(counted) },
      workspaceState: { get: () => undefined, update: async () => undefined },
      log: { info: () => undefined, warn: () => undefined },
    } as unknown as PanelServices;
    const session = new CompareSession(services, { datasetId: bigId, experimentIds: sessions });
    const t0 = Date.now();
    const state = await session.state(new AbortController().signal);
    const ms = Date.now() - t0;
    const requests = counted.http.stats.requests;
    assert.equal(state.kind, 'compare', JSON.stringify(state).slice(0, 500));
    if (state.kind !== 'compare') return;
    assert.equal(state.index.length, 1000);
    assert.ok(state.index.every((r) => sessions.every((s) => r.cells[s]?.runId)), 'every cell has its run');
    assert.equal(state.rows.length, 50, 'the first rows come with it');
    // The experiment-runs query pages the dataset by 100 examples: ten pages of scores, then the server's version,
    // the dataset, the experiments, the feedback configs, the first rows' contents and the tenant for links. The
    // issue's goal is 20 for the first screen and the summary.
    const pages = Math.ceil(1000 / 100);
    assert.ok(requests <= pages + 6, `${requests} requests for the first screen and the summary`);
    assert.ok(requests <= 20, `${requests} requests: the goal is 20`);
    console.log(`[mocha] compare first paint: ${requests} requests, ${ms} ms for 1,000 examples × 3 experiments`);
  });
  it('runs the prompt of the active playground from its title bar, with no argument', async () => {
    await vscode.commands.executeCommand('langsmith.runPrompt', promptUri);
    const playground = () => workbench.panels.panelsOf<{ kind: string; uri?: string }>(Panels.playground).find((p) => p.key.uri === promptUri.toString());
    await waitFor(() => !!playground()?.host.panel.active, 'the playground is the active panel');
    try {
      assert.equal(vscode.window.activeTextEditor, undefined, 'no text editor is active: the prompt comes from the playground');
      const before = (await experimentsOf(datasetId)).map((e) => e.id);
      // The mapping of this prompt file and dataset is remembered from the first test: no mapping question.
      const script = new ScriptedPrompter([{ pick: datasetName }, { pick: 'All examples' }, { pick: 'local-echo' }, { pickMany: ['contains'] }, { input: '2' }]);
      const { errors } = await runScripted(workbench, 'langsmith.runPromptOverDataset', script);
      assert.deepEqual(errors, []);
      const made = (await experimentsOf(datasetId)).filter((e) => !before.includes(e.id));
      assert.equal(made.length, 1, 'one new experiment');
      assert.equal(made[0]!.extra?.metadata?.['prompt'], 'exp-answer', 'of the playground\'s prompt');
      assert.equal((await rootRuns(made[0]!.id)).length, QUESTIONS.length);
    } finally {
      playground()?.host.dispose();
    }
  });
});
