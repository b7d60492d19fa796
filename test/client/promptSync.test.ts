// promptSync against the real local server over HTTP: push a prompt file (create, unchanged, update, stale,
// another tenant, tags, attributes, from what a plan read), what would change (changesBetween) and the remote
// prompt (readRemote).
import assert from 'node:assert/strict';
import { LangSmithClient, LangSmithValidationError, collect, type Commit } from '../../src/client';
import { chatPromptManifest, type LcNode } from '../../src/client/templates';
import { changesBetween, fromManifest, parsePromptFile, planPromptFiles, pushPromptFile, readRemote, setCommitTag, tagNameProblem, toManifest, writePromptFile, type PromptFile, type PushOutcome } from '../../src/promptFile';
import { withLocalServer } from '../harness/localServer';
import { clientFor, otherClientFor, recordingFetch, unique } from './_server';

/** Parses prompt file text; fails the test when it has errors. */
function parse(text: string): PromptFile {
  const parsed = parsePromptFile(text);
  assert.ok(parsed.file, `the prompt file does not parse: ${JSON.stringify(parsed.problems)}`);
  return parsed.file;
}

function chatFile(name: string, system: string): string {
  return [
    `prompt: ${name}`,
    'template_format: f-string',
    'messages:',
    '  - role: system',
    `    template: ${JSON.stringify(system)}`,
    '  - role: human',
    '    template: "{question}"',
    '',
  ].join('\n');
}

const chatManifest = (system: string) =>
  chatPromptManifest([
    { role: 'system', template: system },
    { role: 'human', template: 'Context: {context}\nQuestion: {question}' },
    { role: 'ai', template: 'Let me think.' },
  ]);

const mustacheStringManifest = (): LcNode => ({
  lc: 1,
  type: 'constructor',
  id: ['langchain', 'prompts', 'prompt', 'PromptTemplate'],
  kwargs: { input_variables: ['name', 'topic'], template_format: 'mustache', template: 'Hello {{name}}, tell me about {{topic}}.' },
});

const modelManifest = (): LcNode => ({
  lc: 1,
  type: 'constructor',
  id: ['langchain', 'schema', 'runnable', 'RunnableSequence'],
  kwargs: {
    first: chatPromptManifest([
      { role: 'system', template: 'You are {persona}.' },
      { role: 'human', template: '{question}' },
    ]),
    last: { lc: 1, type: 'constructor', id: ['langchain', 'chat_models', 'openai', 'ChatOpenAI'], kwargs: { model: 'gpt-4o-mini', temperature: 0.2 } },
  },
});

function expectStatus<S extends PushOutcome['status']>(outcome: PushOutcome, status: S): Extract<PushOutcome, { status: S }> {
  assert.equal(outcome.status, status, `outcome: ${JSON.stringify(outcome)}`);
  return outcome as Extract<PushOutcome, { status: S }>;
}

describe('promptSync ↔ local server', () => {
  const srv = withLocalServer();
  let c: LangSmithClient;
  let other: LangSmithClient;
  let ownHandle: string;
  let otherHandle: string;

  const commits = (name: string, client = c): Promise<Commit[]> => collect(client.prompts.listCommits(name));
  const latestHash = async (name: string): Promise<string> => {
    const [first] = await commits(name);
    assert.ok(first, `${name} has no commit`);
    return first.commit_hash;
  };
  /** Pulls the latest commit and writes it as a prompt file (as the Prompts view does), read back. */
  const pulledFile = async (name: string): Promise<{ file: PromptFile; manifest: unknown; hash: string; text: string }> => {
    const pulled = await c.prompts.pull(name, { includeModel: true });
    const text = writePromptFile(fromManifest(pulled.manifest, { identifier: name }));
    return { file: parse(text), manifest: pulled.manifest, hash: pulled.commit_hash, text };
  };

  before(async () => {
    c = clientFor(srv());
    other = otherClientFor(srv());
    ownHandle = (await c.settings()).tenant_handle ?? '';
    otherHandle = (await other.settings()).tenant_handle ?? '';
    assert.ok(ownHandle && otherHandle && ownHandle !== otherHandle);
  });

  describe('pushPromptFile', () => {
    it('creates a prompt that does not exist and commits the file’s manifest', async () => {
      const name = unique('sync-new');
      assert.equal(await c.prompts.get(name), null);
      const file = parse(chatFile(name, 'You are a helpful {role}.'));
      const out = expectStatus(await pushPromptFile(c, file, { expectedParent: null, create: { description: 'made by a file', isPublic: false } }), 'pushed');
      assert.equal(out.created, true);
      assert.deepEqual(out.updated, []);
      assert.deepEqual(out.tags, []);
      assert.match(out.commitHash, /^[0-9a-f]{8,}$/);
      assert.ok(out.commitId);
      assert.match(out.url, new RegExp(`/prompts/${name}/${out.commitHash.slice(0, 8)}`));

      const repo = await c.prompts.get(name);
      assert.ok(repo);
      assert.equal(repo.repo_handle, name);
      assert.equal(repo.description, 'made by a file');
      assert.equal(repo.is_public, false);
      const list = await commits(name);
      assert.equal(list.length, 1);
      assert.equal(list[0]!.commit_hash, out.commitHash);
      assert.equal(list[0]!.id, out.commitId);
      const pulled = await c.prompts.pull(`${name}:${out.commitHash}`, { includeModel: true });
      assert.deepEqual(pulled.manifest, toManifest(file));
      assert.deepEqual(pulled.manifest, JSON.parse(JSON.stringify(toManifest(file))));
    });

    for (const [kind, make] of [
      ['a chat prompt', chatManifest.bind(null, 'You are a {role}.')],
      ['a mustache string prompt', mustacheStringManifest],
      ['a prompt with a model', modelManifest],
      [
        'a mustache chat prompt with a placeholder and a custom role',
        () =>
          chatPromptManifest(
            [
              { role: 'system', template: 'Hi {{name}}' },
              { placeholder: 'history', optional: true },
              { role: 'human', template: '{{#items}}- {{.}}\n{{/items}}' },
              { role: 'reviewer', template: 'ok' },
            ],
            'mustache',
          ),
      ],
    ] as const) {
      it(`pushing ${kind} pulled unchanged is nothing to commit`, async () => {
        const name = unique('sync-same');
        await c.prompts.push(name, { manifest: make() });
        const before = await commits(name);
        assert.equal(before.length, 1);
        const { file, hash, manifest } = await pulledFile(name);
        assert.equal(file.identifier, name);
        if (kind === 'a mustache string prompt') {
          assert.equal(file.templateFormat, 'mustache');
          assert.equal(file.body.kind, 'string');
        }
        if (kind === 'a prompt with a model') assert.deepEqual(file.model, { id: ['langchain', 'chat_models', 'openai', 'ChatOpenAI'], settings: { model: 'gpt-4o-mini', temperature: 0.2 } });
        // The file converts back onto its commit's manifest exactly.
        assert.deepEqual(toManifest(file, manifest), manifest);
        const out = expectStatus(await pushPromptFile(c, file, { expectedParent: hash }), 'nothingToCommit');
        assert.equal(out.commitHash, hash);
        assert.deepEqual(out.updated, []);
        assert.deepEqual(out.tags, []);
        const after = await commits(name);
        assert.deepEqual(
          after.map((x) => x.commit_hash),
          before.map((x) => x.commit_hash),
        );
        assert.deepEqual(changesBetween({ manifest, repo: await c.prompts.get(name) }, file), []);
      });
    }

    it('commits a changed message onto the latest commit, changing only that message', async () => {
      const name = unique('sync-upd');
      await c.prompts.push(name, { manifest: chatManifest('You are a {role}.') });
      const { file, hash, manifest } = await pulledFile(name);
      assert.equal(file.body.kind, 'chat');
      const m = file.body.kind === 'chat' ? file.body.messages[1] : undefined;
      assert.ok(m && m.kind === 'message' && m.role === 'human');
      m.template = 'Context: {context}\nQuestion, restated: {question}';

      // What the commit panel shows before the push.
      const changes = changesBetween({ manifest, repo: await c.prompts.get(name) }, file);
      assert.equal(changes.length, 1, JSON.stringify(changes));
      const change = changes[0]!;
      assert.equal(change.section, 'Message 2 (human)');
      assert.equal(change.kind, 'changed');
      assert.equal(change.attribute, false);
      assert.deepEqual(
        change.lines.filter((l) => l.type === 'del'),
        [{ type: 'del', text: 'Question: {question}' }],
      );
      assert.deepEqual(
        change.lines.filter((l) => l.type === 'add'),
        [{ type: 'add', text: 'Question, restated: {question}' }],
      );
      assert.ok(change.lines.some((l) => l.type === 'same' && l.text === 'Context: {context}'));

      const out = expectStatus(await pushPromptFile(c, file, { expectedParent: hash, description: 'restate the question' }), 'pushed');
      assert.equal(out.created, false);
      assert.deepEqual(out.updated, []);
      const list = await commits(name);
      assert.equal(list.length, 2);
      assert.equal(list[0]!.commit_hash, out.commitHash);
      assert.equal(list[0]!.parent_commit_hash, hash);
      assert.equal(list[1]!.commit_hash, hash);

      const after = (await c.prompts.pull(`${name}:${out.commitHash}`, { includeModel: true })).manifest as LcNode;
      const beforeNode = manifest as LcNode;
      const msgs = (n: LcNode) => n.kwargs!['messages'] as LcNode[];
      assert.equal(msgs(after).length, 3);
      assert.deepEqual(msgs(after)[0], msgs(beforeNode)[0]);
      assert.deepEqual(msgs(after)[2], msgs(beforeNode)[2]);
      assert.notDeepEqual(msgs(after)[1], msgs(beforeNode)[1]);
      const prompt = (n: LcNode) => (n.kwargs!['prompt'] as LcNode).kwargs!;
      assert.equal(prompt(msgs(after)[1]!)['template'], 'Context: {context}\nQuestion, restated: {question}');
      assert.equal(prompt(msgs(beforeNode)[1]!)['template'], 'Context: {context}\nQuestion: {question}');
      // Apart from that template, the message node is the same JSON.
      const strip = (n: LcNode) => {
        const copy = JSON.parse(JSON.stringify(n)) as LcNode;
        delete (copy.kwargs!['prompt'] as LcNode).kwargs!['template'];
        return copy;
      };
      assert.deepEqual(strip(msgs(after)[1]!), strip(msgs(beforeNode)[1]!));
      // And the rest of the prompt node too.
      const rest = (n: LcNode) => ({ ...n, kwargs: { ...n.kwargs, messages: undefined } });
      assert.deepEqual(rest(after), rest(beforeNode));

      // Pushed again as it is now: nothing to commit.
      expectStatus(await pushPromptFile(c, file, { expectedParent: out.commitHash }), 'nothingToCommit');
      assert.equal((await commits(name)).length, 2);
    });

    it('stops with stale when someone committed since the expected parent, committing nothing', async () => {
      const name = unique('sync-stale');
      await c.prompts.push(name, { manifest: chatManifest('one {role}') });
      const old = await latestHash(name);
      await c.prompts.push(name, { manifest: chatManifest('two {role}') });
      const latest = await latestHash(name);
      assert.notEqual(old, latest);
      const file = parse(chatFile(name, 'three {role}'));
      const byOld = expectStatus(await pushPromptFile(c, file, { expectedParent: old }), 'stale');
      assert.deepEqual(byOld, { status: 'stale', latest });
      const byNull = expectStatus(await pushPromptFile(c, file, { expectedParent: null, commitTags: ['production'] }), 'stale');
      assert.equal(byNull.latest, latest);
      const list = await commits(name);
      assert.equal(list.length, 2);
      assert.equal(list[0]!.commit_hash, latest);
      assert.deepEqual(await c.prompts.listTags(name), []);

      // A prompt that does not exist is stale against an expected parent too, and is not created.
      const missing = unique('sync-stale-missing');
      const out = await pushPromptFile(c, parse(chatFile(missing, 'x {role}')), { expectedParent: old });
      assert.deepEqual(out, { status: 'stale', latest: null });
      assert.equal(await c.prompts.get(missing), null);
    });

    it('refuses a file naming another tenant’s prompt before anything is written', async () => {
      const name = unique('sync-theirs');
      await other.prompts.push(name, { manifest: chatManifest('theirs {role}'), isPublic: true });
      const theirCommits = async () => (await commits(name, other)).map((x) => x.commit_hash);
      const before = await theirCommits();
      assert.equal(before.length, 1);

      const wire = recordingFetch();
      const watched = clientFor(srv(), { fetch: wire.fetch });
      const file = parse(chatFile(`${otherHandle}/${name}`, 'mine now {role}'));
      assert.equal(file.identifier, `${otherHandle}/${name}`);
      await assert.rejects(pushPromptFile(watched, file, { expectedParent: before[0]!, commitTags: ['production'] }), (e: unknown) => {
        assert.ok(e instanceof LangSmithValidationError);
        assert.equal(e.message, `Cannot create a commit for another tenant.\nCurrent tenant: ${ownHandle}\nRequested tenant: ${otherHandle}`);
        return true;
      });
      assert.deepEqual(
        wire.seen.filter((r) => r.method !== 'GET'),
        [],
      );
      assert.deepEqual(await theirCommits(), before);
      assert.deepEqual(await other.prompts.listTags(name), []);
      assert.equal((await other.prompts.get(name))?.description ?? '', '');
      // Nor was a prompt of that name made in the caller's own workspace.
      assert.equal(await c.prompts.get(name), null);
    });

    it('refuses a file that names no prompt and a bad tag name before anything is sent', async () => {
      const wire = recordingFetch();
      const watched = clientFor(srv(), { fetch: wire.fetch });
      const noName = parse(chatFile('x', 'y {z}'));
      delete noName.identifier;
      await assert.rejects(pushPromptFile(watched, noName, { expectedParent: null }), LangSmithValidationError);
      const name = unique('sync-badtag');
      await assert.rejects(pushPromptFile(watched, parse(chatFile(name, 'y {z}')), { expectedParent: null, commitTags: ['latest'] }), {
        message: tagNameProblem('latest'),
      });
      assert.deepEqual(wire.seen, []);
      assert.equal(await c.prompts.get(name), null);
    });
  });

  describe('tags', () => {
    it('tags the pushed commit, moves the tag on the next push, and setCommitTag moves an existing tag', async () => {
      const name = unique('sync-tags');
      const first = expectStatus(
        await pushPromptFile(c, parse(chatFile(name, 'v1 {role}')), { expectedParent: null, commitTags: ['production'], create: { isPublic: false } }),
        'pushed',
      );
      assert.deepEqual(first.tags, ['production']);
      let tags = await c.prompts.listTags(name);
      assert.equal(tags.length, 1);
      assert.equal(tags[0]!.tag_name, 'production');
      assert.equal(tags[0]!.commit_id, first.commitId);

      const second = expectStatus(await pushPromptFile(c, parse(chatFile(name, 'v2 {role}')), { expectedParent: first.commitHash, commitTags: ['production'] }), 'pushed');
      assert.notEqual(second.commitId, first.commitId);
      assert.deepEqual(second.tags, ['production']);
      tags = await c.prompts.listTags(name);
      assert.equal(tags.length, 1);
      assert.equal(tags[0]!.commit_id, second.commitId);
      assert.equal((await c.prompts.pull(`${name}:production`)).commit_hash, second.commitHash);

      await setCommitTag(c, name, 'production', first.commitId);
      tags = await c.prompts.listTags(name);
      assert.equal(tags.length, 1);
      assert.equal(tags[0]!.commit_id, first.commitId);
      assert.equal((await c.prompts.pull(`${name}:production`)).commit_hash, first.commitHash);

      // A new tag is created.
      await setCommitTag(c, name, 'canary', second.commitId);
      tags = await c.prompts.listTags(name);
      assert.deepEqual(Object.fromEntries(tags.map((t) => [t.tag_name, t.commit_id])), { production: first.commitId, canary: second.commitId });
      assert.equal((await commits(name)).length, 2);
    });

    it('nothing to commit with commit tags tags the latest commit', async () => {
      const name = unique('sync-tag-same');
      await c.prompts.push(name, { manifest: chatManifest('Be {role}.') });
      const { file, hash } = await pulledFile(name);
      const [latest] = await commits(name);
      const out = expectStatus(await pushPromptFile(c, file, { expectedParent: hash, commitTags: ['staging', 'production'] }), 'nothingToCommit');
      assert.equal(out.commitHash, hash);
      assert.deepEqual(out.tags, ['staging', 'production']);
      const tags = await c.prompts.listTags(name);
      assert.deepEqual(tags.map((t) => t.tag_name).sort(), ['production', 'staging']);
      for (const t of tags) assert.equal(t.commit_id, latest!.id);
      assert.equal((await commits(name)).length, 1);
    });

    it('tagNameProblem refuses commit references and bad characters', () => {
      assert.match(tagNameProblem('latest') ?? '', /commit reference/);
      assert.match(tagNameProblem('deadbeef') ?? '', /commit reference/);
      assert.match(tagNameProblem('a b') ?? '', /not a tag name/);
      assert.ok(tagNameProblem(''));
      assert.ok(tagNameProblem('x'.repeat(101)));
      assert.equal(tagNameProblem('staging'), undefined);
      assert.equal(tagNameProblem('v1.2-rc_3'), undefined);
      // Hex but shorter than a commit prefix is a fine name.
      assert.equal(tagNameProblem('beef'), undefined);
    });
  });

  describe('attributes', () => {
    it('updates description and visibility of an existing prompt even when the content is unchanged', async () => {
      const name = unique('sync-attrs');
      await c.prompts.push(name, { manifest: chatManifest('Be {role}.'), description: 'old' });
      const before = await c.prompts.get(name);
      assert.equal(before?.description, 'old');
      assert.equal(before?.is_public, false);
      const { file, hash, manifest } = await pulledFile(name);
      file.description = 'new description';
      file.visibility = 'public';

      const changes = changesBetween({ manifest, repo: before }, file);
      assert.deepEqual(
        changes.map((x) => [x.section, x.kind, x.attribute]),
        [
          ['Description', 'changed', true],
          ['Visibility', 'changed', true],
        ],
      );
      assert.deepEqual(changes[1]!.lines, [
        { type: 'del', text: 'private' },
        { type: 'add', text: 'public' },
      ]);

      const out = expectStatus(await pushPromptFile(c, file, { expectedParent: hash }), 'nothingToCommit');
      assert.deepEqual(out.updated, ['description', 'visibility']);
      const repo = await c.prompts.get(name);
      assert.equal(repo?.description, 'new description');
      assert.equal(repo?.is_public, true);
      assert.equal((await commits(name)).length, 1);

      // Attributes already as the file has them: nothing updated.
      const again = expectStatus(await pushPromptFile(c, file, { expectedParent: hash }), 'nothingToCommit');
      assert.deepEqual(again.updated, []);
      assert.deepEqual(changesBetween({ manifest, repo }, file), []);

      // And back to private, with a readme.
      file.visibility = 'private';
      file.readme = '# Read me';
      const back = expectStatus(await pushPromptFile(c, file, { expectedParent: hash }), 'nothingToCommit');
      assert.deepEqual(back.updated, ['readme', 'visibility']);
      const repo2 = await c.prompts.get(name);
      assert.equal(repo2?.is_public, false);
      assert.equal(repo2?.readme, '# Read me');
      assert.equal(repo2?.description, 'new description');
    });

    it('updates attributes and commits a changed prompt in one push', async () => {
      const name = unique('sync-attrs2');
      await c.prompts.push(name, { manifest: chatManifest('Be {role}.'), description: 'old' });
      const { file, hash } = await pulledFile(name);
      file.description = 'changed too';
      file.tags = ['qa'];
      if (file.body.kind === 'chat' && file.body.messages[0]!.kind === 'message') file.body.messages[0]!.template = 'Be a good {role}.';
      const out = expectStatus(await pushPromptFile(c, file, { expectedParent: hash }), 'pushed');
      assert.deepEqual(out.updated, ['description', 'tags']);
      const repo = await c.prompts.get(name);
      assert.equal(repo?.description, 'changed too');
      assert.deepEqual(repo?.tags, ['qa']);
      assert.equal((await commits(name))[0]!.parent_commit_hash, hash);
    });
  });

  describe('pushPromptFile from what a plan read (known)', () => {
    /** A client whose requests are recorded as `METHOD /path`, and the plan of one file with it. */
    const planned = async (file: PromptFile, tags: string[] = []) => {
      const wire = recordingFetch();
      const watched = clientFor(srv(), { fetch: wire.fetch });
      const [plan] = await planPromptFiles(watched, [file], { tags });
      wire.seen.length = 0;
      const push = () => pushPromptFile(watched, file, { expectedParent: plan!.latest, commitTags: tags, known: plan!.known });
      return { plan: plan!, push, requests: () => wire.seen.map((r) => `${r.method} ${r.url.pathname}`) };
    };
    const tagsOf = async (name: string) => Object.fromEntries((await c.prompts.listTags(name)).map((t) => [t.tag_name, t.commit_hash]));

    it('a changed file: reads the latest commit, commits on it and moves the tag (3 requests)', async () => {
      const name = unique('known-change');
      const first = expectStatus(await pushPromptFile(c, parse(chatFile(name, 'v1 {role}')), { expectedParent: null, commitTags: ['staging'] }), 'pushed');
      const { plan, push, requests } = await planned(parse(chatFile(name, 'v2 {role}')), ['staging']);
      assert.deepEqual(plan.tags, [{ name: 'staging', action: 'move' }]);
      const out = expectStatus(await push(), 'pushed');
      assert.deepEqual(requests(), [`GET /commits/-/${name}/`, `POST /commits/-/${name}`, `PATCH /repos/-/${name}/tags/staging`]);
      const [latest] = await commits(name);
      assert.equal(latest!.commit_hash, out.commitHash);
      assert.equal(latest!.parent_commit_hash, first.commitHash);
      assert.deepEqual(await tagsOf(name), { staging: out.commitHash });
    });

    it('a new prompt: creates it, commits and adds the tag without reading (3 requests)', async () => {
      const name = unique('known-new');
      const { plan, push, requests } = await planned(parse(chatFile(name, 'v1 {role}')), ['staging']);
      assert.equal(plan.create, true);
      const out = expectStatus(await push(), 'pushed');
      assert.equal(out.created, true);
      assert.deepEqual(requests(), ['POST /repos/', `POST /commits/-/${name}`, `POST /repos/-/${name}/tags`]);
      assert.equal(await latestHash(name), out.commitHash);
      assert.deepEqual(await tagsOf(name), { staging: out.commitHash });
    });

    it('attributes only, the tag already on the latest commit: reads the latest commit and updates (2 requests)', async () => {
      const name = unique('known-attrs');
      const first = expectStatus(await pushPromptFile(c, parse(chatFile(name, 'v1 {role}')), { expectedParent: null, commitTags: ['staging'] }), 'pushed');
      const { plan, push, requests } = await planned(parse(`description: Now described.\n${chatFile(name, 'v1 {role}')}`), ['staging']);
      assert.deepEqual(plan.tags, [{ name: 'staging', action: 'keep' }]);
      const out = expectStatus(await push(), 'nothingToCommit');
      assert.deepEqual(out.updated, ['description']);
      assert.deepEqual(requests(), [`GET /commits/-/${name}/`, `PATCH /repos/-/${name}`]);
      assert.equal((await c.prompts.get(name))?.description, 'Now described.');
      assert.deepEqual(await tagsOf(name), { staging: first.commitHash });
      assert.equal((await commits(name)).length, 1);
    });

    it('a commit made between the plan and the push is caught: stale, nothing written', async () => {
      const name = unique('known-race');
      expectStatus(await pushPromptFile(c, parse(chatFile(name, 'v1 {role}')), { expectedParent: null, commitTags: ['staging'] }), 'pushed');
      const { push } = await planned(parse(`description: Mine.\n${chatFile(name, 'mine {role}')}`), ['staging']);
      const before = await tagsOf(name);
      // Someone else commits after the plan was read.
      const theirs = await clientFor(srv()).prompts.createCommit(name, chatManifest('theirs {role}'));
      const out = expectStatus(await push(), 'stale');
      assert.equal(out.latest, theirs.commit_hash);
      assert.deepEqual((await commits(name)).map((x) => x.commit_hash)[0], theirs.commit_hash);
      assert.equal((await commits(name)).length, 2);
      assert.deepEqual(await tagsOf(name), before);
      assert.equal((await c.prompts.get(name))?.description ?? '', '');
    });

    it('a prompt made and committed to between the plan and the push is caught too', async () => {
      const name = unique('known-race-new');
      const { plan, push } = await planned(parse(chatFile(name, 'mine {role}')), ['staging']);
      assert.equal(plan.create, true);
      await clientFor(srv()).prompts.push(name, { manifest: chatManifest('theirs {role}') });
      const theirs = await latestHash(name);
      assert.deepEqual(await push(), { status: 'stale', latest: theirs });
      assert.equal((await commits(name)).length, 1);
      assert.deepEqual(await c.prompts.listTags(name), []);
    });

    it('a tag created or deleted between the plan and the push still ends on the new commit', async () => {
      const name = unique('known-tag-race');
      const first = expectStatus(await pushPromptFile(c, parse(chatFile(name, 'v1 {role}')), { expectedParent: null, commitTags: ['staging'] }), 'pushed');
      const second = parse(chatFile(name, 'v2 {role}'));
      const a = await planned(second, ['staging', 'canary']);
      assert.deepEqual(a.plan.tags.map((t) => `${t.name} ${t.action}`), ['staging move', 'canary add']);
      // After the plan: staging deleted, canary created elsewhere.
      await c.prompts.deleteTag(name, 'staging');
      await c.prompts.createTag(name, { tagName: 'canary', commitId: first.commitId });
      const out = expectStatus(await a.push(), 'pushed');
      assert.deepEqual(await tagsOf(name), { canary: out.commitHash, staging: out.commitHash });
    });
  });

  describe('changesBetween', () => {
    it('shows a changed template format', async () => {
      const name = unique('sync-fmt');
      await c.prompts.push(name, { manifest: mustacheStringManifest() });
      const { file, manifest } = await pulledFile(name);
      const repo = await c.prompts.get(name);
      assert.deepEqual(changesBetween({ manifest, repo }, file), []);
      file.templateFormat = 'f-string';
      if (file.body.kind === 'string') file.body.template = 'Hello {name}, tell me about {topic}.';
      const changes = changesBetween({ manifest, repo }, file);
      const fmt = changes.find((x) => x.section === 'Template format');
      assert.ok(fmt, JSON.stringify(changes));
      assert.equal(fmt.kind, 'changed');
      assert.deepEqual(fmt.lines, [
        { type: 'del', text: 'mustache' },
        { type: 'add', text: 'f-string' },
      ]);
      const tpl = changes.find((x) => x.section === 'Template');
      assert.ok(tpl);
      assert.deepEqual(
        tpl.lines.map((l) => l.type),
        ['del', 'add'],
      );
      assert.deepEqual(
        changes.map((x) => x.section),
        ['Template format', 'Template'],
      );
    });

    it('shows a changed model', async () => {
      const name = unique('sync-model');
      await c.prompts.push(name, { manifest: modelManifest() });
      const { file, manifest } = await pulledFile(name);
      file.model!.settings['temperature'] = 0.7;
      const changes = changesBetween({ manifest, repo: await c.prompts.get(name) }, file);
      assert.equal(changes.length, 1);
      assert.equal(changes[0]!.section, 'Model');
      assert.deepEqual(
        changes[0]!.lines.filter((l) => l.type !== 'same'),
        [
          { type: 'del', text: 'temperature: 0.2' },
          { type: 'add', text: 'temperature: 0.7' },
        ],
      );
    });

    it('shows everything as added for a new prompt', () => {
      const file = parse(chatFile(unique('sync-fresh'), 'Hi {role}.'));
      const changes = changesBetween({ manifest: undefined, repo: null }, file);
      assert.ok(changes.length >= 3);
      for (const x of changes) {
        assert.equal(x.kind, 'added');
        assert.equal(x.attribute, false);
        assert.ok(x.lines.length > 0 && x.lines.every((l) => l.type === 'add'), JSON.stringify(x));
      }
      const sections = changes.map((x) => x.section);
      assert.ok(sections.includes('Template format'));
      assert.ok(sections.includes('Message 1 (system)'));
      assert.ok(sections.includes('Message 2 (human)'));
      assert.deepEqual(changes.find((x) => x.section === 'Message 1 (system)')!.lines, [
        { type: 'add', text: 'role: system' },
        { type: 'add', text: 'Hi {role}.' },
      ]);
    });
  });

  describe('readRemote', () => {
    it('reads an existing prompt: repo, latest commit, tags and manifest', async () => {
      const name = unique('sync-read');
      await c.prompts.push(name, { manifest: chatManifest('first {role}'), description: 'readable' });
      await c.prompts.push(name, { manifest: modelManifest() });
      const list = await commits(name);
      await c.prompts.createTag(name, { tagName: 'production', commitId: list[1]!.id! });
      const remote = await readRemote(c, name);
      assert.equal(remote.target.own, true);
      assert.equal(remote.target.identifier, name);
      assert.equal(remote.target.handle, ownHandle);
      assert.equal(remote.target.refusal, undefined);
      assert.equal(remote.repo?.repo_handle, name);
      assert.equal(remote.repo?.description, 'readable');
      assert.equal(remote.latest?.commit_hash, list[0]!.commit_hash);
      assert.deepEqual(
        remote.tags.map((t) => [t.tag_name, t.commit_id]),
        [['production', list[1]!.id]],
      );
      assert.deepEqual(remote.manifest, modelManifest());

      // By the caller's own handle, the same prompt.
      const byHandle = await readRemote(c, `${ownHandle}/${name}`);
      assert.equal(byHandle.target.own, true);
      assert.equal(byHandle.target.identifier, name);
      assert.equal(byHandle.latest?.commit_hash, list[0]!.commit_hash);
    });

    it('a prompt with no commits has a repo but no latest commit nor manifest', async () => {
      const name = unique('sync-empty');
      await c.prompts.create(name);
      const remote = await readRemote(c, name);
      assert.equal(remote.repo?.repo_handle, name);
      assert.equal(remote.latest, null);
      assert.equal(remote.manifest, undefined);
      assert.deepEqual(remote.tags, []);
      // Pushing onto it (no parent expected) makes its first commit.
      const out = expectStatus(await pushPromptFile(c, parse(chatFile(name, 'first {role}')), { expectedParent: null }), 'pushed');
      assert.equal(out.created, false);
      assert.equal((await commits(name)).length, 1);
    });

    it('a missing prompt has repo null', async () => {
      const remote = await readRemote(c, unique('sync-missing'));
      assert.equal(remote.repo, null);
      assert.equal(remote.latest, null);
      assert.equal(remote.manifest, undefined);
      assert.deepEqual(remote.tags, []);
      assert.equal(remote.target.own, true);
    });

    it('another tenant’s prompt carries the refusal', async () => {
      const expected = `Cannot create a commit for another tenant.\nCurrent tenant: ${ownHandle}\nRequested tenant: ${otherHandle}`;
      const hidden = unique('sync-hidden');
      await other.prompts.push(hidden, { manifest: chatManifest('private {role}') });
      const r1 = await readRemote(c, `${otherHandle}/${hidden}`);
      assert.equal(r1.target.own, false);
      assert.equal(r1.target.owner, otherHandle);
      assert.equal(r1.target.identifier, `${otherHandle}/${hidden}`);
      assert.equal(r1.target.refusal, expected);
      assert.equal(r1.repo, null);

      const shared = unique('sync-shared');
      await other.prompts.push(shared, { manifest: chatManifest('public {role}'), isPublic: true });
      const r2 = await readRemote(c, `${otherHandle}/${shared}`);
      assert.equal(r2.target.refusal, expected);
      assert.equal(r2.repo?.repo_handle, shared);
      assert.equal(r2.latest?.commit_hash, (await commits(shared, other))[0]!.commit_hash);
      assert.deepEqual(r2.manifest, chatManifest('public {role}'));
      assert.deepEqual(r2.tags, []);
    });
  });
});
