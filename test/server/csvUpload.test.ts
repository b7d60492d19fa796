// CSV upload (POST /datasets/upload), fuzzed: the columns the extension reads from a file (src/common/csv.ts) are the
// columns the server reads from it, so any of them chosen as inputs or outputs uploads; any other body is a 4xx.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { csvHeader } from '../../src/common/csv';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
// Not among the names: "__proto__" (the server reads rows into plain objects, where that name is lost) and line
// breaks (a form field's line breaks are sent as CRLF, by the FormData rules, so "a\nb" arrives as "a\r\nb").
const csvName = fc.oneof(
  fc.stringMatching(/^[a-z][a-z_ ]{0,7}$/),
  fc.constantFrom(' answer', 'q ', ' ', 'x,y', 'say "hi"', 'é', 'constructor', '\t'),
  fc.string({ maxLength: 5 }).filter((s) => s !== '__proto__' && !/[\r\n]/.test(s)),
);

function upload(srv: ReturnType<ReturnType<typeof withLocalServer>>, csv: string, inputKeys: string[], outputKeys: string[], name: string) {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'data.csv');
  form.append('name', name);
  for (const k of inputKeys) form.append('input_keys', k);
  for (const k of outputKeys) form.append('output_keys', k);
  form.append('data_type', 'kv');
  return rawRequest(srv, 'POST', '/datasets/upload', undefined, { rawBody: form });
}

describe('fuzz: CSV upload', function () {
  this.timeout(120_000);
  const srv = withLocalServer();
  let n = 0;

  it('the columns csvHeader reads upload as inputs and outputs, with those names', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(csvName, { minLength: 1, maxLength: 4 }),
        fc.array(fc.string({ maxLength: 4 }), { maxLength: 12 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        async (names, cells, nl, bom) => {
          const rows = cells.length ? [cells.slice(0, names.length), cells.slice(names.length, 2 * names.length)].filter((r) => r.length === names.length) : [];
          const csv = `${bom ? '\ufeff' : ''}${names.map(quote).join(',')}${rows.map((r) => nl + r.map(quote).join(',')).join('')}${nl}`;
          let columns: string[];
          try {
            columns = csvHeader(csv, 'data.csv');
          } catch {
            return; // blank or repeated names: the extension stops before uploading
          }
          const [first, ...rest] = columns;
          const res = await upload(srv(), csv, [first!], rest, `fuzz-${++n}`);
          assert.equal(res.status, 201, `${JSON.stringify(csv)} → ${res.status} ${res.text.slice(0, 300)}`);
          const examples = (await rawRequest(srv(), 'GET', `/examples?dataset=${res.body.id}`)).body as Array<{ inputs: object; outputs: object | null }>;
          // The same names (a JSON object lists integer-like keys first, so the order may differ).
          const sorted = (a: string[]) => [...a].sort();
          for (const e of examples) {
            assert.deepEqual(Object.keys(e.inputs), [first]);
            assert.deepEqual(sorted(Object.keys(e.outputs ?? {})), sorted(rest));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('any file and any keys: 201 or a 4xx with a detail, never a 500', async () => {
    const soup = fc.array(fc.constantFrom('a', 'b', ',', '"', '""', '\n', '\r\n', ' ', '\ufeff', ';', 'x y', '\u0000'), { maxLength: 40 }).map((a) => a.join(''));
    await fc.assert(
      fc.asyncProperty(fc.oneof(soup, fc.string({ maxLength: 80 })), fc.array(fc.constantFrom('a', 'b', 'x y', '', ' a'), { maxLength: 3 }), async (csv, keys) => {
        const res = await upload(srv(), csv, keys, [], `soup-${++n}`);
        assert.ok(res.status === 201 || (res.status >= 400 && res.status < 500 && typeof res.body?.detail === 'string'), `${JSON.stringify(csv)} ${JSON.stringify(keys)} → ${res.status} ${res.text.slice(0, 200)}`);
      }),
      { numRuns: 60 },
    );
    assert.equal(srv().server.stats().internalErrors, 0);
  });

  it('regression: a header written "question, answer" uploads with the column " answer" the extension offers', async () => {
    const csv = 'question, answer\nWhat is 2+2?,4\n';
    const columns = csvHeader(csv, 'data.csv');
    assert.deepEqual(columns, ['question', ' answer']);
    const res = await upload(srv(), csv, ['question'], [' answer'], 'spaced-header');
    assert.equal(res.status, 201, res.text);
  });
});
