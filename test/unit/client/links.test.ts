import assert from 'node:assert/strict';
import { LangSmithClient, datasetUrl, projectUrl, promptUrl, publicDatasetUrl, publicRunUrl, webUrlFromApiUrl } from '../../../src/client';

describe('client links', () => {
  it('derives the web host from the API URL', () => {
    const cases: [string, string][] = [
      ['https://api.smith.langchain.com', 'https://smith.langchain.com'],
      ['https://api.smith.langchain.com/', 'https://smith.langchain.com'],
      ['https://eu.api.smith.langchain.com', 'https://eu.smith.langchain.com'],
      ['https://aws.api.smith.langchain.com/api/v1', 'https://aws.smith.langchain.com'],
      ['https://langsmith.example.com/api/v1', 'https://langsmith.example.com'],
      ['https://langsmith.example.com/api', 'https://langsmith.example.com'],
      ['https://example.com/ls/api/v1', 'https://example.com/ls'],
      ['http://localhost:1984', 'http://localhost:1984'],
      ['http://127.0.0.1:1984/api/v1', 'http://127.0.0.1:1984'],
    ];
    for (const [api, web] of cases) assert.equal(webUrlFromApiUrl(api), web, api);
  });

  it('lets a webUrl option override the derived host', () => {
    const c = new LangSmithClient({ apiUrl: 'http://127.0.0.1:1984', webUrl: 'https://ui.example.com/' });
    assert.equal(c.webUrl, 'https://ui.example.com');
    assert.equal(c.links.publicRun('tok'), 'https://ui.example.com/public/tok/r');
    assert.equal(new LangSmithClient({ apiUrl: 'https://api.smith.langchain.com' }).links.host, 'https://smith.langchain.com');
  });

  it('builds the public, project and dataset links', () => {
    const h = 'https://smith.langchain.com';
    assert.equal(publicRunUrl(h, 't1'), `${h}/public/t1/r`);
    assert.equal(publicDatasetUrl(h, 't2'), `${h}/public/t2/d`);
    assert.equal(projectUrl(h, 'ten', 'p1'), `${h}/o/ten/projects/p/p1`);
    assert.equal(datasetUrl(h, 'ten', 'd1'), `${h}/o/ten/datasets/d1`);
  });

  it('builds prompt links: own tenant with organizationId, other tenant under /hub, 8-character commit, none for latest', () => {
    const h = 'https://smith.langchain.com';
    const hash = '0123456789abcdef0123';
    assert.equal(promptUrl(h, { owner: '-', repo: 'p', commit: hash, own: true, organizationId: 'org' }), `${h}/prompts/p/01234567?organizationId=org`);
    assert.equal(promptUrl(h, { owner: '-', repo: 'p', commit: 'latest', own: true, organizationId: 'org' }), `${h}/prompts/p?organizationId=org`);
    assert.equal(promptUrl(h, { owner: 'acme', repo: 'p', commit: hash, own: false }), `${h}/hub/acme/p/01234567`);
    assert.equal(promptUrl(h, { owner: 'acme', repo: 'p', own: false }), `${h}/hub/acme/p`);
  });
});
