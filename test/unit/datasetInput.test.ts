import assert from 'node:assert/strict';
import { csvHeader } from '../../src/common/csv';
import { datasetNameFromFile, parseJsonObject, validateJsonObject, validateSplitName, validateTagName, validateWholeNumber } from '../../src/common/datasetInput';

describe('CSV header', () => {
  it('reads the column names of the first row (quoted, with a BOM)', () => {
    assert.deepEqual(csvHeader('\uFEFFquestion,"the answer",topic\nq1,a1,t1\n'), ['question', 'the answer', 'topic']);
    assert.deepEqual(csvHeader('a,b'), ['a', 'b']);
  });

  it('refuses an empty file, a blank header and repeated names', () => {
    assert.throws(() => csvHeader('', 'qa.csv'), { message: 'qa.csv is empty or has no header row: the first line must name the columns.' });
    assert.throws(() => csvHeader('\n\n'), /is empty or has no header row/);
    assert.throws(() => csvHeader(',,\n1,2,3'), /is empty or has no header row/);
    assert.throws(() => csvHeader('a,b,a\n'), { message: 'The file names the column “a” twice; column names must be unique.' });
  });

  it('names a dataset after its file', () => {
    assert.equal(datasetNameFromFile('/tmp/x/support-qa.csv'), 'support-qa');
    assert.equal(datasetNameFromFile('C:\\data\\my.file.csv'), 'my.file');
    assert.equal(datasetNameFromFile('noext'), 'noext');
  });
});

describe('dataset input validation', () => {
  it('tags: one word', () => {
    assert.equal(validateTagName(''), 'Give the tag a name.');
    assert.equal(validateTagName('release 1'), 'A tag has no spaces; use - or _ instead.');
    assert.equal(validateTagName(' v1 '), undefined);
  });

  it('split names: present, short, printable', () => {
    assert.equal(validateSplitName('  '), 'Give the split a name.');
    assert.equal(validateSplitName('x'.repeat(101)), 'Keep the split name under 100 characters.');
    assert.equal(validateSplitName('test'), undefined);
  });

  it('JSON objects: parse errors are shown, arrays and values refused, empty only when optional', () => {
    const required = validateJsonObject('inputs');
    assert.equal(required(''), 'Enter the inputs as a JSON object, e.g. {"question": "What is LangSmith?"}');
    assert.match(required('{"a": }')!, /^That is not valid JSON: /);
    assert.equal(required('[1]'), 'Enter a JSON object ({ … }), not an array or a single value.');
    assert.equal(required('"x"'), 'Enter a JSON object ({ … }), not an array or a single value.');
    assert.equal(required('{"a": 1}'), undefined);
    assert.equal(validateJsonObject('outputs', true)(''), undefined);
    assert.deepEqual(parseJsonObject(' {"a": [1]} '), { a: [1] });
  });

  it('whole numbers in a range', () => {
    const limit = validateWholeNumber(1, 100);
    for (const bad of ['', '0', '101', '2.5', '-3', 'ten']) assert.equal(limit(bad), 'Enter a whole number from 1 to 100.');
    assert.equal(limit(' 10 '), undefined);
  });
});
