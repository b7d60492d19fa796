// The command line's own logic without a server: argument parsing, help, the redaction of keys, positions and
// GitHub annotations, and the commands' answers to bad input (run in-process with strings for streams).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError, helpText, parseArgs, type CommandSpec } from '../../src/cli/args';
import { lineColumn } from '../../src/cli/files';
import { Output, type Io } from '../../src/cli/io';
import { COMMANDS, run } from '../../src/cli/main';
import { annotation } from '../../src/cli/prompts/validate';

const spec: CommandSpec = {
  name: 'prompts test',
  usage: 'prompts test [paths…]',
  summary: 'A test command.',
  options: { tag: { kind: 'list', arg: 'NAME', help: 'A tag.' }, message: { kind: 'value', short: 'm', arg: 'TEXT', help: 'A message.' }, yes: { kind: 'flag', short: 'y', help: 'Yes.' } },
};

function fakeIo(env: NodeJS.ProcessEnv = {}, cwd = os.tmpdir()): Io & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
    interactive: false,
    readStdin: async () => '',
    ask: async () => '',
    cwd,
    env,
  };
  return io;
}

describe('command line: arguments', () => {
  it('reads flags, values (both forms), repeated lists, short options and positionals after --', () => {
    const p = parseArgs(spec, ['a', '--tag', 'x', '--tag=y', '-m', 'hello world', '-y', '--', '--not-an-option']);
    assert.deepEqual(p.positionals, ['a', '--not-an-option']);
    assert.deepEqual(p.lists.get('tag'), ['x', 'y']);
    assert.equal(p.values.get('message'), 'hello world');
    assert.ok(p.flags.has('yes'));
  });

  it('refuses unknown options, missing values, values on flags and a value given twice, naming the help', () => {
    assert.throws(() => parseArgs(spec, ['--nope']), (e: Error) => e instanceof UsageError && /Unknown option --nope for prompts test\. See langsmith-workbench prompts test --help\./.test(e.message));
    assert.throws(() => parseArgs(spec, ['--message']), /--message needs a value \(TEXT\)/);
    assert.throws(() => parseArgs(spec, ['--message', '--yes']), /--message needs a value/);
    assert.throws(() => parseArgs(spec, ['--yes=1']), /--yes takes no value/);
    assert.throws(() => parseArgs(spec, ['-m', 'a', '-m', 'b']), /--message is given twice/);
    assert.throws(() => parseArgs(spec, ['-z']), /Unknown option -z/);
  });

  it('refuses --api-key without repeating the key, saying why', () => {
    for (const argv of [['--api-key', 'sk-secret-123'], ['--api-key=sk-secret-123']]) {
      assert.throws(
        () => parseArgs(spec, argv),
        (e: Error) => !e.message.includes('sk-secret-123') && /visible to other users in the process list/.test(e.message) && /LANGSMITH_API_KEY/.test(e.message),
      );
    }
  });

  it('help lists every option and the usage', () => {
    const text = helpText(spec);
    assert.match(text, /^Usage: langsmith-workbench prompts test \[paths…\]/);
    for (const o of ['--tag NAME (repeatable)', '-m, --message TEXT', '-y, --yes', '-h, --help']) assert.ok(text.includes(o), o);
  });

  it('every subcommand has a help with its usage and the connection note where it connects', () => {
    const prompts = COMMANDS['prompts'] as { commands: Record<string, { spec: CommandSpec }> };
    assert.deepEqual(Object.keys(prompts.commands).sort(), ['apply', 'diff', 'plan', 'pull', 'validate']);
    for (const [name, c] of Object.entries(prompts.commands)) {
      const text = helpText(c.spec);
      assert.ok(text.startsWith(`Usage: langsmith-workbench prompts ${name}`), name);
      if (name !== 'validate') assert.match(text, /There is no flag for the key itself/, name);
    }
  });
});

describe('command line: output', () => {
  it('redacts a key wherever it appears, and ignores keys too short to hide safely', () => {
    const io = fakeIo();
    const out = new Output(io);
    out.hide('lsv2_secret_key');
    out.hide('ab');
    out.line('Failed: lsv2_secret_key was refused (lsv2_secret_key)');
    out.error('about ab');
    assert.equal(io.stdout, 'Failed: [redacted] was refused ([redacted])\n');
    assert.equal(io.stderr, 'about ab\n');
  });

  it('the environment’s key is hidden from every command’s output', async () => {
    const key = 'lsv2_pt_unit_test_key_123456';
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-cli-unit-'));
    try {
      // The key inside a path that the error message repeats.
      const io = fakeIo({ LANGSMITH_API_KEY: key }, dir);
      const code = await run(['prompts', 'plan', `missing-${key}`], io);
      assert.equal(code, 1);
      assert.match(io.stderr, /^error: missing-\[redacted\]: no such file or folder\.\n$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lines and columns are 1-based, counted in UTF-16 units', () => {
    const text = 'ab\ncdé\n\nxyz';
    assert.deepEqual(lineColumn(text, 0), { line: 1, column: 1 });
    assert.deepEqual(lineColumn(text, 3), { line: 2, column: 1 });
    assert.deepEqual(lineColumn(text, 5), { line: 2, column: 3 });
    assert.deepEqual(lineColumn(text, 8), { line: 4, column: 1 });
    assert.deepEqual(lineColumn(text, 999), { line: 4, column: 4 });
  });

  it('GitHub annotations escape what would end or split them', () => {
    const file = { path: '/x/a,b:c.prompt.yaml', shown: 'a,b:c.prompt.yaml', text: 'x\ny', parsed: { problems: [], variables: [], templates: [] } };
    const line = annotation(file, { message: 'Cannot do it.\nCurrent tenant: 100%', severity: 'error', offset: 2, length: 1, code: 'x' });
    assert.equal(line, '::error file=a%2Cb%3Ac.prompt.yaml,line=2,col=1,title=prompt file error::Cannot do it.%0ACurrent tenant: 100%25');
    const hint = annotation(file, { message: 'unused', severity: 'hint', offset: 0, length: 1, code: 'unused' });
    assert.match(hint, /^::notice /);
  });
});

describe('command line: answers without a server', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-cli-unit-'));
    fs.writeFileSync(path.join(dir, 'a.prompt.yaml'), 'prompt: a\ntemplate_format: f-string\ntemplate: hi {x}\n');
    fs.mkdirSync(path.join(dir, 'empty'));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a prompt file');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
    [[], {}, /^Usage: langsmith-workbench <command>/],
    [['frobnicate'], {}, /Unknown command “frobnicate”\. Commands: prompts, mcp\./],
    [['prompts', 'plan'], {}, /No API key for https:\/\/api\.smith\.langchain\.com: set LANGSMITH_API_KEY/],
    [['prompts', 'plan', '--endpoint', 'ftp://x'], { LANGSMITH_API_KEY: 'k-123456' }, /“ftp:\/\/x” is not an http\(s\) URL/],
    [['prompts', 'plan', '--max-retries', 'many'], { LANGSMITH_API_KEY: 'k-123456' }, /--max-retries takes a whole number/],
    [['prompts', 'plan', 'empty'], {}, /No prompt files in empty/],
    [['prompts', 'plan', 'notes.txt'], {}, /notes\.txt is not a prompt file/],
    [['prompts', 'plan', '--tag', 'latest'], {}, /--tag latest: “latest” would be read as a commit reference/],
    [['prompts', 'plan', '--tag', 'has space'], {}, /--tag has space: “has space” is not a tag name/],
    [['prompts', 'apply'], {}, /Not asking: standard input is not a terminal/],
    [['prompts', 'pull'], {}, /prompts pull needs NAME\[:TAG\|:COMMIT\]/],
    [['prompts', 'pull', 'a/b/c'], {}, /“a\/b\/c” is not a prompt/],
    [['prompts', 'diff', 'notes.txt'], {}, /notes\.txt is not a prompt file/],
    [['prompts', 'validate', '--format', 'xml'], {}, /--format is text or github, not “xml”/],
  ];
  for (const [argv, env, says] of cases) {
    it(`${argv.join(' ') || '(nothing)'} → exit 1: ${says.source.slice(0, 60)}`, async () => {
      const io = fakeIo(env, dir);
      assert.equal(await run(argv, io), 1);
      assert.match(io.stdout + io.stderr, says);
    });
  }

  it('validate of a good file exits 0 with no server and no key', async () => {
    const io = fakeIo({}, dir);
    assert.equal(await run(['prompts', 'validate', 'a.prompt.yaml'], io), 0);
    assert.match(io.stdout, /1 prompt file: 0 errors, 0 other problems\./);
  });
});
