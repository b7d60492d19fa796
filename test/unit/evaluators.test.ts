// The evaluators file (problems with their places) and every evaluator's rule, the judge's messages and the
// reading of its answer.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  checkJsonSchema,
  evaluate,
  experimentName,
  isEvaluatorsFile,
  judgeMessages,
  JUDGE_HEADINGS,
  JUDGE_SYSTEM_PREFIX,
  parseEvaluators,
  parseJudgeAnswer,
  pickText,
  promptValues,
  similarity,
  unmappedVariables,
  type EvaluationInput,
  type EvaluatorSpec,
  type EvaluatorsProblem,
  type JudgeCall,
} from '../../src/experiments';

/** The place of `needle` (its n-th occurrence) in `text`, 0-based. */
function placeOf(text: string, needle: string, nth = 0): { line: number; column: number } {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = text.indexOf(needle, at + 1);
  assert.ok(at >= 0, `${needle} not in the text`);
  const before = text.slice(0, at).split('\n');
  return { line: before.length - 1, column: before[before.length - 1]!.length };
}

function only(text: string): EvaluatorsProblem {
  const { file, problems } = parseEvaluators(text);
  assert.equal(file, null, 'a file with a problem gives no evaluators');
  assert.equal(problems.length, 1, JSON.stringify(problems));
  return problems[0]!;
}

const base = { output: null, reference: null, lowerIsBetter: false };
const run = (output: unknown, reference: unknown, inputs: Record<string, unknown> = { question: 'q?' }): EvaluationInput => ({
  inputs,
  outputs: output === undefined ? null : { output },
  referenceOutputs: reference === undefined ? null : { answer: reference },
});

describe('evaluators file', () => {
  it('reads every evaluator type with its settings and defaults', () => {
    const text = [
      'dataset: demo-support-qa',
      'evaluators:',
      '  - type: exact_match',
      '    output: answer',
      '    reference: answer',
      '    ignore_case: true',
      '  - type: contains',
      '  - type: json_valid',
      '  - type: json_schema',
      '    schema: { type: object, required: [answer] }',
      '  - type: regex',
      "    pattern: '^[A-Z]'",
      '    flags: i',
      '  - type: similarity',
      '    lower_is_better: false',
      '  - type: llm_judge',
      '    key: helpfulness',
      '    rubric: Is the answer correct and helpful for the question?',
      '    model: gpt-4o-mini',
      '    lower_is_better: true',
      '',
    ].join('\n');
    const { file, problems } = parseEvaluators(text);
    assert.deepEqual(problems, []);
    assert.deepEqual(file, {
      dataset: 'demo-support-qa',
      evaluators: [
        { type: 'exact_match', key: 'exact_match', output: 'answer', reference: 'answer', lowerIsBetter: false, ignoreCase: true },
        { type: 'contains', key: 'contains', output: null, reference: null, lowerIsBetter: false, ignoreCase: false },
        { type: 'json_valid', key: 'json_valid', output: null, reference: null, lowerIsBetter: false },
        { type: 'json_schema', key: 'json_schema', output: null, reference: null, lowerIsBetter: false, schema: { type: 'object', required: ['answer'] } },
        { type: 'regex', key: 'regex', output: null, reference: null, lowerIsBetter: false, pattern: '^[A-Z]', flags: 'i' },
        { type: 'similarity', key: 'similarity', output: null, reference: null, lowerIsBetter: false },
        { type: 'llm_judge', key: 'helpfulness', output: null, reference: null, lowerIsBetter: true, rubric: 'Is the answer correct and helpful for the question?', model: 'gpt-4o-mini' },
      ],
    });
    assert.ok(isEvaluatorsFile('qa/demo.evaluators.yaml') && isEvaluatorsFile('X.EVALUATORS.YML'));
    assert.ok(!isEvaluatorsFile('demo.prompt.yaml') && !isEvaluatorsFile('evaluators.yaml.bak'));
  });

  it('places an unknown type at the type, naming the types there are', () => {
    const text = 'dataset: d\nevaluators:\n  - type: exact\n';
    const p = only(text);
    assert.match(p.message, /Unknown evaluator type “exact”: use one of exact_match, contains, json_valid, json_schema, regex, similarity, llm_judge/);
    assert.deepEqual({ line: p.line, column: p.column }, placeOf(text, 'exact\n'));
  });

  it('places a missing pattern at its evaluator, and a regex that does not compile at the pattern', () => {
    const missing = 'dataset: d\nevaluators:\n  - type: regex\n    flags: i\n';
    const p = only(missing);
    assert.match(p.message, /Evaluator 1 \(regex\) needs `pattern`/);
    assert.deepEqual({ line: p.line, column: p.column }, placeOf(missing, 'type: regex'));

    const bad = "dataset: d\nevaluators:\n  - type: contains\n  - type: regex\n    pattern: '([a-z'\n";
    const q = only(bad);
    assert.match(q.message, /^`pattern` does not compile: Invalid regular expression: .*Unterminated/);
    assert.deepEqual({ line: q.line, column: q.column }, placeOf(bad, "'([a-z'"));
    assert.equal(q.endLine, q.line);
    assert.equal(q.endColumn, q.column + "'([a-z'".length);

    const flags = "dataset: d\nevaluators:\n  - type: regex\n    pattern: x\n    flags: gq\n";
    assert.match(only(flags).message, /`flags` “gq” are not regular-expression flags/);
  });

  it('refuses a JSON schema that is not valid, saying where in the schema', () => {
    const text = 'dataset: d\nevaluators:\n  - type: json_schema\n    schema:\n      type: object\n      properties:\n        answer: { type: strin }\n';
    const p = only(text);
    assert.match(p.message, /`schema` is not a valid JSON schema: properties\.answer\.type: “strin” is not a JSON type/);
    assert.deepEqual({ line: p.line, column: p.column }, placeOf(text, 'type: object'));
    assert.match(only('dataset: d\nevaluators:\n  - type: json_schema\n    schema: [1]\n').message, /`schema` must be a JSON schema/);
    assert.match(only('dataset: d\nevaluators:\n  - type: json_schema\n').message, /needs `schema`/);
    assert.deepEqual(checkJsonSchema({ type: 'object', required: 'answer' }), ['required: must be a list of property names']);
    assert.deepEqual(checkJsonSchema({ pattern: '(' }).length, 1);
    assert.deepEqual(checkJsonSchema({ type: ['string', 'null'], minLength: 1, items: { type: 'number' }, anyOf: [true, { const: 1 }] }), []);
  });

  it('names unknown keys where they are, with the keys the type takes', () => {
    const text = 'dataset: d\nevaluators:\n  - type: contains\n    ignorecase: true\nextra: 1\n';
    const { file, problems } = parseEvaluators(text);
    assert.equal(file, null);
    assert.equal(problems.length, 2);
    assert.match(problems[0]!.message, /Unknown key “ignorecase” in evaluator 1 \(contains\): it takes type, key, output, reference, lower_is_better, ignore_case/);
    assert.deepEqual({ line: problems[0]!.line, column: problems[0]!.column }, placeOf(text, 'ignorecase'));
    assert.match(problems[1]!.message, /Unknown key “extra”: an evaluators file has dataset and evaluators/);
    assert.deepEqual({ line: problems[1]!.line, column: problems[1]!.column }, { line: 4, column: 0 });
  });

  it('refuses duplicate YAML keys and two evaluators writing one feedback key', () => {
    const dupYaml = 'dataset: d\nevaluators:\n  - type: regex\n    pattern: a\n    pattern: b\n';
    const p = only(dupYaml);
    assert.match(p.message, /^Duplicate key/);
    assert.deepEqual({ line: p.line }, { line: placeOf(dupYaml, 'pattern', 1).line });

    const dupKey = 'dataset: d\nevaluators:\n  - type: contains\n  - type: exact_match\n    key: contains\n';
    const q = only(dupKey);
    assert.match(q.message, /Duplicate feedback key “contains”: evaluator 1 writes it too/);
    assert.deepEqual({ line: q.line, column: q.column }, placeOf(dupKey, 'contains', 1));
  });

  it('says what is wrong with bad YAML, a missing dataset, wrong value types and an empty list', () => {
    const bad = 'dataset: d\nevaluators:\n  - type: contains\n   bad: [\n';
    const { file, problems } = parseEvaluators(bad);
    assert.equal(file, null);
    assert.ok(problems.length >= 1 && problems.every((x) => x.message.startsWith('Not valid YAML')), JSON.stringify(problems));
    assert.match(only('evaluators:\n  - type: contains\n').message, /names no dataset/);
    assert.match(only('dataset: d\n').message, /has no `evaluators`/);
    assert.match(only('dataset: d\nevaluators: []\n').message, /`evaluators` is empty/);
    assert.match(only('dataset: d\nevaluators:\n  - type: contains\n    ignore_case: yes please\n').message, /`ignore_case` of evaluator 1 must be true or false/);
    assert.match(only('dataset: d\nevaluators:\n  - contains\n').message, /Evaluator 1 must be a mapping with a type/);
    assert.match(only('dataset: d\nevaluators:\n  - type: llm_judge\n').message, /needs `rubric`/);
    assert.match(only('- a\n- b\n').message, /is a mapping with `dataset`/);
  });

  it('never throws, and every problem lies within the text (fuzzed)', () => {
    const pieces = ['dataset: d\n', 'evaluators:\n', '  - type: regex\n', "    pattern: '('\n", '    flags: z\n', '  - type: json_schema\n', '    schema: {type: x}\n', '  - ', 'key: k\n', ': [', '{', '"', '\t', '&a ', '*a\n'];
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 8 })), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        const { file, problems } = parseEvaluators(text);
        const lines = text.split('\n');
        for (const p of problems) {
          assert.ok(p.line >= 0 && p.line < lines.length, JSON.stringify({ text, p }));
          assert.ok(p.column >= 0 && p.column <= lines[p.line]!.length);
          assert.ok(p.endLine > p.line || (p.endLine === p.line && p.endColumn >= p.column));
        }
        assert.ok(file === null || problems.length === 0);
      }),
      { numRuns: 300 },
    );
  });
});

describe('evaluators', () => {
  const spec = <T extends EvaluatorSpec['type']>(type: T, more: Record<string, unknown> = {}) => ({ ...base, key: type, type, ...more }) as EvaluatorSpec;

  it('exact_match: equal after trimming, case only with ignore_case', async () => {
    assert.equal((await evaluate(spec('exact_match', { ignoreCase: false }), run(' Paris ', 'Paris'))).score, 1);
    assert.equal((await evaluate(spec('exact_match', { ignoreCase: false }), run('paris', 'Paris'))).score, 0);
    assert.equal((await evaluate(spec('exact_match', { ignoreCase: true }), run('paris', 'Paris'))).score, 1);
  });

  it('contains: the reference within the output', async () => {
    assert.equal((await evaluate(spec('contains', { ignoreCase: false }), run('It is Paris.', 'Paris'))).score, 1);
    assert.equal((await evaluate(spec('contains', { ignoreCase: false }), run('It is paris.', 'Paris'))).score, 0);
    assert.equal((await evaluate(spec('contains', { ignoreCase: true }), run('It is paris.', 'Paris'))).score, 1);
  });

  it('a missing output or reference is a result without score that says which', async () => {
    const r = await evaluate(spec('exact_match', { ignoreCase: false }), run('x', undefined));
    assert.deepEqual(r, { key: 'exact_match', score: null, value: null, comment: 'The example has no reference output to compare with.' });
    const named = await evaluate({ ...spec('contains', { ignoreCase: false }), output: 'text' } as EvaluatorSpec, run('x', 'y'));
    assert.equal(named.score, null);
    assert.match(named.comment!, /no field “text”/);
    assert.equal((await evaluate(spec('json_valid'), run(undefined, 'y'))).comment, 'The run has no output.');
  });

  it('picks the named field (dotted), else the only or first string field, else the whole outputs as JSON', () => {
    assert.equal(pickText({ a: { b: 'deep' } }, 'a.b'), 'deep');
    assert.equal(pickText({ n: 1, s: 'text', t: 'later' }, null), 'text');
    assert.equal(pickText({ n: 1, m: [2] }, null), '{"n":1,"m":[2]}');
    assert.equal(pickText({ n: 1 }, 'n'), '1');
    assert.equal(pickText({}, null), null);
  });

  it('json_valid and json_schema', async () => {
    assert.equal((await evaluate(spec('json_valid'), run('{"a": 1}', 'x'))).score, 1);
    const bad = await evaluate(spec('json_valid'), run('{a: 1}', 'x'));
    assert.equal(bad.score, 0);
    assert.match(bad.comment!, /^The output is not JSON: /);
    const schema = { type: 'object', required: ['answer'], properties: { answer: { type: 'string' } } };
    assert.equal((await evaluate(spec('json_schema', { schema }), run('{"answer": "Paris"}', 'x'))).score, 1);
    const wrong = await evaluate(spec('json_schema', { schema }), run('{"answer": 3}', 'x'));
    assert.equal(wrong.score, 0);
    assert.match(wrong.comment!, /does not match the schema: \/answer: /);
    assert.equal((await evaluate(spec('json_schema', { schema }), run('nope', 'x'))).score, 0);
  });

  it('regex: tested afresh on each run, flags honoured', async () => {
    const s = spec('regex', { pattern: '^[a-z]+$', flags: 'g' });
    // A shared global expression would fail every second test; each run gets its own.
    for (let i = 0; i < 3; i++) assert.equal((await evaluate(s, run('abc', undefined))).score, 1);
    assert.equal((await evaluate(spec('regex', { pattern: '^paris', flags: 'i' }), run('PARIS!', undefined))).score, 1);
    assert.equal((await evaluate(spec('regex', { pattern: '^\\d+$', flags: '' }), run('12a', undefined))).score, 0);
  });

  it('similarity: one minus the word edit distance over the longer word count', async () => {
    assert.equal(similarity('The capital is Paris', 'the capital is paris!'), 1);
    assert.equal(similarity('a b c d', 'a b x d'), 0.75);
    assert.equal(similarity('a b c d', 'a b'), 0.5);
    assert.equal(similarity('', '...'), 1);
    assert.equal(similarity('word', ''), 0);
    assert.equal((await evaluate(spec('similarity'), run('a b c', 'a b d'))).score, 0.6667);
  });

  it('similarity is symmetric, within 0–1, and 1 exactly for the same words (fuzzed)', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'c', 'Paris', 'is', ',', ' ', 'the'), { maxLength: 30 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(text, text, (a, b) => {
        const s = similarity(a, b);
        assert.ok(s >= 0 && s <= 1);
        assert.equal(s, similarity(b, a));
        assert.equal(similarity(a, a.toUpperCase()), 1);
      }),
      { numRuns: 300 },
    );
  });

  it('llm_judge: the layout of the messages, the score and comment of its answer', async () => {
    const seen: { messages: { role: string; content: string }[]; model: string | null }[] = [];
    const judge: JudgeCall = async (messages, o) => {
      seen.push({ messages, model: o.model });
      return 'Here you go:\n```json\n{"score": 0.8, "comment": "Mostly right."}\n```';
    };
    const s = spec('llm_judge', { key: 'helpfulness', rubric: 'Is it right?', model: 'judge-model' });
    const r = await evaluate(s, run('It is Paris.', 'Paris', { question: 'Capital of France?' }), { judge });
    assert.deepEqual(r, { key: 'helpfulness', score: 0.8, value: null, comment: 'Mostly right.' });
    assert.equal(seen[0]!.model, 'judge-model');
    const [system, user] = seen[0]!.messages;
    assert.ok(system!.content.startsWith(JUDGE_SYSTEM_PREFIX));
    assert.equal(system!.role, 'system');
    const lines = user!.content.split('\n');
    for (const h of Object.values(JUDGE_HEADINGS)) assert.ok(lines.includes(h), `${h} on a line of its own`);
    const after = (h: string) => lines[lines.indexOf(h) + 1];
    assert.equal(after(JUDGE_HEADINGS.rubric), 'Is it right?');
    assert.equal(after(JUDGE_HEADINGS.input), 'Capital of France?');
    assert.equal(after(JUDGE_HEADINGS.reference), 'Paris');
    assert.equal(after(JUDGE_HEADINGS.answer), 'It is Paris.');
    assert.deepEqual(judgeMessages('r', { inputs: { a: 1, b: 'x' }, outputs: null, referenceOutputs: null }, 'ans', null)[1]!.content.split('\n').slice(3, 7), ['## Input', '{', '  "a": 1,', '  "b": "x"']);
  });

  it('llm_judge: an answer that is not the JSON asked for, or a failing judge, is a comment, not a crash', async () => {
    const s = spec('llm_judge', { rubric: 'r', model: null });
    const prose = await evaluate(s, run('x', 'y'), { judge: async () => 'I think it is fine.' });
    assert.equal(prose.score, null);
    assert.match(prose.comment!, /^The judge's answer is not \{"score": 0–1, "comment": "…"\} JSON: I think it is fine\./);
    const outOfRange = await evaluate(s, run('x', 'y'), { judge: async () => '{"score": 7, "comment": "great"}' });
    assert.equal(outOfRange.score, null);
    const failing = await evaluate(s, run('x', 'y'), {
      judge: async () => {
        throw new Error('503 Service Unavailable');
      },
    });
    assert.deepEqual([failing.score, failing.comment], [null, 'The judge failed: 503 Service Unavailable']);
    const ctl = new AbortController();
    ctl.abort(new Error('stopped'));
    await assert.rejects(
      evaluate(s, run('x', 'y'), {
        signal: ctl.signal,
        judge: async () => {
          throw new Error('aborted');
        },
      }),
      /stopped/,
    );
  });

  it('reads judge answers robustly', () => {
    assert.deepEqual(parseJudgeAnswer('{"score": 1, "comment": "ok"}'), { score: 1, comment: 'ok' });
    assert.deepEqual(parseJudgeAnswer('Score below.\n{"score": "0.25", "comment": "weak {really}"} done'), { score: 0.25, comment: 'weak {really}' });
    assert.deepEqual(parseJudgeAnswer('{"score": 0}'), { score: 0, comment: null });
    assert.equal(parseJudgeAnswer('{"comment": "no score"}'), null);
    assert.equal(parseJudgeAnswer(''), null);
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = parseJudgeAnswer(s);
        assert.ok(r === null || (r.score >= 0 && r.score <= 1));
      }),
    );
  });
});

describe('runner helpers', () => {
  const manifest = {
    lc: 1,
    type: 'constructor',
    id: ['langchain_core', 'prompts', 'chat', 'ChatPromptTemplate'],
    kwargs: {
      input_variables: ['question', 'tone'],
      messages: [
        {
          lc: 1,
          type: 'constructor',
          id: ['langchain_core', 'prompts', 'chat', 'HumanMessagePromptTemplate'],
          kwargs: { prompt: { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'prompt', 'PromptTemplate'], kwargs: { template: '{question} ({tone})', template_format: 'f-string', input_variables: ['question', 'tone'] } } },
        },
      ],
    },
  };

  it('names the variables no input field fills, with the fields to choose from', () => {
    assert.deepEqual(unmappedVariables(manifest, { question: 'q', meta: { style: 'dry' } }, {}), [{ variable: 'tone', fields: ['meta', 'meta.style', 'question'] }]);
    assert.deepEqual(unmappedVariables(manifest, [{ question: 'q' }, { question: 'r', meta: { style: 'dry' } }], { tone: 'meta.style' }), []);
    assert.deepEqual(promptValues(['question', 'tone'], { q: 'hi', meta: { style: 'dry' } }, { question: 'q', tone: 'meta.style' }), { question: 'hi', tone: 'dry' });
  });

  it('names an experiment after the prompt and the time', () => {
    const d = new Date(2026, 0, 2, 3, 4, 5);
    assert.equal(experimentName('me/support-qa:abc123', d), 'support-qa-20260102-030405');
    assert.equal(experimentName('support-qa', d), 'support-qa-20260102-030405');
  });
});
