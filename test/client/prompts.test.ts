import assert from 'node:assert/strict';
import { LangSmithClient, LangSmithConflictError, LangSmithError, LangSmithValidationError, collect } from '../../src/client';
import { chatPromptManifest, readManifest, writeManifest } from '../../src/client/templates';
import { withLocalServer } from '../harness/localServer';
import { clientFor, otherClientFor, recordingFetch, unique } from './_server';

const manifest = (text: string) => chatPromptManifest([{ role: 'system', template: text }, { role: 'human', template: '{question}' }]);

describe('client ↔ local server: prompts', () => {
  const srv = withLocalServer();
  let c: LangSmithClient;
  let other: LangSmithClient;
  let orgId: string;
  before(async () => {
    c = clientFor(srv());
    other = otherClientFor(srv());
    orgId = (await c.settings()).id;
  });

  it('creates, gets, updates, lists and deletes a prompt; get answers null for a missing one', async () => {
    const name = unique('p');
    const repo = await c.prompts.create(name, { description: 'first', tags: ['a'], readme: '# hi' });
    assert.equal(repo.repo_handle, name);
    assert.equal(repo.is_public, false);
    assert.equal((await c.prompts.get(name))?.description, 'first');
    assert.equal((await c.prompts.get(`local/${name}`))?.repo_handle, name);
    assert.equal(await c.prompts.get('no-such-prompt'), null);
    assert.equal(await c.prompts.exists('no-such-prompt'), false);
    const u = await c.prompts.update(name, { description: 'second', tags: ['b'] });
    assert.equal(u.description, 'second');
    assert.deepEqual(u.tags, ['b']);
    await c.prompts.delete(name);
    assert.equal(await c.prompts.exists(name), false);
  });

  it('lists by updated_at descending by default, leaves archived ones out, filters public and by query', async () => {
    const tag = unique('lst');
    const a = `${tag}-a`;
    const b = `${tag}-b`;
    const z = `${tag}-z`;
    await c.prompts.create(a);
    await new Promise((r) => setTimeout(r, 5));
    await c.prompts.create(b, { isPublic: true });
    await new Promise((r) => setTimeout(r, 5));
    await c.prompts.create(z);
    await c.prompts.update(a, { description: 'touched' });
    const listed = await collect(c.prompts.list({ query: tag }));
    assert.deepEqual(listed.map((p) => p.repo_handle), [a, z, b]);
    assert.deepEqual((await collect(c.prompts.list({ query: tag, isPublic: true }))).map((p) => p.repo_handle), [b]);
    await c.prompts.update(z, { isArchived: true });
    assert.deepEqual((await collect(c.prompts.list({ query: tag }))).map((p) => p.repo_handle), [a, b]);
    assert.deepEqual((await collect(c.prompts.list({ query: tag, isArchived: true }))).map((p) => p.repo_handle), [z]);
    const asc = await collect(c.prompts.list({ query: tag, sortDirection: 'asc' }));
    assert.deepEqual(asc.map((p) => p.repo_handle), [b, a]);
  });

  it('commits with the latest commit as parent, lists commits, pulls by hash, tag-free latest, with the model', async () => {
    const name = unique('commits');
    await c.prompts.create(name);
    const first = await c.prompts.createCommit(name, manifest('v1'));
    assert.equal(first.url, `${srv().url}/prompts/${name}/${first.commit_hash.slice(0, 8)}?organizationId=${orgId}`);
    const second = await c.prompts.createCommit(name, manifest('v2'));
    const commits = await collect(c.prompts.listCommits(name));
    assert.deepEqual(commits.map((x) => x.commit_hash), [second.commit_hash, first.commit_hash]);
    assert.equal(commits[0]!.parent_commit_hash, first.commit_hash);
    assert.equal(await c.prompts.latestCommitHash(name), second.commit_hash);
    const pulled = await c.prompts.pull(`${name}:${first.commit_hash}`);
    assert.deepEqual(pulled.manifest, manifest('v1'));
    assert.equal(pulled.commit_hash, first.commit_hash);
    const latest = await c.prompts.pull(name, { includeModel: true });
    assert.equal(latest.commit_hash, second.commit_hash);
    assert.deepEqual(writeManifest(readManifest(latest.manifest)), latest.manifest);
    await assert.rejects(c.prompts.createCommit(name, manifest('v2')), LangSmithConflictError);
  });

  it('commits without reading the prompt when the caller knows it exists: one request, on the given parent', async () => {
    const name = unique('commit-exists');
    await c.prompts.create(name);
    const first = await c.prompts.createCommit(name, manifest('v1'), { exists: true });
    const before = c.http.stats.requests;
    const second = await c.prompts.createCommit(name, manifest('v2'), { parentCommitHash: first.commit_hash, exists: true, description: 'second' });
    assert.equal(c.http.stats.requests - before, 1);
    assert.equal(second.url, `${srv().url}/prompts/${name}/${second.commit_hash.slice(0, 8)}?organizationId=${orgId}`);
    const commits = await collect(c.prompts.listCommits(name));
    assert.deepEqual(commits.map((x) => x.commit_hash), [second.commit_hash, first.commit_hash]);
    assert.equal(commits[0]!.parent_commit_hash, first.commit_hash);
    assert.equal(commits[1]!.parent_commit_hash ?? null, null);
  });

  it('pushes: creates when absent, updates attributes, commits; two requests per push', async () => {
    const name = unique('push');
    const url1 = await c.prompts.push(name, { manifest: manifest('one'), description: 'd1' });
    assert.match(url1, new RegExp(`/prompts/${name}/[0-9a-f]{8}\\?organizationId=${orgId}$`));
    const before = c.http.stats.requests;
    const url2 = await c.prompts.push(name, { manifest: manifest('two') });
    assert.equal(c.http.stats.requests - before, 2);
    const before3 = c.http.stats.requests;
    await c.prompts.push(name, { manifest: manifest('three'), description: 'd2', tags: ['t'] });
    assert.equal(c.http.stats.requests - before3, 2);
    assert.notEqual(url1, url2);
    const repo = await c.prompts.get(name);
    assert.equal(repo?.description, 'd2');
    const commits = await collect(c.prompts.listCommits(name));
    assert.equal(commits.length, 3);
    assert.equal(commits[0]!.parent_commit_hash, commits[1]!.commit_hash);
    assert.equal(commits[1]!.parent_commit_hash, commits[2]!.commit_hash);
    const attrsOnly = await c.prompts.push(name, { isPublic: true });
    assert.equal(attrsOnly, `${srv().url}/prompts/${name}?organizationId=${orgId}`);
    assert.equal((await c.prompts.get(name))?.is_public, true);
  });

  it('refuses commit, update and delete of a missing prompt', async () => {
    const msg = 'Prompt does not exist, you must create it first.';
    await assert.rejects(c.prompts.createCommit('never-made', manifest('x')), (e: unknown) => {
      assert.ok(e instanceof LangSmithValidationError);
      assert.equal(e.message, msg);
      return true;
    });
    await assert.rejects(c.prompts.update('never-made', { description: 'x' }), { message: msg });
    await assert.rejects(c.prompts.delete('never-made'), { message: msg });
    await assert.rejects(c.prompts.update('never-made', {}), { message: 'No valid update options provided' });
  });

  it('latest-commit lookup of a missing prompt raises Error {status}: {statusText} with the detail, keeping the status', async () => {
    await assert.rejects(c.prompts.latestCommitHash('never-made'), (e: unknown) => {
      assert.ok(e instanceof LangSmithError);
      assert.equal(e.status, 404);
      assert.equal(e.message, 'Error 404: Not Found\nRepo -/never-made not found');
      assert.equal(e.statusText, 'Not Found');
      assert.equal(e.detail, 'Repo -/never-made not found');
      return true;
    });
    const empty = unique('empty');
    await c.prompts.create(empty);
    assert.equal(await c.prompts.latestCommitHash(empty), undefined);
  });

  it('likes and unlikes', async () => {
    const name = unique('liked');
    await c.prompts.create(name, { isPublic: true });
    assert.equal((await c.prompts.like(name)).likes, 1);
    assert.equal((await other.prompts.like(`local/${name}`)).likes, 2);
    assert.equal((await c.prompts.unlike(name)).likes, 1);
  });

  it('tenant rules: another tenant may read, pull and like a public prompt but not change it', async () => {
    const name = unique('shared');
    await c.prompts.create(name, { isPublic: true });
    const commit = await c.prompts.createCommit(name, manifest('public'));
    const ref = `local/${name}`;
    assert.equal((await other.prompts.get(ref))?.repo_handle, name);
    assert.deepEqual((await other.prompts.pull(`${ref}:${commit.commit_hash}`)).manifest, manifest('public'));
    const expected = (action: string) => `Cannot ${action} for another tenant.\nCurrent tenant: other\nRequested tenant: local`;
    await assert.rejects(other.prompts.create(ref), { message: expected('create a prompt') });
    await assert.rejects(other.prompts.update(ref, { description: 'x' }), { message: expected('update a prompt') });
    await assert.rejects(other.prompts.delete(ref), { message: expected('delete a prompt') });
    await assert.rejects(other.prompts.createCommit(ref, manifest('y')), { message: expected('create a commit') });
    await assert.rejects(other.prompts.push(ref, { manifest: manifest('y') }), { message: expected('push a prompt') });
    assert.equal(await other.prompts.url(`${ref}:${commit.commit_hash}`), `${srv().url}/hub/local/${name}/${commit.commit_hash.slice(0, 8)}`);
    assert.equal(await other.links.prompt(ref), `${srv().url}/hub/local/${name}`);
    assert.equal(await c.links.prompt(ref), `${srv().url}/prompts/${name}?organizationId=${orgId}`);
    // The owner writes through its handle as well as through '-'.
    await c.prompts.update(ref, { description: 'by handle' });
    assert.equal((await c.prompts.get(name))?.description, 'by handle');
  });

  it('a private prompt of another tenant stays invisible, and committing to it is refused before anything is read', async () => {
    const name = unique('private');
    await c.prompts.create(name);
    assert.equal(await other.prompts.get(`local/${name}`), null);
    const wire = recordingFetch();
    const watched = otherClientFor(srv(), { fetch: wire.fetch });
    await assert.rejects(watched.prompts.createCommit(`local/${name}`, manifest('z')), {
      message: 'Cannot create a commit for another tenant.\nCurrent tenant: other\nRequested tenant: local',
    });
    assert.deepEqual(wire.seen.map((r) => `${r.method} ${r.url.pathname}`), ['GET /settings'], 'only the own settings were read');
  });

  it('tags commits, moves and deletes tags; pulls by tag; only the owner may tag', async () => {
    const name = unique('tags');
    await c.prompts.create(name, { isPublic: true });
    const one = await c.prompts.createCommit(name, manifest('t1'));
    const two = await c.prompts.createCommit(name, manifest('t2'));
    const tag = await c.prompts.createTag(name, { tagName: 'prod', commitId: one.commit.id! });
    assert.equal(tag.commit_hash, one.commit_hash);
    assert.equal((await c.prompts.pull(`${name}:prod`)).commit_hash, one.commit_hash);
    await assert.rejects(c.prompts.createTag(name, { tagName: 'prod', commitId: two.commit.id! }), LangSmithConflictError);
    await c.prompts.moveTag(name, { tagName: 'prod', commitId: two.commit.id! });
    assert.deepEqual((await c.prompts.listTags(name)).map((t) => [t.tag_name, t.commit_hash]), [['prod', two.commit_hash]]);
    await assert.rejects(other.prompts.createTag(`local/${name}`, { tagName: 'x', commitId: one.commit.id! }), {
      message: 'Cannot create a tag for another tenant.\nCurrent tenant: other\nRequested tenant: local',
    });
    await c.prompts.deleteTag(name, 'prod');
    assert.deepEqual(await c.prompts.listTags(name), []);
  });

  it('keeps a model-bound manifest: pulled without the model by default, with it when asked', async () => {
    const name = unique('bound');
    const prompt = manifest('You are {role}.');
    const bound = {
      lc: 1,
      type: 'constructor',
      id: ['langchain', 'schema', 'runnable', 'RunnableSequence'],
      kwargs: { first: prompt, last: { lc: 1, type: 'constructor', id: ['langchain', 'chat_models', 'openai', 'ChatOpenAI'], kwargs: { model: 'gpt-4o-mini', temperature: 0 } } },
    };
    const url = await c.prompts.push(name, { manifest: bound });
    const hash = url.split('?')[0]!.split('/').pop()!;
    const plain = await c.prompts.pull(`${name}:${hash}`);
    assert.deepEqual(plain.manifest, prompt);
    const full = await c.prompts.pull(`${name}:${hash}`, { includeModel: true });
    assert.deepEqual(full.manifest, bound);
    assert.deepEqual(full.model_config, { model: 'gpt-4o-mini', temperature: 0 });
    const model = readManifest(full.manifest);
    assert.deepEqual(writeManifest(model), bound);
    assert.equal((model.model as { kwargs: { model: string } }).kwargs.model, 'gpt-4o-mini');
  });
});
