// The prompt hub as LangSmith's OpenAPI describes it: tag status codes and shapes, the query parameters of
// the repo and commit listings, view counts, and the fields a repo answers with. Through the official client
// where it has a method; raw HTTP for the tag routes and parameters it does not send.
import assert from 'node:assert/strict';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { client, collect } from './helpers';

const prompt = (text: string) => ({
  lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'prompt', 'PromptTemplate'],
  kwargs: { template: text, template_format: 'f-string', input_variables: [] },
});

describe('prompts as LangSmith answers them: tags, listing parameters, shapes', () => {
  const srv = withLocalServer();

  /** A repo with commits of the given texts (oldest first); answers the commits newest first. */
  async function repoWith(name: string, texts: string[], opts: { isPublic?: boolean } = {}) {
    const c = client(srv());
    await c.createPrompt(name, opts);
    for (const t of texts) await c.pushPrompt(name, { object: prompt(t) });
    return (await collect(c.listCommits(name))) as unknown as Array<{ id: string; commit_hash: string }>;
  }

  it('commit tags: POST is a 200 with the RepoTag shape, 409 for an existing tag; PATCH moves, DELETE removes, 404 for a missing one', async () => {
    const [second, first] = await repoWith('pl-tags', ['one', 'two']);
    const created = await rawRequest(srv(), 'POST', '/repos/-/pl-tags/tags', { tag_name: 'prod', commit_id: first.id });
    assert.equal(created.status, 200);
    assert.deepEqual(Object.keys(created.body).sort(), ['commit_hash', 'commit_id', 'created_at', 'id', 'repo_id', 'tag_name', 'updated_at']);
    assert.equal(created.body.commit_hash, first.commit_hash);
    assert.equal((await rawRequest(srv(), 'POST', '/repos/-/pl-tags/tags', { tag_name: 'prod', commit_id: second.id })).status, 409);

    const moved = await rawRequest(srv(), 'PATCH', '/repos/-/pl-tags/tags/prod', { commit_id: second.id });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.commit_id, second.id);
    assert.equal(moved.body.id, created.body.id, 'a moved tag is the same tag');
    const c = client(srv());
    const pulled = await c.pullPromptCommit('pl-tags:prod', { skipCache: true });
    assert.equal(pulled.commit_hash, second.commit_hash);

    assert.equal((await rawRequest(srv(), 'PATCH', '/repos/-/pl-tags/tags/nope', { commit_id: second.id })).status, 404);
    const otherRepo = await repoWith('pl-tags-other', ['elsewhere']);
    assert.equal((await rawRequest(srv(), 'PATCH', '/repos/-/pl-tags/tags/prod', { commit_id: otherRepo[0].id })).status, 404, "another repo's commit");
    const badBody = await rawRequest(srv(), 'PATCH', '/repos/-/pl-tags/tags/prod', { commit_id: second.id, colour: 'red' });
    assert.equal(badBody.status, 422);
    assert.match(badBody.body.detail, /colour/);
    assert.equal((await rawRequest(srv(), 'PATCH', '/repos/-/pl-tags/tags/prod', { commit_id: 'abc' })).status, 422);

    assert.equal((await rawRequest(srv(), 'DELETE', '/repos/-/pl-tags/tags/prod')).status, 200);
    assert.equal((await rawRequest(srv(), 'DELETE', '/repos/-/pl-tags/tags/prod')).status, 404);
    assert.equal((await rawRequest(srv(), 'GET', '/repos/-/pl-tags/tags/prod')).status, 404);
    await assert.rejects(c.pullPromptCommit('pl-tags:prod', { skipCache: true }), /404/);
  });

  it("GET /repos/{o}/{r}/tags/{tag}/history: the tag's transitions newest first, readable by others on a public repo", async () => {
    const [third, second, first] = await repoWith('pl-history', ['a', 'b', 'c'], { isPublic: true });
    await rawRequest(srv(), 'POST', '/repos/-/pl-history/tags', { tag_name: 'prod', commit_id: first.id });
    await rawRequest(srv(), 'PATCH', '/repos/-/pl-history/tags/prod', { commit_id: second.id });
    await rawRequest(srv(), 'PATCH', '/repos/-/pl-history/tags/prod', { commit_id: second.id }); // no change: no entry
    await rawRequest(srv(), 'PATCH', '/repos/-/pl-history/tags/prod', { commit_id: third.id });
    await rawRequest(srv(), 'DELETE', '/repos/-/pl-history/tags/prod');
    const h = await rawRequest(srv(), 'GET', '/repos/-/pl-history/tags/prod/history');
    assert.equal(h.status, 200);
    assert.equal(h.body.total, 4);
    const steps = h.body.transitions.map((t: { from_commit_hash?: string; to_commit_hash?: string }) => [t.from_commit_hash ?? null, t.to_commit_hash ?? null]);
    assert.deepEqual(steps, [
      [third.commit_hash, null],
      [second.commit_hash, third.commit_hash],
      [first.commit_hash, second.commit_hash],
      [null, first.commit_hash],
    ]);
    const created = h.body.transitions[3];
    assert.ok(!('from_commit_id' in created), 'a created tag has no from_commit fields');
    assert.equal(created.to_commit_id, first.id);
    assert.equal(created.tag_name, 'prod');
    assert.equal(created.performed_by, srv().tenantId);
    const page = await rawRequest(srv(), 'GET', '/repos/-/pl-history/tags/prod/history?limit=1&offset=1');
    assert.deepEqual([page.body.total, page.body.transitions.length, page.body.transitions[0].to_commit_hash], [4, 1, third.commit_hash]);
    assert.equal((await rawRequest(srv(), 'GET', '/repos/-/pl-history/tags/never/history')).status, 404);
    const theirs = await rawRequest(srv(), 'GET', '/repos/local/pl-history/tags/prod/history', undefined, { apiKey: srv().otherApiKey });
    assert.equal(theirs.status, 200);
    assert.equal(theirs.body.total, 4);
    await client(srv()).updatePrompt('pl-history', { isPublic: false });
    assert.equal((await rawRequest(srv(), 'GET', '/repos/local/pl-history/tags/prod/history', undefined, { apiKey: srv().otherApiKey })).status, 404);
  });

  it('pushPrompt with a tag that exists already fails with the 409 (the official client creates tags by POST)', async () => {
    const c = client(srv());
    await c.createPrompt('pl-tag-push');
    await c.pushPrompt('pl-tag-push', { object: prompt('v1'), commitTags: ['stable'] });
    await assert.rejects(c.pushPrompt('pl-tag-push', { object: prompt('v2'), commitTags: ['stable'] }), /409/);
  });

  it('GET /commits: 20 by default as in LangSmith, `tag` lists the tagged commit; the official client pages through all', async () => {
    const texts = Array.from({ length: 22 }, (_, i) => `v${i}`);
    const commits = await repoWith('pl-many', texts);
    assert.equal(commits.length, 22, 'listCommits pages past the default');
    const page = await rawRequest(srv(), 'GET', '/commits/-/pl-many/');
    assert.equal(page.status, 200);
    assert.equal(page.body.commits.length, 20);
    assert.equal(page.body.total, 22);
    assert.equal((await rawRequest(srv(), 'GET', '/commits/-/pl-many/?limit=101')).status, 422);

    await rawRequest(srv(), 'POST', '/repos/-/pl-many/tags', { tag_name: 'old', commit_id: commits[21].id });
    const tagged = await rawRequest(srv(), 'GET', '/commits/-/pl-many/?tag=old');
    assert.deepEqual(tagged.body.commits.map((x: { commit_hash: string }) => x.commit_hash), [commits[21].commit_hash]);
    assert.equal(tagged.body.total, 1);
    const none = await rawRequest(srv(), 'GET', '/commits/-/pl-many/?tag=nosuch');
    assert.deepEqual(none.body, { commits: [], total: 0 });
  });

  it('a pull counts a download; with is_view=true it counts a view instead', async () => {
    await repoWith('pl-counts', ['x']);
    const c = client(srv());
    await c.pullPromptCommit('pl-counts', { skipCache: true });
    await c.pullPromptCommit('pl-counts', { skipCache: true });
    assert.equal((await rawRequest(srv(), 'GET', '/commits/-/pl-counts/latest?is_view=true')).status, 200);
    const repo = await c.getPrompt('pl-counts');
    assert.equal(repo?.num_downloads, 2);
    assert.equal(repo?.num_views, 1);
  });

  it('GET /repos: is_archived=allow, has_commits, tenant_id, repo_type, with_latest_manifest, sort_field=relevance', async () => {
    const c = client(srv());
    await repoWith('pl-q-live', ['live']);
    await repoWith('pl-q-archived', ['gone']);
    await c.updatePrompt('pl-q-archived', { isArchived: true });
    await c.createPrompt('pl-q-empty');
    const names = async (qs: string) => {
      const res = await rawRequest(srv(), 'GET', `/repos?query=pl-q-&${qs}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.body.repos as Array<{ repo_handle: string }>).map((r) => r.repo_handle).sort();
    };
    assert.deepEqual(await names('is_archived=allow'), ['pl-q-archived', 'pl-q-empty', 'pl-q-live']);
    assert.deepEqual(await names('is_archived=false'), ['pl-q-empty', 'pl-q-live']);
    assert.equal((await rawRequest(srv(), 'GET', '/repos?is_archived=maybe')).status, 422);
    assert.deepEqual(await names('is_archived=allow&has_commits=true'), ['pl-q-archived', 'pl-q-live']);
    assert.deepEqual(await names('has_commits=false'), ['pl-q-empty']);
    assert.deepEqual(await names(`tenant_id=${srv().tenantId}&is_archived=false`), ['pl-q-empty', 'pl-q-live']);
    assert.deepEqual(await names(`tenant_id=${crypto.randomUUID()}`), []);
    assert.deepEqual(await names('repo_type=prompt&is_archived=false'), ['pl-q-empty', 'pl-q-live']);
    assert.deepEqual(await names('repo_type=agent'), [], 'every repo here is a prompt');
    assert.deepEqual(await names('sort_field=relevance&is_archived=false'), ['pl-q-empty', 'pl-q-live']);
    // The official client lists agents and skills with repo_type: prompts are neither.
    assert.deepEqual((await collect(c.listAgents({ query: 'pl-q-' }))).length, 0);

    const withManifest = await rawRequest(srv(), 'GET', '/repos?query=pl-q-&with_latest_manifest=true&sort_field=updated_at');
    const live = withManifest.body.repos.find((r: { repo_handle: string }) => r.repo_handle === 'pl-q-live');
    const empty = withManifest.body.repos.find((r: { repo_handle: string }) => r.repo_handle === 'pl-q-empty');
    assert.equal(live.latest_commit_manifest.commit_hash, live.last_commit_hash);
    assert.equal(live.latest_commit_manifest.manifest.kwargs.template, 'live');
    assert.equal(empty.latest_commit_manifest, null);
  });

  it('a repo answers every field of RepoWithLookups, unset ones as null (create, read, list)', async () => {
    const c = client(srv());
    const created = await c.createPrompt('pl-shape');
    const nullWhenUnset = ['description', 'readme', 'original_repo_id', 'upstream_repo_id', 'source', 'last_commit_hash', 'created_by',
      'original_repo_full_name', 'upstream_repo_full_name', 'latest_commit_manifest'];
    const listed = (await rawRequest(srv(), 'GET', '/repos?query=pl-shape')).body.repos[0];
    for (const repo of [created, await c.getPrompt('pl-shape'), listed] as Array<Record<string, unknown>>) {
      for (const f of nullWhenUnset) assert.ok(f in repo && repo[f] === null, `${f} is null`);
      assert.deepEqual(repo.commit_tags, []);
      assert.equal(repo.liked_by_auth_user, false);
      assert.equal(repo.num_commits, 0);
    }
  });

  it('POST /repos is a 200 (LangSmith), with a 422 naming an unknown or mistyped field', async () => {
    const ok = await rawRequest(srv(), 'POST', '/repos/', { repo_handle: 'pl-status', is_public: false });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.repo.repo_handle, 'pl-status');
    const allFields = await rawRequest(srv(), 'POST', '/repos/', { repo_handle: 'pl-status-all', is_public: false, repo_type: 'prompt', source: 'internal', restricted_mode: false });
    assert.equal(allFields.status, 200, "every field of LangSmith's CreateRepoRequest is accepted");
    const unknown = await rawRequest(srv(), 'POST', '/repos/', { repo_handle: 'pl-status-2', colour: 'red' });
    assert.equal(unknown.status, 422);
    assert.match(unknown.body.detail, /body: unknown field "colour"/);
    const mistyped = await rawRequest(srv(), 'POST', '/repos/', { repo_handle: 'pl-status-3', tags: 'a' });
    assert.equal(mistyped.status, 422);
    assert.match(mistyped.body.detail, /body\.tags/);
  });
});
