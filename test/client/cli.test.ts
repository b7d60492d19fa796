// The command line against the real local server, run as CI runs it: dist/cli.js built by esbuild, started as
// a `node` child process in a folder of prompt files, with the connection in its environment (and once in
// process, to answer apply's question on a "terminal"). Every output of every run is kept and checked at the end
// for the API keys.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { collect } from '../../src/client';
import { chatPromptManifest } from '../../src/client/templates';
import type { Io } from '../../src/cli/io';
import { run } from '../../src/cli/main';
import { rawRequest } from '../harness/http';
import { withLocalServer } from '../harness/localServer';
import { clientFor, otherClientFor, unique } from './_server';

const root = path.resolve(__dirname, '../..');
const BAD_KEY = 'lsv2_pt_cli_test_not_a_real_key_7f3a9c';

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function demoFile(name: string, system = 'You summarize support tickets in {max_words} words. Keep product names.'): string {
  return [
    `prompt: ${name}`,
    'description: Summarizes support tickets.',
    'visibility: private',
    'tags:',
    '  - support',
    'template_format: f-string',
    'input_variables:',
    '  - max_words',
    '  - ticket',
    'messages:',
    '  - role: system',
    `    template: ${JSON.stringify(system)}`,
    '  - role: human',
    '    template: |-',
    '      Ticket:',
    '      {ticket}',
    '',
  ].join('\n');
}

describe('command line (dist/cli.js as a child process)', function () {
  this.timeout(120_000);
  const srv = withLocalServer();
  let buildDir: string;
  let work: string;
  const outputs: string[] = [];

  before(() => {
    buildDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-cli-build-'));
    execFileSync(process.execPath, ['esbuild.mjs', '--only=cli', `--out=${buildDir}`], { cwd: root, stdio: 'pipe' });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-cli-work-'));
  });
  after(() => {
    fs.rmSync(buildDir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  /**
   * Runs the command line in `cwd`; the connection from the environment unless `env` replaces it. No profiles file
   * unless `env` names one (never the machine's own ~/.langsmith/config.json).
   */
  function cli(args: string[], o: { cwd: string; env?: Record<string, string | undefined>; input?: string }): Promise<Result> {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env['PATH'] ?? '',
      LANGSMITH_ENDPOINT: srv().url,
      LANGSMITH_API_KEY: srv().apiKey,
      LANGSMITH_CONFIG_FILE: path.join(work, 'no-such-config.json'),
      ...o.env,
    };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(buildDir, 'cli.js'), ...args], { cwd: o.cwd, env, stdio: [o.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        outputs.push(stdout, stderr);
        resolve({ code, stdout, stderr });
      });
      if (o.input !== undefined) child.stdin!.end(o.input);
    });
  }

  function folder(files: Record<string, string>): string {
    const dir = fs.mkdtempSync(path.join(work, 'case-'));
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    return dir;
  }

  const expectCode = (r: Result, code: number) => assert.equal(r.code, code, `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);

  it('plan → apply → plan: exit 2, then the prompts exist with the links printed, then exit 0', async () => {
    const a = unique('cli-summarizer');
    const b = unique('cli-greeter');
    const dir = folder({
      [`prompts/${a}.prompt.yaml`]: demoFile(a),
      [`prompts/more/${b}.prompt.yaml`]: ['prompt: ' + b, 'template_format: mustache', 'messages:', '  - role: system', '    template: Hello {{name}}.', ''].join('\n'),
      // Never searched: a dependency's files.
      'node_modules/pkg/ignored.prompt.yaml': 'prompt: [not valid',
    });
    const first = await cli(['prompts', 'plan'], { cwd: dir });
    expectCode(first, 2);
    assert.match(first.stdout, new RegExp(`prompts/${a}\\.prompt\\.yaml → ${a}\\n  \\+ create the prompt \\(private; description “Summarizes support tickets\\.”; tags support\\)\\n  \\+ first commit:`));
    assert.match(first.stdout, /Message 2 \(human\): added\n {8}\+ role: human\n {8}\+ Ticket:\n {8}\+ \{ticket\}/);
    assert.match(first.stdout, /Plan: 2 to create, 0 to change, 0 unchanged\.\n$/);

    const applied = await cli(['prompts', 'apply', '--yes', '-m', 'From CI'], { cwd: dir });
    expectCode(applied, 0);
    const client = clientFor(srv());
    for (const name of [a, b]) {
      const [commit] = await collect(client.prompts.listCommits(name, { limit: 1 }));
      assert.ok(commit, `${name} has a commit`);
      assert.ok(applied.stdout.includes(`/prompts/${name}/${commit.commit_hash.slice(0, 8)}?organizationId=`), `the link of ${name}'s commit:\n${applied.stdout}`);
      assert.equal((commit as { description?: string }).description, 'From CI');
    }
    assert.equal((await client.prompts.get(a))?.description, 'Summarizes support tickets.');
    assert.match(applied.stdout, /Applied 2 of 2\./);

    const again = await cli(['prompts', 'plan'], { cwd: dir });
    expectCode(again, 0);
    assert.match(again.stdout, new RegExp(`${a}: no changes`));
    const noop = await cli(['prompts', 'apply', '--yes'], { cwd: dir });
    expectCode(noop, 0);
    assert.match(noop.stdout, /Nothing to apply\./);
    assert.equal((await collect(client.prompts.listCommits(a))).length, 1, 'a second apply commits nothing');
  });

  it('plan shows a changed message line by line and attribute updates, as text and as JSON', async () => {
    const name = unique('cli-change');
    const dir = folder({ [`${name}.prompt.yaml`]: demoFile(name) });
    expectCode(await cli(['prompts', 'apply', '--yes'], { cwd: dir }), 0);
    fs.writeFileSync(path.join(dir, `${name}.prompt.yaml`), demoFile(name, 'You summarize tickets in at most {max_words} words.').replace('  - support', '  - support\n  - triage'));
    const text = await cli(['prompts', 'plan', '.'], { cwd: dir });
    expectCode(text, 2);
    assert.match(text.stdout, /~ update tags: “support” → “support, triage”/);
    assert.match(text.stdout, /Message 1 \(system\): changed\n {10}role: system\n {8}- You summarize support tickets in \{max_words\} words\. Keep product names\.\n {8}\+ You summarize tickets in at most \{max_words\} words\./);
    const json = await cli(['prompts', 'plan', '--json'], { cwd: dir });
    expectCode(json, 2);
    const plan = JSON.parse(json.stdout) as { files: { action: string; attributes: { name: string }[]; commit: { changes: { section: string; kind: string }[] } }[]; summary: { update: number } };
    assert.equal(plan.files[0]!.action, 'update');
    assert.deepEqual(plan.files[0]!.attributes.map((x) => x.name), ['tags']);
    assert.deepEqual(plan.files[0]!.commit.changes.map((c) => `${c.section} ${c.kind}`), ['Message 1 (system) changed']);
    assert.equal(plan.summary.update, 1);
  });

  it('moves a tag with each apply (twice) and adds one to an unchanged prompt, without a conflict', async () => {
    const name = unique('cli-tags');
    const dir = folder({ [`${name}.prompt.yaml`]: demoFile(name) });
    const client = clientFor(srv());
    const stagingAt = async () => (await client.prompts.listTags(name)).find((t) => t.tag_name === 'staging')?.commit_hash;
    const latest = async () => (await collect(client.prompts.listCommits(name, { limit: 1 })))[0]!.commit_hash;

    expectCode(await cli(['prompts', 'apply', '--yes', '--tag', 'staging'], { cwd: dir }), 0);
    const first = await latest();
    assert.equal(await stagingAt(), first);
    for (const text of ['Second version {max_words} {ticket}', 'Third version {max_words} {ticket}']) {
      fs.writeFileSync(path.join(dir, `${name}.prompt.yaml`), demoFile(name, text));
      const plan = await cli(['prompts', 'plan', '--tag', 'staging'], { cwd: dir });
      expectCode(plan, 2);
      assert.match(plan.stdout, /~ move tag staging to the new commit/);
      const r = await cli(['prompts', 'apply', '--yes', '--tag', 'staging'], { cwd: dir });
      expectCode(r, 0);
      assert.match(r.stdout, /tagged staging/);
      assert.equal(await stagingAt(), await latest(), 'staging moved to the new commit');
    }
    assert.notEqual(await stagingAt(), first);
    assert.equal((await collect(client.prompts.listCommits(name))).length, 3);

    // Unchanged content, a new tag: added on the latest commit; then nothing to do for either tag.
    const plan = await cli(['prompts', 'plan', '--tag', 'staging', '--tag', 'production'], { cwd: dir });
    expectCode(plan, 2);
    assert.match(plan.stdout, new RegExp(`\\+ tag production on ${(await latest()).slice(0, 8)}`));
    assert.doesNotMatch(plan.stdout, /staging/);
    expectCode(await cli(['prompts', 'apply', '--yes', '--tag', 'staging', '--tag', 'production'], { cwd: dir }), 0);
    assert.equal((await client.prompts.listTags(name)).find((t) => t.tag_name === 'production')?.commit_hash, await latest());
    expectCode(await cli(['prompts', 'plan', '--tag', 'staging', '--tag', 'production'], { cwd: dir }), 0);
  });

  /** The requests a command line run made, counted by the server (GET /__local/stats before and after). */
  async function counted(args: string[], cwd: string, code: number): Promise<{ made: number; r: Result }> {
    const stats = async () => ((await rawRequest(srv(), 'GET', '/__local/stats')).body as { requests: number }).requests;
    const before = await stats();
    const r = await cli(args, { cwd });
    // The first stats request is counted once it has answered, so it is in the second count.
    const made = (await stats()) - before - 1;
    expectCode(r, code);
    return { made, r };
  }

  it('apply makes at most 3 requests per changed file beyond its plan, and none for an unchanged one', async () => {
    // Seven prompts: enough for the plan to list them with their manifests rather than read them one by one.
    const names = Array.from({ length: 7 }, (_, i) => unique(`cli-count${i}`));
    const dir = folder(Object.fromEntries(names.map((n) => [`${n}.prompt.yaml`, demoFile(n)])));
    const tag = ['--tag', 'staging'];
    await counted(['prompts', 'apply', '--yes', ...tag], dir, 0);

    const changed = names.slice(0, 2);
    for (const n of changed) fs.writeFileSync(path.join(dir, `${n}.prompt.yaml`), demoFile(n, `Changed: {max_words} words for ${n}.`));
    const plan = await counted(['prompts', 'plan', ...tag], dir, 2);
    const apply = await counted(['prompts', 'apply', '--yes', ...tag], dir, 0);
    assert.match(apply.r.stdout, /Applied 2 of 2\./);
    const perChanged = (apply.made - plan.made) / changed.length;
    assert.ok(perChanged <= 3, `${perChanged} requests per changed file beyond the plan's ${plan.made} (apply made ${apply.made})`);
    const client = clientFor(srv());
    for (const n of changed) {
      const [latest] = await collect(client.prompts.listCommits(n, { limit: 1 }));
      assert.equal((await client.prompts.listTags(n)).find((t) => t.tag_name === 'staging')?.commit_hash, latest!.commit_hash, `staging on ${n}'s new commit`);
    }

    // Nothing changed: apply reads what its plan reads and nothing more; the tag costs one read per prompt.
    const untaggedPlan = await counted(['prompts', 'plan'], dir, 0);
    const untagged = await counted(['prompts', 'apply', '--yes'], dir, 0);
    assert.match(untagged.r.stdout, /Nothing to apply\./);
    assert.equal(untagged.made, untaggedPlan.made);
    const taggedPlan = await counted(['prompts', 'plan', ...tag], dir, 0);
    const tagged = await counted(['prompts', 'apply', '--yes', ...tag], dir, 0);
    assert.equal(tagged.made, taggedPlan.made);
    const perUnchanged = (tagged.made - untagged.made) / names.length;
    assert.ok(perUnchanged <= 1, `${perUnchanged} requests per unchanged file for the tag`);
  });

  it('in process: a commit made while apply asks is caught, that file is not applied, exit 1', async () => {
    const name = unique('cli-race');
    const dir = folder({ [`${name}.prompt.yaml`]: demoFile(name) });
    expectCode(await cli(['prompts', 'apply', '--yes', '--tag', 'staging'], { cwd: dir }), 0);
    const client = clientFor(srv());
    const latest = async () => (await collect(client.prompts.listCommits(name, { limit: 1 })))[0]!.commit_hash;
    const planned = await latest();
    fs.writeFileSync(path.join(dir, `${name}.prompt.yaml`), demoFile(name, 'Mine: {max_words} words.').replace('Summarizes', 'Now summarizes'));

    let out = '';
    let err = '';
    let theirs = '';
    const io: Io = {
      out: (t) => (out += t),
      err: (t) => (err += t),
      interactive: true,
      readStdin: async () => '',
      // Someone commits while the question waits, after the plan was read and printed.
      ask: async (question) => {
        out += question;
        theirs = (await client.prompts.createCommit(name, chatPromptManifest([{ role: 'system', template: 'Theirs: {x}' }]))).commit_hash;
        return 'y';
      },
      cwd: dir,
      env: { LANGSMITH_ENDPOINT: srv().url, LANGSMITH_API_KEY: srv().apiKey, LANGSMITH_CONFIG_FILE: path.join(work, 'no-such-config.json') },
    };
    const code = await run(['prompts', 'apply', '--tag', 'staging'], io);
    outputs.push(out, err);
    assert.equal(code, 1, `stdout:\n${out}\nstderr:\n${err}`);
    assert.match(out, new RegExp(`\\+ commit on ${planned.slice(0, 8)}:`));
    assert.match(err, new RegExp(`${name}: changed on LangSmith since the plan \\(latest commit now ${theirs.slice(0, 8)}\\): nothing applied`));
    assert.match(out, /Applied 0 of 1\./);
    assert.equal(await latest(), theirs);
    assert.equal((await collect(client.prompts.listCommits(name))).length, 2);
    assert.equal((await client.prompts.listTags(name)).find((t) => t.tag_name === 'staging')?.commit_hash, planned);
    assert.equal((await client.prompts.get(name))?.description, 'Summarizes support tickets.');
  });

  it('describes a commit with the subject of the current git commit when no --message is given', async function () {
    try {
      execFileSync('git', ['--version'], { stdio: 'ignore' });
    } catch {
      this.skip();
    }
    const name = unique('cli-git');
    const dir = folder({ [`${name}.prompt.yaml`]: demoFile(name) });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=CI', '-c', 'user.email=ci@example.com', ...args], { cwd: dir, stdio: 'pipe' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'Tighten the summarizer prompt');
    expectCode(await cli(['prompts', 'apply', '--yes'], { cwd: dir }), 0);
    const [commit] = await collect(clientFor(srv()).prompts.listCommits(name, { limit: 1 }));
    assert.equal((commit as { description?: string }).description, 'Tighten the summarizer prompt');
  });

  it('apply refuses to run unasked when standard input is not a terminal', async () => {
    const name = unique('cli-unasked');
    const dir = folder({ [`${name}.prompt.yaml`]: demoFile(name) });
    const r = await cli(['prompts', 'apply'], { cwd: dir });
    expectCode(r, 1);
    assert.match(r.stderr, /not a terminal, so nothing was applied.*--yes/);
    assert.equal(await clientFor(srv()).prompts.get(name), null);
  });

  it('validate: file:line:column lines or GitHub annotations, exit 1 on an error and 0 with warnings only', async () => {
    const dir = folder({
      'bad.prompt.yaml': ['prompt: bad-one', 'messages:', '  - role: system', '    template: "{unclosed"', ''].join('\n'),
      'warn.prompt.yaml': ['prompt: warn-one', 'input_variables: [a]', 'messages:', '  - role: human', '    template: "{a} {b}"', ''].join('\n'),
      'broken.prompt.json': '{"lc": 1,',
    });
    const text = await cli(['prompts', 'validate'], { cwd: dir });
    expectCode(text, 1);
    assert.match(text.stdout, /^bad\.prompt\.yaml:4:16: error: Unclosed '\{' in template\.$/m);
    assert.match(text.stdout, /^warn\.prompt\.yaml:5:21: warning: The variable “b” is used in messages\[1\] \(human\) but not declared in input_variables\.$/m);
    assert.match(text.stdout, /^broken\.prompt\.json:1:\d+: error: Not valid JSON/m);
    assert.match(text.stdout, /3 prompt files: 2 errors, 1 other problem\./);
    const gh = await cli(['prompts', 'validate', '--format', 'github', 'bad.prompt.yaml', 'warn.prompt.yaml'], { cwd: dir });
    expectCode(gh, 1);
    assert.match(gh.stdout, /^::error file=bad\.prompt\.yaml,line=4,col=16,title=prompt file error::Unclosed '\{' in template\.$/m);
    assert.match(gh.stdout, /^::warning file=warn\.prompt\.yaml,line=5,col=21,title=prompt file warning::The variable “b” is used/m);
    assert.doesNotMatch(gh.stdout, /prompt files:/, 'standard output holds annotations only');
    const ok = await cli(['prompts', 'validate', 'warn.prompt.yaml'], { cwd: dir });
    expectCode(ok, 0);
    expectCode(await cli(['prompts', 'validate', '--format', 'xml'], { cwd: dir }), 1);
  });

  it('pull writes the prompt file as the editor does and keeps an existing one; diff shows the difference', async () => {
    const name = unique('cli-pull');
    const source = folder({ [`${name}.prompt.yaml`]: demoFile(name) });
    expectCode(await cli(['prompts', 'apply', '--yes', '--tag', 'staging'], { cwd: source }), 0);
    const dir = folder({});

    const pulled = await cli(['prompts', 'pull', `${name}:staging`], { cwd: dir });
    expectCode(pulled, 0);
    const file = path.join(dir, `${name}.prompt.yaml`);
    const text = fs.readFileSync(file, 'utf8');
    assert.match(text, /^# A LangSmith prompt file/);
    assert.match(text, new RegExp(`^prompt: ${name}$`, 'm'));
    assert.match(text, /template: You summarize support tickets in \{max_words\} words\. Keep product names\./);
    expectCode(await cli(['prompts', 'diff', `${name}.prompt.yaml`], { cwd: dir }), 0);

    fs.writeFileSync(file, text.replace('Keep product names.', 'Keep product names and versions.'));
    const refused = await cli(['prompts', 'pull', name], { cwd: dir });
    expectCode(refused, 1);
    assert.match(refused.stderr, /exists and differs .*not overwritten\. Pass --force/);
    const d = await cli(['prompts', 'diff', `${name}.prompt.yaml`, '--ref', 'staging'], { cwd: dir });
    expectCode(d, 2);
    assert.match(d.stdout, new RegExp(`^--- ${name} @ staging [0-9a-f]{8}\\n\\+\\+\\+ ${name}\\.prompt\\.yaml\\n@@ `, 'm'));
    assert.match(d.stdout, /^- {4}template: You summarize support tickets in \{max_words\} words\. Keep product names\.$/m);
    assert.match(d.stdout, /^\+ {4}template: You summarize support tickets in \{max_words\} words\. Keep product names and versions\.$/m);

    const forced = await cli(['prompts', 'pull', name, '--out', '.', '--force'], { cwd: dir });
    expectCode(forced, 0);
    expectCode(await cli(['prompts', 'diff', `${name}.prompt.yaml`], { cwd: dir }), 0);

    const missing = await cli(['prompts', 'diff', `${name}.prompt.yaml`, '--ref', 'nosuchtag'], { cwd: dir });
    expectCode(missing, 1);
    assert.match(missing.stderr, new RegExp(`The prompt “${name}” has no commit or tag “nosuchtag”\\.`));
  });

  describe('errors', () => {
    it('a missing key, a refused key, an unreachable endpoint', async () => {
      const dir = folder({ 'x.prompt.yaml': demoFile(unique('cli-conn')) });
      const none = await cli(['prompts', 'plan'], { cwd: dir, env: { LANGSMITH_API_KEY: undefined } });
      expectCode(none, 1);
      assert.ok(
        none.stderr.includes(
          `No API key for ${srv().url}: set LANGSMITH_API_KEY (or LANGCHAIN_API_KEY), or pipe the key into --api-key-stdin, or use a profile of the LangSmith CLI (there is no ${path.join(work, 'no-such-config.json')}).`,
        ),
        none.stderr,
      );

      const refused = await cli(['prompts', 'plan'], { cwd: dir, env: { LANGSMITH_API_KEY: BAD_KEY } });
      expectCode(refused, 1);
      assert.match(refused.stderr, /LangSmith at http:\/\/127\.0\.0\.1:\d+ refused the API key \(401/);
      const refusedStdin = await cli(['prompts', 'plan', '--api-key-stdin'], { cwd: dir, env: { LANGSMITH_API_KEY: undefined }, input: `${BAD_KEY}\n` });
      expectCode(refusedStdin, 1);
      assert.match(refusedStdin.stderr, /refused the API key/);

      const unreachable = await cli(['prompts', 'plan', '--endpoint', 'http://127.0.0.1:9', '--max-retries', '0'], { cwd: dir });
      expectCode(unreachable, 1);
      assert.match(unreachable.stderr, /Cannot reach LangSmith at http:\/\/127\.0\.0\.1:9: .*ECONNREFUSED/);

      const flag = await cli(['prompts', 'plan', '--api-key', BAD_KEY], { cwd: dir });
      expectCode(flag, 1);
      assert.match(flag.stderr, /There is no --api-key option/);
    });

    it('the key from standard input works', async () => {
      const name = unique('cli-stdin');
      const dir = folder({ [`${name}.prompt.yaml`]: demoFile(name) });
      const r = await cli(['prompts', 'plan', '--api-key-stdin'], { cwd: dir, env: { LANGSMITH_API_KEY: undefined }, input: `${srv().apiKey}\n` });
      expectCode(r, 2);
      assert.match(r.stdout, /create the prompt/);
    });

    it('a file that does not parse: plan names file:line:column and exits 1; apply writes nothing', async () => {
      const good = unique('cli-good');
      const dir = folder({ [`${good}.prompt.yaml`]: demoFile(good), 'broken.prompt.yaml': 'prompt: broken\nmessages:\n  - role: system\n    template: [unclosed\n' });
      const plan = await cli(['prompts', 'plan'], { cwd: dir });
      expectCode(plan, 1);
      assert.match(plan.stderr, /^broken\.prompt\.yaml:\d+:\d+: error: /m);
      assert.match(plan.stdout, /1 to create.*1 error/);
      const apply = await cli(['prompts', 'apply', '--yes'], { cwd: dir });
      expectCode(apply, 1);
      assert.match(apply.stderr, /Nothing applied: fix the errors above first\./);
      assert.equal(await clientFor(srv()).prompts.get(good), null);
    });

    it('another workspace’s prompt: apply refuses with the tenant message', async () => {
      const dir = folder({ 'theirs.prompt.yaml': demoFile('other/their-prompt') });
      const r = await cli(['prompts', 'apply', '--yes'], { cwd: dir });
      expectCode(r, 1);
      assert.ok(r.stderr.includes('Cannot create a commit for another tenant.\n  Current tenant: local\n  Requested tenant: other'), r.stderr);
    });

    it('a tag name LangSmith reserves, two files for one prompt, a folder without prompt files', async () => {
      const name = unique('cli-reserved');
      const dir = folder({ [`a/${name}.prompt.yaml`]: demoFile(name), [`b/${name}.prompt.yaml`]: demoFile(name), 'empty/readme.md': '# nothing' });
      for (const tag of ['latest', 'deadbeef01']) {
        const r = await cli(['prompts', 'apply', '--yes', '--tag', tag], { cwd: dir });
        expectCode(r, 1);
        assert.match(r.stderr, new RegExp(`--tag ${tag}: “${tag}” would be read as a commit reference; choose another name\\. LangSmith reserves “latest”`));
      }
      const twice = await cli(['prompts', 'plan'], { cwd: dir });
      expectCode(twice, 1);
      assert.match(twice.stderr, new RegExp(`b/${name}\\.prompt\\.yaml:1:1: error: a/${name}\\.prompt\\.yaml names the prompt “${name}” too; one file per prompt\\.`));
      const empty = await cli(['prompts', 'plan', 'empty'], { cwd: dir });
      expectCode(empty, 1);
      assert.match(empty.stderr, /No prompt files in empty \(looked for \*\.prompt\.yaml/);
    });

    it('--help on every command and subcommand', async () => {
      const dir = folder({});
      for (const args of [['--help'], ['prompts', '--help'], ...['plan', 'apply', 'validate', 'pull', 'diff'].map((s) => ['prompts', s, '--help'])]) {
        const r = await cli(args, { cwd: dir, env: { LANGSMITH_API_KEY: undefined } });
        expectCode(r, 0);
        assert.match(r.stdout, /^Usage: langsmith-workbench /);
      }
      const unknown = await cli(['prompts', 'frobnicate'], { cwd: dir });
      expectCode(unknown, 1);
      assert.match(unknown.stderr, /Unknown subcommand “prompts frobnicate”/);
    });
  });

  describe('profiles of the LangSmith CLI (no LANGSMITH_API_KEY)', () => {
    let n = 0;
    /** A profiles file with `config`; its path. */
    const profilesFile = (config: unknown): string => {
      const file = path.join(work, `config-${++n}.json`);
      fs.writeFileSync(file, typeof config === 'string' ? config : JSON.stringify(config, null, 2));
      return file;
    };
    const noEnvKey = (file: string, more: Record<string, string | undefined> = {}) => ({ LANGSMITH_API_KEY: undefined, LANGSMITH_ENDPOINT: undefined, LANGSMITH_CONFIG_FILE: file, ...more });

    it('uses the current profile: its api_url, workspace_id and api_key; LANGSMITH_PROFILE picks another', async () => {
      const name = unique('cli-profile');
      const dir = folder({ [`${name}.prompt.yaml`]: demoFile(name) });
      const file = profilesFile({
        current_profile: 'theirs',
        profiles: {
          theirs: { api_url: `${srv().url}/api/v1/`, api_key: ` "${srv().otherApiKey}" `, workspace_id: srv().otherTenantId },
          refused: { api_url: srv().url, api_key: BAD_KEY },
        },
      });
      // No endpoint anywhere but in the profile: the push lands in the profile key's workspace.
      const applied = await cli(['prompts', 'apply', '--yes'], { cwd: dir, env: noEnvKey(file) });
      expectCode(applied, 0);
      assert.match(applied.stdout, /Applied 1 of 1\./);
      assert.ok(await otherClientFor(srv()).prompts.get(name), 'the prompt is in the workspace of the profile’s key');
      assert.equal(await clientFor(srv()).prompts.get(name), null);

      const refused = await cli(['prompts', 'plan'], { cwd: dir, env: noEnvKey(file, { LANGSMITH_PROFILE: 'refused' }) });
      expectCode(refused, 1);
      assert.ok(refused.stderr.includes(`LangSmith at ${srv().url} refused the api_key of profile "refused" in ${file} (401`), refused.stderr);
      assert.match(refused.stderr, /Check the profile's api_key and workspace_id, or set LANGSMITH_API_KEY\./);
      // --endpoint and --workspace-id win over the profile's.
      const flags = await cli(['prompts', 'plan', '--endpoint', 'http://127.0.0.1:9', '--max-retries', '0'], { cwd: dir, env: noEnvKey(file) });
      expectCode(flags, 1);
      assert.match(flags.stderr, /Cannot reach LangSmith at http:\/\/127\.0\.0\.1:9: /);
    });

    it('LANGSMITH_API_KEY (or --api-key-stdin) wins over the profile, whose file is then not even read', async () => {
      const name = unique('cli-envwins');
      const dir = folder({ [`${name}.prompt.yaml`]: demoFile(name) });
      const file = profilesFile({ profiles: { default: { api_url: srv().url, api_key: srv().otherApiKey } } });
      expectCode(await cli(['prompts', 'apply', '--yes'], { cwd: dir, env: { LANGSMITH_CONFIG_FILE: file } }), 0);
      assert.ok(await clientFor(srv()).prompts.get(name), 'the prompt is in the workspace of LANGSMITH_API_KEY');
      assert.equal(await otherClientFor(srv()).prompts.get(name), null);
      const broken = profilesFile('{ "profiles": ');
      expectCode(await cli(['prompts', 'plan'], { cwd: dir, env: { LANGSMITH_CONFIG_FILE: broken } }), 0);
      const stdin = await cli(['prompts', 'plan', '--api-key-stdin'], { cwd: dir, env: { LANGSMITH_API_KEY: undefined, LANGSMITH_CONFIG_FILE: broken }, input: `${srv().apiKey}\n` });
      expectCode(stdin, 0);
    });

    it('a profile with only an OAuth login: renewed through the token endpoint and written back; no token printed', async () => {
      const issued = (await rawRequest(srv(), 'POST', '/__local/oauth/tokens', { expires_in: 0 })).body as { access_token: string; refresh_token: string };
      const file = profilesFile({
        current_profile: 'dev',
        profiles: { dev: { api_url: `${srv().url}/api/v1`, oauth: { ...issued, expires_at: new Date(Date.now() - 60_000).toISOString() } } },
      });
      const name = unique('cli-login');
      const dir = folder({ [`${name}.prompt.yaml`]: demoFile(name) });
      const r = await cli(['prompts', 'apply', '--yes'], { cwd: dir, env: noEnvKey(file) });
      expectCode(r, 0);
      assert.ok(await clientFor(srv()).prompts.get(name), 'pushed with the login');
      const renewed = (JSON.parse(fs.readFileSync(file, 'utf8')) as { profiles: { dev: { oauth: Record<string, string> } } }).profiles.dev.oauth;
      assert.notEqual(renewed['access_token'], issued.access_token, 'the renewed token is in the file');
      assert.ok(Date.parse(renewed['expires_at']!) > Date.now() + 60_000);
      for (const t of [issued.access_token, issued.refresh_token, renewed['access_token']!, renewed['refresh_token']!]) assert.ok(!`${r.stdout}${r.stderr}`.includes(t));

      // A login LangSmith no longer renews: the login's own sentence, naming the profile and the file.
      const gone = profilesFile({ profiles: { default: { api_url: srv().url, oauth: { access_token: 'lsw_at_gone', refresh_token: 'lsw_rt_revoked', expires_at: new Date(0).toISOString() } } } });
      const refused = await cli(['prompts', 'plan'], { cwd: dir, env: noEnvKey(gone) });
      expectCode(refused, 1);
      assert.ok(refused.stderr.includes(`error: LangSmith refused to renew the login of profile "default" in ${gone} (400 invalid_grant). Run \`langsmith login\` again`), refused.stderr);
      assert.ok(!/lsw_(at|rt)_/.test(refused.stderr));
    });

    it('a malformed file, an unknown LANGSMITH_PROFILE, a profile without credentials: errors naming the file, no secret', async () => {
      const dir = folder({ 'x.prompt.yaml': demoFile(unique('cli-badprofile')) });
      const broken = profilesFile(`{\n  "profiles": { "default": { "api_key": "${BAD_KEY}" }\n`);
      const r = await cli(['prompts', 'plan'], { cwd: dir, env: noEnvKey(broken) });
      expectCode(r, 1);
      assert.match(r.stderr, new RegExp(`^error: ${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: is not valid JSON \\(line \\d+, column \\d+\\)\\. Fix the LangSmith CLI's profiles file, or set LANGSMITH_API_KEY\\.\\n$`));

      const file = profilesFile({ current_profile: 'empty', profiles: { empty: { api_url: srv().url }, keyed: { api_key: BAD_KEY } } });
      const unknown = await cli(['prompts', 'plan'], { cwd: dir, env: noEnvKey(file, { LANGSMITH_PROFILE: 'staging' }) });
      expectCode(unknown, 1);
      assert.ok(unknown.stderr.includes(`${file}: LANGSMITH_PROFILE names profile "staging", which is not in the file (it has "empty", "keyed")`), unknown.stderr);
      const empty = await cli(['prompts', 'plan'], { cwd: dir, env: noEnvKey(file) });
      expectCode(empty, 1);
      assert.ok(
        empty.stderr.includes(`No API key for ${srv().url}: set LANGSMITH_API_KEY (or LANGCHAIN_API_KEY), or pipe the key into --api-key-stdin, or use a profile of the LangSmith CLI (profile "empty" in ${file} has neither an api_key nor a login: run \`langsmith login\`).`),
        empty.stderr,
      );
    });
  });

  describe('the key', () => {
    it('never appears in any output of the runs above', () => {
      const all = outputs.join('\n');
      assert.ok(outputs.length > 40, `every run's output was kept (${outputs.length / 2} runs)`);
      assert.ok(!all.includes(BAD_KEY), 'the refused key appears in an output');
      assert.ok(!all.includes(srv().apiKey), 'the API key appears in an output');
      assert.ok(!all.includes(srv().otherApiKey), 'a profile’s API key appears in an output');
    });
  });
});
