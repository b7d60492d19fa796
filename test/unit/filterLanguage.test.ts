// The editor's reading of LangSmith's filter language (src/protocol/filterLanguage.ts): LangSmith's documented
// examples pass, each kind of mistake is named at its place, completion offers what fits where the cursor is, the
// chips' joins keep the filter's meaning, no text makes it throw, and what it passes the local server compiles too.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileRunFilter } from '../../server/filter';
import {
  checkRunFilter,
  completeFilter,
  parseFilter,
  quote,
  RUN_FILTER_FIELDS,
  topConditions,
  withCondition,
  withoutCondition,
} from '../../src/protocol/filterLanguage';

const labels = (text: string, offset = text.length, seen = {}) => completeFilter(text, offset, seen).items.map((i) => i.label);

describe('filter language', () => {
  it('passes the filters LangSmith documents', () => {
    for (const f of [
      'eq(run_type, "llm")',
      'and(eq(status, "error"), gt(latency, "5s"))',
      'and(eq(run_type, "llm"), gt(latency, 5))',
      'has(tags, "prod")',
      'and(eq(feedback_key, "correctness"), eq(feedback_score, 0))',
      'and(eq(metadata_key, "model"), eq(metadata_value, "gpt-4o"))',
      'search("refund")',
      'or(eq(name, "A"), not(eq(name, "B")))',
      'in(run_type, ["llm", "tool"])',
      'gte(start_time, "2026-11-29T08:00:00Z")',
      'eq(metadata.user_id, "42")',
      'gt(total_tokens, 1000)',
      'lt(total_cost, 0.5)',
      '',
      '   ',
    ]) {
      assert.equal(checkRunFilter(f), undefined, f);
    }
  });

  it('names each mistake at its place', () => {
    const cases: [string, RegExp, string][] = [
      ['eq(status, "eror")', /status is one of "success", "error", "pending"/, '"eror"'],
      ['eq(run_type, "agent")', /run_type is one of/, '"agent"'],
      ['gt(latency, "fast")', /latency takes seconds or a duration/, '"fast"'],
      ['gte(start_time, "yesterday")', /start_time takes a time/, '"yesterday"'],
      ['eq(nme, "x")', /“nme” is not a run field/, 'nme'],
      ['equals(name, "x")', /“equals” is not a function/, 'equals'],
      ['eq(name)', /eq\(\) takes two arguments/, 'eq(name)'],
      ['and()', /and\(\) needs at least one condition/, 'and()'],
      ['and(eq(name, "x")', /and\( has no closing \)/, ''],
      ['eq(name, "x', /this text has no closing "/, '"x'],
      ['eq(name, "x") eq(name, "y")', /more after the end of the filter/, 'eq(name, "y")'],
      ['eq(is_root, "maybe")', /is_root is true or false/, '"maybe"'],
      ['has(name, "x")', /has\(\) looks in a list such as tags/, 'name'],
      ['gt(tags, "x")', /tags is a list: use has\(tags, "x"\)/, 'gt(tags, "x")'],
      ['in(name, "x")', /in\(\) takes a list/, '"x"'],
      ['search(name)', /search\(\) takes one quoted text/, 'search(name)'],
      ['"just text"', /expected a condition/, '"just text"'],
      ['eq(name, )', /cannot start a value/, ')'],
    ];
    for (const [text, message, marked] of cases) {
      const p = checkRunFilter(text);
      assert.ok(p, `${text} passed`);
      assert.match(p.message, message, text);
      if (marked) assert.equal(text.slice(p.start, p.end), marked, `${text}: marks ${JSON.stringify(text.slice(p.start, p.end))}`);
      assert.ok(p.start >= 0 && p.end <= Math.max(text.length, p.start + 1) && p.start < p.end, `${text}: a place inside the text`);
    }
  });

  it('completes functions where a condition starts, fields after fn(, and values after the field', () => {
    assert.deepEqual(labels(''), ['and', 'or', 'not', 'eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'has', 'in', 'search', 'exists']);
    assert.deepEqual(labels('g'), ['gt', 'gte']);
    assert.deepEqual(labels('and(eq(status, "error"), g'), ['gt', 'gte']);
    assert.ok(labels('eq(').includes('status') && !labels('eq(').includes('metadata'), 'fields, not objects');
    assert.deepEqual(labels('has('), ['tags']);
    assert.deepEqual(labels('eq(lat'), ['latency']);
    assert.deepEqual(labels('eq(status, '), ['success', 'error', 'pending']);
    assert.deepEqual(labels('eq(status, "e'), ['error']);
    assert.deepEqual(labels('eq(run_type, "l'), ['llm']);
    assert.deepEqual(labels('eq(name, "Re', undefined, { names: ['RefundAgent', 'SupportPipeline'] }), ['RefundAgent']);
    assert.deepEqual(labels('and(has(tags, "prod"), eq(feedback_key, ', undefined, { feedbackKeys: ['correctness'] }), ['correctness']);
    assert.deepEqual(labels('eq(status, "error")'), [], 'nothing after a whole filter');
    assert.deepEqual(labels('and(has(tags, "prod")'), [], 'nothing right after a closed condition');
    // The replaced range covers the word (and a quoted value with its quotes).
    const c = completeFilter('eq(status, "er")', 14);
    assert.deepEqual([c.from, c.to], [11, 15]);
    assert.equal(c.items[0]!.insert, '"error"');
  });

  it('joins and removes top-level conditions without changing the others', () => {
    assert.equal(withCondition('', 'eq(status, "error")'), 'eq(status, "error")');
    assert.equal(withCondition('eq(status, "error")', 'gt(latency, "5s")'), 'and(eq(status, "error"), gt(latency, "5s"))');
    assert.equal(withCondition('and(eq(a, 1), eq(b, 2))'.replace(/\b([ab])\b/g, 'name'), 'has(tags, "x")'), 'and(eq(name, 1), eq(name, 2), has(tags, "x"))');
    assert.equal(withCondition('or(eq(name, "a"), eq(name, "b"))', 'has(tags, "x")'), 'and(or(eq(name, "a"), eq(name, "b")), has(tags, "x"))');
    assert.deepEqual(topConditions('and(eq(status, "error"), gt(latency, "5s"))').map((c) => c.text), ['eq(status, "error")', 'gt(latency, "5s")']);
    assert.equal(withoutCondition('and(eq(status, "error"), gt(latency, "5s"))', 0), 'gt(latency, "5s")');
    assert.equal(withoutCondition('and(eq(status, "error"), gt(latency, "5s"), has(tags, "p"))', 1), 'and(eq(status, "error"), has(tags, "p"))');
    assert.equal(withoutCondition('eq(status, "error")', 0), '');
    assert.equal(quote('say "hi" \\ there'), '"say \\"hi\\" \\\\ there"');
    assert.equal(parseFilter(`eq(name, ${quote('say "hi" \\ there')})`).node?.kind, 'call');
  });

  it('never throws, whatever the text, and places every problem inside it', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'and(eq,"x" )[]\\\'0.5s status name'.split('')), maxLength: 60 }), (text) => {
        const p = checkRunFilter(text);
        if (p) assert.ok(p.start >= 0 && p.start <= text.length && p.end > p.start);
        const c = completeFilter(text, text.length);
        assert.ok(c.from >= 0 && c.from <= text.length && c.to >= c.from);
      }),
      { numRuns: 3000 },
    );
  });

  it('what it passes, the local server compiles (the same language on both sides)', () => {
    const serverFields = RUN_FILTER_FIELDS.filter((f) => f.type !== 'object');
    const value = (type: string) =>
      ({ status: fc.constantFrom('"error"', '"success"'), runType: fc.constantFrom('"llm"', '"chain"'), duration: fc.constantFrom('"5s"', '2', '"500ms"'), time: fc.constant('"2026-11-29T08:00:00Z"'), number: fc.constantFrom('1', '0.5') })[type] ??
      fc.constantFrom('"x"', '"prod"');
    const leaf = fc.constantFrom(...serverFields).chain((f) =>
      f.type === 'list' ? value('text').map((v) => `has(${f.name}, ${v})`) : fc.tuple(fc.constantFrom('eq', 'neq', 'gt', 'lt'), value(f.type)).map(([fn, v]) => `${fn}(${f.name}, ${v})`),
    );
    const filter = fc.letrec<{ f: string }>((tie) => ({ f: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('f'), { minLength: 1, maxLength: 3 }).map((a) => `and(${a.join(', ')})`), tie('f').map((x) => `not(${x})`)) })).f;
    fc.assert(
      fc.property(filter, (f) => {
        if (checkRunFilter(f)) return;
        compileRunFilter(f);
      }),
      { numRuns: 500 },
    );
  });
});
