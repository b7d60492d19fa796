// The example editor's field-by-field view of inputs and outputs (webview-ui/src/apps/exampleEditor/fields.ts): a
// string as text, any other value as JSON. Properties over any object (fast-check): the fields give back exactly the
// object they were made from, key order included; a text field holds nothing a textarea would change; editing one
// field leaves every other value as it was. Cases: Windows line breaks kept, mixed line breaks and control
// characters edited as JSON, a field that is not JSON reported at its key, a key named __proto__.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { asText, editsAsFields, fromFields, fromText, rowsFor, toFields, type FieldText } from '../../webview-ui/src/apps/exampleEditor/fields';

/** What a textarea does to a value set on it (HTML: newlines normalized). */
const textarea = (text: string) => text.replace(/\r\n?/g, '\n');

/** Strings rich in what breaks text round trips: line breaks of every kind, tabs, spaces, controls, surrogates, Unicode. */
const piece = fc.oneof(
  fc.constantFrom('\n', '\r\n', '\r', '\t', ' ', '  ', 'é', 'e\u0301', '🙂', '\u0007', '\u0000', '\u007f', '\ud800', '\udc00', '"', '\\', '\u2028'),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 4 }),
);
const tricky = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));
const value = fc.oneof({ weight: 3, arbitrary: tricky }, fc.jsonValue({ maxDepth: 2 }));
/** An object as it comes from the server: parsed from JSON (so -0 is 0, as no JSON writer here sends -0). */
const object = fc
  .dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', '0', '10', '')), value, { maxKeys: 8 })
  .map((v) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>);

const ok = (fields: readonly FieldText[]) => {
  const r = fromFields(fields, 'inputs');
  if (!r.ok) assert.fail(`fields did not parse: ${[...r.errors.values()].join(' | ')}`);
  return r.value;
};

describe('example editor: inputs and outputs field by field', () => {
  it('gives back exactly the object the fields were made from, key order included, through a textarea', () => {
    fc.assert(
      fc.property(object, (v) => {
        // What the page shows and reads back: each text as a textarea would hold it.
        const shown = toFields(v).map((f) => ({ ...f, text: textarea(f.text) }));
        const back = ok(shown);
        assert.deepStrictEqual(back, v);
        assert.deepEqual(Object.keys(back), Object.keys(v));
        for (const f of shown) {
          if (f.kind === 'text') assert.equal(typeof Object.getOwnPropertyDescriptor(v, f.key)!.value, 'string');
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('shows a string as text exactly when a textarea gives it back unchanged', () => {
    fc.assert(
      fc.property(tricky, (s) => {
        const t = asText(s);
        if (t) {
          assert.equal(textarea(t.text), t.text, 'a textarea would change it');
          assert.equal(fromText({ key: 'k', kind: 'text', ...t }), s);
          // eslint-disable-next-line no-control-regex
          assert.doesNotMatch(t.text, /[\u0000-\u0008\u000b-\u001f\u007f]/, 'a hidden control character in a text field');
        } else {
          // Not text: a line break a textarea changes, a control character, or a lone surrogate.
          // eslint-disable-next-line no-control-regex
          assert.ok(/\r(?!\n)|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|\r\n[^]*(?<!\r)\n|(?<!\r)\n[^]*\r\n|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s), JSON.stringify(s));
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('editing one field leaves every other value exactly as it was', () => {
    fc.assert(
      fc.property(object.filter((v) => Object.keys(v).length > 0), fc.nat(), tricky, (v, n, typed) => {
        const fields = toFields(v);
        const i = n % fields.length;
        const edited = fields.map((f, j) => (j === i ? { ...f, kind: 'text' as const, text: textarea(typed), crlf: undefined } : f));
        const back = ok(edited);
        const key = fields[i]!.key;
        assert.equal(Object.getOwnPropertyDescriptor(back, key)!.value, textarea(typed));
        for (const k of Object.keys(v)) if (k !== key) assert.deepStrictEqual(Object.getOwnPropertyDescriptor(back, k)!.value, Object.getOwnPropertyDescriptor(v, k)!.value);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps Windows line breaks: shown as line breaks, a new line written as \\r\\n', () => {
    const [field] = toFields({ transcript: 'user: hi\r\nbot: hello\r\n' });
    assert.deepEqual(field, { key: 'transcript', kind: 'text', text: 'user: hi\nbot: hello\n', crlf: true });
    assert.deepEqual(ok([{ ...field!, text: `${field!.text}user: bye\n` }]), { transcript: 'user: hi\r\nbot: hello\r\nuser: bye\r\n' });
  });

  it('edits as JSON what a text field would change or hide', () => {
    const fields = toFields({ mixed: 'a\r\nb\nc', cr: 'a\rb', bell: 'ring\u0007', lone: 'x\ud800', n: 3, list: [1, 'two'], none: null, nested: { a: 'b\nc' } });
    assert.deepEqual(
      fields.map((f) => [f.key, f.kind, f.text]),
      [
        ['mixed', 'json', '"a\\r\\nb\\nc"'],
        ['cr', 'json', '"a\\rb"'],
        ['bell', 'json', '"ring\\u0007"'],
        ['lone', 'json', '"x\\ud800"'],
        ['n', 'json', '3'],
        ['list', 'json', '[\n  1,\n  "two"\n]'],
        ['none', 'json', 'null'],
        ['nested', 'json', '{\n  "a": "b\\nc"\n}'],
      ],
    );
    // Tabs, trailing spaces, combining marks and emoji are text.
    assert.deepEqual(toFields({ s: '\tindent  \ne\u0301 🙂 ' }), [{ key: 's', kind: 'text', text: '\tindent  \ne\u0301 🙂 ' }]);
  });

  it('reports each field that is not JSON at its key and builds nothing', () => {
    const r = fromFields(
      [
        { key: 'question', kind: 'text', text: 'fine' },
        { key: 'n', kind: 'json', text: 'three' },
        { key: 'empty', kind: 'json', text: '  ' },
      ],
      'inputs',
    );
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual([...r.errors.keys()], ['n', 'empty']);
    assert.match(r.errors.get('n')!, /^inputs\.n is not valid JSON: /);
    assert.match(r.errors.get('empty')!, /^inputs\.empty is empty: write a JSON value/);
  });

  it('keeps a key named __proto__ as an own field', () => {
    const v = JSON.parse('{"__proto__": "text\\nhere", "b": 1}') as Record<string, unknown>;
    const back = ok(toFields(v));
    assert.deepEqual(Object.keys(back), ['__proto__', 'b']);
    assert.equal(Object.getPrototypeOf(back), Object.prototype);
    assert.equal(JSON.stringify(back), JSON.stringify(v));
  });

  it('edits as fields only an object with keys; sizes each field to its text', () => {
    assert.equal(editsAsFields(null), false);
    assert.equal(editsAsFields({}), false);
    assert.equal(editsAsFields({ a: 1 }), true);
    assert.equal(rowsFor('one line'), 1);
    assert.equal(rowsFor('a\nb\nc'), 3);
    assert.equal(rowsFor('x'.repeat(200)), 3);
    assert.equal(rowsFor('\n'.repeat(100)), 16);
  });
});
