// Bounded load test: 10,000 mixed requests through the official client over loopback.
// Asserts no 5xx and no lost write (rows counted in the database); prints the throughput.
import assert from 'node:assert/strict';
import { withLocalServer } from '../harness/localServer';
import { client } from './helpers';

const TOTAL_REQUESTS = 10_000;
const CONCURRENCY = 32;

describe('load: 10,000 mixed requests through the official client', function () {
  this.timeout(180_000);
  const srv = withLocalServer();

  it('no 5xx, no lost write; prints throughput', async () => {
    const c = client(srv());
    const ds = await c.createDataset('load-ds');
    const project = await c.createProject({ projectName: 'load-project' });
    const queue = await c.createAnnotationQueue({ name: 'load-queue' });
    const seedRun = crypto.randomUUID();
    await c.createRun({ id: seedRun, name: 'seed', run_type: 'chain', inputs: {}, session_id: project.id } as any);

    const created: string[] = [seedRun];
    const updated = new Set<string>();
    let feedback = 0;
    let examples = 0;
    const failures: string[] = [];
    const counts: Record<string, number> = {};
    const base = srv().server.stats().requests;
    const sent = () => srv().server.stats().requests - base;
    let op = 0;

    const one = async () => {
      const i = op++;
      const kind = i % 20;
      const pickRun = () => created[Math.floor(Math.random() * created.length)];
      let name: string;
      if (kind < 6) {
        name = 'createRun';
        const id = crypto.randomUUID();
        await c.createRun({ id, name: `load-${i}`, run_type: kind % 2 ? 'llm' : 'chain', inputs: { i, text: 'x'.repeat(200) }, session_id: project.id } as any);
        created.push(id);
      } else if (kind < 9) {
        name = 'updateRun';
        const id = pickRun();
        await c.updateRun(id, { outputs: { done: i }, end_time: Date.now() });
        updated.add(id);
      } else if (kind < 11) {
        name = 'createFeedback';
        await c.createFeedback(pickRun(), 'load-score', { score: i % 2, sessionId: project.id } as any);
        feedback++;
      } else if (kind < 13) {
        name = 'createExamples';
        // One multipart POST plus one read of the created example.
        await c.createExamples([{ dataset_id: ds.id, inputs: { question: `q${i}` }, outputs: { answer: `a${i}` }, metadata: { i } }]);
        examples++;
      } else if (kind < 15) {
        name = 'readRun';
        await c.readRun(pickRun());
      } else if (kind === 15) {
        name = 'listExamples';
        for await (const _ of c.listExamples({ datasetId: ds.id, limit: 20 })) void _;
      } else if (kind === 16) {
        name = 'readDataset';
        await c.readDataset({ datasetId: ds.id });
      } else if (kind === 17) {
        name = 'listRuns';
        for await (const _ of c.listRuns({ projectId: project.id, limit: 10 })) void _;
      } else if (kind === 18) {
        name = 'readProject';
        await c.readProject({ projectName: 'load-project' });
      } else {
        name = 'readAnnotationQueue';
        await c.readAnnotationQueue(queue.id);
      }
      counts[name] = (counts[name] ?? 0) + 1;
    };

    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (sent() < TOTAL_REQUESTS) {
          try {
            await one();
          } catch (e: any) {
            failures.push(String(e?.message ?? e));
          }
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const requests = sent();
    console.log(`      load: ${requests} requests in ${seconds.toFixed(1)} s → ${Math.round(requests / seconds)} requests/s (concurrency ${CONCURRENCY}); ops ${JSON.stringify(counts)}`);

    assert.deepEqual(failures.slice(0, 5), [], `${failures.length} calls failed`);
    assert.ok(requests >= TOTAL_REQUESTS);
    assert.equal(srv().server.stats().internalErrors, 0, 'no 500');
    const db = srv().server.db;
    const n = (sql: string, ...p: unknown[]) => (db.prepare(sql).get(...p) as { n: number }).n;
    assert.equal(n('SELECT COUNT(*) AS n FROM runs WHERE session_id = ?', project.id), created.length, 'every run created is stored');
    assert.equal(n('SELECT COUNT(*) AS n FROM runs WHERE session_id = ? AND end_time IS NOT NULL AND outputs IS NOT NULL', project.id), updated.size, 'every update is applied');
    assert.equal(n("SELECT COUNT(*) AS n FROM feedback WHERE key = 'load-score'"), feedback, 'every feedback is stored');
    assert.equal(n('SELECT COUNT(*) AS n FROM example_revisions WHERE dataset_id = ? AND valid_to IS NULL', ds.id), examples, 'every example is stored');
    assert.equal(n('SELECT COUNT(*) AS n FROM dataset_versions WHERE dataset_id = ?', ds.id), examples, 'one version per example change');
  });
});
