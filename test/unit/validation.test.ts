import assert from 'node:assert/strict';
import {
  comparisonProblem,
  parseCorrection,
  parseFeedbackScore,
  validateApiKeyInput,
  validateCorrection,
  validateEndpointInput,
  validateExpiryHours,
  validateFeedbackKey,
  validateFeedbackScore,
  validateName,
  validatePromptName,
} from '../../src/common/validation';

describe('input validation', () => {
  it('API keys: present, one word, not too short', () => {
    assert.equal(validateApiKeyInput(''), 'Enter your LangSmith API key.');
    assert.equal(validateApiKeyInput('   '), 'Enter your LangSmith API key.');
    assert.equal(validateApiKeyInput('lsv2 pt abc'), 'An API key has no spaces or line breaks.');
    assert.equal(validateApiKeyInput('abc'), 'That is too short to be a LangSmith API key.');
    assert.equal(validateApiKeyInput('  local-dev-key  '), undefined);
  });

  it('endpoints: an http(s) URL without credentials, query or fragment', () => {
    assert.match(validateEndpointInput('')!, /^Enter the URL/);
    assert.equal(validateEndpointInput('smith.langchain.com'), 'That is not a URL: start with https:// (or http:// for a local server).');
    assert.equal(validateEndpointInput('ftp://host'), 'Use an http:// or https:// URL.');
    assert.equal(validateEndpointInput('https://me:pw@host/api/v1'), 'Leave credentials out of the URL; the API key is asked for next.');
    assert.equal(validateEndpointInput('https://host/api/v1?x=1'), 'Leave query strings and fragments out of the endpoint URL.');
    assert.equal(validateEndpointInput('https://langsmith.example.com/api/v1'), undefined);
    assert.equal(validateEndpointInput('http://127.0.0.1:1984'), undefined);
  });

  it('names of projects, datasets and queues', () => {
    const v = validateName('dataset');
    assert.equal(v(''), 'Give the dataset a name.');
    assert.equal(v('x'.repeat(201)), 'Keep the dataset name under 200 characters.');
    assert.equal(v('bad\u0007name'), 'Names cannot contain control characters.');
    assert.equal(v('Support QA (v2)'), undefined);
  });

  it('prompt names follow the hub handle rules', () => {
    assert.equal(validatePromptName(''), 'Give the prompt a name.');
    assert.equal(validatePromptName('My Prompt'), 'Use lowercase letters, digits, - and _ (starting with a letter or digit).');
    assert.equal(validatePromptName('-leading'), 'Use lowercase letters, digits, - and _ (starting with a letter or digit).');
    assert.equal(validatePromptName('x'.repeat(101)), 'Keep the prompt name under 100 characters.');
    assert.equal(validatePromptName('rag-answer_v2'), undefined);
  });

  it('feedback keys: present, no spaces, at most 100 characters', () => {
    assert.equal(validateFeedbackKey('  '), 'Enter a feedback key, e.g. correctness.');
    assert.equal(validateFeedbackKey('user score'), 'A feedback key has no spaces: use _ or -, e.g. user_score.');
    assert.equal(validateFeedbackKey('k'.repeat(101)), 'Keep the feedback key to 100 characters or fewer.');
    assert.equal(validateFeedbackKey('k'.repeat(100)), undefined);
    assert.equal(validateFeedbackKey(' correctness '), undefined);
  });

  it('feedback scores: a number or nothing', () => {
    const message = 'The score is a number such as 1, 0 or 0.75; leave it empty to give a text value instead.';
    for (const bad of ['good', '1,5', '0x10', 'Infinity', '1e999', '.']) assert.equal(validateFeedbackScore(bad), message, bad);
    for (const ok of ['', ' ', '1', '0', '-2', '0.75', '.5', '1e-3']) assert.equal(validateFeedbackScore(ok), undefined, ok);
    assert.equal(parseFeedbackScore(' 0.75 '), 0.75);
    assert.equal(parseFeedbackScore('0'), 0);
    assert.equal(parseFeedbackScore(''), undefined);
  });

  it('corrections: text, or JSON when they start like JSON', () => {
    assert.match(validateCorrection('{"answer": ')!, /^The correction starts like JSON but does not parse \(.+\); fix it or write plain text\.$/);
    assert.equal(validateCorrection('{"answer": "42"}'), undefined);
    assert.equal(validateCorrection('the answer is 42'), undefined);
    assert.equal(validateCorrection(''), undefined);
    assert.deepEqual(parseCorrection(' {"answer": "42"} '), { answer: '42' });
    assert.deepEqual(parseCorrection('[1, 2]'), [1, 2]);
    assert.equal(parseCorrection('the answer is 42'), 'the answer is 42');
    assert.equal(parseCorrection('  '), undefined);
  });

  it('feedback link expiry: whole hours from 1 to 720', () => {
    const message = 'Enter a whole number of hours from 1 to 720 (30 days).';
    for (const bad of ['', '0', '721', '1.5', '-3', 'three']) assert.equal(validateExpiryHours(bad), message, bad);
    for (const ok of ['1', '3', ' 24 ', '720']) assert.equal(validateExpiryHours(ok), undefined, ok);
  });

  it('comparisons need two or more experiments of one dataset', () => {
    const a = { name: 'exp-a', referenceDatasetId: 'd1' };
    const b = { name: 'exp-b', referenceDatasetId: 'd1' };
    const c = { name: 'exp-c', referenceDatasetId: 'd2' };
    assert.equal(comparisonProblem([a]), 'Select two or more experiment projects (Ctrl/Cmd-click) to compare them.');
    assert.equal(comparisonProblem([]), 'Select two or more experiment projects (Ctrl/Cmd-click) to compare them.');
    assert.equal(comparisonProblem([a, c]), 'The selected experiments were run on different datasets; only experiments of the same dataset can be compared.');
    assert.equal(comparisonProblem([a, { name: 'tracing', referenceDatasetId: null }]), '“tracing” is not an experiment (it has no reference dataset); select experiment projects only.');
    assert.equal(comparisonProblem([a, b]), undefined);
  });
});
