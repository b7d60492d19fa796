// Bad input never makes a 500: every write endpoint gets malformed and mistyped bodies and bad ids.
import assert from 'node:assert/strict';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { client } from './helpers';

describe('robustness: bad input is a 4xx, never a 500', function () {
  this.timeout(60_000);
  const srv = withLocalServer();

  it('malformed / mistyped bodies and bad ids on every endpoint', async () => {
    const c = client(srv());
    const ds = await c.createDataset('robust-ds');
    const [ex] = await c.createExamples([{ dataset_id: ds.id, inputs: { q: 1 } }]);
    const runId = crypto.randomUUID();
    await c.createRun({ id: runId, name: 'r', run_type: 'chain', inputs: {}, project_name: 'robust-project' });
    const project = await c.readProject({ projectName: 'robust-project' });
    const queue = await c.createAnnotationQueue({ name: 'robust-queue' });
    await c.createPrompt('robust-prompt');
    await c.pushPrompt('robust-prompt', { object: { a: 1 } });
    const fb = await c.createFeedback(runId, 'k', { score: 1, sessionId: project.id } as any);
    const token = await c.createPresignedFeedbackToken(runId, 'tok');
    const tokenPath = new URL(token.url).pathname;

    const endpoints: Array<[string, string]> = [
      ['POST', '/runs'], ['PATCH', `/runs/${runId}`], ['POST', '/runs/batch'], ['POST', '/runs/query'], ['PUT', `/runs/${runId}/share`],
      ['POST', '/api/v2/runs/query'],
      ['POST', '/sessions'], ['PATCH', `/sessions/${project.id}`],
      ['POST', '/datasets'], ['PATCH', `/datasets/${ds.id}`], ['PUT', `/datasets/${ds.id}/tags`], ['PUT', `/datasets/${ds.id}/splits`],
      ['POST', `/datasets/${ds.id}/index`], ['POST', `/datasets/${ds.id}/search`], ['POST', '/datasets/comparative'], ['PUT', `/datasets/${ds.id}/share`],
      ['POST', '/feedback'], ['PATCH', `/feedback/${fb.id}`], ['POST', '/feedback/tokens'], ['POST', tokenPath], ['POST', '/feedback-configs'],
      ['POST', '/annotation-queues'], ['PATCH', `/annotation-queues/${queue.id}`], ['POST', `/annotation-queues/${queue.id}/runs`],
      ['POST', `/annotation-queues/${queue.id}/runs/by-key`],
      ['POST', '/repos'], ['PATCH', '/repos/-/robust-prompt'], ['POST', '/commits/-/robust-prompt'], ['POST', '/repos/-/robust-prompt/tags'],
      ['POST', '/likes/-/robust-prompt'], ['PUT', '/__local/faults'], ['POST', '/v1/platform/datasets/examples/delete'],
    ];
    const bodies: Array<{ raw: string; type: string }> = [
      { raw: '{"unterminated": ', type: 'application/json' },
      { raw: '[]', type: 'application/json' },
      { raw: '"a string"', type: 'application/json' },
      { raw: '12', type: 'application/json' },
      { raw: 'null', type: 'application/json' },
      { raw: '{"name": {"deep": [1, 2, {"x": null}]}, "id": "not-a-uuid", "limit": -5, "manifest": 7}', type: 'application/json' },
      { raw: '{"post": [{"id": 5}], "patch": "x", "session": ["nope"], "filter": "eq(", "examples": [1], "inputs": "s"}', type: 'application/json' },
      { raw: 'plain text', type: 'text/plain' },
      { raw: '\u0000\u0001binary', type: 'application/octet-stream' },
    ];
    const failures: string[] = [];
    for (const [method, path] of endpoints) {
      for (const b of bodies) {
        const r = await rawRequest(srv(), method, path, undefined, { rawBody: b.raw, headers: { 'content-type': b.type } });
        if (r.status >= 500 || typeof r.body?.detail === 'undefined' && r.status >= 400) failures.push(`${method} ${path} ${JSON.stringify(b.raw)} → ${r.status} ${r.text.slice(0, 120)}`);
      }
    }
    // Multipart endpoints with junk multipart bodies.
    for (const path of ['/runs/multipart', `/v1/platform/datasets/${ds.id}/examples`, '/datasets/upload']) {
      for (const raw of ['--B\r\nno headers end', '--B\r\nContent-Disposition: form-data; name="x"\r\n\r\n{bad json}\r\n--B--\r\n', '']) {
        for (const method of path.includes('platform') ? ['POST', 'PATCH'] : ['POST']) {
          const r = await rawRequest(srv(), method, path, undefined, { rawBody: raw, headers: { 'content-type': 'multipart/form-data; boundary=B' } });
          if (r.status >= 500 || r.status < 400) failures.push(`${method} ${path} ${JSON.stringify(raw)} → ${r.status} ${r.text.slice(0, 120)}`);
        }
      }
    }
    // Bad ids and bad query values on reads.
    for (const path of [
      '/runs/x', '/sessions/x', '/datasets/x', '/examples/x', '/feedback/x', '/annotation-queues/x', '/annotation-queues/x/run/0',
      `/annotation-queues/${queue.id}/run/-1`, `/annotation-queues/${queue.id}/run/abc`, '/datasets?limit=abc', '/sessions?limit=0',
      `/examples?dataset=${ds.id}&as_of=not-a-date`, `/examples?dataset=${ds.id}&metadata=%7Bbad`, '/repos?sort_field=nope',
      `/datasets/${ds.id}/versions/diff?from_version=x`, `/datasets/${ds.id}/version?as_of=a&tag=b`, '/commits/-/robust-prompt/zzzz',
      '/repos/nobody/robust-prompt', `/public/x/run`, `/public/${crypto.randomUUID()}/datasets`, '/feedback?run=x', '/feedback/tokens?run_id=x',
      `/examples/${ex.id}?as_of=nope`,
    ]) {
      const r = await rawRequest(srv(), 'GET', path);
      if (r.status >= 500 || r.status < 400) failures.push(`GET ${path} → ${r.status} ${r.text.slice(0, 120)}`);
    }
    assert.deepEqual(failures, []);
    assert.equal(srv().server.stats().internalErrors, 0);
    // And nothing half-written: the dataset still has its one example, the queue is empty.
    assert.equal((await rawRequest(srv(), 'GET', `/examples?dataset=${ds.id}`)).body.length, 1);
    assert.deepEqual(await c.getSizeFromAnnotationQueue(queue.id), { size: 0 });
  });
});
