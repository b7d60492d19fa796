// `langsmith-workbench mcp` as MCP clients run it: dist/cli.js built by esbuild and started as a child process by
// the official MCP client SDK over stdio, against the demo-seeded local server. Lists the tools with their schemas
// and hints, calls every read and every write (the server's state checked after each write), the read-only mode,
// bad input, and the API key in nothing that comes back.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { collect, type LangSmithClient } from '../../src/client';
import { rawRequest } from '../harness/http';
import { withLocalServer } from '../harness/localServer';
import { clientFor, unique } from './_server';

const root = path.resolve(__dirname, '../..');
const READS = ['search_prompts', 'get_prompt', 'list_projects', 'query_runs', 'get_trace', 'get_thread', 'list_datasets', 'list_examples', 'list_annotation_queues', 'get_experiment_results'];
const WRITES = ['push_prompt', 'tag_prompt_version', 'create_dataset', 'add_examples', 'add_runs_to_annotation_queue', 'add_feedback'];

describe('MCP server (dist/cli.js mcp over stdio, official MCP client)', function () {
  this.timeout(120_000);
  const srv = withLocalServer({ seed: 'demo' });
  let buildDir: string;
  let work: string;
  let api: LangSmithClient;
  const texts: string[] = [];
  const stderr: string[] = [];
  const open: Client[] = [];

  /** The server as a client starts it; the connection from `env` when given, else the endpoint and key. */
  async function start(extra: string[] = [], env?: Record<string, string>): Promise<Client> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(buildDir, 'cli.js'), 'mcp', ...extra],
      cwd: work,
      env: { PATH: process.env['PATH'] ?? '', ...(env ?? { LANGSMITH_ENDPOINT: srv().url, LANGSMITH_API_KEY: srv().apiKey }) },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => stderr.push(d.toString()));
    const client = new Client({ name: 'mcp-test', version: '1.0.0' });
    await client.connect(transport);
    open.push(client);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
    const r = (await client.callTool({ name, arguments: args })) as { content: { type: string; text: string }[]; isError?: boolean };
    const text = r.content.map((c) => c.text).join('\n');
    texts.push(text);
    return { text, isError: r.isError === true };
  }

  let mcp: Client;
  before(async () => {
    buildDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-mcp-build-'));
    execFileSync(process.execPath, ['esbuild.mjs', '--only=cli', `--out=${buildDir}`], { cwd: root, stdio: 'pipe' });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-mcp-work-'));
    api = clientFor(srv());
    mcp = await start();
  });
  after(async () => {
    for (const c of open) await c.close().catch(() => undefined);
    fs.rmSync(buildDir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('lists every tool with its input schema, title and read/write hints', async () => {
    const { tools } = await mcp.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...READS, ...WRITES].sort());
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object', t.name);
      assert.ok(t.inputSchema.properties && 'page' in t.inputSchema.properties, `${t.name} takes page`);
      assert.ok((t.description ?? '').length > 40, `${t.name} has a description`);
      const write = WRITES.includes(t.name);
      assert.equal(t.annotations?.readOnlyHint, !write, t.name);
      assert.equal(t.annotations?.destructiveHint, false, t.name);
      assert.equal(typeof t.annotations?.idempotentHint, 'boolean', t.name);
      if (write) assert.ok('dryRun' in t.inputSchema.properties!, `${t.name} takes dryRun`);
    }
    const trace = tools.find((t) => t.name === 'get_trace')!;
    assert.deepEqual(trace.inputSchema.required, ['traceId']);
    assert.ok(!JSON.stringify(tools).includes(srv().apiKey));
  });

  it('answers every read from the server', async () => {
    const failing = await collect(api.runs.query({ projectName: 'demo-support-chatbot', isRoot: true, error: true, limit: 100 }));
    assert.ok(failing.length > 0);
    const runs = await call(mcp, 'query_runs', { project: 'demo-support-chatbot', errorsOnly: true, limit: 100 });
    assert.equal(runs.isError, false, runs.text);
    for (const r of failing) assert.ok(runs.text.includes(r.id), `lists failing run ${r.id}`);
    assert.match(runs.text, new RegExp(`^${failing.length} errored root run\\(s\\)`));

    const trace = await call(mcp, 'get_trace', { traceId: failing[0]!.trace_id ?? failing[0]!.id, runIds: [failing[0]!.id] });
    const treeRuns = await api.traces.runs(failing[0]!.trace_id ?? failing[0]!.id);
    for (const r of treeRuns.runs) assert.ok(trace.text.includes(r.id));
    assert.match(trace.text, /inputs: \{"question":/);
    assert.match(trace.text, /error: /);

    const prompts = await call(mcp, 'search_prompts', { query: 'summarizer' });
    assert.match(prompts.text, /demo-summarizer/);
    assert.match(prompts.text, /\/prompts\/demo-summarizer\?organizationId=/);
    const prompt = await call(mcp, 'get_prompt', { identifier: 'demo-summarizer:production' });
    const tags = await api.prompts.listTags('demo-summarizer');
    const production = tags.find((t) => t.tag_name === 'production')!;
    assert.match(prompt.text, new RegExp(`at commit ${production.commit_hash}`));
    assert.match(prompt.text, /Input variables: max_words, ticket/);

    const projects = await call(mcp, 'list_projects', {});
    for (const p of await collect(api.projects.list({}))) assert.ok(projects.text.includes(p.id), p.name);
    const datasets = await call(mcp, 'list_datasets', {});
    const qa = await api.datasets.read({ datasetName: 'demo-support-qa' });
    assert.ok(datasets.text.includes(qa.id));
    const examples = await call(mcp, 'list_examples', { dataset: 'demo-support-qa', limit: 3 });
    const first = await collect(api.examples.list({ datasetId: qa.id, limit: 3 }));
    for (const e of first) assert.ok(examples.text.includes(e.id));
    const queues = await call(mcp, 'list_annotation_queues', {});
    const review = (await collect(api.annotationQueues.list({ name: 'demo-review' })))[0]!;
    assert.ok(queues.text.includes(review.id));
    const experiments = await api.experiments.list({ datasetId: qa.id });
    const results = await call(mcp, 'get_experiment_results', { dataset: 'demo-support-qa', experimentIds: [experiments[0]!.id], limit: 2 });
    for (const e of experiments) assert.ok(results.text.includes(e.id));
    assert.match(results.text, /Results for 2 example\(s\)/);

    const assistant = await api.projects.read({ projectName: 'demo-assistant' });
    const threads = await collect(api.threads.list({ projectId: assistant.id, limit: 1 }));
    const thread = await call(mcp, 'get_thread', { threadId: threads[0]!.thread_id, project: 'demo-assistant' });
    assert.equal(thread.isError, false, thread.text);
    const turns = await api.threads.turns(threads[0]!.thread_id, { projectId: assistant.id });
    for (const t of turns) assert.ok(thread.text.includes(t.trace_id));
  });

  it('makes every write, checked on the server', async () => {
    const review = (await collect(api.annotationQueues.list({ name: 'demo-review' })))[0]!;
    const before = await api.annotationQueues.size(review.id);
    const roots = await collect(api.runs.query({ projectName: 'demo-research-agent', isRoot: true, limit: 2 }));
    const queued = await call(mcp, 'add_runs_to_annotation_queue', { queue: 'demo-review', runIds: roots.map((r) => r.id) });
    assert.equal(queued.isError, false, queued.text);
    assert.equal(await api.annotationQueues.size(review.id), before + 2);

    const fb = await call(mcp, 'add_feedback', { runId: roots[0]!.id, key: 'helpfulness', score: 0.5, comment: 'from an agent' });
    assert.equal(fb.isError, false, fb.text);
    const feedback = await collect(api.feedback.list({ runIds: [roots[0]!.id] }));
    assert.ok(feedback.some((f) => f.key === 'helpfulness' && f.score === 0.5 && f.comment === 'from an agent'));

    const name = unique('mcp-ds');
    const created = await call(mcp, 'create_dataset', { name, description: 'made by an agent' });
    const ds = await api.datasets.read({ datasetName: name });
    assert.ok(created.text.includes(ds.id));
    const given = await call(mcp, 'add_examples', { dataset: name, examples: [{ inputs: { q: 'a' }, outputs: { a: 'b' } }] });
    assert.equal(given.isError, false, given.text);
    const fromRuns = await call(mcp, 'add_examples', { dataset: ds.id, fromRunIds: [roots[1]!.id], split: 'test' });
    assert.equal(fromRuns.isError, false, fromRuns.text);
    const examples = await collect(api.examples.list({ datasetId: ds.id }));
    assert.equal(examples.length, 2);
    assert.ok(examples.some((e) => e.source_run_id === roots[1]!.id));
    assert.ok(examples.some((e) => JSON.stringify(e.inputs) === '{"q":"a"}'));

    const prompt = unique('mcp-prompt');
    const pushed = await call(mcp, 'push_prompt', { prompt, messages: [{ role: 'system', template: 'Answer {question}' }], description: 'first', tags: ['staging'] });
    assert.equal(pushed.isError, false, pushed.text);
    const latest = (await api.prompts.latestCommitHash(prompt))!;
    assert.ok(pushed.text.includes(latest));
    assert.deepEqual((await api.prompts.listTags(prompt)).map((t) => [t.tag_name, t.commit_hash]), [['staging', latest]]);

    fs.writeFileSync(path.join(work, 'edit.prompt.yaml'), `prompt: ${prompt}\ntemplate_format: f-string\nmessages:\n  - role: system\n    template: Answer {question} briefly.\n`);
    const fromFile = await call(mcp, 'push_prompt', { path: 'edit.prompt.yaml', description: 'briefly' });
    assert.equal(fromFile.isError, false, fromFile.text);
    const second = (await api.prompts.latestCommitHash(prompt))!;
    assert.notEqual(second, latest);
    const pulled = await api.prompts.pull(prompt);
    assert.match(JSON.stringify(pulled.manifest), /briefly/);

    const tagged = await call(mcp, 'tag_prompt_version', { prompt, commit: second.slice(0, 8), tag: 'production' });
    assert.equal(tagged.isError, false, tagged.text);
    const tags = Object.fromEntries((await api.prompts.listTags(prompt)).map((t) => [t.tag_name, t.commit_hash]));
    assert.deepEqual(tags, { staging: latest, production: second });
  });

  it('refuses bad input, another workspace’s prompt and files outside the folder, changing nothing', async () => {
    const review = (await collect(api.annotationQueues.list({ name: 'demo-review' })))[0]!;
    const size = await api.annotationQueues.size(review.id);
    const bad = await call(mcp, 'add_runs_to_annotation_queue', { queue: 'demo-review', runIds: ['not-a-uuid'] });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /^Invalid input for add_runs_to_annotation_queue: runIds\.0: each run id must be a UUID\. Nothing was done\.$/);
    assert.equal(await api.annotationQueues.size(review.id), size);

    const missing = await call(mcp, 'get_trace', {});
    assert.match(missing.text, /^Invalid input for get_trace: traceId: /);
    const both = await call(mcp, 'push_prompt', { path: 'x.prompt.yaml', prompt: 'x', messages: [{ role: 'system', template: 'x' }] });
    assert.match(both.text, /Give either `path` \(a prompt file\) or both `prompt` and `messages`/);

    const other = await call(mcp, 'push_prompt', { prompt: 'other/their-prompt', messages: [{ role: 'system', template: 'x' }] });
    assert.equal(other.isError, true);
    assert.equal(other.text, 'Cannot create a commit for another tenant.\nCurrent tenant: local\nRequested tenant: other');
    const outside = await call(mcp, 'push_prompt', { path: '../outside.prompt.yaml' });
    assert.match(outside.text, /is outside the workspace folder/);

    const dry = await call(mcp, 'create_dataset', { name: unique('mcp-dry'), dryRun: true });
    assert.match(dry.text, /^Dry run: nothing was changed\. The call would do this:\nCreate a kv dataset “mcp-dry-/);
    assert.equal((await collect(api.datasets.list({ nameContains: 'mcp-dry' }))).length, 0);

    const gone = await call(mcp, 'get_trace', { traceId: '00000000-0000-4000-8000-000000000000' });
    assert.equal(gone.isError, true);
    assert.match(gone.text, /^Not found: /);
  });

  it('explains itself with --help and is listed among the commands', () => {
    const help = execFileSync(process.execPath, [path.join(buildDir, 'cli.js'), 'mcp', '--help'], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } });
    assert.match(help, /^Usage: langsmith-workbench mcp \[--read-only\]/);
    assert.match(help, /--read-only/);
    assert.match(help, /docs\/AGENTS\.md/);
    const top = execFileSync(process.execPath, [path.join(buildDir, 'cli.js'), '--help'], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } });
    assert.match(top, /^ {2}mcp {2,}Serves the LangSmith tools to an agent over MCP/m);
  });

  it('with --read-only offers only the reads', async () => {
    const ro = await start(['--read-only']);
    const { tools } = await ro.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...READS].sort());
    assert.ok(tools.every((t) => t.annotations?.readOnlyHint === true));
    const name = unique('mcp-ro');
    const r = await call(ro, 'create_dataset', { name });
    assert.equal(r.isError, true);
    assert.equal((await collect(api.datasets.list({ name }))).length, 0);
  });

  it('with only LANGSMITH_CONFIG_FILE and LANGSMITH_PROFILE, signs in with the profile’s login (renewed in the file)', async () => {
    const issued = (await rawRequest(srv(), 'POST', '/__local/oauth/tokens', { expires_in: 0 })).body as { access_token: string; refresh_token: string };
    const file = path.join(work, 'profiles.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        current_profile: 'theirs',
        profiles: {
          theirs: { api_url: srv().url, api_key: srv().otherApiKey },
          dev: { api_url: `${srv().url}/api/v1`, oauth: { ...issued, expires_at: new Date(Date.now() - 60_000).toISOString() } },
        },
      }),
    );
    const before = stderr.length;
    const viaLogin = await start([], { LANGSMITH_CONFIG_FILE: file, LANGSMITH_PROFILE: 'dev' });
    const projects = await call(viaLogin, 'list_projects', { nameContains: 'demo-support' });
    assert.equal(projects.isError, false, projects.text);
    assert.match(projects.text, /demo-support-chatbot/);
    const name = unique('mcp-login');
    const made = await call(viaLogin, 'create_dataset', { name });
    assert.equal(made.isError, false, made.text);
    assert.equal((await collect(api.datasets.list({ name }))).length, 1, 'made in the workspace of the login, not of the current profile’s key');
    const renewed = (JSON.parse(fs.readFileSync(file, 'utf8')) as { profiles: { dev: { oauth: Record<string, string> } } }).profiles.dev.oauth;
    assert.notEqual(renewed['access_token'], issued.access_token, 'the login was renewed and written back');
    const said = stderr.slice(before).join('');
    assert.ok(said.includes(`serving 16 tools for ${srv().url}/api/v1 with the login of profile "dev" in ${file}`), said);
    for (const t of [issued.access_token, issued.refresh_token, renewed['access_token']!, renewed['refresh_token']!, srv().otherApiKey]) {
      assert.ok(![...texts, said].some((x) => x.includes(t)), 'no token or key in what the server says');
    }
  });

  it('never shows the API key: not in answers, errors, descriptions or standard error', async () => {
    const key = srv().apiKey;
    // An error that carries the input back: the key given as a prompt name must come back hidden.
    const echo = await call(mcp, 'get_prompt', { identifier: `${key}` });
    assert.equal(echo.isError, true);
    assert.ok(texts.length > 20);
    for (const t of [...texts, ...stderr]) assert.ok(!t.includes(key), `key in: ${t.slice(0, 200)}`);
    assert.match(stderr.join(''), /serving 16 tools/);
  });
});
