// Bulk ingest internals: the multipart splitter's part headers (fast path and the general one), and the
// WAL checkpoints that run off the request path for database files.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { splitMultipart } from '../../server/multipartBuffer';
import { startServer } from '../../server/index';

const B = 'XyZ123';
const CT = `multipart/form-data; boundary=${B}`;
const body = (...parts: string[]) => Buffer.from(parts.map((p) => `--${B}\r\n${p}\r\n`).join('') + `--${B}--\r\n`);

describe('ingest: multipart part headers', () => {
  it('reads names, filenames and types the way clients write them, and every other way the same', () => {
    const parts = splitMultipart(
      body(
        'Content-Disposition: form-data; name="a"; filename="blob"\r\nContent-Type: application/json\r\n\r\n{"x":1}',
        'Content-Disposition: form-data; name="b"\r\n\r\nplain',
        'content-disposition: form-data; name="c"\r\ncontent-type:  text/csv ; charset=utf-8 \r\n\r\n1,2',
        'Content-Type: image/png\r\nContent-Disposition: form-data; name="d"; filename="p.png"\r\n\r\nPNG',
        'Content-Disposition: form-data; name="e\\"q"; filename="f%22g"\r\n\r\nE',
        'Content-Disposition:   form-data;   name=bare\r\n\r\nF',
        'Content-Disposition: form-data; filename="only.txt"; name="g"\r\nContent-Type: text/plain\r\n\r\nG',
        'Content-Disposition: form-data; name="ünï.çødé"\r\n\r\nU',
      ),
      CT,
    );
    assert.deepEqual(
      parts.map((p) => [p.name, p.filename, p.contentType, p.data.toString()]),
      [
        ['a', 'blob', 'application/json', '{"x":1}'],
        ['b', undefined, 'text/plain', 'plain'],
        ['c', undefined, 'text/csv ; charset=utf-8', '1,2'],
        ['d', 'p.png', 'image/png', 'PNG'],
        ['e"q', 'f"g', 'text/plain', 'E'],
        ['bare', undefined, 'text/plain', 'F'],
        ['g', 'only.txt', 'text/plain', 'G'],
        ['ünï.çødé', undefined, 'text/plain', 'U'],
      ],
    );
  });

  it('a part without a name is still refused', () => {
    assert.throws(() => splitMultipart(body('Content-Disposition: form-data; filename="x"\r\n\r\nX'), CT), /a part has no name/);
  });
});

describe('ingest: WAL checkpoints for a database file', function () {
  this.timeout(30_000);

  it('copy ingested examples into the database file between requests, and the data survives a restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-ingest-'));
    const file = path.join(dir, 'db.sqlite');
    try {
      let srv = await startServer({ port: 0, db: file, quiet: true });
      const headers = { 'x-api-key': 'local-dev-key' };
      const ds = (await (await fetch(`${srv.url}/datasets`, {
        method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'ckpt' }),
      })).json()) as { id: string };
      const before = fs.statSync(file).size;
      const ids: string[] = [];
      for (let b = 0; b < 2; b++) {
        const chunks: string[] = [];
        for (let i = 0; i < 1000; i++) {
          const id = crypto.randomUUID();
          ids.push(id);
          chunks.push(`--${B}\r\nContent-Disposition: form-data; name="${id}"\r\nContent-Type: application/json\r\n\r\n{}\r\n`);
          chunks.push(`--${B}\r\nContent-Disposition: form-data; name="${id}.inputs"\r\nContent-Type: application/json\r\n\r\n{"q":"${'x'.repeat(200)} ${i}"}\r\n`);
        }
        chunks.push(`--${B}--\r\n`);
        const res = await fetch(`${srv.url}/v1/platform/datasets/${ds.id}/examples`, { method: 'POST', headers: { ...headers, 'content-type': CT }, body: chunks.join('') });
        assert.equal(res.status, 201);
      }
      // Far below the automatic checkpoint threshold: only the background checkpoints move the pages.
      const deadline = Date.now() + 10_000;
      while (fs.statSync(file).size < before + 400_000) {
        assert.ok(Date.now() < deadline, `database file still ${fs.statSync(file).size} bytes`);
        await new Promise((r) => setTimeout(r, 25));
      }
      await srv.close();
      srv = await startServer({ port: 0, db: file, quiet: true });
      try {
        const n = await (await fetch(`${srv.url}/examples/count?dataset=${ds.id}`, { headers })).json();
        assert.equal(n, ids.length);
      } finally {
        await srv.close();
      }
      assert.equal(fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0, 0, 'close leaves an empty WAL');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
