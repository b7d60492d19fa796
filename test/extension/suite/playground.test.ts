// The playground in the real extension host against the local server (LangSmith and its local-echo model): the
// panel's host reads the prompt file, runs it streamed, keeps a chat session, traces each run to the
// playground project (flushed when the run ends, kept when a flush fails), and shows the trace in the Projects
// view. A small model endpoint of the test's own stands in for a slow or failing provider.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../../src/extension';
import type { PlaygroundKey, PlaygroundState, SessionInfo } from '../../../src/protocol/playground';
import { Panels } from '../../../src/webviews/descriptors';
import type { WebviewHost } from '../../../src/webviews/webviewHost';
import { activateWorkbench, get, hostCall, hostOk, raw } from './support';

interface Finished {
  runId: string;
  outcome: 'done' | 'error' | 'stopped';
  answer: string;
  usage: { input: number; output: number; total: number } | null;
  error: string | null;
  hint: string | null;
  trace: { status: 'sent' | 'failed' | 'off'; message: string | null; pending: number };
  session: SessionInfo;
}

interface RunJson {
  id: string;
  name: string;
  run_type: string;
  parent_run_id: string | null;
  trace_id: string;
  total_tokens: number | null;
}

const FILE = `prompt: playground-test
template_format: f-string
messages:
  - role: system
    template: You answer in {style} style.
  - role: human
    template: "Question: {question}"
`;

/** Records what a panel's host tells its page (posted or not). */
function listen(host: WebviewHost) {
  const seen: { method: string; params: unknown }[] = [];
  const original = host.notify.bind(host);
  host.notify = (async (type: { method: string }, params: unknown) => {
    seen.push({ method: type.method, params });
    return original(type as never, params as never);
  }) as typeof host.notify;
  return {
    deltas: (runId: string) => seen.filter((n) => n.method === 'playground/delta' && (n.params as { runId: string }).runId === runId).map((n) => (n.params as { text: string }).text),
    async finished(runId: string, timeoutMs = 20_000): Promise<Finished> {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const hit = seen.find((n) => n.method === 'playground/finished' && (n.params as Finished).runId === runId);
        if (hit) return hit.params as Finished;
        if (Date.now() > until) throw new Error(`run ${runId} did not finish; saw ${seen.map((n) => n.method).join(', ')}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}

/** A chat-completions endpoint of the test's own: `behaviour` decides each answer. */
async function fakeModel(behaviour: (res: http.ServerResponse, body: Record<string, unknown>, auth: string | undefined) => void) {
  const seen: { auth?: string; body: Record<string, unknown> }[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(text || '{}') as Record<string, unknown>;
      seen.push({ auth: req.headers.authorization, body });
      behaviour(res, body, req.headers.authorization);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('playground', function () {
  this.timeout(60_000);
  let workbench: WorkbenchApi;
  let dir: string;
  let uri: vscode.Uri;
  const config = () => vscode.workspace.getConfiguration('langsmith');

  before(async () => {
    workbench = await activateWorkbench();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-playground-'));
    const file = path.join(dir, 'qa.prompt.yaml');
    fs.writeFileSync(file, FILE);
    uri = vscode.Uri.file(file);
  });
  afterEach(async () => {
    await config().update('playground.endpoint', undefined, vscode.ConfigurationTarget.Global);
    await config().update('playground.project', undefined, vscode.ConfigurationTarget.Global);
    await raw('PUT', '/__local/faults', { faults: '' });
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function open(key: PlaygroundKey = { kind: 'file', uri: uri.toString() }) {
    if (key.kind === 'file') await vscode.commands.executeCommand('langsmith.runPrompt', vscode.Uri.parse(key.uri));
    const panel = workbench.panels.panelsOf<PlaygroundKey>(Panels.playground).find((p) => JSON.stringify(p.key) === JSON.stringify(key));
    assert.ok(panel, 'the playground opened');
    return { host: panel.host, events: listen(panel.host) };
  }
  const ready = async (host: WebviewHost) => (await hostOk<{ state: PlaygroundState }>(host, 'playground/ready', {})).state;
  const settings = { model: '', temperature: null, maxTokens: null };
  const runsOf = async (project: string) => {
    const projects = await get<{ id: string; name: string }[]>(`/sessions?name=${encodeURIComponent(project)}`);
    if (!projects[0]) return [];
    return (await http_post<{ runs: RunJson[] }>('/runs/query', { session: [projects[0].id], limit: 100 })).runs;
  };
  const http_post = async <T>(p: string, body: unknown) => {
    const res = await raw('POST', p, body);
    assert.equal(res.status, 200, res.text);
    return JSON.parse(res.text) as T;
  };

  it('opens on a prompt file with its variables, the local server’s model and tracing on', async () => {
    const { host } = await open();
    const state = await ready(host);
    assert.equal(state.title, 'qa.prompt.yaml');
    assert.deepEqual(state.prompt?.variables.sort(), ['question', 'style']);
    assert.deepEqual(state.prompt?.messages.map((m) => m.role), ['system', 'human']);
    assert.equal(state.endpoint.source, 'localServer');
    assert.match(state.endpoint.url ?? '', /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    assert.equal(state.endpoint.hasKey, true, 'the LangSmith key, for the same server');
    assert.equal(state.model.model, 'local-echo');
    assert.equal(state.project, 'playground');
    assert.equal(state.tracing, true);
    assert.ok(!JSON.stringify(state).includes('local-dev-key'), 'the key never reaches the page');
    assert.deepEqual(state.promptSettings, { temperature: null, maxTokens: null }, 'the file sets neither');
  });

  it('tells the page the prompt’s own temperature and max tokens (an empty field uses them)', async () => {
    const file = path.join(dir, 'tuned.prompt.yaml');
    fs.writeFileSync(file, `${FILE}model:\n  class: langchain.chat_models.openai.ChatOpenAI\n  model: gpt-4o-mini\n  temperature: 0.3\n  max_tokens: 200\n`);
    const { host } = await open({ kind: 'file', uri: vscode.Uri.file(file).toString() });
    const state = await ready(host);
    assert.deepEqual(state.promptSettings, { temperature: 0.3, maxTokens: 200 });
    assert.equal(state.promptModel, 'gpt-4o-mini');
  });

  it('runs streamed, traces chain → prompt → llm → parser to the project, and Show Trace opens its trace', async () => {
    const project = `playground-${Date.now()}`;
    await config().update('playground.project', project, vscode.ConfigurationTarget.Global);
    // The Projects view, loaded before the run, lists the project its first traced run made.
    const listed = async () => ((await workbench.views.projects.provider.getChildren()) as { project?: { name: string } }[]).some((n) => n.project?.name === project);
    assert.equal(await listed(), false);
    const { host, events } = await open();
    const { runId } = await hostOk<{ runId: string }>(host, 'playground/run', { values: { style: 'terse', question: 'Why is the sky blue?' }, model: settings, chat: false, followUp: null });
    const done = await events.finished(runId);
    assert.equal(done.outcome, 'done', done.error ?? '');
    assert.equal(done.answer, 'local-echo heard 2 messages: system, user.\nLast user message: Question: Why is the sky blue?');
    assert.equal(events.deltas(runId).join(''), done.answer);
    assert.ok(events.deltas(runId).length > 3, 'streamed in pieces');
    assert.ok(done.usage && done.usage.total > 0 && done.usage.total === done.usage.input + done.usage.output);
    assert.equal(done.trace.status, 'sent');
    // The view reloads its list when the flush tells the change bus; the list is read asynchronously, so wait for it.
    let inList = await listed();
    for (const end = Date.now() + 10_000; !inList && Date.now() < end; inList = await listed()) await new Promise((r) => setTimeout(r, 100));
    assert.equal(inList, true, 'the Projects view lists the project without a Refresh');
    const runs = await runsOf(project);
    assert.equal(runs.length, 4);
    const root = runs.find((r) => r.id === runId)!;
    assert.equal(root.name, 'Playground');
    assert.deepEqual(runs.filter((r) => r.parent_run_id === runId).map((r) => r.run_type).sort(), ['llm', 'parser', 'prompt']);
    assert.ok((runs.find((r) => r.run_type === 'llm')!.total_tokens ?? 0) > 0);
    // The values are remembered for the file.
    assert.deepEqual((await ready(host)).values, { style: 'terse', question: 'Why is the sky blue?' });

    // Show Trace: the run's trace opens in the trace viewer (a playground run is the root of its trace).
    await hostOk(host, 'playground/revealTrace', { runId });
    const trace = workbench.panels.panelsOf<{ kind: string; traceId?: string }>(Panels.trace).find((p) => p.key.traceId === runId);
    assert.ok(trace, 'the trace viewer opened on the run');
    const shown = await hostOk<{ state: { kind: string; trace?: { header: { name: string }; runs: unknown[] } } }>(trace.host, 'trace/ready', {});
    assert.equal(shown.state.trace?.header.name, 'Playground');
    assert.equal(shown.state.trace?.runs.length, 4);
    trace.host.dispose();
  });

  it('a missing value gives the spec’s message before any call: nothing runs, nothing is traced', async () => {
    const project = `playground-missing-${Date.now()}`;
    await config().update('playground.project', project, vscode.ConfigurationTarget.Global);
    const { host } = await open();
    const answer = await hostCall(host, 'playground/run', { values: { style: 'terse' }, model: settings, chat: false, followUp: null });
    assert.equal(answer.ok, false);
    assert.equal(!answer.ok && answer.error.message, '(f-string) Missing value for input question');
    assert.equal(!answer.ok && answer.error.code, 'invalidParams');
    assert.deepEqual(await runsOf(project), []);
  });

  it('chat mode keeps the session’s turns and sends them; New session starts over', async () => {
    const { host, events } = await open();
    const fresh = await hostOk<SessionInfo>(host, 'playground/resetSession', {});
    assert.deepEqual(fresh.turns, []);
    const values = { style: 'friendly', question: 'Where is my order?' };
    const first = await hostOk<{ runId: string }>(host, 'playground/run', { values, model: settings, chat: true, followUp: null });
    const one = await events.finished(first.runId);
    assert.equal(one.session.id, fresh.id);
    assert.deepEqual(one.session.turns.map((t) => t.role), ['ai']);
    const second = await hostOk<{ runId: string }>(host, 'playground/run', { values, model: settings, chat: true, followUp: 'It was due Monday.' });
    const two = await events.finished(second.runId);
    assert.equal(two.answer, 'local-echo heard 4 messages: system, user, assistant, user.\nLast user message: It was due Monday.');
    assert.deepEqual(two.session.turns.map((t) => [t.role, t.role === 'human' ? t.content : '…']), [['ai', '…'], ['human', 'It was due Monday.'], ['ai', '…']]);
    assert.deepEqual((await ready(host)).session, two.session, 'the state carries the session');
    const reset = await hostOk<SessionInfo>(host, 'playground/resetSession', {});
    assert.notEqual(reset.id, fresh.id);
    const third = await hostOk<{ runId: string }>(host, 'playground/run', { values, model: settings, chat: true, followUp: 'Hello?' });
    assert.match((await events.finished(third.runId)).answer, /^local-echo heard 3 messages: system, user, user\./);
  });

  it('Stop ends a slow stream and keeps what arrived; a 429 and a refused key are shown with what to do', async () => {
    let timer: NodeJS.Timeout | undefined;
    const slow = await fakeModel((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      timer = setInterval(() => res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: `w${i++} ` }, finish_reason: null }] })}\n\n`), 30);
      res.on('close', () => clearInterval(timer));
    });
    try {
      await config().update('playground.endpoint', slow.url, vscode.ConfigurationTarget.Global);
      const { host, events } = await open();
      const state = await ready(host);
      assert.equal(state.endpoint.source, 'setting');
      assert.equal(state.endpoint.hasKey, false, 'the LangSmith key is not for another server');
      const { runId } = await hostOk<{ runId: string }>(host, 'playground/run', { values: { style: 'a', question: 'b' }, model: { model: 'slow-model', temperature: 0.5, maxTokens: 50 }, chat: false, followUp: null });
      const until = Date.now() + 10_000;
      while (events.deltas(runId).length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(await hostOk(host, 'playground/stop', { runId }), { stopped: true });
      const done = await events.finished(runId);
      assert.equal(done.outcome, 'stopped');
      assert.match(done.answer, /^w0 w1 w2 /);
      assert.equal(slow.seen[0]!.auth, undefined, 'no key sent to an endpoint that has none');
      assert.equal(slow.seen[0]!.body['model'], 'slow-model');
      assert.equal(slow.seen[0]!.body['temperature'], 0.5);
      assert.equal(slow.seen[0]!.body['max_tokens'], 50);
    } finally {
      clearInterval(timer);
      await slow.close();
    }

    const refusing = await fakeModel((res, _body, auth) => {
      const status = auth ? 429 : 401;
      res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end(JSON.stringify({ error: { message: status === 401 ? 'Incorrect API key provided' : 'Rate limit reached', type: 'x' } }));
    });
    try {
      await config().update('playground.endpoint', refusing.url, vscode.ConfigurationTarget.Global);
      const { host, events } = await open();
      const values = { style: 'a', question: 'kept' };
      const a = await hostOk<{ runId: string }>(host, 'playground/run', { values, model: settings, chat: false, followUp: null });
      const noKey = await events.finished(a.runId);
      assert.equal(noKey.outcome, 'error');
      assert.match(noKey.error ?? '', /401/);
      assert.match(noKey.error ?? '', /Incorrect API key provided/);
      assert.match(noKey.hint ?? '', /Configure/);
      // A key for this endpoint, kept in secret storage by origin.
      await workbench.secrets.store(`langsmith.modelApiKey:${new URL(refusing.url).origin}`, 'sk-test-not-real');
      assert.equal((await ready(host)).endpoint.hasKey, true);
      const b = await hostOk<{ runId: string }>(host, 'playground/run', { values, model: settings, chat: false, followUp: null });
      const limited = await events.finished(b.runId);
      assert.match(limited.error ?? '', /429/);
      assert.match(limited.hint ?? '', /rate limiting/);
      assert.equal(refusing.seen.at(-1)!.auth, 'Bearer sk-test-not-real');
      assert.ok(refusing.seen.length >= 4, 'the 429 was retried');
      assert.deepEqual((await ready(host)).values, values, 'the inputs are kept');
      await workbench.secrets.delete(`langsmith.modelApiKey:${new URL(refusing.url).origin}`);
    } finally {
      await refusing.close();
    }
  });

  it('a failed flush is reported and the runs kept; Send now delivers them once', async () => {
    const project = `playground-flaky-${Date.now()}`;
    await config().update('playground.project', project, vscode.ConfigurationTarget.Global);
    const fast = await fakeModel((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'fine' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } }));
    });
    try {
      await config().update('playground.endpoint', fast.url, vscode.ConfigurationTarget.Global);
      const { host, events } = await open();
      await ready(host);
      await raw('PUT', '/__local/faults', { faults: '503:1' });
      const { runId } = await hostOk<{ runId: string }>(host, 'playground/run', { values: { style: 'a', question: 'b' }, model: settings, chat: false, followUp: null });
      const done = await events.finished(runId, 40_000);
      assert.equal(done.outcome, 'done');
      assert.equal(done.answer, 'fine');
      assert.equal(done.trace.status, 'failed');
      assert.match(done.trace.message ?? '', /not sent/);
      assert.equal(done.trace.pending, 1);
      await raw('PUT', '/__local/faults', { faults: '' });
      assert.equal((await ready(host)).pendingTraces, 1);
      assert.deepEqual(await hostOk(host, 'playground/flushTraces', {}), { pending: 0 });
      const runs = await runsOf(project);
      assert.equal(runs.length, 4);
      assert.equal(new Set(runs.map((r) => r.id)).size, 4);
      assert.ok(runs.some((r) => r.id === runId));
    } finally {
      await fast.close();
    }
  });

  it('runs a commit from the Prompts view; the page’s messages are checked', async () => {
    const commits = await get<{ commits: { commit_hash: string }[] }>('/commits/-/demo-summarizer/?limit=1');
    const hash = commits.commits[0]!.commit_hash;
    const key: PlaygroundKey = { kind: 'commit', identifier: 'demo-summarizer', commit: hash };
    await workbench.panels.show(Panels.playground, key);
    const { host, events } = await open(key);
    const state = await ready(host);
    assert.equal(state.source, 'commit');
    assert.equal(state.title, `demo-summarizer@${hash.slice(0, 8)}`);
    assert.ok(state.prompt?.variables.includes('ticket'));
    const values = Object.fromEntries(state.prompt!.variables.map((v) => [v, v === 'max_words' ? '10' : 'The app crashes on start']));
    const { runId } = await hostOk<{ runId: string }>(host, 'playground/run', { values, model: settings, chat: false, followUp: null });
    assert.match((await events.finished(runId)).answer, /Last user message: Ticket:\nThe app crashes on start/);
    // Malformed messages are refused with invalidParams, and nothing runs.
    for (const bad of [{ values: 'x', model: settings, chat: false, followUp: null }, { values: {}, model: { model: 'm', temperature: 9, maxTokens: null }, chat: false, followUp: null }, { runId: 5 }]) {
      const answer = await hostCall(host, 'playground/run', bad);
      assert.equal(answer.ok, false);
      assert.equal(!answer.ok && answer.error.code, 'invalidParams');
    }
    assert.equal((await hostCall(host, 'playground/revealTrace', { runId: 'not-a-run' })).ok, false);
  });
});
