// The trace viewer in the extension host against the local server: a run clicked in the Projects tree opens its
// whole trace (a child run opens it with that run selected), the panel's handlers (reached through its router,
// as the page reaches them) read a run whole with its payloads cut, find in the trace, add feedback that lands
// on the server, and say plainly when a trace is missing; a running trace shows as running until it ends; a
// project's threads are listed in the tree and open as conversations; a run becomes a dataset example linked to
// it. Traces of their own are written over HTTP, so the checks do not lean on the demo's exact content.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../../src/extension';
import type { RunDetail, TraceKey, TraceState } from '../../../src/protocol/trace';
import type { TreeNode } from '../../../src/views/treeNode';
import { Panels } from '../../../src/webviews/descriptors';
import { ScriptedPrompter } from './scriptedPrompter';
import { activateWorkbench, get, hostCall, hostOk, http, runScripted } from './support';

type AnyNode = TreeNode & Record<string, any>;

/** `YYYYMMDDTHHMMSSffffffZ` of a time, as dotted orders write it. */
function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.(\d{3})Z$/, '$1000Z');
}

interface RunSpec {
  id: string;
  name: string;
  run_type: string;
  parent?: RunSpec & { dotted: string };
  start: number;
  end: number | null;
  inputs?: unknown;
  outputs?: unknown;
  error?: string;
  metadata?: Record<string, unknown>;
}

/** Writes one run the way a tracer does (POST /runs), with its trace id and dotted order. */
async function postRun(project: string, spec: RunSpec, traceId: string): Promise<RunSpec & { dotted: string }> {
  const own = `${stamp(spec.start)}${spec.id}`;
  const dotted = spec.parent ? `${spec.parent.dotted}.${own}` : own;
  await http('POST', '/runs', {
    id: spec.id, name: spec.name, run_type: spec.run_type, session_name: project, trace_id: traceId, dotted_order: dotted,
    parent_run_id: spec.parent?.id, start_time: new Date(spec.start).toISOString(), end_time: spec.end === null ? undefined : new Date(spec.end).toISOString(),
    inputs: spec.inputs ?? {}, outputs: spec.outputs, error: spec.error, extra: spec.metadata ? { metadata: spec.metadata } : undefined,
  });
  return { ...spec, dotted };
}

describe('trace viewer', function () {
  this.timeout(60_000);
  let workbench: WorkbenchApi;
  const project = `trace-viewer-${randomUUID().slice(0, 8)}`;
  let projectId: string;
  const t0 = Date.now() - 60_000;
  const rootId = randomUUID();
  const llmId = randomUUID();
  const toolId = randomUUID();

  const tracePanels = () => workbench.panels.panelsOf<TraceKey>(Panels.trace);
  const panelOf = (match: (key: TraceKey) => boolean) => {
    const found = tracePanels().find((p) => match(p.key));
    assert.ok(found, `a trace panel is open for ${JSON.stringify(tracePanels().map((p) => p.key))}`);
    return found;
  };
  const projectNode = async (name: string): Promise<AnyNode> => {
    workbench.views.projects.refresh();
    const node = (await workbench.views.projects.provider.getChildren()).find((n) => (n as AnyNode).project?.name === name);
    assert.ok(node, `${name} is in the Projects view`);
    return node as AnyNode;
  };

  before(async () => {
    workbench = await activateWorkbench();
    const root = await postRun(project, { id: rootId, name: 'AgentLoop', run_type: 'chain', start: t0, end: t0 + 4000, inputs: { question: 'What is the weather in Paris?' }, outputs: { answer: 'Sunny.' } }, rootId);
    await postRun(project, {
      id: llmId, name: 'ChatOpenAI', run_type: 'llm', parent: root, start: t0 + 100, end: t0 + 1100,
      inputs: { messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'What is the weather in Paris?' }] },
      outputs: { choices: [{ message: { role: 'assistant', content: 'x'.repeat(50_000) } }] },
    }, rootId);
    await postRun(project, { id: toolId, name: 'weather_tool', run_type: 'tool', parent: root, start: t0 + 1200, end: t0 + 1500, inputs: { city: 'Paris' }, error: 'ToolError: upstream timed out\n  at fetch (weather.py:12)' }, rootId);
    [{ id: projectId }] = await get<{ id: string }[]>(`/sessions?name=${project}`);
  });

  after(async () => {
    for (const p of tracePanels()) p.host.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens a root run clicked in the Projects tree as its whole trace, with one read of the runs', async () => {
    const node = await projectNode(project);
    const runs = (await node.children()) as AnyNode[];
    const rootNode = runs.find((n) => n.run?.id === rootId);
    assert.ok(rootNode, 'the root run is listed');
    assert.equal(rootNode.treeItem().command?.command, 'langsmith.openTrace', 'a click opens the trace viewer');
    await vscode.commands.executeCommand('langsmith.openTrace', rootNode);
    const { host } = panelOf((k) => k.kind === 'trace' && k.traceId === rootId);
    const ready = await hostOk<{ state: TraceState }>(host, 'trace/ready', {});
    assert.equal(ready.state.kind, 'trace');
    if (ready.state.kind !== 'trace') return;
    const { trace, selectedRunId } = ready.state;
    assert.equal(selectedRunId, rootId);
    // In tree order, each naming its parent (the dotted orders stay on the host).
    assert.deepEqual(trace.runs.map((r) => r.id), [rootId, llmId, toolId]);
    assert.equal(trace.header.name, 'AgentLoop');
    assert.equal(trace.header.project?.name, project);
    assert.equal(trace.source, 'v2', 'the local server has LangSmith’s v2 trace read');
    assert.ok(trace.requests <= 3, `the trace took ${trace.requests} requests (runs, project, share state)`);
    const tool = trace.runs.find((r) => r.id === toolId)!;
    assert.equal(tool.status, 'error');
    assert.equal(tool.errorPreview, 'ToolError: upstream timed out');
    assert.equal(tool.parentId, rootId);
    assert.equal(tool.dottedOrder, '');
  });

  it('opens a child run’s trace with that run selected, and selects it in a panel already open', async () => {
    const node = await projectNode(project);
    const rootNode = ((await node.children()) as AnyNode[]).find((n) => n.run?.id === rootId)!;
    const child = ((await rootNode.children()) as AnyNode[]).find((n) => n.run?.id === llmId);
    assert.ok(child, 'the llm run is under its parent');
    for (const p of tracePanels()) p.host.dispose();
    await vscode.commands.executeCommand('langsmith.openTrace', child);
    const { host, key } = panelOf((k) => k.kind === 'trace' && k.traceId === rootId);
    assert.equal(key.kind === 'trace' ? key.runId : undefined, llmId);
    const ready = await hostOk<{ state: TraceState }>(host, 'trace/ready', {});
    assert.equal(ready.state.kind === 'trace' ? ready.state.selectedRunId : null, llmId);
  });

  it('reads the selected run whole, a long output cut for the page and whole on Show all', async () => {
    const { host } = panelOf((k) => k.kind === 'trace' && k.traceId === rootId);
    const detail = await hostOk<RunDetail>(host, 'trace/readRun', { runId: llmId });
    assert.deepEqual((detail.inputs?.value as { messages: unknown[] }).messages.length, 2);
    const cut = detail.outputs?.cuts[0];
    assert.deepEqual(cut, { path: ['choices', 0, 'message', 'content'], kind: 'string', length: 50_000 });
    const whole = await hostOk<{ text: string | null; opened: boolean }>(host, 'trace/showAll', { runId: llmId, part: 'outputs', path: cut!.path });
    assert.equal(whole.text?.length, 50_000);
    assert.equal(whole.opened, false);
    const failed = await hostOk<RunDetail>(host, 'trace/readRun', { runId: toolId });
    assert.match(failed.error ?? '', /weather\.py:12/);
  });

  it('refuses what a page must not send', async () => {
    const { host } = panelOf((k) => k.kind === 'trace' && k.traceId === rootId);
    const bad = await hostCall(host, 'trace/readRun', { runId: '' });
    assert.equal(bad.ok, false);
    assert.equal(bad.ok ? '' : bad.error.code, 'invalidParams');
    const noKey = await hostCall(host, 'trace/addFeedback', { runId: llmId, key: '  ', score: 1, value: null, comment: null });
    assert.equal(noKey.ok ? '' : noKey.error.message, 'Give the feedback a key, such as “correctness”.');
  });

  it('finds the runs whose inputs, outputs or error contain a text', async () => {
    const { host } = panelOf((k) => k.kind === 'trace' && k.traceId === rootId);
    const found = await hostOk<{ runIds: string[] }>(host, 'trace/find', { text: 'upstream TIMED out' });
    assert.deepEqual(found.runIds, [toolId]);
    const paris = await hostOk<{ runIds: string[] }>(host, 'trace/find', { text: 'Paris' });
    assert.deepEqual([...paris.runIds].sort(), [rootId, llmId, toolId].sort());
    const none = await hostOk<{ runIds: string[] }>(host, 'trace/find', { text: 'a "quoted" \\ text' });
    assert.deepEqual(none.runIds, []);
  });

  it('adds feedback in place, and it is on the server', async () => {
    const { host } = panelOf((k) => k.kind === 'trace' && k.traceId === rootId);
    const item = await hostOk<{ id: string; key: string; score: number }>(host, 'trace/addFeedback', { runId: llmId, key: 'helpfulness', score: 0.75, value: null, comment: 'Too long.' });
    assert.equal(item.key, 'helpfulness');
    const onServer = await get<{ id: string; score: number; comment: string }[]>(`/feedback?run=${llmId}`);
    assert.deepEqual(onServer.map((f) => [f.id, f.score, f.comment]), [[item.id, 0.75, 'Too long.']]);
    const detail = await hostOk<RunDetail>(host, 'trace/readRun', { runId: llmId });
    assert.deepEqual(detail.feedback.map((f) => f.key), ['helpfulness']);
  });

  it('says plainly that a trace is missing, and Retry asks again', async () => {
    const missing = randomUUID();
    // Through the command: the panel's code is then the extension's own (the test bundle has copies of its own).
    await vscode.commands.executeCommand('langsmith.openTrace', { runId: missing, traceId: missing, projectId });
    const { host } = panelOf((k) => k.kind === 'trace' && k.traceId === missing);
    const ready = await hostOk<{ state: TraceState }>(host, 'trace/ready', {});
    assert.equal(ready.state.kind, 'problem');
    if (ready.state.kind === 'problem') {
      assert.equal(ready.state.problem.code, 'notFound', ready.state.problem.message);
      assert.match(ready.state.problem.message, /^This trace was not found/);
    }
    const again = await hostOk<TraceState>(host, 'trace/reload', {});
    assert.equal(again.kind, 'problem');
    host.dispose();
  });

  it('shows a trace as running until its root ends', async () => {
    const id = randomUUID();
    const start = Date.now() - 5_000;
    await postRun(project, { id, name: 'StillRunning', run_type: 'chain', start, end: null }, id);
    await vscode.commands.executeCommand('langsmith.openTrace', { runId: id, traceId: id, projectId });
    const { host } = panelOf((k) => k.kind === 'trace' && k.traceId === id);
    const first = await hostOk<{ state: TraceState }>(host, 'trace/ready', {});
    assert.equal(first.state.kind === 'trace' ? first.state.trace.header.status : '', 'pending');
    await http('PATCH', `/runs/${id}`, { end_time: new Date().toISOString(), outputs: { done: true } });
    const later = await hostOk<TraceState>(host, 'trace/reload', {});
    assert.equal(later.kind === 'trace' ? later.trace.header.status : '', 'success');
    host.dispose();
  });

  it('lists a project’s threads in the tree and opens one as its conversation', async () => {
    const threadId = `conv-${randomUUID().slice(0, 8)}`;
    const threadProject = `threads-${randomUUID().slice(0, 8)}`;
    const base = Date.now() - 10 * 60_000;
    for (let turn = 0; turn < 3; turn++) {
      const id = randomUUID();
      await postRun(threadProject, {
        id, name: 'ChatTurn', run_type: 'chain', start: base + turn * 60_000, end: base + turn * 60_000 + 1500 + turn * 100,
        inputs: { messages: [{ role: 'user', content: `question ${turn + 1}` }] }, outputs: { messages: [{ role: 'assistant', content: `answer ${turn + 1}` }] },
        metadata: { thread_id: threadId },
      }, id);
    }
    const node = await projectNode(threadProject);
    const [threads] = (await node.children()) as AnyNode[];
    assert.equal(threads!.treeItem().label, 'Threads');
    const rows = (await threads!.children()) as AnyNode[];
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.treeItem().label, threadId);
    assert.match(String(rows[0]!.treeItem().description), /^3 turns · /);
    await vscode.commands.executeCommand('langsmith.openThread', rows[0]);
    const { host } = panelOf((k) => k.kind === 'thread' && k.threadId === threadId);
    const ready = await hostOk<{ state: TraceState }>(host, 'trace/ready', {});
    assert.equal(ready.state.kind, 'thread');
    if (ready.state.kind !== 'thread') return;
    const { thread } = ready.state;
    assert.equal(thread.totals.turns, 3);
    assert.deepEqual(thread.turns.map((t) => (t.inputs?.value as { messages: { content: string }[] }).messages[0]!.content), ['question 1', 'question 2', 'question 3']);
    assert.equal(thread.project.name, threadProject);
    assert.ok(thread.totals.latencyP50 !== null && thread.totals.latencyP50 >= 1500, `p50 ${thread.totals.latencyP50} ms`);
    host.dispose();
  });

  it('opens a trace by a run’s id typed in, with that run selected', async () => {
    for (const p of tracePanels()) p.host.dispose();
    await runScripted(workbench, 'langsmith.openTraceById', new ScriptedPrompter([{ input: toolId.toUpperCase() }]));
    const { host } = panelOf((k) => k.kind === 'trace' && k.traceId === rootId);
    const ready = await hostOk<{ state: TraceState }>(host, 'trace/ready', {});
    assert.equal(ready.state.kind === 'trace' ? ready.state.selectedRunId : null, toolId);
  });

  it('opens a trace shared by link, read-only, with its runs', async () => {
    const share = await http<{ share_token: string }>('PUT', `/runs/${rootId}/share`, { run_id: rootId, share_token: randomUUID() });
    const link = `https://smith.example/public/${share.share_token}/r`;
    await runScripted(workbench, 'langsmith.openSharedTrace', new ScriptedPrompter([{ input: link }]));
    const { host } = panelOf((k) => k.kind === 'shared' && k.token === share.share_token);
    const ready = await hostOk<{ state: TraceState }>(host, 'trace/ready', {});
    assert.equal(ready.state.kind, 'trace');
    if (ready.state.kind !== 'trace') return;
    assert.equal(ready.state.trace.header.readOnly, true);
    assert.equal(ready.state.trace.source, 'public');
    assert.deepEqual(ready.state.trace.runs.map((r) => r.id).sort(), [rootId, llmId, toolId].sort());
    const detail = await hostOk<RunDetail>(host, 'trace/readRun', { runId: toolId });
    assert.match(detail.error ?? '', /upstream timed out/);
    const refused = await hostCall(host, 'trace/addFeedback', { runId: toolId, key: 'x', score: 1, value: null, comment: null });
    assert.equal(refused.ok, false);
    await http('DELETE', `/runs/${rootId}/share`);
    host.dispose();
  });

  it('opens an llm run’s messages in the playground as an untitled prompt file', async () => {
    await vscode.commands.executeCommand('langsmith.openRunInPlayground', { runId: llmId, projectId });
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'untitled' && d.uri.path.endsWith(`ChatOpenAI-${llmId.slice(0, 8)}.prompt.yaml`));
    assert.ok(doc, `an untitled prompt file opened among ${vscode.workspace.textDocuments.map((d) => d.uri.toString()).join(', ')}`);
    assert.match(doc.getText(), /You are terse\./);
    assert.match(doc.getText(), /What is the weather in Paris\?/);
    const playground = workbench.panels.panelsOf<{ kind: string; uri?: string }>(Panels.playground).find((p) => p.key.uri === doc.uri.toString());
    assert.ok(playground, 'the playground runs that file');
    const state = await hostOk<{ state: { prompt: { messages: { role: string }[] } | null } }>(playground.host, 'playground/ready', {});
    assert.deepEqual(state.state.prompt?.messages.map((m) => m.role), ['system', 'human']);
    playground.host.dispose();
    // A run without chat messages says so.
    const { errors } = await runScripted(workbench, 'langsmith.openRunInPlayground', new ScriptedPrompter([]), { runId: toolId, projectId });
    assert.match(errors.join('\n'), /“weather_tool” has no chat messages in its inputs to run again\./);
  });

  it('adds a run to a dataset as an example linked to it', async () => {
    const name = `from-runs-${randomUUID().slice(0, 8)}`;
    const dataset = await http<{ id: string; name: string }>('POST', '/datasets', { name });
    const { infos } = await runScripted(workbench, 'langsmith.addRunToDataset', new ScriptedPrompter([{ pick: name }]), { runId: rootId, projectId });
    assert.match(infos.join('\n'), new RegExp(`Added “AgentLoop” to the dataset “${name}”`));
    const examples = await get<{ inputs: unknown; outputs: unknown; source_run_id: string | null }[]>(`/examples?dataset=${dataset.id}&limit=100&offset=0&order=recent`);
    const linked = examples.filter((e) => e.source_run_id === rootId);
    assert.equal(linked.length, 1, 'one example came from the run');
    assert.deepEqual(linked[0]!.inputs, { question: 'What is the weather in Paris?' });
    assert.deepEqual(linked[0]!.outputs, { answer: 'Sunny.' });
  });
});
