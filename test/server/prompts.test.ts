import assert from 'node:assert/strict';
import { Client } from 'langsmith';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { client, collect } from './helpers';

function chatPrompt(system: string, format: 'f-string' | 'mustache' = 'f-string') {
  const v = format === 'f-string' ? '{question}' : '{{question}}';
  const msg = (cls: string, template: string) => ({
    lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'chat', cls],
    kwargs: { prompt: { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'prompt', 'PromptTemplate'], kwargs: { template, template_format: format, input_variables: template.includes('question') ? ['question'] : [] } } },
  });
  return {
    lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'chat', 'ChatPromptTemplate'],
    kwargs: { input_variables: ['question'], messages: [msg('SystemMessagePromptTemplate', system), msg('HumanMessagePromptTemplate', v)] },
  };
}

function withModel(prompt: object) {
  return {
    lc: 1, type: 'constructor', id: ['langchain_core', 'runnables', 'RunnableSequence'],
    kwargs: { first: prompt, last: { lc: 1, type: 'constructor', id: ['langchain', 'chat_models', 'openai', 'ChatOpenAI'], kwargs: { model: 'gpt-4o-mini', temperature: 0.2 } } },
  };
}

describe('prompts: repos, commits, tags, likes, tenant rules, links', () => {
  const srv = withLocalServer();

  it('create, get, push commits with parents, 409 on an unchanged manifest, list commits', async () => {
    const c = client(srv());
    const repo = await c.createPrompt('pr-basic', { description: 'a prompt', tags: ['qa'] });
    assert.equal(repo.repo_handle, 'pr-basic');
    assert.equal(repo.owner, 'local');
    assert.equal(await c.promptExists('pr-basic'), true);
    assert.equal(await c.getPrompt('pr-nope'), null);
    await c.pushPrompt('pr-basic', { object: chatPrompt('You are terse.') });
    await c.pushPrompt('pr-basic', { object: chatPrompt('You are verbose.', 'mustache') });
    await assert.rejects(c.pushPrompt('pr-basic', { object: chatPrompt('You are verbose.', 'mustache') }), /409/);
    const commits = (await collect(c.listCommits('pr-basic'))) as any[];
    assert.equal(commits.length, 2);
    assert.equal(commits[0].parent_commit_hash, commits[1].commit_hash, 'the new commit points at the previous one');
    assert.equal(commits[1].parent_commit_hash, null);
    const listed = await rawRequest(srv(), 'GET', '/commits/-/pr-basic/?limit=1&offset=0');
    assert.equal(listed.body.total, 2);
    assert.equal(listed.body.commits.length, 1);
    const got = await c.getPrompt('pr-basic');
    assert.equal(got?.num_commits, 2);
    assert.equal(got?.last_commit_hash, commits[0].commit_hash);
    await assert.rejects(c.createCommit('pr-missing', chatPrompt('x')), /Prompt does not exist/);
  });

  it('pull by latest, full hash, 8-character prefix and tag; tags move', async () => {
    const c = client(srv());
    await c.createPrompt('pr-pull');
    await c.pushPrompt('pr-pull', { object: chatPrompt('v1'), commitTags: ['stable'] });
    await c.pushPrompt('pr-pull', { object: chatPrompt('v2') });
    const [latest, first] = (await collect(c.listCommits('pr-pull'))) as any[];
    const pull = async (ref: string) => (await c.pullPromptCommit(`pr-pull:${ref}`, { skipCache: true })).manifest as any;
    const system = (m: any) => m.kwargs.messages[0].kwargs.prompt.kwargs.template;
    assert.equal(system((await c.pullPromptCommit('pr-pull', { skipCache: true })).manifest), 'v2');
    assert.equal(system(await pull(first.commit_hash)), 'v1');
    assert.equal(system(await pull(first.commit_hash.slice(0, 8))), 'v1');
    assert.equal(system(await pull('stable')), 'v1');
    await assert.rejects(c.pullPromptCommit('pr-pull:nosuchtag', { skipCache: true }), /404/);
    // Tags: list, move, delete
    const tags = await rawRequest(srv(), 'GET', '/repos/-/pr-pull/tags');
    assert.deepEqual(tags.body.map((t: any) => [t.tag_name, t.commit_hash]), [['stable', first.commit_hash]]);
    const dup = await rawRequest(srv(), 'POST', '/repos/-/pr-pull/tags', { tag_name: 'stable', commit_id: latest.id });
    assert.equal(dup.status, 409);
    const moved = await rawRequest(srv(), 'PATCH', '/repos/-/pr-pull/tags/stable', { commit_id: latest.id });
    assert.equal(moved.body.commit_hash, latest.commit_hash);
    assert.equal(system(await pull('stable')), 'v2');
    assert.equal((await rawRequest(srv(), 'DELETE', '/repos/-/pr-pull/tags/stable')).status, 200);
    assert.equal((await rawRequest(srv(), 'GET', '/repos/-/pr-pull/tags/stable')).status, 404);
  });

  it('include_model: the prompt alone by default, prompt and model on request', async () => {
    const c = client(srv());
    await c.createPrompt('pr-model');
    await c.pushPrompt('pr-model', { object: withModel(chatPrompt('with model')) });
    const plain = await c.pullPromptCommit('pr-model', { skipCache: true });
    assert.equal((plain.manifest as any).id.at(-1), 'ChatPromptTemplate');
    const full = await c.pullPromptCommit('pr-model', { includeModel: true, skipCache: true });
    assert.equal((full.manifest as any).id.at(-1), 'RunnableSequence');
    assert.equal((full as any).hub_model_config?.model, 'gpt-4o-mini');
  });

  it('likes, public/archived updates, list sorted by updated_at with total and filters, delete', async () => {
    const c = client(srv());
    const other = client(srv(), { apiKey: srv().otherApiKey });
    await c.createPrompt('pr-list-a');
    await c.createPrompt('pr-list-b');
    await c.createPrompt('pr-list-c');
    await c.pushPrompt('pr-list-a', { object: chatPrompt('touch a') }); // a is now the most recently updated
    assert.deepEqual(await c.likePrompt('pr-list-b'), { likes: 1 });
    await assert.rejects(other.likePrompt('local/pr-list-b'), /404/, "a private prompt is invisible to others");
    await c.updatePrompt('pr-list-b', { isPublic: true });
    assert.deepEqual(await other.likePrompt('local/pr-list-b'), { likes: 2 });
    assert.deepEqual(await other.unlikePrompt('local/pr-list-b'), { likes: 1 });
    assert.equal((await c.getPrompt('pr-list-b'))?.num_likes, 1);
    await c.updatePrompt('pr-list-c', { isArchived: true });
    await assert.rejects(c.updatePrompt('pr-list-c', {}), /No valid update options/);

    const names = async (opts: any) => (await collect(c.listPrompts(opts))).map((p) => p.repo_handle).filter((n) => n.startsWith('pr-list'));
    assert.deepEqual(await names({}), ['pr-list-b', 'pr-list-a'], 'updated_at descending, archived left out');
    assert.deepEqual(await names({ isArchived: true }), ['pr-list-c']);
    assert.deepEqual(await names({ query: 'list-a' }), ['pr-list-a']);
    const page = await rawRequest(srv(), 'GET', '/repos?sort_field=updated_at&sort_direction=desc&is_archived=false&limit=1&query=pr-list');
    assert.equal(page.body.total, 2);
    assert.equal(page.body.repos.length, 1);
    const byLikes = await rawRequest(srv(), 'GET', '/repos?sort_field=num_likes&sort_direction=desc&query=pr-list');
    assert.equal(byLikes.body.repos[0].repo_handle, 'pr-list-b');
    // Public prompts of other tenants appear in a public listing.
    const pub = (await collect(other.listPrompts({ isPublic: true }))).map((p) => p.full_name);
    assert.ok(pub.includes('local/pr-list-b') && !pub.includes('local/pr-list-a'));

    await c.deletePrompt('pr-list-c');
    assert.equal(await c.getPrompt('pr-list-c'), null);
    await assert.rejects(c.deletePrompt('pr-list-c'), /Prompt does not exist/);
  });

  it("tenant rules: '-' is one's own; others' public prompts are readable, private ones not; only the owner changes", async () => {
    const c = client(srv());
    const other = client(srv(), { apiKey: srv().otherApiKey });
    await c.createPrompt('pr-tenant-public', { isPublic: true });
    await c.pushPrompt('pr-tenant-public', { object: chatPrompt('shared') });
    await c.createPrompt('pr-tenant-private');
    await c.pushPrompt('pr-tenant-private', { object: chatPrompt('secret') });
    assert.equal((await c.getPrompt('-/pr-tenant-public'))?.full_name, 'local/pr-tenant-public');
    assert.equal((await c.getPrompt('local/pr-tenant-public'))?.repo_handle, 'pr-tenant-public');
    const pulled = await other.pullPromptCommit('local/pr-tenant-public', { dangerouslyPullPublicPrompt: true, skipCache: true });
    assert.equal((pulled.manifest as any).kwargs.messages[0].kwargs.prompt.kwargs.template, 'shared');
    assert.equal(await other.getPrompt('local/pr-tenant-private'), null);
    await assert.rejects(other.pullPromptCommit('local/pr-tenant-private', { dangerouslyPullPublicPrompt: true, skipCache: true }), /404/);
    assert.equal(await other.getPrompt('pr-tenant-public'), null, "'-' is the other tenant's own namespace");
    // The official client refuses first; the server refuses too.
    await assert.rejects(other.updatePrompt('local/pr-tenant-public', { description: 'x' }), /Cannot update a prompt for another tenant/);
    const patch = await rawRequest(srv(), 'PATCH', '/repos/local/pr-tenant-public', { description: 'x' }, { apiKey: srv().otherApiKey });
    assert.equal(patch.status, 403);
    const commit = await rawRequest(srv(), 'POST', '/commits/local/pr-tenant-public', { manifest: chatPrompt('hijack') }, { apiKey: srv().otherApiKey });
    assert.equal(commit.status, 403);
    const del = await rawRequest(srv(), 'DELETE', '/repos/local/pr-tenant-public', undefined, { apiKey: srv().otherApiKey });
    assert.equal(del.status, 403);
    assert.equal((await c.getPrompt('pr-tenant-public'))?.description, null);
    // Same handle in the other tenant is its own repo.
    await other.createPrompt('pr-tenant-public');
    assert.equal((await other.getPrompt('pr-tenant-public'))?.owner, 'other');
  });

  it('prompt page links resolve: own prompts by organizationId, others through /hub', async () => {
    const c = new Client({ apiUrl: srv().url, apiKey: srv().apiKey, webUrl: srv().url });
    await c.createPrompt('pr-link', { isPublic: true });
    const url = await c.pushPrompt('pr-link', { object: chatPrompt('linked <b>') });
    const hash8 = (await collect(c.listCommits('pr-link')))[0].commit_hash.slice(0, 8);
    assert.equal(url, `${srv().url}/prompts/pr-link/${hash8}?organizationId=${srv().tenantId}`);
    const res = await fetch(url);
    const html = await res.text();
    assert.equal(res.status, 200);
    assert.ok(html.includes('linked &lt;b&gt;') && !html.includes('linked <b>'));
    assert.equal((await fetch(`${srv().url}/prompts/pr-link?organizationId=${srv().tenantId}`)).status, 200);
    const other = new Client({ apiUrl: srv().url, apiKey: srv().otherApiKey, webUrl: srv().url });
    const hub = await (other as any)._getPromptUrl(`local/pr-link:${hash8}`);
    assert.equal(hub, `${srv().url}/hub/local/pr-link/${hash8}`);
    assert.equal((await fetch(hub)).status, 200);
    await c.createPrompt('pr-link-private');
    assert.equal((await fetch(`${srv().url}/hub/local/pr-link-private`)).status, 404);
  });
});
