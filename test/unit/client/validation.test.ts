import assert from 'node:assert/strict';
import { LangSmithClient, LangSmithValidationError, parsePromptIdentifier, parsePublicToken } from '../../../src/client';

/** A client whose every request fails the test: validation must happen before any call. */
function offline(): LangSmithClient {
  return new LangSmithClient({
    apiUrl: 'http://127.0.0.1:9',
    apiKey: 'k',
    fetch: (() => {
      throw new Error('no request may be sent');
    }) as typeof fetch,
  });
}

const ID = '8a2d3a0e-5a3b-4c1e-9f7e-2b1d2c3e4f50';

describe('client validation (before any call)', () => {
  const c = offline();
  const cases: [string, () => unknown, string][] = [
    ['invalid id', () => c.examples.read('nope'), 'Invalid UUID for exampleId: nope'],
    ['dataset id and name', () => c.datasets.read({ datasetId: ID, datasetName: 'x' }), 'Must provide either datasetName or datasetId, not both'],
    ['dataset neither', () => c.datasets.read({}), 'Must provide either datasetName or datasetId'],
    ['examples neither', () => c.examples.create({ examples: [] }), 'Must provide either datasetName or datasetId'],
    ['project neither', () => c.projects.read({}), 'Must provide projectName or projectId'],
    ['project both', () => c.projects.read({ projectId: ID, projectName: 'p' }), 'Must provide either projectName or projectId, not both'],
    ['version neither', () => c.datasets.readVersion({ datasetId: ID }), 'Exactly one of asOf and tag must be specified.'],
    ['version both', () => c.datasets.readVersion({ datasetId: ID, asOf: new Date(), tag: 'v1' }), 'Exactly one of asOf and tag must be specified.'],
    ['feedback neither', () => c.feedback.create({ key: 'k' }), 'One of runId or projectId must be provided'],
    ['feedback both', () => c.feedback.create({ key: 'k', runId: ID, projectId: ID }), 'Only one of runId or projectId can be provided'],
    ['comparative without experiments', () => c.comparativeExperiments.create({ name: 'x', experimentIds: [] }), 'At least one experiment is required'],
    ['prompt update without options', () => c.prompts.update('p', {}), 'No valid update options provided'],
    ['public dataset garbage', () => c.public.readDataset('not a token'), 'Invalid public dataset URL or token: not a token'],
    ['public dataset URL without token', () => c.public.listExamples('https://smith.langchain.com/public/x/d'), 'Invalid public dataset URL or token: https://smith.langchain.com/public/x/d'],
    ['tag commit id', () => c.prompts.createTag('p', { tagName: 't', commitId: 'abc' }), 'Invalid UUID for commitId: abc'],
    ['moved tag commit id', () => c.prompts.moveTag('p', { tagName: 't', commitId: 'abc' }), 'Invalid UUID for commitId: abc'],
    ['run reference example', () => c.tracing.startRun({ name: 'r', referenceExampleId: 'nope' }), 'Invalid UUID for referenceExampleId: nope'],
    ['queue position', () => c.annotationQueues.getRun(ID, -1), 'Invalid queue position: -1 (a whole number from 0)'],
    ['client timeout', () => new LangSmithClient({ timeoutMs: 0 }), 'Timeout must be positive.'],
    ['client timeout NaN', () => new LangSmithClient({ timeoutMs: Number.NaN }), 'Timeout must be positive.'],
    ['call timeout', () => c.http.request({ path: '/info', action: 'x', timeoutMs: -5 }), 'Timeout must be positive.'],
  ];
  for (const [name, call, message] of cases) {
    it(`${name}: ${message}`, async () => {
      await assert.rejects(async () => call(), (e: unknown) => {
        assert.ok(e instanceof LangSmithValidationError, `expected a validation error, got ${String(e)}`);
        assert.equal(e.message, message);
        return true;
      });
    });
  }

  it('parses prompt identifiers', () => {
    assert.deepEqual(parsePromptIdentifier('p'), { owner: '-', repo: 'p', commit: 'latest' });
    assert.deepEqual(parsePromptIdentifier('o/p:abc'), { owner: 'o', repo: 'p', commit: 'abc' });
    assert.throws(() => parsePromptIdentifier('a/b/c'), /Invalid prompt identifier/);
    assert.throws(() => parsePromptIdentifier('p:'), /Invalid prompt identifier/);
  });

  it('reads the share token from a public dataset link or the token itself', () => {
    assert.equal(parsePublicToken(ID), ID);
    assert.equal(parsePublicToken(`https://smith.langchain.com/public/${ID}/d`), ID);
    assert.equal(parsePublicToken(`http://127.0.0.1:1984/public/${ID}/d`), ID);
  });
});
