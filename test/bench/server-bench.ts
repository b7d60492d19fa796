// Server benchmark (not a test): `node --import tsx test/bench/server-bench.ts [--rows 20000] [--max 100000]`
//
// The server runs as its own process (as users run it: `npm run server`), with a database file in WAL mode.
// 1. Example ingest: the multipart examples endpoint (over loopback HTTP, bodies built like the official
//    client builds them) vs a raw better-sqlite3 insert of the same rows in one transaction, median of
//    5 rounds each. Goal ≥ 0.3.
// 2. Reading 1,000 examples as ten pages of 100 (LangSmith's largest `limit` on GET /examples), at the start and
//    at the end of one dataset as it grows to 100,000 examples.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';

const args = process.argv.slice(2);
const arg = (name: string, dflt: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const ROWS = arg('rows', 20_000);
const MAX = arg('max', 100_000);
const BATCH = 1_000;
const KEY = 'local-dev-key';

interface Row {
  id: string;
  inputs: object;
  outputs: object;
  metadata: object;
}

function makeRows(n: number, offset = 0): Row[] {
  return Array.from({ length: n }, (_, k) => {
    const i = k + offset;
    return {
      id: crypto.randomUUID(),
      inputs: { question: `What is item ${i} about? ${'lorem ipsum '.repeat(4)}`, context: `ctx-${i % 97}` },
      outputs: { answer: `Item ${i} is about topic ${i % 13}.` },
      metadata: { source: 'bench', i },
    };
  });
}

/** A multipart body with the parts the official client sends per example. */
function multipartBody(rows: Row[]): { body: Buffer; contentType: string } {
  const boundary = `----bench${crypto.randomUUID()}`;
  const chunks: string[] = [];
  const part = (name: string, json: unknown) => {
    const s = JSON.stringify(json);
    chunks.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="blob"\r\nContent-Type: application/json\r\n\r\n${s}\r\n`);
  };
  for (const r of rows) {
    part(r.id, { created_at: new Date().toISOString(), metadata: r.metadata });
    part(`${r.id}.inputs`, r.inputs);
    part(`${r.id}.outputs`, r.outputs);
  }
  chunks.push(`--${boundary}--\r\n`);
  return { body: Buffer.from(chunks.join('')), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function post(url: string, body: Buffer, contentType: string) {
  const res = await fetch(url, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': contentType }, body });
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

async function createDataset(url: string, name: string): Promise<string> {
  const res = await fetch(`${url}/datasets`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
  return ((await res.json()) as any).id;
}

function rawInsertMs(dir: string, rows: Row[], datasetId: string): number {
  const db = new Database(path.join(dir, 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE examples (id TEXT PRIMARY KEY, dataset_id TEXT NOT NULL, inputs TEXT NOT NULL, outputs TEXT, metadata TEXT, created_at TEXT NOT NULL);
           CREATE INDEX examples_ds ON examples (dataset_id, created_at, id);`);
  const ins = db.prepare('INSERT INTO examples (id, dataset_id, inputs, outputs, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  const t0 = performance.now();
  db.transaction(() => {
    for (const r of rows) ins.run(r.id, datasetId, JSON.stringify(r.inputs), JSON.stringify(r.outputs), JSON.stringify(r.metadata), new Date().toISOString());
  })();
  const ms = performance.now() - t0;
  db.close();
  return ms;
}

const PAGE = 100;

/** Time to read `count` examples from `start` on as consecutive pages of PAGE, the way a client pages. */
async function timePages(url: string, dataset: string, start: number, count: number): Promise<number> {
  const t0 = performance.now();
  for (let offset = start; offset < start + count; offset += PAGE) {
    const res = await fetch(`${url}/examples?dataset=${dataset}&limit=${PAGE}&offset=${offset}`, { headers: { 'x-api-key': KEY } });
    const body = (await res.json()) as unknown[];
    if (!res.ok || !Array.isArray(body) || body.length !== PAGE) throw new Error(`GET failed: ${res.status}`);
  }
  return performance.now() - t0;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function startChild(dbFile: string): Promise<{ url: string; proc: ChildProcess }> {
  const root = path.resolve(__dirname, '..', '..');
  // SERVER_BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server process.
  const nodeArgs = (process.env['SERVER_BENCH_NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean);
  const proc = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(root, 'server/main.ts'), '--port', '0', '--db', dbFile, '--quiet'], {
    cwd: root, stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    proc.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
  return { url, proc };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-bench-'));
  const { url, proc } = await startChild(path.join(dir, 'server.db'));
  const srv = { url };
  try {
    // 1. Ingest ratio
    const warm = await createDataset(srv.url, 'bench-warmup');
    for (let i = 0; i < 3; i++) {
      const w = multipartBody(makeRows(BATCH));
      await post(`${srv.url}/v1/platform/datasets/${warm}/examples`, w.body, w.contentType);
    }
    const serverRuns: number[] = [];
    const rawRuns: number[] = [];
    for (let round = 0; round < 5; round++) {
      const rows = makeRows(ROWS);
      const ds = await createDataset(srv.url, `bench-ingest-${round}`);
      const bodies: Array<{ body: Buffer; contentType: string }> = [];
      for (let i = 0; i < rows.length; i += BATCH) bodies.push(multipartBody(rows.slice(i, i + BATCH)));
      const t0 = performance.now();
      for (const b of bodies) await post(`${srv.url}/v1/platform/datasets/${ds}/examples`, b.body, b.contentType);
      serverRuns.push(performance.now() - t0);
      const rawDir = fs.mkdtempSync(path.join(dir, 'raw-'));
      rawRuns.push(rawInsertMs(rawDir, rows, ds));
    }
    const serverMs = median(serverRuns);
    const rawMs = median(rawRuns);
    console.log(`Example ingest, ${ROWS} rows (multipart batches of ${BATCH}, loopback HTTP, file DB in WAL, median of 5):`);
    console.log(`  server multipart: ${serverMs.toFixed(0)} ms  (${Math.round(ROWS / (serverMs / 1000))} rows/s)`);
    console.log(`  raw better-sqlite3 insert, one transaction: ${rawMs.toFixed(0)} ms  (${Math.round(ROWS / (rawMs / 1000))} rows/s)`);
    console.log(`  ratio (server throughput / raw throughput): ${(rawMs / serverMs).toFixed(2)}  (goal ≥ 0.30)`);

    // 2. Page reads as a dataset grows
    console.log(`\nReading 1,000 examples as pages of ${PAGE} (median of 5) as one dataset grows:`);
    console.log('  examples   first 1,000   last 1,000');
    const grow = await createDataset(srv.url, 'bench-grow');
    let size = 0;
    for (const target of [1_000, 10_000, 25_000, 50_000, 100_000].filter((n) => n <= MAX)) {
      while (size < target) {
        const n = Math.min(5_000, target - size);
        const b = multipartBody(makeRows(n, size));
        await post(`${srv.url}/v1/platform/datasets/${grow}/examples`, b.body, b.contentType);
        size += n;
      }
      const first: number[] = [];
      const last: number[] = [];
      for (let k = 0; k < 5; k++) {
        first.push(await timePages(srv.url, grow, 0, 1000));
        last.push(await timePages(srv.url, grow, size - 1000, 1000));
      }
      console.log(`  ${String(size).padStart(8)}   ${median(first).toFixed(1).padStart(8)} ms   ${median(last).toFixed(1).padStart(8)} ms`);
    }
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.on('exit', r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
