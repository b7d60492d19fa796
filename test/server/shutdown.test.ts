// close() lets a request in flight finish and does not wait for its keep-alive connection to time out.
import assert from 'node:assert/strict';
import http from 'node:http';
import { startLocalServer } from '../harness/localServer';

describe('shutdown', function () {
  this.timeout(30_000);

  it('a request in flight when close() begins is answered, and its keep-alive connection does not hold the server open', async () => {
    const srv = await startLocalServer({ faults: 'latency:300-300ms' });
    const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
    try {
      // Wait for the request itself, not only its connection: a connection whose request has not arrived yet is
      // idle, and close() rightly ends idle connections at once.
      const arrived = new Promise<void>((resolve) => srv.server.app.server.once('request', () => resolve()));
      const answered = new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const req = http.get(`${srv.url}/settings`, { agent, headers: { 'x-api-key': srv.apiKey } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        });
        req.on('error', reject);
      });
      // The request then waits 300 ms in the latency fault: close() begins while it is in flight.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([arrived, new Promise((_r, reject) => (timer = setTimeout(() => reject(new Error('the request never reached the server')), 10_000)))]);
      clearTimeout(timer);
      const t0 = Date.now();
      const closed = srv.close();
      const res = await answered;
      assert.equal(res.status, 200, 'the request in flight was answered');
      assert.equal(res.connection, 'close', 'its connection is ended with the answer');
      await closed;
      // Without ending the connection, close() would wait for the keep-alive timeout (72 s).
      assert.ok(Date.now() - t0 < 10_000, `close took ${Date.now() - t0} ms`);
    } finally {
      agent.destroy();
    }
  });
});
