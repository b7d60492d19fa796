/** What goes on the wire for the spec's constants and defaults (a recording fetch, no server needed). */
import assert from 'node:assert/strict';
import { LangSmithClient, collect } from '../../../src/client';

function recorder(answer: (url: URL, init: RequestInit) => unknown = () => []) {
  const calls: { url: URL; method: string; body?: unknown }[] = [];
  const f = (async (u: string, init: RequestInit) => {
    const url = new URL(u);
    calls.push({ url, method: String(init.method), body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined });
    return new Response(JSON.stringify(answer(url, init)), { status: 200 });
  }) as unknown as typeof fetch;
  return { calls, client: new LangSmithClient({ apiUrl: 'http://rec', apiKey: 'k', fetch: f }) };
}

const ID = '8a2d3a0e-5a3b-4c1e-9f7e-2b1d2c3e4f50';

describe('client wire defaults', () => {
  it('dataset listing defaults to limit 100, offset 0; a dataset read by name asks for limit 1', async () => {
    const { calls, client } = recorder((url) => (url.searchParams.get('name') ? [{ id: ID, name: 'x' }] : []));
    await collect(client.datasets.list());
    assert.equal(calls[0]!.url.search, '?limit=100&offset=0');
    await client.datasets.read({ datasetName: 'x' });
    assert.equal(calls[1]!.url.search, '?name=x&limit=1');
  });

  it('example listing sends inline_s3_urls=true by default', async () => {
    const { calls, client } = recorder();
    await collect(client.examples.list({ datasetId: ID }));
    assert.equal(calls[0]!.url.searchParams.get('inline_s3_urls'), 'true');
    assert.equal(calls[0]!.url.searchParams.get('dataset'), ID);
  });

  it('annotation queue pages are capped at 100', async () => {
    const { calls, client } = recorder();
    await collect(client.annotationQueues.list({ pageSize: 1000 }));
    assert.equal(calls[0]!.url.searchParams.get('limit'), '100');
  });

  it('prompts are listed by updated_at descending, archived ones left out, by default', async () => {
    const { calls, client } = recorder(() => ({ repos: [], total: 0 }));
    await collect(client.prompts.list());
    const q = calls[0]!.url.searchParams;
    assert.equal(q.get('sort_field'), 'updated_at');
    assert.equal(q.get('sort_direction'), 'desc');
    assert.equal(q.get('is_archived'), 'false');
  });

  it('a feedback token expires in 3 hours unless told otherwise; expires_at and expires_in never together', async () => {
    const { calls, client } = recorder(() => ({ id: ID, url: 'u', expires_at: null }));
    await client.feedback.createToken({ runId: ID, feedbackKey: 'k' });
    assert.deepEqual(calls[0]!.body, { run_id: ID, feedback_key: 'k', expires_in: { hours: 3 } });
    await client.feedback.createToken({ runId: ID, feedbackKey: 'k', expiration: '2030-01-01T00:00:00.000Z' });
    assert.deepEqual(calls[1]!.body, { run_id: ID, feedback_key: 'k', expires_at: '2030-01-01T00:00:00.000Z' });
  });

  it('a dataset is created as kv by default, with a client-generated id', async () => {
    const { calls, client } = recorder(() => ({ id: ID, name: 'd' }));
    await client.datasets.create({ name: 'd' });
    const body = calls[0]!.body as { id: string; data_type: string };
    assert.equal(body.data_type, 'kv');
    assert.match(body.id, /^[0-9a-f-]{36}$/);
  });

  it('options are camelCase, the wire snake_case', async () => {
    const { calls, client } = recorder(() => ({ id: ID, name: 'p' }));
    await client.projects.create({ name: 'p', referenceDatasetId: ID, upsert: true });
    assert.equal(calls[0]!.url.search, '?upsert=true');
    assert.equal((calls[0]!.body as { reference_dataset_id: string }).reference_dataset_id, ID);
  });
});

describe('client options from the environment', () => {
  it('reads LANGSMITH_* with LANGCHAIN_* as fallbacks, defaulting to LangSmith US', () => {
    assert.deepEqual(LangSmithClient.optionsFromEnv({}), { apiUrl: 'https://api.smith.langchain.com', apiKey: undefined, workspaceId: undefined });
    assert.deepEqual(
      LangSmithClient.optionsFromEnv({ LANGCHAIN_ENDPOINT: 'https://eu.api.smith.langchain.com', LANGCHAIN_API_KEY: 'a', LANGSMITH_API_KEY: 'b', LANGSMITH_WORKSPACE_ID: 'w' }),
      { apiUrl: 'https://eu.api.smith.langchain.com', apiKey: 'b', workspaceId: 'w' },
    );
    assert.equal(new LangSmithClient(LangSmithClient.optionsFromEnv({ LANGSMITH_ENDPOINT: 'https://eu.api.smith.langchain.com' })).webUrl, 'https://eu.smith.langchain.com');
  });
});
