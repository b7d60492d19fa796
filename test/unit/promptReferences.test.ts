// Prompt references in source code (src/promptReferences/finder.ts): the literals passed to LangSmith's prompt
// pulls in JavaScript, TypeScript and Python, with their offsets and parts; what is not one (comments, strings,
// interpolation, raw strings, expressions, definitions); and, fuzzed, that the finder never throws and keeps
// every offset inside the text. Then the lookups against the real local server (demo data): problems, versions,
// the cache and the batch, counted in requests. Both modules run in plain Node: this file imports them without
// VS Code.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LangSmithClient } from '../../src/client';
import { parsePromptIdentifier as clientParse } from '../../src/client/ids';
import { PromptLookup, type RunCall } from '../../src/promptReferences/lookup';
import { withLocalServer } from '../harness/localServer';
import { findPromptReferences, parsePromptIdentifier, promptKey, referenceAt, sourceLanguageOf, type PromptReference, type SourceLanguage } from '../../src/promptReferences/finder';

const found = (text: string, language: SourceLanguage) => findPromptReferences(text, language).map((r) => r.value);
/** What the reference's offsets cut out of the text: the literal and its inner text. */
const cut = (text: string, r: PromptReference) => ({ literal: text.slice(r.start, r.end), value: text.slice(r.valueStart, r.valueEnd) });

describe('prompt references: finding them', () => {
  it('maps the editor languages to the two scanners', () => {
    for (const id of ['javascript', 'javascriptreact', 'typescript', 'typescriptreact']) assert.equal(sourceLanguageOf(id), 'javascript');
    assert.equal(sourceLanguageOf('python'), 'python');
    assert.equal(sourceLanguageOf('yaml'), undefined);
  });

  it('finds the LangSmith JS client calls, hub.pull and bare wrappers in TypeScript, with their ranges', () => {
    const text = [
      'import { Client } from "langsmith";',
      'import * as hub from "langchain/hub";',
      'const client = new Client();',
      'const a = await client.pullPrompt("demo-summarizer");',
      "const b = await client.pullPromptCommit('demo-summarizer:production', { includeModel: true });",
      'const c = await hub.pull(`acme/demo-classifier:1a2b3c4d`);',
      'const d = await this.client?.pullPrompt<ChatPromptTemplate>(',
      '  /* the answerer */ "demo-rag-answer:latest",',
      ');',
      'const e = await client._pullPrompt("-/own-prompt");',
      'const f = pullPrompt("wrapped");',
    ].join('\n');
    const refs = findPromptReferences(text, 'javascript');
    assert.deepEqual(
      refs.map((r) => [r.callee, r.value]),
      [
        ['client.pullPrompt', 'demo-summarizer'],
        ['client.pullPromptCommit', 'demo-summarizer:production'],
        ['hub.pull', 'acme/demo-classifier:1a2b3c4d'],
        ['client.pullPrompt', 'demo-rag-answer:latest'],
        ['client._pullPrompt', '-/own-prompt'],
        ['pullPrompt', 'wrapped'],
      ],
    );
    for (const r of refs) {
      assert.equal(r.closed, true);
      const { literal, value } = cut(text, r);
      assert.equal(value, r.value);
      assert.equal(literal, `${literal[0]}${r.value}${literal[0]}`, 'the literal is the value in its quotes');
    }
    assert.deepEqual(refs[1]!.parts, { name: 'demo-summarizer', nameOffset: 0, ref: 'production', refOffset: 16, kind: 'tag' });
    assert.deepEqual(refs[2]!.parts, { owner: 'acme', name: 'demo-classifier', nameOffset: 5, ref: '1a2b3c4d', refOffset: 21, kind: 'commit' });
    assert.equal(refs[3]!.parts?.kind, 'latest');
  });

  it('finds the Python client calls (positional and keyword) and hub.pull', () => {
    const text = [
      'from langsmith import Client',
      'from langchain import hub',
      'client = Client()',
      'p = client.pull_prompt("demo-summarizer:staging", include_model=True)',
      "q = client.pull_prompt_commit('demo-classifier')",
      'r = hub.pull(owner_repo_commit="acme/translator:0123456789abcdef0123456789abcdef01234567")',
      's = client.pull_prompt(',
      '    prompt_identifier = u"demo-rag-answer",  # the answerer',
      ')',
      't = await aclient.pull_prompt("async-one")',
      'u = client._pull_prompt("""triple""")',
    ].join('\n');
    const refs = findPromptReferences(text, 'python');
    assert.deepEqual(
      refs.map((r) => [r.callee, r.value, r.parts?.kind]),
      [
        ['client.pull_prompt', 'demo-summarizer:staging', 'tag'],
        ['client.pull_prompt_commit', 'demo-classifier', 'latest'],
        ['hub.pull', 'acme/translator:0123456789abcdef0123456789abcdef01234567', 'commit'],
        ['client.pull_prompt', 'demo-rag-answer', 'latest'],
        ['aclient.pull_prompt', 'async-one', 'latest'],
        ['client._pull_prompt', 'triple', 'latest'],
      ],
    );
    for (const r of refs) assert.equal(cut(text, r).value, r.value);
    assert.equal(cut(text, refs[3]!).literal, 'u"demo-rag-answer"');
    assert.equal(cut(text, refs[5]!).literal, '"""triple"""');
  });

  it('takes a bare pull() only where the file imports it from LangChain’s hub', () => {
    const jsWith = 'import { pull } from "langchain/hub";\nconst p = await pull("demo-summarizer");';
    assert.deepEqual(found(jsWith, 'javascript'), ['demo-summarizer']);
    assert.deepEqual(found('const p = await pull("demo-summarizer");\nconst q = git.pull("origin");', 'javascript'), []);
    assert.deepEqual(found('from langchain.hub import pull\np = pull("demo-summarizer")', 'python'), ['demo-summarizer']);
    assert.deepEqual(found('p = pull("demo-summarizer")\nrepo.pull("main")', 'python'), []);
  });

  it('skips comments, strings, docstrings and template text', () => {
    const js = [
      '// client.pullPrompt("line-comment")',
      '/* client.pullPrompt("block-comment") */',
      'const s = "client.pullPrompt(\'in-a-string\')";',
      "const t = 'it\\'s client.pullPrompt(\"escaped-quote\")';",
      'const u = `client.pullPrompt("in-template") ${client.pullPrompt("in-substitution")} after`;',
      'const r = /client.pullPrompt("in-regex")/g;',
      'const real = client.pullPrompt("real");',
    ].join('\n');
    assert.deepEqual(found(js, 'javascript'), ['in-substitution', 'real']);
    const py = [
      '# client.pull_prompt("comment")',
      '"""',
      'client.pull_prompt("docstring")',
      '"""',
      "s = 'client.pull_prompt(\"in-a-string\")'",
      'f = f"{client.pull_prompt}("not-a-call")"',
      'real = client.pull_prompt("real")',
    ].join('\n');
    assert.deepEqual(found(py, 'python'), ['real']);
  });

  it('takes only plain literals that are the whole first argument', () => {
    const js = [
      'client.pullPrompt(`tpl-${name}`);',
      'client.pullPrompt("a\\u0062c");',
      'client.pullPrompt("prefix-" + name);',
      'client.pullPrompt(name);',
      'client.pullPrompt(name, "not-first");',
      'async function pullPrompt(id) {}',
      'const { pullPrompt } = client; pullPrompt ("spaced")',
      'const o = { pullPrompt: "not-a-call" };',
    ].join('\n');
    assert.deepEqual(found(js, 'javascript'), ['spaced']);
    const py = [
      'client.pull_prompt(r"raw")',
      'client.pull_prompt(b"bytes")',
      'client.pull_prompt(f"{name}")',
      'client.pull_prompt(rb"both")',
      'client.pull_prompt("a" "b")',
      'client.pull_prompt("esc\\x61ped")',
      'def pull_prompt(prompt_identifier="default-name"):',
      'client.pull_prompt(other_keyword="x")',
      'client.pull_prompt(prompt_identifier == "x")',
    ].join('\n');
    assert.deepEqual(found(py, 'python'), []);
  });

  it('keeps a literal being typed (no closing quote yet) as open, to complete inside it', () => {
    const text = 'const a = client.pullPrompt("demo-sum\nconst b = 1;';
    const [r] = findPromptReferences(text, 'javascript');
    assert.ok(r);
    assert.equal(r.closed, false);
    assert.equal(r.value, 'demo-sum');
    assert.equal(text.slice(r.start, r.end), '"demo-sum');
    assert.equal(referenceAt([r], r.valueEnd), r, 'the end of what was typed is inside');
    assert.equal(referenceAt([r], r.start), undefined, 'before the quote is outside');
    const [p] = findPromptReferences('x = client.pull_prompt("demo-summarizer:', 'python');
    assert.equal(p?.value, 'demo-summarizer:');
    assert.equal(p?.parts, undefined, 'not an identifier yet');
  });

  it('flags text that is no prompt identifier by leaving its parts out', () => {
    const refs = findPromptReferences(['client.pullPrompt("a/b/c");', 'client.pullPrompt("");', 'client.pullPrompt("has space");', 'client.pullPrompt("x:y:z");', 'client.pullPrompt("ok:v1");'].join('\n'), 'javascript');
    assert.deepEqual(
      refs.map((r) => [r.value, r.parts !== undefined]),
      [
        ['a/b/c', false],
        ['', false],
        ['has space', false],
        ['x:y:z', false],
        ['ok:v1', true],
      ],
    );
  });

  it('reads JSX and regular expressions without losing its place', () => {
    const tsx = [
      'export const View = () => <p>It’s the summarizer\'s page</p>;',
      'const half = total / 2; const re = /["\']/;',
      'const p = client.pullPrompt("after-jsx");',
    ].join('\n');
    assert.deepEqual(found(tsx, 'javascript'), ['after-jsx']);
  });
});

describe('prompt references: identifiers', () => {
  it('splits names, owners, tags and commits', () => {
    assert.deepEqual(parsePromptIdentifier('name'), { name: 'name', nameOffset: 0, kind: 'latest' });
    assert.deepEqual(parsePromptIdentifier('owner/name:v2'), { owner: 'owner', name: 'name', nameOffset: 6, ref: 'v2', refOffset: 11, kind: 'tag' });
    assert.equal(parsePromptIdentifier('name:latest')?.kind, 'latest');
    assert.equal(parsePromptIdentifier('name:abcdef01')?.kind, 'commit');
    assert.equal(parsePromptIdentifier('name:abcdef0')?.kind, 'tag', 'seven hex characters are a tag name');
    assert.equal(parsePromptIdentifier('name:ABCDEF0123')?.kind, 'commit');
    for (const bad of ['', '/name', 'owner/', 'a/b/c', 'name:', 'x:y:z', ' name', 'na me', '-', 'owner/-']) assert.equal(parsePromptIdentifier(bad), undefined, bad);
    assert.equal(promptKey(parsePromptIdentifier('-/mine:v1')!), 'mine');
    assert.equal(promptKey(parsePromptIdentifier('acme/theirs')!), 'acme/theirs');
  });

  it('agrees with the API client on every identifier it accepts', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 40 }), fc.stringMatching(/^([a-z0-9-]{1,8}\/)?[a-z0-9_.-]{1,12}(:[a-z0-9.-]{1,12})?$/)), (s) => {
        const mine = parsePromptIdentifier(s);
        if (!mine) return;
        const theirs = clientParse(s);
        assert.equal(theirs.repo, mine.name);
        assert.equal(theirs.owner, mine.owner ?? '-');
        assert.equal(theirs.commit, mine.ref ?? 'latest');
      }),
      { numRuns: 2000 },
    );
  });
});

describe('prompt references: robustness', () => {
  const pieces = [
    'client.pullPrompt(', 'hub.pull(', 'pull_prompt(', 'prompt_identifier=', '"', "'", '`', '"""', '${', '}', '{', ')', '(', '/', '//', '/*', '*/', '#',
    '\\', '\n', ' ', 'r"', 'f"', 'u"', 'demo', ':', 'tag', '/', 'abcdef0123', '<T>', '<', ',', 'import { pull } from "langchain/hub";', 'from langchain.hub import pull\n', 'pull(',
  ];
  const sourceText = fc.oneof(fc.string({ maxLength: 300 }), fc.array(fc.constantFrom(...pieces), { maxLength: 80 }).map((a) => a.join('')));

  it('never throws, and every range is inside the text and holds what it says', () => {
    fc.assert(
      fc.property(sourceText, fc.constantFrom<SourceLanguage>('javascript', 'python'), (text, language) => {
        const refs = findPromptReferences(text, language);
        let last = -1;
        for (const r of refs) {
          assert.ok(0 <= r.start && r.start <= r.valueStart && r.valueStart <= r.valueEnd && r.valueEnd <= r.end && r.end <= text.length, JSON.stringify(r));
          assert.equal(text.slice(r.valueStart, r.valueEnd), r.value);
          assert.ok(r.start > last, 'in order, no overlaps');
          last = r.valueEnd;
          if (r.parts) assert.equal(r.value.slice(r.parts.nameOffset, r.parts.nameOffset + r.parts.name.length), r.parts.name);
          if (r.parts?.ref !== undefined) assert.equal(r.value.slice(r.parts.refOffset), r.parts.ref);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('stays linear on hostile text (long unclosed strings, deep templates, many calls)', () => {
    const inputs = [
      '`${'.repeat(20_000),
      'client.pullPrompt("'.repeat(20_000),
      `client.pullPrompt(${'/*'.repeat(20_000)}`,
      '"""'.repeat(10_001),
      `client.pullPrompt<${'<'.repeat(50_000)}`,
      'client.pullPrompt("x");\n'.repeat(5000),
    ];
    for (const text of inputs) {
      for (const language of ['javascript', 'python'] as const) {
        const t0 = performance.now();
        const refs = findPromptReferences(text, language);
        const took = performance.now() - t0;
        assert.ok(took < 500, `${took.toFixed(0)} ms for ${JSON.stringify(text.slice(0, 30))}… in ${language}`);
        assert.ok(refs.length <= 2000, 'the count is bounded');
      }
    }
  });
});

describe('prompt references: lookups against the local server', function () {
  this.timeout(30_000);
  const srv = withLocalServer({ seed: 'demo' });
  let requests: string[];
  let client: LangSmithClient;
  let now: number;
  const run: RunCall = (work) => work(client);
  const lookup = (o: { ttlMs?: number; commitPage?: number } = {}) => new PromptLookup(run, { now: () => now, ...o });
  const parts = (s: string) => {
    const p = parsePromptIdentifier(s);
    assert.ok(p, s);
    return p;
  };

  beforeEach(() => {
    requests = [];
    now = 1_000_000;
    const f = ((input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      requests.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      return fetch(input, init);
    }) as typeof fetch;
    client = new LangSmithClient({ apiUrl: srv().url, apiKey: srv().apiKey, fetch: f });
  });

  it('finds nothing wrong with existing prompts, tags and commits, and names what is missing', async () => {
    const l = lookup();
    const hash = (await client.prompts.pull('demo-summarizer:production')).commit_hash;
    const problems = await l.check(
      ['demo-summarizer', 'demo-summarizer:production', `demo-summarizer:${hash.slice(0, 8)}`, 'demo-classifier:latest', 'no-such-prompt', 'demo-summarizer:nope', 'demo-summarizer:0000000000', 'demo-old-greeting', 'other/translator', 'other/internal-notes'].map(parts),
    );
    assert.deepEqual(problems, [
      null,
      null,
      null,
      null,
      { kind: 'missingPrompt', key: 'no-such-prompt' },
      { kind: 'missingTag', key: 'demo-summarizer', tag: 'nope', tags: ['production', 'staging'] },
      { kind: 'missingCommit', key: 'demo-summarizer', commit: '0000000000' },
      null, // archived, still there: asked on its own
      null, // another workspace's public prompt
      { kind: 'missingPrompt', key: 'other/internal-notes' }, // private to the other workspace
    ]);
  });

  it('checks many own names with one listing, and answers again from the cache until it expires', async () => {
    const l = lookup({ ttlMs: 60_000 });
    const names = ['demo-summarizer', 'demo-classifier', 'demo-rag-answer', 'demo-summarizer:latest'];
    assert.deepEqual(await l.check(names.map(parts)), [null, null, null, null]);
    assert.deepEqual(requests, ['GET /repos'], 'one request for four references');
    await l.check(names.map(parts));
    assert.equal(requests.length, 1, 'cached');
    now += 61_000;
    await l.check(names.map(parts));
    assert.deepEqual(requests, ['GET /repos', 'GET /repos'], 'asked again after the time to live');
    await l.check([parts('demo-summarizer:production'), parts('demo-summarizer:staging')]);
    assert.equal(requests.filter((r) => r.endsWith('/tags')).length, 1, 'one tag list for two tags of a prompt');
  });

  it('reads the version a reference pulls: messages, commit, tags and time', async () => {
    const l = lookup();
    const production = await l.version(parts('demo-summarizer:production'));
    assert.ok('version' in production, JSON.stringify(production));
    const v = production.version;
    assert.deepEqual(v.tags, ['production']);
    assert.equal(v.latest, false, 'production is a commit behind');
    assert.match(JSON.stringify(v.manifest), /in \{max_words\} words\./);
    assert.doesNotMatch(JSON.stringify(v.manifest), /Keep product names/);
    assert.ok(v.createdAt && !Number.isNaN(Date.parse(v.createdAt)));
    assert.equal(v.description, 'Summarizes support tickets.');
    const latest = await l.version(parts('demo-summarizer'));
    assert.ok('version' in latest);
    assert.deepEqual(latest.version.tags, ['staging']);
    assert.equal(latest.version.latest, true);
    const byCommit = await l.version(parts(`demo-summarizer:${v.commitHash.slice(0, 10)}`));
    assert.ok('version' in byCommit);
    assert.equal(byCommit.version.commitHash, v.commitHash);
    assert.deepEqual(await l.version(parts('demo-summarizer:nope')), { problem: { kind: 'missingTag', key: 'demo-summarizer', tag: 'nope', tags: ['production', 'staging'] } });
    assert.deepEqual(await l.version(parts('no-such-prompt')), { problem: { kind: 'missingPrompt', key: 'no-such-prompt' } });
  });

  it('reads a commit older than the page it keeps on its own', async () => {
    const l = lookup({ commitPage: 1 });
    const first = (await client.prompts.listCommits('demo-summarizer').next()) as { value: { commit_hash: string } };
    const all: string[] = [];
    for await (const c of client.prompts.listCommits('demo-summarizer')) all.push(c.commit_hash);
    const oldest = all[all.length - 1]!;
    assert.notEqual(oldest, first.value.commit_hash);
    const answer = await l.version(parts(`demo-summarizer:${oldest.slice(0, 8)}`));
    assert.ok('version' in answer);
    assert.equal(answer.version.commitHash, oldest);
    assert.match(JSON.stringify(answer.version.manifest), /You summarize support tickets\./);
  });

  it('forgets a prompt on invalidate, and fails (to show nothing) when the server cannot be reached', async () => {
    const l = lookup();
    await l.check([parts('demo-summarizer:production')]);
    const before = requests.length;
    l.invalidate('demo-summarizer');
    await l.check([parts('demo-summarizer:production')]);
    assert.equal(requests.length, before + 2, 'the listing and the tags, asked again');
    const offline = new PromptLookup(() => Promise.reject(new TypeError('fetch failed')));
    await assert.rejects(offline.check([parts('demo-summarizer')]), /fetch failed/);
  });
});
