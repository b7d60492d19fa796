// A run's derived columns (status, latency, time to first token, costs): worked out when the run is written and
// when an update changes what they come from, filled in for a database from before them, and read by the filter
// language's `status`, `latency`, `first_token_time` and cost fields.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/db';
import { withLocalServer } from '../harness/localServer';
import { okJson } from '../harness/http';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('server: run columns worked out at ingest', () => {
  const srv = withLocalServer();
  const session = `columns-${crypto.randomUUID().slice(0, 8)}`;
  const [a, b, c] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];

  before(async () => {
    await okJson(srv(), 'POST', '/runs/batch', {
      post: [
        {
          id: a, name: 'streamed', run_type: 'llm', session_name: session, start_time: iso(T0), end_time: iso(T0 + 6200),
          inputs: {}, outputs: { usage_metadata: { input_tokens: 10, output_tokens: 5, input_cost: 0.002, output_cost: 0.003 } },
          events: [{ name: 'start', time: iso(T0) }, { name: 'new_token', time: iso(T0 + 450) }, { name: 'new_token', time: iso(T0 + 900) }],
        },
        { id: b, name: 'plain', run_type: 'chain', session_name: session, start_time: iso(T0 + 1000), end_time: iso(T0 + 1500), inputs: {}, outputs: {},
          extra: { metadata: { usage_metadata: { total_cost: 0.5 } } } },
        { id: c, name: 'open', run_type: 'chain', session_name: session, start_time: iso(T0 + 2000), inputs: {} },
      ],
    });
  });

  const ids = async (filter: string) =>
    (await okJson<{ runs: { id: string }[] }>(srv(), 'POST', '/runs/query', { filter: `and(eq(session_name, "${session}"), ${filter})` })).runs.map((r) => r.id).sort();

  it('answers status, latency, first_token_time and cost filters from the columns', async () => {
    assert.deepEqual(await ids('gt(latency, "5s")'), [a]);
    assert.deepEqual(await ids('lt(first_token_time, "500ms")'), [a]);
    assert.deepEqual(await ids('gt(first_token_time, 0.5)'), []);
    assert.deepEqual(await ids('eq(total_cost, 0.005)'), [a]);
    assert.deepEqual(await ids('gte(total_cost, 0.1)'), [b]);
    assert.deepEqual(await ids('eq(prompt_cost, 0.002)'), [a]);
    assert.deepEqual(await ids('eq(status, "pending")'), [c]);
  });

  it('works them out again when an update ends or fails a run', async () => {
    await okJson(srv(), 'PATCH', `/runs/${c}`, { end_time: iso(T0 + 9000), error: 'boom' });
    assert.deepEqual(await ids('eq(status, "error")'), [c]);
    assert.deepEqual(await ids('gt(latency, "5s")'), [a, c].sort());
    const run = await okJson<{ status: string; total_cost: number | null; first_token_time: string | null }>(srv(), 'GET', `/runs/${a}`);
    assert.equal(run.status, 'success');
    assert.equal(run.total_cost, 0.005);
  });
});

describe('server: a database from before the run columns', () => {
  it('gets them filled for the runs it holds when it is opened', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-columns-'));
    const file = path.join(dir, 'old.db');
    try {
      const old = openDatabase(file);
      // What an older release left: no triggers, no indexes over the columns, no columns.
      for (const t of ['runs_derived_insert', 'runs_derived_update']) old.exec(`DROP TRIGGER ${t}`);
      for (const i of ['runs_session_roots', 'runs_session_root_status', 'runs_session_root_latency', 'runs_session_stats']) old.exec(`DROP INDEX ${i}`);
      for (const col of ['status', 'latency', 'first_token', 'total_cost', 'prompt_cost', 'completion_cost']) old.exec(`ALTER TABLE runs DROP COLUMN ${col}`);
      old
        .prepare('INSERT INTO runs (id, tenant_id, session_id, start_time, end_time, error, outputs, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run('r1', 't', 's', iso(T0), iso(T0 + 2500), 'boom', JSON.stringify({ usage_metadata: { input_cost: 1, output_cost: 2 } }), iso(T0));
      old.close();
      const db = openDatabase(file);
      assert.deepEqual(db.prepare('SELECT status, latency, first_token, total_cost, prompt_cost, completion_cost FROM runs').get(), {
        status: 'error', latency: 2.5, first_token: null, total_cost: 3, prompt_cost: 1, completion_cost: 2,
      });
      db.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
