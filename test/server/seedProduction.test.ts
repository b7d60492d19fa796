// `seedProduction`: the monitoring demo `demo-production` — 100,000 runs over the 30 days before the seed, the error
// spike and the latency regression on the days server/seed/production.ts names, and the same runs from every seed.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startLocalServer, withLocalServer, type LocalServer } from '../harness/localServer';
import { ERROR_SPIKE, LATENCY_REGRESSION, PRODUCTION_PROJECT, PRODUCTION_RUNS, productionDayStart } from '../../server/seed/production';

const HOUR = 3_600_000;

interface Seeded {
  sessionId: string;
  anchor: number;
}

function seeded(srv: LocalServer): Seeded {
  const row = srv.server.db.prepare('SELECT id, extra FROM sessions WHERE tenant_id = ? AND name = ?').get(srv.tenantId, PRODUCTION_PROJECT) as
    | { id: string; extra: string }
    | undefined;
  assert.ok(row, `${PRODUCTION_PROJECT} is there`);
  return { sessionId: row.id, anchor: Date.parse(JSON.parse(row.extra).metadata.seeded_at) };
}

/** Root runs' error rate and median latency between two instants. */
function roots(srv: LocalServer, s: Seeded, from: number, to: number) {
  const rows = srv.server.db
    .prepare('SELECT status, latency FROM runs WHERE session_id = ? AND parent_run_id IS NULL AND start_time >= ? AND start_time < ? ORDER BY latency')
    .all(s.sessionId, new Date(from).toISOString(), new Date(to).toISOString()) as { status: string; latency: number }[];
  return { n: rows.length, errorRate: rows.filter((r) => r.status === 'error').length / rows.length, median: rows[Math.floor(rows.length / 2)]!.latency };
}

/** Everything about the project's runs and feedback but their ids, with times as offsets from the seed's hour. */
function digest(srv: LocalServer, s: Seeded): string {
  const h = createHash('sha256');
  const runs = srv.server.db
    .prepare(
      `SELECT name, run_type, start_time, end_time, parent_run_id IS NULL AS root, status, latency, first_token, total_tokens, total_cost, tags, extra, error
         FROM runs WHERE session_id = ? ORDER BY start_time, dotted_order`,
    )
    .raw(true)
    .iterate(s.sessionId) as Iterable<unknown[]>;
  for (const r of runs) {
    r[2] = Date.parse(r[2] as string) - s.anchor;
    r[3] = Date.parse(r[3] as string) - s.anchor;
    h.update(JSON.stringify(r));
  }
  h.update(JSON.stringify(srv.server.db.prepare('SELECT key, COUNT(*), SUM(score) FROM feedback WHERE session_id = ? GROUP BY key ORDER BY key').raw(true).all(s.sessionId)));
  return h.digest('hex');
}

describe('seedProduction: demo-production', function () {
  this.timeout(120_000);
  const srv = withLocalServer({ seedProduction: true });

  it('holds 100,000 runs over the 30 days before the seed, roots with LLM and tool calls under some', () => {
    const s = seeded(srv());
    const db = srv().server.db;
    const count = (where: string) => (db.prepare(`SELECT COUNT(*) AS n FROM runs WHERE session_id = ? AND ${where}`).get(s.sessionId) as { n: number }).n;
    assert.equal(count('1'), PRODUCTION_RUNS);
    assert.equal(count(`start_time < '${new Date(s.anchor - 30 * 24 * HOUR).toISOString()}' OR start_time > '${new Date(s.anchor).toISOString()}'`), 0);
    assert.ok(count("run_type = 'tool'") > 10_000 && count("run_type = 'llm' AND parent_run_id IS NOT NULL") > 10_000);
    const models = db.prepare("SELECT DISTINCT json_extract(extra, '$.metadata.ls_model_name') AS m FROM runs WHERE session_id = ? AND run_type = 'llm'").all(s.sessionId);
    assert.ok(models.length >= 3, `models: ${JSON.stringify(models)}`);
    const sources = db.prepare("SELECT DISTINCT json_extract(feedback_source, '$.type') AS t FROM feedback WHERE session_id = ? ORDER BY t").raw(true).all(s.sessionId).flat();
    assert.deepEqual(sources, ['app', 'model'], 'feedback from users and from an evaluator');
  });

  it('fails 40 % of the traces in the error spike and a few percent elsewhere', () => {
    const s = seeded(srv());
    const spikeStart = productionDayStart(s.anchor, ERROR_SPIKE.day) + ERROR_SPIKE.fromHour * HOUR;
    const spike = roots(srv(), s, spikeStart, productionDayStart(s.anchor, ERROR_SPIKE.day) + ERROR_SPIKE.toHour * HOUR);
    const dayBefore = roots(srv(), s, productionDayStart(s.anchor, ERROR_SPIKE.day + 1), productionDayStart(s.anchor, ERROR_SPIKE.day));
    assert.ok(spike.errorRate > 0.25, `spike: ${spike.errorRate} of ${spike.n}`);
    assert.ok(dayBefore.errorRate < 0.08, `the day before: ${dayBefore.errorRate} of ${dayBefore.n}`);
  });

  it('is slower on the regression days than on the days around them', () => {
    const s = seeded(srv());
    const days = LATENCY_REGRESSION.days;
    const during = roots(srv(), s, productionDayStart(s.anchor, Math.max(...days)), productionDayStart(s.anchor, Math.min(...days) - 1));
    const before = roots(srv(), s, productionDayStart(s.anchor, Math.max(...days) + 3), productionDayStart(s.anchor, Math.max(...days)));
    const after = roots(srv(), s, productionDayStart(s.anchor, Math.min(...days) - 1), s.anchor);
    assert.ok(during.median > 1.8 * before.median, `median ${during.median} s against ${before.median} s before`);
    assert.ok(during.median > 1.8 * after.median, `median ${during.median} s against ${after.median} s after`);
  });

  it('gives the same runs from a second seed', async () => {
    const other = await startLocalServer({ seedProduction: true });
    try {
      assert.equal(digest(other, seeded(other)), digest(srv(), seeded(srv())));
    } finally {
      await other.close();
    }
  });
});
