// Web pages render user text escaped (run names, inputs, outputs, errors), under a strict CSP.
import assert from 'node:assert/strict';
import { withLocalServer } from '../harness/localServer';
import { client } from './helpers';

describe('web pages escape what users wrote', () => {
  const srv = withLocalServer();

  it('a shared run page and the project run page escape names, inputs, outputs and errors', async () => {
    const c = client(srv());
    const project = await c.createProject({ projectName: 'pages <i>proj</i>' });
    const id = crypto.randomUUID();
    const evil = '<script>alert(1)</script>';
    await c.createRun({ id, name: `run ${evil}`, run_type: 'chain', inputs: { q: evil }, session_id: project.id, start_time: Date.now() } as any);
    await c.updateRun(id, { outputs: { a: `<img src=x onerror=alert(2)>` }, error: `boom ${evil}`, end_time: Date.now() });
    const url = await c.shareRun(id);
    const token = url.split('/public/')[1]!.split('/')[0];
    const tenantId = srv().tenantId;
    const pages = [
      `${srv().url}/public/${token}/r`,
      `${srv().url}/o/${tenantId}/projects/p/${project.id}`,
      `${srv().url}/o/${tenantId}/projects/p/${project.id}/r/${id}`,
    ];
    for (const link of pages) {
      const res = await fetch(link, { headers: { 'x-api-key': srv().apiKey } });
      assert.equal(res.status, 200, link);
      assert.match(res.headers.get('content-type') ?? '', /text\/html/);
      assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'|script-src 'none'/, 'a strict CSP');
      const html = await res.text();
      assert.ok(!html.includes('<script>alert'), `${link}: no raw script`);
      assert.ok(!html.includes('<img src=x'), `${link}: no raw img`);
      assert.ok(!html.includes('<i>proj</i>'), `${link}: no raw markup from the project name`);
      assert.ok(html.includes('&lt;script&gt;'), `${link}: the text is shown escaped`);
    }
  });
});
