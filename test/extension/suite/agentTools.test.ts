// The agent tools in the real extension host against the local server (demo data): every tool is registered with
// VS Code's language-model API; each read answers through vscode.lm.invokeTool with no confirmation; each write's
// prepared confirmation names exactly what will change, and the write happens when the confirmed tool is invoked
// (through the implementation VS Code calls once the user confirms: vscode.lm.invokeTool outside a chat asks in a
// modal dialog this suite cannot click). The MCP server the extension offers to MCP clients in the editor starts from
// its definition, lists the tools and reads from the server, with the key only in what VS Code starts; signed in
// with a LangSmith CLI profile's login, with only the profile's file and name.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { WorkbenchApi } from '../../../src/extension';
import type { TreeNode } from '../../../src/views/treeNode';
import type { LmApi, McpStdioDefinition } from '../../../src/agentHost/lmApi';
import { activateWorkbench, apiKey, endpoint, get, http, runScripted } from './support';
import { ScriptedPrompter } from './scriptedPrompter';

const lm = (vscode as unknown as { lm: Required<LmApi> }).lm;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const token = new vscode.CancellationTokenSource().token;

function textOf(result: { content: unknown[] }): string {
  return result.content.map((p) => (p as { value?: string }).value ?? '').join('');
}

describe('agent tools in the editor', function () {
  this.timeout(60_000);
  let api: WorkbenchApi;
  const suffix = Date.now().toString(36);

  before(async () => {
    api = await activateWorkbench();
  });

  async function read(name: string, input: object): Promise<string> {
    const text = textOf(await lm.invokeTool(`langsmith_${name}`, { input, toolInvocationToken: undefined }, token));
    assert.ok(!text.includes(apiKey), `${name} answered with the key`);
    return text;
  }

  /** The confirmation VS Code would show for a write: its title and the exact change. */
  async function confirmation(name: string, input: object): Promise<{ title: string; message: string }> {
    const tool = api.agent.tools.tools.get(`langsmith_${name}`);
    assert.ok(tool?.prepareInvocation, `${name} is registered with a confirmation`);
    const prepared = await tool.prepareInvocation({ input }, token);
    const c = prepared.confirmationMessages;
    assert.ok(c, `${name} asks before it writes`);
    const message = typeof c.message === 'string' ? c.message : c.message.value;
    assert.ok(!message.includes(apiKey));
    return { title: c.title, message };
  }

  /** The write, as VS Code runs it once the user has confirmed. */
  async function write(name: string, input: object): Promise<string> {
    const result = (await api.agent.tools.tools.get(`langsmith_${name}`)!.invoke({ input, toolInvocationToken: undefined }, token)) as { content: unknown[] };
    return textOf(result);
  }

  it('registers every tool with VS Code, with its schema, and offers them in vscode.lm.tools', () => {
    assert.equal(api.agent.tools.registered, true);
    const ours = lm.tools.filter((t) => t.name.startsWith('langsmith_'));
    assert.deepEqual(ours.map((t) => t.name).sort(), [...api.agent.tools.tools.keys()].sort());
    assert.equal(ours.length, 16);
    for (const t of ours) {
      assert.ok(t.inputSchema && (t.inputSchema as { type?: string }).type === 'object', t.name);
      assert.ok(t.description.length > 40, t.name);
    }
  });

  it('answers each read through vscode.lm.invokeTool from the local server, asking nothing', async () => {
    const projects = await read('list_projects', { nameContains: 'demo-support' });
    assert.match(projects, /demo-support-chatbot/);
    const failing = await read('query_runs', { project: 'demo-support-chatbot', errorsOnly: true, limit: 5 });
    const runId = / run ([0-9a-f-]{36})/.exec(failing)?.[1];
    assert.ok(runId, failing);
    const expected = await http<{ runs: { id: string }[] }>('POST', '/api/v1/runs/query', { id: [runId], select: ['id', 'error'] });
    assert.equal(expected.runs[0]?.id, runId);
    const trace = await read('get_trace', { traceId: runId, project: 'demo-support-chatbot' });
    assert.match(trace, /Tree:/);
    assert.ok(trace.includes(runId));
    assert.match(await read('get_thread', { threadId: 'demo-thread-paris-trip', project: 'demo-assistant' }), /Paris/i);
    assert.match(await read('search_prompts', { query: 'demo-summ' }), /demo-summarizer/);
    assert.match(await read('get_prompt', { identifier: 'demo-summarizer' }), /You summarize support tickets/);
    assert.match(await read('list_datasets', { nameContains: 'demo-support' }), /demo-support-qa/);
    const examples = await read('list_examples', { dataset: 'demo-support-qa', limit: 3 });
    assert.match(examples, UUID);
    assert.match(await read('list_annotation_queues', {}), /demo-review/);
    assert.match(await read('get_experiment_results', { dataset: 'demo-support-qa', limit: 3 }), /support-answer-v2/);
  });

  it('gives bad input back as an error that names the field, and sends nothing', async () => {
    await assert.rejects(read('query_runs', { project: 'demo-support-chatbot', limit: 100_000 }), /limit/);
    await assert.rejects(confirmation('add_feedback', { runId: 'not-a-uuid', key: 'k', score: 1 }), /Invalid input for add_feedback: runId/);
  });

  it('shows each write exactly before it happens, and makes it once invoked', async () => {
    const prompt = `agt-${suffix}`;
    // push_prompt: a new prompt from messages, tagged.
    const push = { prompt, messages: [{ role: 'system', template: 'Answer in {language}.' }, { role: 'human', template: '{question}' }], description: 'first', tags: ['staging'] };
    const pushShown = await confirmation('push_prompt', push);
    assert.equal(pushShown.title, 'LangSmith: Push a prompt version?');
    assert.match(pushShown.message, new RegExp(`${prompt}[\\s\\S]*Answer in \\{language\\}\\.[\\s\\S]*staging`));
    const pushed = await write('push_prompt', push);
    const commits = await get<{ commits: { commit_hash: string }[] }>(`/api/v1/commits/-/${prompt}?limit=5`);
    assert.equal(commits.commits.length, 1);
    assert.ok(pushed.includes(commits.commits[0]!.commit_hash));

    // tag_prompt_version: the tag and the commit it lands on.
    const tagShown = await confirmation('tag_prompt_version', { prompt, tag: 'production' });
    assert.ok(tagShown.message.includes(commits.commits[0]!.commit_hash.slice(0, 8)), tagShown.message);
    assert.match(tagShown.message, /tag “production”/);
    await write('tag_prompt_version', { prompt, tag: 'production' });
    const tags = await get<{ tag_name: string; commit_hash: string }[]>(`/api/v1/repos/-/${prompt}/tags`);
    assert.deepEqual(tags.map((t) => t.tag_name).sort(), ['production', 'staging']);

    // create_dataset, then add_examples into it.
    const dataset = `agt-${suffix}`;
    assert.equal((await confirmation('create_dataset', { name: dataset, dataType: 'kv' })).message.includes(`Create a kv dataset “${dataset}”, with no examples.`), true);
    const datasetRow = async () => ((await api.views.datasets.provider.getChildren()) as TreeNode[]).find((n) => {
      const label = n.treeItem().label;
      return (typeof label === 'string' ? label : label?.label) === dataset;
    });
    assert.equal(await datasetRow(), undefined);
    await write('create_dataset', { name: dataset });
    assert.ok(await datasetRow(), 'the Datasets view lists the dataset the tool made');
    const [ds] = await get<{ id: string }[]>(`/api/v1/datasets?name=${dataset}`);
    assert.ok(ds);
    const examples = { dataset, examples: [{ inputs: { question: 'Where is my invoice?' }, outputs: { answer: 'Billing page.' } }], split: 'test' };
    const exShown = await confirmation('add_examples', examples);
    assert.ok(exShown.message.includes(`Add 1 example(s) to dataset ${dataset} (id ${ds.id}):\n- inputs {"question":"Where is my invoice?"} · outputs {"answer":"Billing page."} · split test`), exShown.message);
    await write('add_examples', examples);
    const stored = await get<{ inputs: unknown; split?: string[] }[]>(`/api/v1/examples?dataset=${ds.id}`);
    assert.deepEqual(stored.map((e) => e.inputs), [{ question: 'Where is my invoice?' }]);

    // add_runs_to_annotation_queue: the queue and each run.
    const queue = await http<{ id: string }>('POST', '/api/v1/annotation-queues', { name: `agt-${suffix}` });
    const runs = await http<{ runs: { id: string }[] }>('POST', '/api/v1/runs/query', { session: [(await get<{ id: string }[]>('/api/v1/sessions?name=demo-support-chatbot'))[0]!.id], is_root: true, limit: 2, select: ['id'] });
    const runIds = runs.runs.map((r) => r.id);
    const qShown = await confirmation('add_runs_to_annotation_queue', { queue: `agt-${suffix}`, runIds });
    assert.ok(qShown.message.includes([`Add 2 run(s) to annotation queue “agt-${suffix}” (id ${queue.id}):`, `- run ${runIds[0]}`, `- run ${runIds[1]}`].join('\n')), qShown.message);
    // The Annotation Queues view is loaded (the new queue at 0 runs) before the write, and shows the new size after.
    api.views.queues.refresh();
    const queueRow = async () => ((await api.views.queues.provider.getChildren()) as TreeNode[]).find((n) => n.id === `queue/${queue.id}`);
    assert.equal((await queueRow())?.treeItem().description, '0 runs');
    await write('add_runs_to_annotation_queue', { queue: `agt-${suffix}`, runIds });
    assert.equal((await queueRow())?.treeItem().description, '2 runs', 'the queue row reads its new size after the tool’s write');
    const queued = await get<{ id: string }[]>(`/api/v1/annotation-queues/${queue.id}/runs`);
    assert.deepEqual(queued.map((r) => r.id).sort(), [...runIds].sort());

    // add_feedback: the key, score and comment on the run.
    const fbShown = await confirmation('add_feedback', { runId: runIds[0], key: `agent_check_${suffix}`, score: 1, comment: 'right' });
    assert.ok(fbShown.message.includes(`Add feedback “agent_check_${suffix}” to run ${runIds[0]}: score 1, comment “right”.`), fbShown.message);
    await write('add_feedback', { runId: runIds[0], key: `agent_check_${suffix}`, score: 1, comment: 'right' });
    const feedback = await get<{ key: string; score: number }[]>(`/api/v1/feedback?run=${runIds[0]}&key=agent_check_${suffix}`);
    assert.deepEqual(feedback.map((f) => [f.key, f.score]), [[`agent_check_${suffix}`, 1]]);
  });

  it('asks nothing for a read or a dry run, and a dry run changes nothing', async () => {
    const read = await api.agent.tools.tools.get('langsmith_list_projects')!.prepareInvocation!({ input: {} }, token);
    assert.equal(read.confirmationMessages, undefined);
    const dry = await api.agent.tools.tools.get('langsmith_create_dataset')!.prepareInvocation!({ input: { name: `dry-${suffix}`, dryRun: true } }, token);
    assert.equal(dry.confirmationMessages, undefined);
    assert.match(textOf(await lm.invokeTool('langsmith_create_dataset', { input: { name: `dry-${suffix}`, dryRun: true }, toolInvocationToken: undefined }, token)), /^Dry run: nothing was changed/);
    assert.deepEqual(await get<unknown[]>(`/api/v1/datasets?name=dry-${suffix}`), []);
  });

  it('offers the MCP server on the signed-in connection: the key only where VS Code starts it', async function () {
    assert.equal(api.agent.mcp.registered, true);
    const [definition] = await api.agent.mcp.provideMcpServerDefinitions();
    assert.ok(definition, 'signed in: one server');
    assert.equal(definition.label, 'LangSmith');
    assert.equal(definition.command, process.execPath);
    assert.match(definition.args[0]!, /dist[\\/]cli\.js$/);
    assert.equal(definition.args[1], 'mcp');
    assert.equal(definition.env['LANGSMITH_ENDPOINT'], endpoint);
    assert.ok(!JSON.stringify(definition).includes(apiKey), 'the offered definition has no key');
    const resolved: McpStdioDefinition = await api.agent.mcp.resolveMcpServerDefinition({ ...definition, env: { ...definition.env } });
    assert.equal(resolved.env['LANGSMITH_API_KEY'], apiKey);

    const env = Object.fromEntries(Object.entries({ ...process.env, ...resolved.env }).filter((e): e is [string, string] => typeof e[1] === 'string'));
    const client = new Client({ name: 'agent-tools-suite', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: resolved.command, args: resolved.args, env, stderr: 'pipe' }));
    try {
      const tools = await client.listTools();
      assert.equal(tools.tools.length, 16);
      const answer = (await client.callTool({ name: 'list_projects', arguments: { nameContains: 'demo-support' } })) as { content: { text: string }[] };
      assert.match(answer.content[0]!.text, /demo-support-chatbot/);
    } finally {
      await client.close();
    }
  });

  it('signed in with a CLI profile’s login: the MCP server gets the profile’s file and name, no key, and reads through it', async function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-mcp-profile-'));
    const file = path.join(dir, 'config.json');
    const profileEndpoint = `${endpoint}/api/v1`;
    const issued = await http<{ access_token: string; refresh_token: string }>('POST', '/__local/oauth/tokens', { expires_in: 3600 });
    fs.writeFileSync(file, JSON.stringify({ profiles: { cli: { api_url: profileEndpoint, oauth: { ...issued, expires_at: new Date(Date.now() + 3_600_000).toISOString() } } } }));
    const saved = { file: process.env.LANGSMITH_CONFIG_FILE, profile: process.env.LANGSMITH_PROFILE };
    process.env.LANGSMITH_CONFIG_FILE = file;
    delete process.env.LANGSMITH_PROFILE;
    try {
      const { errors } = await runScripted(api, 'langsmith.signIn', new ScriptedPrompter([{ pick: "Use profile 'cli'" }]));
      assert.deepEqual(errors, []);
      assert.deepEqual((await api.clients.connection.current()).profile, { file, name: 'cli' });

      const [definition] = await api.agent.mcp.provideMcpServerDefinitions();
      assert.ok(definition, 'signed in through the profile: one server');
      assert.deepEqual(
        ['LANGSMITH_ENDPOINT', 'LANGSMITH_CONFIG_FILE', 'LANGSMITH_PROFILE', 'LANGSMITH_API_KEY', 'LANGCHAIN_API_KEY'].map((k) => definition.env[k]),
        [profileEndpoint, file, 'cli', null, null],
      );
      const resolved: McpStdioDefinition = await api.agent.mcp.resolveMcpServerDefinition({ ...definition, env: { ...definition.env } });
      assert.equal(resolved.env['LANGSMITH_API_KEY'], null, 'no key is added: the editor’s own LANGSMITH_API_KEY is removed');
      const offered = JSON.stringify([definition, resolved]);
      for (const secret of [apiKey, issued.access_token, issued.refresh_token]) assert.ok(!offered.includes(secret), 'no key or token in the definition');

      // Started as VS Code starts it: the extension host's environment (which has a key) with the definition's over it.
      const env = Object.fromEntries(Object.entries({ ...process.env, ...resolved.env }).filter((e): e is [string, string] => typeof e[1] === 'string'));
      const client = new Client({ name: 'agent-tools-suite', version: '1.0.0' });
      const transport = new StdioClientTransport({ command: resolved.command, args: resolved.args, env, stderr: 'pipe' });
      let said = '';
      transport.stderr?.on('data', (d: Buffer) => (said += d.toString()));
      await client.connect(transport);
      try {
        const answer = (await client.callTool({ name: 'list_projects', arguments: { nameContains: 'demo-support' } })) as { content: { text: string }[] };
        assert.match(answer.content[0]!.text, /demo-support-chatbot/);
        assert.match(said, /with the login of profile "cli" in /);
      } finally {
        await client.close();
      }
    } finally {
      await api.secrets.delete(`langsmith.profileLogin:${profileEndpoint}`);
      await vscode.workspace.getConfiguration('langsmith').update('endpoint', undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration('langsmith').update('workspaceId', undefined, vscode.ConfigurationTarget.Global);
      if (saved.file === undefined) delete process.env.LANGSMITH_CONFIG_FILE;
      else process.env.LANGSMITH_CONFIG_FILE = saved.file;
      if (saved.profile !== undefined) process.env.LANGSMITH_PROFILE = saved.profile;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
