import assert from 'node:assert/strict';
import { validateApiKeyInput, validateEndpointInput, validateName, validatePromptName } from '../../src/common/validation';

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
});
