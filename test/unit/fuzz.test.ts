// Every parser that takes outside text, fuzzed: templates (f-string, mustache), manifests, `*.prompt.json` files,
// the server's filter language, public share links and tokens, prompt identifiers, the CSV header reader.
// Each input gives a value or the module's own error with a message (LangSmithValidationError, the server's
// HttpError 400, the CSV reader's Error naming the file), never another throw (TypeError, RangeError, a SQLite
// error that would be a 500). Nothing here is timed: an input that makes a parser run away (a pattern that
// backtracks, a recursion per nesting level) fails its test by the suite's timeout, and a wall-clock bound per
// input failed on a busy machine without a defect. `parsePromptFile` has its own properties in promptFile.test.ts.
// Every defect found here is kept below as a regression example.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LangSmithValidationError } from '../../src/client/errors';
import { isUuid, parsePromptIdentifier, parsePublicToken } from '../../src/client/ids';
import {
  type ChatPrompt,
  extractVariables,
  fstringVariables,
  mustacheVariablePaths,
  parseFString,
  promptVariables,
  readManifest,
  renderChatPrompt,
  renderTemplate,
  writeFString,
  writeManifest,
} from '../../src/client/templates';
import { MAX_MUSTACHE_DEPTH } from '../../src/client/templates/mustache';
import { csvHeader } from '../../src/common/csv';
import { fromManifest, parseManifestFile, parsePromptFile, toManifest, writePromptFile } from '../../src/promptFile';
import { openDatabase } from '../../server/db';
import { FILTER_LIMITS } from '../../server/filter';
import { exampleFilterSql } from '../../server/store/examplePages';
import { runFilterSql } from '../../server/store/runs';
import { HttpError } from '../../server/errors';

type Outcome<T> = { ok: true; value: T } | { ok: false; error: Error };

/** Runs `f` on one input: its value, or its error checked to be an expected one with a message. */
function safely<T>(what: string, f: () => T, expected: (e: unknown) => boolean): Outcome<T> {
  let out: Outcome<T>;
  try {
    out = { ok: true, value: f() };
  } catch (e) {
    const err = e as Error;
    assert.ok(expected(e), `${what} threw ${err?.constructor?.name}: ${String(err?.message).slice(0, 300)}`);
    assert.ok(typeof err.message === 'string' && err.message.length > 0, `${what} threw without a message`);
    out = { ok: false, error: err };
  }
  return out;
}

const validation = (e: unknown) => e instanceof LangSmithValidationError;
const badFilter = (e: unknown) => e instanceof HttpError && e.statusCode === 400 && typeof e.detail === 'string' && e.detail.startsWith('Invalid filter');
/** The CSV reader's errors: a plain Error (not a TypeError or RangeError) that names the file. */
const csvError = (e: unknown) => e instanceof Error && e.constructor === Error && e.message.startsWith('data.csv ');

// ---------- templates ----------

/** Names that reach Object.prototype / Array.prototype when looked up with `in`. */
const PROTO_NAMES = ['constructor', 'toString', '__proto__', '__defineGetter__', 'hasOwnProperty', 'valueOf', 'length', 'map', 'push'];
const name = fc.oneof(fc.constantFrom('a', 'b', 'x', 'user', 'items', 'history', 'question', 'role', ...PROTO_NAMES), fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,5}$/));
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('{', '}', '{{', '}}', '{{{', '}}}', '{{#', '{{/', '{{^', '{{&', '{{!', '{{>', '{{=<% %>=}}', '<%', '%>', '.', ' ', '\n', '\\', '"', '}{', '{{.}}', '{{=', '=}}', '\u0000', '😀') },
  { weight: 2, arbitrary: name.map((n) => `{${n}}`) },
  { weight: 2, arbitrary: name.map((n) => `{{${n}}}`) },
  { weight: 1, arbitrary: fc.tuple(name, name).map(([a, b]) => `{{${a}.${b}}}`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('#', '^', '/'), name).map(([s, n]) => `{{${s}${n}}}`) },
  { weight: 1, arbitrary: fc.tuple(name, fc.constantFrom('', 'x', '{{.}}')).map(([n, t]) => `{{#${n}}}${t}{{/${n}}}`) },
  { weight: 2, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
);
const templateText = fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 100 }), fc.array(piece, { maxLength: 40 }).map((a) => a.join('')));
const values = fc.dictionary(name, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });
const json = (v: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(v));

describe('fuzz: f-string and mustache templates', function () {
  this.timeout(60_000);

  it('f-string: parse, write back, list variables and render give a value or a LangSmithValidationError', () => {
    fc.assert(
      fc.property(templateText, values, (t, v) => {
        const parsed = safely('parseFString', () => parseFString(t), validation);
        const vars = safely('fstringVariables', () => fstringVariables(t), validation);
        assert.equal(parsed.ok, vars.ok);
        if (parsed.ok) {
          // Written back, the nodes read the same (braces of literal text escaped again).
          assert.deepEqual(parseFString(writeFString(parsed.value)), parsed.value);
          if (vars.ok) assert.deepEqual(vars.value, [...new Set(parsed.value.flatMap((n) => (n.type === 'variable' ? [n.name] : [])))]);
        }
        const rendered = safely('renderTemplate f-string', () => renderTemplate(t, v, 'f-string'), validation);
        // It renders exactly when every variable has an own, defined value.
        if (vars.ok) assert.equal(rendered.ok, vars.value.every((n) => Object.hasOwn(v, n) && v[n] !== undefined), JSON.stringify(t));
      }),
      { numRuns: 400 },
    );
  });

  it('mustache: variables, paths and rendering give a value or a LangSmithValidationError', () => {
    fc.assert(
      fc.property(templateText, values, (t, v) => {
        const vars = safely('extractVariables mustache', () => extractVariables(t, 'mustache'), validation);
        const paths = safely('mustacheVariablePaths', () => mustacheVariablePaths(t), validation);
        assert.equal(vars.ok, paths.ok);
        const rendered = safely('renderTemplate mustache', () => renderTemplate(t, v, 'mustache'), validation);
        assert.equal(rendered.ok, vars.ok, 'a template that parses renders');
        if (rendered.ok) assert.equal(typeof rendered.value, 'string');
      }),
      { numRuns: 400 },
    );
  });

  it('regressions: deep sections are an error, not a stack overflow', () => {
    for (const open of ['{{#a}}', '{{^a}}']) {
      const close = '{{/a}}';
      for (const depth of [MAX_MUSTACHE_DEPTH + 1, 5000, 100_000]) {
        const t = open.repeat(depth) + 'x' + close.repeat(depth);
        const calls: Array<[string, () => unknown]> = [['render', () => renderTemplate(t, {}, 'mustache')], ['variables', () => extractVariables(t, 'mustache')]];
        for (const [what, f] of calls) {
          const r = safely(`${what} ${depth}`, f, validation);
          assert.ok(!r.ok && /nested more than/.test(r.error.message), `${what} ${open} × ${depth}`);
        }
      }
      const deepest = open.repeat(MAX_MUSTACHE_DEPTH) + 'x' + close.repeat(MAX_MUSTACHE_DEPTH);
      assert.equal(renderTemplate(deepest, open === '{{^a}}' ? {} : { a: true }, 'mustache'), 'x');
    }
  });

  it("regressions: names of Object's and Array's prototypes are not values", () => {
    // mustache.js looked names up with `in` and called what it found: TypeError or a function's text.
    const v = json({ a: [1, 2], s: 'str', o: { x: 1 } });
    for (const t of ['{{__defineGetter__}}', '{{a.map}}', '{{constructor}}', '{{a.constructor}}', '{{hasOwnProperty}}', '{{#toString}}x{{/toString}}', '{{o.valueOf}}']) {
      assert.equal(renderTemplate(t, v, 'mustache'), '', t);
    }
    assert.equal(renderTemplate('{{s.length}} {{a.length}} {{a.0}} {{o.x}} {{#a}}[{{.}}]{{/a}}', v, 'mustache'), '3 2 1 1 [1][2]');
    assert.equal(renderTemplate('{{__proto__.x}}', JSON.parse('{"__proto__": {"x": 5}}'), 'mustache'), '5');
    // f-string: `{constructor}` rendered "function Object() { [native code] }".
    for (const n of ['constructor', 'toString', '__proto__']) {
      assert.throws(() => renderTemplate(`{${n}}`, {}, 'f-string'), { name: 'LangSmithValidationError', message: `(f-string) Missing value for input ${n}` });
    }
  });
});

// ---------- manifests ----------

const pt = (template: string, format = 'f-string') => ({
  lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'prompt', 'PromptTemplate'],
  kwargs: { input_variables: [], template_format: format, template },
});
const msg = (cls: string, kwargs: Record<string, unknown>) => ({ lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'chat', cls], kwargs });
const REAL_MANIFESTS: unknown[] = [
  {
    lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'chat', 'ChatPromptTemplate'],
    kwargs: {
      input_variables: ['role', 'question', 'items'],
      messages: [
        msg('SystemMessagePromptTemplate', { prompt: pt('You are {role}.') }),
        msg('MessagesPlaceholder', { variable_name: 'history', optional: true }),
        msg('HumanMessagePromptTemplate', { prompt: [pt('{question}'), { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'image', 'ImagePromptTemplate'], kwargs: { template: { url: 'https://x/y.png' } } }] }),
        msg('ChatMessagePromptTemplate', { role: 'critic', prompt: pt('{{#items}}- {{.}}\n{{/items}}', 'mustache') }),
      ],
    },
  },
  {
    lc: 1, type: 'constructor', id: ['langchain', 'prompts', 'chat', 'ChatPromptTemplate'],
    kwargs: { input_variables: ['user'], template_format: 'mustache', metadata: { lc_hub_owner: 'me', lc_hub_repo: 'x' }, messages: [msg('HumanMessagePromptTemplate', { prompt: pt('Hi {{user.name}}', 'mustache') })] },
  },
  pt('Summarize {text} in {n} words'),
  {
    lc: 1, type: 'constructor', id: ['langchain', 'schema', 'runnable', 'RunnableSequence'],
    kwargs: {
      first: { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'chat', 'ChatPromptTemplate'], kwargs: { input_variables: ['name'], messages: [msg('AIMessagePromptTemplate', { prompt: pt('Sure, {name}.') })] } },
      last: { lc: 1, type: 'constructor', id: ['langchain', 'chat_models', 'openai', 'ChatOpenAI'], kwargs: { model: 'gpt-4o', temperature: 0.2 } },
    },
  },
];

/** Every path into a JSON value (object keys and array indexes). */
function pathsOf(root: unknown): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = [[]];
  const pending: Array<[unknown, Array<string | number>]> = [[root, []]];
  while (pending.length) {
    const [v, p] = pending.pop()!;
    if (v && typeof v === 'object') {
      for (const [k, child] of Array.isArray(v) ? v.entries() : Object.entries(v)) {
        out.push([...p, k]);
        pending.push([child, [...p, k]]);
      }
    }
  }
  return out;
}

type Edit = { at: number; op: 'replace' | 'delete' | 'add'; value: unknown; key: string };
const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  op: fc.constantFrom('replace', 'replace', 'delete', 'add'),
  value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), templateText, fc.constantFrom('abc', 5, true, null, [], {}, 'mustache', 'jinja2', ['x'], { lc: 1, id: [] }, { lc: 1, id: ['PromptTemplate'], kwargs: 'text' })),
  key: fc.constantFrom('kwargs', 'lc', 'id', 'template', 'template_format', 'messages', 'prompt', 'variable_name', 'optional', 'role', 'input_variables', 'first', 'last', 'metadata', 'x'),
});

/** A real manifest with a few edits: a value replaced by another of any type, a key deleted or added. */
function mutate(base: unknown, edits: Edit[]): unknown {
  let root = JSON.parse(JSON.stringify(base));
  for (const edit of edits) {
    // A copy of the value: fast-check hands out the same constant object to several edits, and putting one object
    // inside itself would make a circular manifest that no JSON text can be.
    const e = { ...edit, value: structuredClone(edit.value) };
    const paths = pathsOf(root);
    const path = paths[e.at % paths.length]!;
    if (!path.length) {
      if (e.op === 'replace') root = e.value;
      continue;
    }
    const parent = path.slice(0, -1).reduce((o: any, k) => o[k], root);
    const last = path[path.length - 1]!;
    if (e.op === 'replace') parent[last] = e.value;
    else if (e.op === 'delete') {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    }
    else if (parent[last] && typeof parent[last] === 'object' && !Array.isArray(parent[last])) parent[last][e.key] = e.value;
  }
  return root;
}

const mutated = fc.tuple(fc.constantFrom(...REAL_MANIFESTS), fc.array(edit, { minLength: 1, maxLength: 4 })).map(([m, es]) => mutate(m, es));
const anyManifest = fc.oneof(mutated, mutated, fc.jsonValue({ maxDepth: 5 }));

/** Everything the extension does with a manifest from the server or a file: read, list, render, write, as a file. */
function useManifest(m: unknown, v: Record<string, unknown>): void {
  const read = safely('readManifest', () => readManifest(m), validation);
  if (!read.ok) return;
  const model = read.value;
  safely('promptVariables', () => promptVariables(model.prompt), validation);
  safely('writeManifest', () => writeManifest(model), validation);
  if (model.prompt.kind === 'chat') {
    const chat = model.prompt as ChatPrompt;
    safely('renderChatPrompt', () => renderChatPrompt(chat, v), validation);
  } else {
    const p = model.prompt;
    safely('renderTemplate', () => renderTemplate(p.template, v, p.templateFormat), validation);
  }
  const file = safely('fromManifest', () => fromManifest(m), validation);
  if (file.ok) {
    const text = safely('writePromptFile', () => writePromptFile(file.value), () => false);
    if (text.ok) safely('parsePromptFile', () => parsePromptFile(text.value), () => false);
    safely('toManifest', () => toManifest(file.value), validation);
  }
}

const INTERNAL = /Cannot (read|set|create|convert)|is not a function|is not iterable|Maximum call stack|undefined is not/;

describe('fuzz: manifests and prompt manifest files', function () {
  this.timeout(60_000);

  it('readManifest and what is done with its model: a value or a LangSmithValidationError, on mutated real manifests and any JSON', () => {
    for (const m of REAL_MANIFESTS) useManifest(m, {});
    fc.assert(fc.property(anyManifest, values, useManifest), { numRuns: 400 });
  });

  it('an unchanged real manifest writes back as it was read', () => {
    for (const m of REAL_MANIFESTS) assert.deepEqual(writeManifest(readManifest(json(m as object))), m);
  });

  it('parseManifestFile never throws: a prompt file, or one problem with a clear message', () => {
    const text = fc.oneof(
      anyManifest.map((m) => JSON.stringify(m)),
      anyManifest.map((m) => JSON.stringify(m, null, 2)),
      fc.tuple(fc.constantFrom(...REAL_MANIFESTS).map((m) => JSON.stringify(m)), fc.nat(), fc.nat({ max: 20 }), fc.string({ maxLength: 5 })).map(([s, at, len, ins]) => {
        const i = at % (s.length + 1);
        return s.slice(0, i) + ins + s.slice(i + len);
      }),
      fc.string({ maxLength: 200 }),
      fc.constantFrom('null', '0', '"x"', '[]', '{}', 'true', '[null]', '{"lc": 1}', '{"kwargs": null}'),
    );
    fc.assert(
      fc.property(text, fc.option(fc.string({ maxLength: 20 }), { nil: undefined }), (t, fileName) => {
        const r = safely('parseManifestFile', () => parseManifestFile(t, fileName), () => false);
        const { file, problem } = r.ok ? r.value : { file: undefined, problem: undefined };
        assert.ok((file === undefined) !== (problem === undefined), 'a file or a problem');
        if (problem) {
          assert.ok(problem.message.length > 0);
          assert.doesNotMatch(problem.message, INTERNAL, `an internal error shown as the problem: ${problem.message}`);
          assert.ok(problem.offset >= 0 && problem.offset <= t.length);
        }
        if (file) safely('toManifest of a raw manifest', () => toManifest(file), () => false);
      }),
      { numRuns: 400 },
    );
  });

  it('regressions', () => {
    // A node whose kwargs is not an object was read, then writing it threw a TypeError
    // ("Cannot create property 'variable_name' on string 'abc'").
    for (const kwargs of ['abc', 5, true, ['x']]) {
      const m = { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'chat', 'ChatPromptTemplate'], kwargs: { messages: [{ lc: 1, id: ['x', 'MessagesPlaceholder'], kwargs }] } };
      assert.throws(() => readManifest(m), LangSmithValidationError);
      assert.throws(() => readManifest({ lc: 1, id: ['ChatPromptTemplate'], kwargs }), LangSmithValidationError);
    }
    // `null` as a manifest file: the problem was "Cannot read properties of null (reading 'kwargs')".
    assert.match(parseManifestFile('null', 'x.prompt.json').problem!.message, /^Invalid prompt manifest: not a LangChain serialized object/);
    // A placeholder given a list with something else than messages: TypeError "Cannot read properties of null".
    const withHistory = readManifest(REAL_MANIFESTS[0]).prompt as ChatPrompt;
    for (const history of [[null], [5], ['x'], [{ role: 'user', content: 'hi' }, null]]) {
      assert.throws(() => renderChatPrompt(withHistory, { role: 'r', question: 'q', items: [], history }), { name: 'LangSmithValidationError', message: 'Placeholder history needs a list of messages' });
    }
  });
});

// ---------- the server's filter language ----------

const RUN_FIELDS = [
  'name', 'run_type', 'latency', 'status', 'id', 'start_time', 'total_tokens', 'is_root', 'error', 'tags', 'metadata.a', 'metadata.a.b', 'metadata.1',
  'metadata', 'inputs', 'extra.x', 'execution_order', 'thread_id', 'project_name', 'metadata_key', 'metadata_value', 'input_value', 'feedback_key',
  'feedback_score', 'feedback_value', 'feedback_source',
];
const EXAMPLE_FIELDS = [
  'id', 'created_at', 'modified_at', 'source_run_id', 'metadata', 'inputs', 'outputs', 'metadata.a', 'inputs.q', 'outputs.x.y', 'splits',
  'metadata_key', 'metadata_value', 'output_key',
];
const literal = fc.oneof(
  fc.string({ maxLength: 10 }).map((s) => JSON.stringify(s)),
  fc.string({ maxLength: 6 }).map((s) => `'${s.replace(/['\\]/g, '')}'`),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.constantFrom('null', 'None', 'true', 'False', '[]', '["a", 1]', `'{"a": 1}'`, '"{\\"a\\": [1]}"', `'{"a\\"b": {"c": null}}'`, '"a.b"', '"$"', '""', '-0', '1.5', '007'),
);
const filterText = (fields: string[]) =>
  fc.letrec<{ cond: string }>((tie) => ({
    cond: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.tuple(fc.constantFrom('eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'has', 'exists', 'like', 'EQ'), fc.oneof(fc.constantFrom(...fields), fc.constantFrom('nope', 'metadata.', 'a..b', '1x')), literal)
        .map(([op, f, v]) => `${op}(${f}, ${v})`),
      literal.map((v) => `search(${v})`),
      fc.tuple(fc.constantFrom(...fields), literal).map(([f, v]) => `search(${f}, ${v})`),
      fc.tuple(fc.constantFrom(...fields), fc.array(literal, { maxLength: 4 })).map(([f, vs]) => `in(${f}, [${vs.join(', ')}])`),
      fc.tuple(fc.constantFrom('and', 'or', 'not', 'AND'), fc.array(tie('cond'), { maxLength: 4 })).map(([op, args]) => `${op}(${args.join(', ')})`),
    ),
  })).cond;
const garbled = (base: fc.Arbitrary<string>) =>
  fc.tuple(base, fc.nat(), fc.nat({ max: 6 }), fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('(', ')', '[', ']', ',', '"', "'", '\\', '.', ' ', '\n'))).map(([s, at, len, ins]) => {
    const i = at % (s.length + 1);
    return s.slice(0, i) + ins + s.slice(i + len);
  });

describe("fuzz: the server's filter language (runs and examples)", function () {
  this.timeout(60_000);
  // What the server runs the compiled SQL against, with a row so every expression is evaluated.
  const db = openDatabase(':memory:', false);
  before(() => {
    db.prepare(
      `INSERT INTO runs (id, tenant_id, session_id, trace_id, dotted_order, name, run_type, start_time, end_time, inputs, outputs, extra, tags, error, received_at)
       VALUES ('r', 't', 's', 'r', 'a', 'n', 'llm', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:01.000Z', '{"q":"x"}', '{"a":[1,{"b":null}]}',
         '{"metadata":{"a":1,"1":{"b":2}}}', '["x"]', NULL, 'now')`,
    ).run();
    // Feedback the run filters join: one with JSON the server did not write (a bad row is no match, not a 500).
    db.prepare(
      `INSERT INTO feedback (id, tenant_id, run_id, key, score, value, feedback_source, created_at, modified_at)
       VALUES ('f1', 't', 'r', 'k', 0.5, '{"v":1}', '{"type":"api"}', 'now', 'now'), ('f2', 't', 'r', 'k2', NULL, 'not json', 'not json', 'now', 'now')`,
    ).run();
    db.prepare(
      `INSERT INTO example_revisions (example_id, dataset_id, valid_from, inputs, outputs, metadata, created_at)
       VALUES ('e', 'd', 'v', '{"q":"a","a\\"b":{"c":null}}', '{"x":{"y":1}}', '{"a":1,"dataset_split":["base"]}', 'now')`,
    ).run();
  });
  after(() => db.close());

  /** Compiles and runs a filter as the server would: a result, or a 400; never a SQLite error (a 500). */
  function check(text: string) {
    for (const [what, compile, table] of [['runs', runFilterSql, 'runs'], ['examples', exampleFilterSql, 'example_revisions e']] as const) {
      const compiled = safely(`${what} filter`, () => compile(text), badFilter);
      if (compiled.ok) {
        const { sql, params } = compiled.value;
        assert.ok(params.length <= FILTER_LIMITS.MAX_PARAMS);
        safely(`${what} filter SQL`, () => db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${sql}`).get(...params), () => false);
      }
    }
  }

  it('generated filters, garbled filters and any text: a result or a 400', () => {
    fc.assert(
      fc.property(
        fc.oneof(filterText(RUN_FIELDS), filterText(EXAMPLE_FIELDS), garbled(filterText(RUN_FIELDS)), fc.string({ maxLength: 100 }), fc.string({ unit: 'binary', maxLength: 60 })),
        (t) => check(t),
      ),
      { numRuns: 500 },
    );
  });

  it('regressions: bad JSON paths, deep nesting, too many conditions or values are a 400, not a 500', () => {
    const rejected = (t: string, why: RegExp) => {
      assert.throws(() => runFilterSql(t), (e: unknown) => badFilter(e) && why.test((e as HttpError).message), t.slice(0, 80));
      check(t);
    };
    // `metadata.` made the JSON path '$.metadata.': SQLite "bad JSON path" (500).
    rejected('eq(metadata., "x")', /expected , or \)/);
    rejected('eq(metadata.a..b, 1)', /expected , or \)/);
    // Deep nesting overflowed the parser's stack (RangeError, 500) or SQLite's expression depth.
    rejected('not('.repeat(100_000) + 'eq(name, "x")' + ')'.repeat(100_000), /nested more than 32 levels/);
    rejected('not('.repeat(FILTER_LIMITS.MAX_DEPTH + 1) + 'eq(name, "x")' + ')'.repeat(FILTER_LIMITS.MAX_DEPTH + 1), /nested more than/);
    rejected('in(name, ' + '['.repeat(50_000) + ']'.repeat(50_000) + ')', /nested more than/);
    // Long and/or lists: "Expression tree is too large (maximum depth 1000)"; long in() lists: "too many SQL variables".
    rejected(`and(${Array(2000).fill('eq(name, "x")').join(', ')})`, /more than 1000 values and conditions/);
    rejected(`in(name, [${Array(40_000).fill('"x"').join(',')}])`, /more than 1000 values/);
    rejected(`or(${Array(334).fill('search("x")').join(', ')})`, /more than 1000 values to compare/);
    // has() JSON nested 30 deep: one subquery a level, "Expression tree is too large (maximum depth 1000)".
    const nested = (levels: number) => `{"a": ${'['.repeat(levels - 1)}1${']'.repeat(levels - 1)}}`;
    rejected(`has(metadata, '${nested(30)}')`, /JSON in has\(\) is nested more than 16 levels/);
    rejected(`has(metadata, '${JSON.stringify(Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [`k${i}`, i])))}')`, /more than 1000 values/);
    check('not('.repeat(FILTER_LIMITS.MAX_DEPTH - 1) + `has(metadata, '${nested(FILTER_LIMITS.MAX_JSON_DEPTH)}')` + ')'.repeat(FILTER_LIMITS.MAX_DEPTH - 1));
    // What stays allowed.
    check('not('.repeat(FILTER_LIMITS.MAX_DEPTH - 1) + 'eq(name, "x")' + ')'.repeat(FILTER_LIMITS.MAX_DEPTH - 1));
    check(`or(${Array(300).fill('eq(name, "x")').join(', ')})`);
    check(`in(id, [${Array(998).fill('"x"').join(',')}])`);
    check(`eq(name, "${'x'.repeat(200_000)}")`);
    // A JSON path is written into the SQL (its names are `\w+`), only the value is bound.
    assert.deepEqual(runFilterSql('eq(metadata.a, 1)').params, [1]);
    // A long filter is quoted short in the error.
    assert.throws(() => runFilterSql(`eq(nope, "${'x'.repeat(10_000)}")`), (e: unknown) => badFilter(e) && (e as HttpError).message.length < 400);
  });
});

// ---------- ids, links, tokens ----------

describe('fuzz: public links and tokens, prompt identifiers', function () {
  this.timeout(60_000);
  const uuid = fc.uuid();
  const segment = fc.oneof(fc.constantFrom('public', 'd', 'r', 'o', 'datasets', '', '..', '%20', 'PUBLIC'), fc.string({ maxLength: 6 }).map(encodeURIComponent), uuid);
  const link = fc
    .tuple(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.array(segment, { maxLength: 5 }))
    .map(([base, segs]) => {
      const u = new URL(base);
      u.pathname = `${u.pathname.replace(/\/$/, '')}/${segs.join('/')}`;
      return u.toString();
    });
  const tokenInput = fc.oneof(
    uuid,
    uuid.map((u) => u.toUpperCase()),
    fc.tuple(fc.webUrl(), uuid, fc.constantFrom('d', 'r', '')).map(([b, u, k]) => `${b.replace(/\/$/, '')}/public/${u}/${k}`),
    link,
    fc.string({ maxLength: 80 }),
    fc.constantFrom('', ' ', 'http://', 'http://x/public/', 'javascript:alert(1)', 'file:///public/x/d', 'http://[::1', '//x/public/00000000-0000-0000-0000-000000000000/d'),
  );

  it('parsePublicToken (datasets and runs): a UUID taken from the input, or a LangSmithValidationError', () => {
    fc.assert(
      fc.property(tokenInput, fc.constantFrom('dataset' as const, 'run' as const), (t, kind) => {
        const r = safely('parsePublicToken', () => parsePublicToken(t, kind), validation);
        if (r.ok) {
          assert.ok(isUuid(r.value), r.value);
          assert.ok(t.includes(r.value), `${r.value} is not in ${t}`);
        } else assert.match(r.error.message, kind === 'dataset' ? /^Invalid public dataset URL or token: / : /^Invalid public run URL or token: /);
      }),
      { numRuns: 400 },
    );
  });

  it('parsePromptIdentifier: parts that write back to the identifier, or a LangSmithValidationError', () => {
    const part = fc.oneof(fc.stringMatching(/^[a-z0-9][a-z0-9_.-]{0,8}$/), fc.constantFrom('-', '', ' ', 'a b', '__proto__', 'latest'), fc.string({ maxLength: 6 }));
    const identifier = fc.oneof(
      fc.tuple(fc.option(part), part, fc.option(part)).map(([o, r, c]) => `${o === null ? '' : `${o}/`}${r}${c === null ? '' : `:${c}`}`),
      fc.string({ maxLength: 40 }),
      fc.array(fc.constantFrom('a', '/', ':', '-', ' '), { maxLength: 8 }).map((a) => a.join('')),
    );
    fc.assert(
      fc.property(identifier, (id) => {
        const r = safely('parsePromptIdentifier', () => parsePromptIdentifier(id), validation);
        if (!r.ok) return;
        const { owner, repo, commit } = r.value;
        for (const p of [owner, repo, commit]) assert.ok(p.length > 0 && !p.includes(':'), JSON.stringify(r.value));
        assert.ok(!owner.includes('/') && !repo.includes('/'));
        const again = `${owner === '-' && !id.startsWith('-/') ? '' : `${owner}/`}${repo}${commit === 'latest' && !id.endsWith(':latest') ? '' : `:${commit}`}`;
        assert.equal(again, id);
      }),
      { numRuns: 400 },
    );
  });
});

// ---------- CSV header ----------

/** A CSV field as a writer quotes it. */
const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
const csvName = fc.oneof(
  fc.stringMatching(/^[a-z][a-z_ ]{0,7}$/),
  fc.constantFrom(' b', 'a ', ' ', '', 'x,y', 'line\nbreak', 'say "hi"', 'é', '😀', '\t', 'constructor', '__proto__', 'a\r\nb'),
  fc.string({ maxLength: 6 }),
);
const newline = fc.constantFrom('\n', '\r\n');

describe('fuzz: the CSV header of "New Dataset from CSV" (src/common/csv.ts)', function () {
  this.timeout(60_000);

  it('a written CSV gives back its column names as written (blank names left out), or an error naming the file', () => {
    fc.assert(
      fc.property(
        fc.array(csvName, { minLength: 1, maxLength: 6 }),
        fc.array(fc.array(fc.string({ maxLength: 5 }), { maxLength: 6 }), { maxLength: 4 }),
        fc.nat({ max: 2 }),
        fc.boolean(),
        newline,
        (names, rows, blankLines, bom, nl) => {
          const text = `${bom ? '\ufeff' : ''}${nl.repeat(blankLines)}${names.map(quote).join(',')}${rows.map((r) => nl + r.map(quote).join(',')).join('')}${nl}`;
          const expected = names.filter((n) => n.trim() !== '');
          const r = safely('csvHeader', () => csvHeader(text, 'data.csv'), csvError);
          if (!expected.length) assert.ok(!r.ok && /is empty or has no header row/.test(r.error.message), text);
          else if (new Set(expected).size !== expected.length) assert.ok(!r.ok && /twice/.test(r.error.message), text);
          else assert.deepEqual(r.ok ? r.value : r.error.message, expected, text);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('any text: distinct non-blank names, or an error naming the file', () => {
    const soup = fc.array(fc.constantFrom('a', 'b', ',', '"', '""', '\n', '\r', '\r\n', ' ', '\ufeff', ';', '\t', '\\', 'x y'), { maxLength: 30 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.oneof(soup, fc.string({ maxLength: 100 }), fc.string({ unit: 'binary', maxLength: 60 })), (t) => {
        const r = safely('csvHeader', () => csvHeader(t, 'data.csv'), csvError);
        if (r.ok) {
          assert.ok(r.value.length > 0 && r.value.every((c) => c.trim() !== ''));
          assert.equal(new Set(r.value).size, r.value.length);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('regressions', () => {
    // The first line, not the first record: a quoted name over two lines, or blank lines first, read as no header.
    assert.deepEqual(csvHeader('q,"the\nanswer",topic\n1,2,3\n'), ['q', 'the\nanswer', 'topic']);
    assert.deepEqual(csvHeader('\n\nquestion,answer\n1,2\n'), ['question', 'answer']);
    assert.deepEqual(csvHeader('\r\n\r\nquestion,answer\r\n1,2\r\n'), ['question', 'answer']);
    // Names were trimmed, so the columns chosen (" answer") were not those the server reads: upload failed (422).
    assert.deepEqual(csvHeader('question, answer\n1,2\n'), ['question', ' answer']);
    // A large file: only its first record is read.
    const big = `a,b,c\n${'1,"two, and more",3\n'.repeat(200_000)}"unterminated`;
    assert.deepEqual(safely('csvHeader large', () => csvHeader(big, 'data.csv'), csvError), { ok: true, value: ['a', 'b', 'c'] });
  });
});
