/**
 * Reliability under injected faults (issue 13), against the real local server on loopback: 429 with a short
 * Retry-After, 500/502/503/504, connections dropped before the work (`reset`) and after it (`resetAfter`: the
 * write is committed, the answer lost), and a little latency.
 *
 * 1. 10,000 mixed operations through our client (creates, updates and deletes of projects, datasets, examples
 *    one at a time and in batches, feedback, annotation queues and their runs, prompt pushes, traced runs),
 *    eight at a time. The driver keeps a model of what it asked for; afterwards the server's rows are
 *    compared with it, entity by entity: nothing lost, nothing duplicated.
 * 2. Manual-flush tracing under the same faults: 2,000 runs created and then ended; flushed until nothing is
 *    pending; each run is on the server once, with its end time; a failed flush raises and keeps its runs.
 *
 * Figures go to .test-output/reliability.json (keys `mixedOperations` and `manualFlushTracing`).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { LangSmithError, RETRYABLE_STATUSES, collect, type LangSmithClient, type RunTree, type Tracer } from '../../src/client';
import { recordFigures } from '../harness/report';
import { withLocalServer } from '../harness/localServer';
import { clientFor, setFaults } from './_server';

/**
 * About one request in eight meets a fault. Retry-After is 5 ms so that 429s and 503s do not make the test
 * wait for seconds; everything else is as a real outage would have it.
 */
const FAULTS = '429:0.03,500:0.01,502:0.01,503:0.02,504:0.01,reset:0.02,resetAfter:0.02,latency:0-2ms,retryAfter:0.005';
const OPERATIONS = 10_000;
const WORKERS = 8;

/** A failure the faults explain: no answer, a timeout, or a retryable status left after the client's retries. */
function causedByFaults(e: unknown): boolean {
  return e instanceof LangSmithError && (e.status === undefined || RETRYABLE_STATUSES.has(e.status));
}

/** A small seeded generator, so that a failing mix can be replayed (the seed is printed). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Counters {
  /** Operations by kind. */
  ops: Record<string, number>;
  /** Operations the client reported as failed after its retries, by kind. */
  failed: Record<string, number>;
  /** Of those, found done when read back (the answer was lost after the work). */
  foundDone: number;
  /** Of those, done again by the driver (read back as not done, or safe to repeat as they are). */
  redone: number;
  /** Reads of the driver's own checks that failed after the client's retries and were asked again. */
  readsRepeated: number;
}

function bump(map: Record<string, number>, key: string, n = 1): void {
  map[key] = (map[key] ?? 0) + n;
}

/**
 * Does a write exactly once although the client may report it failed after its retries. `landed` reads the
 * server back to tell whether the failed attempt was carried out anyway (its answer lost); without it the
 * write is repeated as it is, which is only given for writes that set absolute values (updates, adds
 * that keep one entry). The attempt that failed is over when its error arrives (its connection is closed,
 * and the server finishes a request before it answers or drops it), so what the read-back sees is final.
 */
async function exactlyOnce(c: Counters, kind: string, write: () => Promise<unknown>, landed?: () => Promise<boolean>): Promise<void> {
  for (let round = 0; ; round++) {
    try {
      await write();
      return;
    } catch (e) {
      if (!causedByFaults(e) || round >= 25) throw e;
      bump(c.failed, kind);
      if (landed && (await persist(c, landed))) {
        c.foundDone++;
        return;
      }
      c.redone++;
    }
  }
}

/** A read of the driver's own, asked again while the faults defeat the client's retries. */
async function persist<T>(c: Counters, read: () => Promise<T>): Promise<T> {
  for (let round = 0; ; round++) {
    try {
      return await read();
    } catch (e) {
      if (!causedByFaults(e) || round >= 25) throw e;
      c.readsRepeated++;
    }
  }
}

/** What one worker asked for, as the server should hold it at the end. */
interface Model {
  runsProject: { id: string; name: string };
  projects: Map<string, { name: string; description: string }>;
  datasets: Map<string, { name: string; description: string; examples: Map<string, number> }>;
  feedback: Map<string, { runId: string; score: number }>;
  queues: Map<string, { name: string; description: string; runs: Set<string> }>;
  prompts: Map<string, { description: string | null; manifests: unknown[] }>;
  /** Runs traced (created, then ended) → parent. */
  runs: Map<string, string | null>;
}

const promptManifest = (handle: string, n: number) => ({
  lc: 1,
  type: 'constructor',
  id: ['langchain', 'prompts', 'prompt', 'PromptTemplate'],
  kwargs: { template: `${handle} version ${n}: {question}`, input_variables: ['question'], template_format: 'f-string' },
});

class Worker {
  readonly model: Model;
  private readonly tracer: Tracer;
  private seq = 0;

  constructor(
    private readonly w: number,
    private readonly client: LangSmithClient,
    private readonly c: Counters,
    private readonly rnd: () => number,
    runsProject: { id: string; name: string },
  ) {
    this.model = {
      runsProject,
      projects: new Map(),
      datasets: new Map(),
      feedback: new Map(),
      queues: new Map(),
      prompts: new Map(),
      runs: new Map(),
    };
    this.tracer = client.createTracer({ manualFlush: true, projectName: runsProject.name });
  }

  private name(kind: string): string {
    return `w${this.w}-${kind}-${++this.seq}`;
  }

  private any<K, V>(map: Map<K, V>): [K, V] | undefined {
    if (map.size === 0) return undefined;
    let i = Math.floor(this.rnd() * map.size);
    for (const entry of map) if (i-- === 0) return entry;
    return undefined;
  }

  /** The operations possible in the current state, with their weights. */
  private choices(): [number, string, () => Promise<void>][] {
    const m = this.model;
    const cl = this.client;
    const c = this.c;
    const out: [number, string, () => Promise<void>][] = [];
    const add = (weight: number, kind: string, op: () => Promise<void>) => out.push([weight, kind, op]);

    add(4, 'project.create', async () => {
      const id = randomUUID();
      const name = this.name('project');
      await exactlyOnce(c, 'project.create', () => cl.projects.create({ id, name, description: 'v0' }), () => cl.projects.exists({ projectId: id }));
      m.projects.set(id, { name, description: 'v0' });
    });
    const project = this.any(m.projects);
    if (project) {
      const [id, p] = project;
      add(3, 'project.update', async () => {
        const description = `v${++this.seq}`;
        await exactlyOnce(c, 'project.update', () => cl.projects.update(id, { description }));
        p.description = description;
      });
      add(2, 'project.delete', async () => {
        await exactlyOnce(c, 'project.delete', () => cl.projects.delete({ projectId: id }), async () => !(await cl.projects.exists({ projectId: id })));
        m.projects.delete(id);
      });
    }

    add(3, 'dataset.create', async () => {
      const id = randomUUID();
      const name = this.name('dataset');
      await exactlyOnce(c, 'dataset.create', () => cl.datasets.create({ id, name, description: 'v0' }), () => cl.datasets.exists({ datasetId: id }));
      m.datasets.set(id, { name, description: 'v0', examples: new Map() });
    });
    const dataset = this.any(m.datasets);
    if (dataset) {
      const [datasetId, d] = dataset;
      add(3, 'dataset.update', async () => {
        const description = `v${++this.seq}`;
        await exactlyOnce(c, 'dataset.update', () => cl.datasets.update(datasetId, { description }));
        d.description = description;
      });
      if (m.datasets.size > 2) {
        add(1, 'dataset.delete', async () => {
          await exactlyOnce(c, 'dataset.delete', () => cl.datasets.delete({ datasetId }), async () => !(await cl.datasets.exists({ datasetId })));
          m.datasets.delete(datasetId);
        });
      }
      add(8, 'example.create', async () => {
        const id = randomUUID();
        const v = ++this.seq;
        await exactlyOnce(
          c,
          'example.create',
          () => cl.examples.createOne({ datasetId, id, inputs: { v }, outputs: { w: this.w } }),
          async () => (await collect(cl.examples.list({ datasetId, ids: [id] }))).length === 1,
        );
        d.examples.set(id, v);
      });
      add(8, 'example.createBatch', async () => {
        let missing = Array.from({ length: 5 + Math.floor(this.rnd() * 16) }, () => ({ id: randomUUID(), inputs: { v: ++this.seq } }));
        const all = missing;
        await exactlyOnce(
          c,
          'example.createBatch',
          () => cl.examples.create({ datasetId, examples: missing }),
          async () => {
            // The batch is one transaction on the server: all of it landed or none. Only what is missing is sent again.
            const found = new Set((await collect(cl.examples.list({ datasetId, ids: missing.map((x) => x.id) }))).map((x) => x.id));
            missing = missing.filter((x) => !found.has(x.id));
            return missing.length === 0;
          },
        );
        for (const x of all) d.examples.set(x.id, x.inputs.v);
      });
      const example = this.any(d.examples);
      if (example) {
        const [exampleId] = example;
        add(6, 'example.update', async () => {
          const v = ++this.seq;
          await exactlyOnce(c, 'example.update', () => cl.examples.update({ datasetId, updates: [{ id: exampleId, inputs: { v } }] }));
          d.examples.set(exampleId, v);
        });
        add(4, 'example.delete', async () => {
          await exactlyOnce(
            c,
            'example.delete',
            () => cl.examples.delete(exampleId),
            async () => (await collect(cl.examples.list({ datasetId, ids: [exampleId] }))).length === 0,
          );
          d.examples.delete(exampleId);
        });
      }
    }

    add(7, 'trace', async () => {
      // A root with two children: created (one flush), then ended (another flush). Runs stay queued in
      // the tracer until a flush gets them through, so flushing until nothing is pending is exactly once.
      const root = this.tracer.startRun({ name: this.name('trace'), inputs: { w: this.w } });
      const kids = [root.createChild({ name: 'llm', runType: 'llm' }), root.createChild({ name: 'tool', runType: 'tool' })];
      for (const r of [root, ...kids]) r.post();
      await this.flushAll('trace');
      for (const r of [...kids, root]) r.end({ outputs: { ok: r.id } }).patch();
      await this.flushAll('trace');
      for (const r of [root, ...kids]) m.runs.set(r.id, r.parentRunId ?? null);
    });
    const run = this.any(m.runs);
    if (run) {
      const [runId] = run;
      add(6, 'feedback.create', async () => {
        const feedbackId = randomUUID();
        const score = Math.round(this.rnd() * 100) / 100;
        await exactlyOnce(
          c,
          'feedback.create',
          () => cl.feedback.create({ runId, key: 'quality', score, feedbackId }),
          async () => (await cl.http.request({ path: `/feedback/${feedbackId}`, action: 'read feedback', nullOn404: true })) !== null,
        );
        m.feedback.set(feedbackId, { runId, score });
      });
    }
    const fb = this.any(m.feedback);
    if (fb) {
      const [feedbackId, f] = fb;
      add(4, 'feedback.update', async () => {
        const score = Math.round(this.rnd() * 100) / 100;
        await exactlyOnce(c, 'feedback.update', () => cl.feedback.update(feedbackId, { score }));
        f.score = score;
      });
      add(3, 'feedback.delete', async () => {
        await exactlyOnce(
          c,
          'feedback.delete',
          () => cl.feedback.delete(feedbackId),
          async () => (await cl.http.request({ path: `/feedback/${feedbackId}`, action: 'read feedback', nullOn404: true })) === null,
        );
        m.feedback.delete(feedbackId);
      });
    }

    add(2, 'queue.create', async () => {
      const queueId = randomUUID();
      const name = this.name('queue');
      await exactlyOnce(
        c,
        'queue.create',
        () => cl.annotationQueues.create({ queueId, name, description: 'v0' }),
        async () => (await cl.http.request({ path: `/annotation-queues/${queueId}`, action: 'read annotation queue', nullOn404: true })) !== null,
      );
      m.queues.set(queueId, { name, description: 'v0', runs: new Set() });
    });
    const queue = this.any(m.queues);
    if (queue) {
      const [queueId, q] = queue;
      add(2, 'queue.update', async () => {
        const description = `v${++this.seq}`;
        await exactlyOnce(c, 'queue.update', () => cl.annotationQueues.update(queueId, { description }));
        q.description = description;
      });
      if (m.queues.size > 1) {
        add(1, 'queue.delete', async () => {
          await exactlyOnce(
            c,
            'queue.delete',
            () => cl.annotationQueues.delete(queueId),
            async () => (await cl.http.request({ path: `/annotation-queues/${queueId}`, action: 'read annotation queue', nullOn404: true })) === null,
          );
          m.queues.delete(queueId);
        });
      }
      if (m.runs.size > 0) {
        add(4, 'queue.addRuns', async () => {
          const runIds = [...new Set([this.any(m.runs)![0], this.any(m.runs)![0]])];
          // Adding a run that is queued already keeps one entry, so repeating is safe.
          await exactlyOnce(c, 'queue.addRuns', () => cl.annotationQueues.addRuns(queueId, runIds));
          for (const r of runIds) q.runs.add(r);
        });
      }
    }

    add(2, 'prompt.pushNew', async () => {
      const handle = this.name('prompt');
      await this.push(handle, []);
    });
    const prompt = this.any(m.prompts);
    if (prompt) {
      const [handle, p] = prompt;
      add(6, 'prompt.push', async () => {
        await this.push(handle, p.manifests);
      });
      add(2, 'prompt.update', async () => {
        const description = `v${++this.seq}`;
        await exactlyOnce(c, 'prompt.update', () => cl.prompts.update(handle, { description }));
        p.description = description;
      });
      if (m.prompts.size > 1) {
        add(1, 'prompt.delete', async () => {
          await exactlyOnce(c, 'prompt.delete', () => cl.prompts.delete(handle), async () => !(await cl.prompts.exists(handle)));
          m.prompts.delete(handle);
        });
      }
    }
    return out;
  }

  /**
   * `prompts.push` POSTs a commit (and the repository the first time). The client repeats both like idempotent
   * requests: a repeat of a commit that landed meets the server's "identical to the latest commit" 409 and is
   * read back as its own (the same manifest on the parent it gave), a repeat of a repository create meets
   * "already exists" and reads the empty repository back. Should a push still fail (retries exhausted), the
   * driver reads the latest commit back before pushing again: every push carries a manifest no earlier commit
   * has (its version number), and a worker is the only writer of its prompts.
   */
  private async push(handle: string, manifests: unknown[]): Promise<void> {
    const manifest = promptManifest(handle, manifests.length + 1);
    const cl = this.client;
    await exactlyOnce(
      this.c,
      'prompt.push',
      () => cl.prompts.push(handle, { manifest }),
      async () => {
        if (!(await cl.prompts.exists(handle))) return false;
        const [latest] = await collect(cl.prompts.listCommits(handle, { limit: 1 }));
        return latest !== undefined && isDeepStrictEqual(latest.manifest, manifest);
      },
    );
    if (manifests.length === 0) this.model.prompts.set(handle, { description: null, manifests });
    manifests.push(manifest);
  }

  /** Flushes the tracer until nothing is pending; a failed flush keeps its runs for the next one. */
  private async flushAll(kind: string): Promise<void> {
    for (let round = 0; this.tracer.pendingCount > 0; round++) {
      try {
        await this.tracer.flush();
      } catch (e) {
        if (!causedByFaults(e) || round >= 25) throw e;
        bump(this.c.failed, kind);
        this.c.redone++;
      }
    }
  }

  async step(): Promise<void> {
    const choices = this.choices();
    const total = choices.reduce((n, [w]) => n + w, 0);
    let roll = this.rnd() * total;
    let chosen = choices[choices.length - 1]!;
    for (const choice of choices) {
      if ((roll -= choice[0]) < 0) {
        chosen = choice;
        break;
      }
    }
    bump(this.c.ops, chosen[1]);
    await chosen[2]();
  }
}

describe('client reliability under injected faults (real local server)', function () {
  this.timeout(180_000);
  const srv = withLocalServer();

  it(`${OPERATIONS.toLocaleString('en')} mixed operations through 429, 5xx, dropped connections (before and after the work) and latency: none lost, none duplicated`, async () => {
    const seed = Number(process.env.RELIABILITY_SEED ?? Date.now() % 2 ** 31);
    // Retries as the extension has them (4), with short waits: the test is about outcomes, not patience.
    const client = clientFor(srv(), { maxRetries: 4, retryBaseDelayMs: 2, retryMaxDelayMs: 50 });
    const c: Counters = { ops: {}, failed: {}, foundDone: 0, redone: 0, readsRepeated: 0 };
    // The workers' run projects come first (faults on already); they are never deleted.
    await setFaults(srv(), FAULTS);
    const statsBefore = srv().server.stats();
    const started = performance.now();
    const workers: Worker[] = [];
    for (let w = 0; w < WORKERS; w++) {
      const id = randomUUID();
      const name = `w${w}-runs`;
      await exactlyOnce(c, 'project.create', () => client.projects.create({ id, name }), () => client.projects.exists({ projectId: id }));
      workers.push(new Worker(w, client, c, seeded(seed + w + 1), { id, name }));
    }
    let next = 0;
    await Promise.all(
      workers.map(async (worker) => {
        while (next < OPERATIONS) {
          next++;
          await worker.step();
        }
      }),
    );
    const elapsedMs = Math.round(performance.now() - started);
    await setFaults(srv(), '');
    const stats = srv().server.stats();

    // What the server holds, read from its database, against what was asked.
    const db = srv().server.db;
    const tenant = srv().tenantId;
    const lost: Record<string, number> = {};
    const duplicated: Record<string, number> = {};
    /**
     * Lost: asked for and absent, or not in the state last asked for (an update that did not land).
     * Duplicated: present although never asked for, or asked to be deleted (and, counted below, the same
     * example or queued run twice, a push committed twice).
     */
    const compare = <V>(entity: string, expected: Map<string, V>, actual: Map<string, V>) => {
      let l = 0;
      let d = 0;
      for (const [id, want] of expected) {
        if (!actual.has(id) || !isDeepStrictEqual(actual.get(id), want)) {
          l++;
          if (l <= 3) console.log(`  lost ${entity} ${id}: want ${JSON.stringify(want)}, have ${JSON.stringify(actual.get(id))}`);
        }
      }
      for (const id of actual.keys()) {
        if (!expected.has(id)) {
          d++;
          if (d <= 3) console.log(`  unexpected ${entity} ${id}: ${JSON.stringify(actual.get(id))}`);
        }
      }
      lost[entity] = l;
      duplicated[entity] = d;
    };
    const models = workers.map((w) => w.model);
    const rows = <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[];

    const wantProjects = new Map<string, string>();
    for (const m of models) {
      wantProjects.set(m.runsProject.id, `${m.runsProject.name}|`);
      for (const [id, p] of m.projects) wantProjects.set(id, `${p.name}|${p.description}`);
    }
    compare('projects', wantProjects, new Map(rows<{ id: string; name: string; description: string | null }>('SELECT id, name, description FROM sessions WHERE tenant_id = ?', tenant).map((r) => [r.id, `${r.name}|${r.description ?? ''}`])));

    const wantDatasets = new Map<string, string>();
    const wantExamples = new Map<string, string>();
    for (const m of models) {
      for (const [id, d] of m.datasets) {
        wantDatasets.set(id, `${d.name}|${d.description}`);
        for (const [ex, v] of d.examples) wantExamples.set(ex, `${id}|${v}`);
      }
    }
    compare('datasets', wantDatasets, new Map(rows<{ id: string; name: string; description: string }>('SELECT id, name, description FROM datasets WHERE tenant_id = ?', tenant).map((r) => [r.id, `${r.name}|${r.description}`])));
    const exampleRows = rows<{ example_id: string; dataset_id: string; inputs: string }>(
      'SELECT e.example_id, e.dataset_id, e.inputs FROM example_revisions e JOIN datasets d ON d.id = e.dataset_id WHERE d.tenant_id = ? AND e.valid_to IS NULL',
      tenant,
    );
    compare('examples', wantExamples, new Map(exampleRows.map((r) => [r.example_id, `${r.dataset_id}|${JSON.parse(r.inputs).v}`])));
    // The same example twice (two current revisions) would hide in the map above.
    duplicated['examples']! += exampleRows.length - new Set(exampleRows.map((r) => r.example_id)).size;

    const wantRuns = new Map<string, string>();
    for (const m of models) for (const [id, parent] of m.runs) wantRuns.set(id, `${m.runsProject.id}|${parent ?? ''}|ended|${id}`);
    compare('runs', wantRuns, new Map(rows<{ id: string; session_id: string; parent_run_id: string | null; end_time: string | null; outputs: string | null }>(
      'SELECT id, session_id, parent_run_id, end_time, outputs FROM runs WHERE tenant_id = ?', tenant,
    ).map((r) => [r.id, `${r.session_id}|${r.parent_run_id ?? ''}|${r.end_time ? 'ended' : 'open'}|${r.outputs ? JSON.parse(r.outputs).ok : ''}`])));

    const wantFeedback = new Map<string, string>();
    for (const m of models) for (const [id, f] of m.feedback) wantFeedback.set(id, `${f.runId}|${f.score}`);
    compare('feedback', wantFeedback, new Map(rows<{ id: string; run_id: string; score: number }>('SELECT id, run_id, score FROM feedback WHERE tenant_id = ?', tenant).map((r) => [r.id, `${r.run_id}|${r.score}`])));

    const wantQueues = new Map<string, string>();
    const wantQueueRuns = new Map<string, string>();
    for (const m of models) {
      for (const [id, q] of m.queues) {
        wantQueues.set(id, `${q.name}|${q.description}`);
        for (const r of q.runs) wantQueueRuns.set(`${id}/${r}`, 'queued');
      }
    }
    compare('annotation queues', wantQueues, new Map(rows<{ id: string; name: string; description: string }>('SELECT id, name, description FROM annotation_queues WHERE tenant_id = ?', tenant).map((r) => [r.id, `${r.name}|${r.description}`])));
    const queueRunRows = rows<{ queue_id: string; run_id: string }>(
      'SELECT qr.queue_id, qr.run_id FROM queue_runs qr JOIN annotation_queues q ON q.id = qr.queue_id WHERE q.tenant_id = ?', tenant,
    );
    compare('queued runs', wantQueueRuns, new Map(queueRunRows.map((r) => [`${r.queue_id}/${r.run_id}`, 'queued'])));
    duplicated['queued runs']! += queueRunRows.length - new Set(queueRunRows.map((r) => `${r.queue_id}/${r.run_id}`)).size;

    const wantPrompts = new Map<string, string>();
    const wantCommits = new Map<string, unknown>();
    for (const m of models) {
      for (const [handle, p] of m.prompts) {
        wantPrompts.set(handle, p.description ?? '');
        p.manifests.forEach((manifest, i) => wantCommits.set(`${handle}#${i}`, manifest));
      }
    }
    compare('prompts', wantPrompts, new Map(rows<{ repo_handle: string; description: string | null }>('SELECT repo_handle, description FROM repos WHERE tenant_id = ?', tenant).map((r) => [r.repo_handle, r.description ?? ''])));
    // Commits in order per prompt: a duplicated push shows as an extra commit (and shifts the ones after it).
    const commitRows = rows<{ repo_handle: string; manifest: string }>(
      'SELECT r.repo_handle, c.manifest FROM commits c JOIN repos r ON r.id = c.repo_id WHERE r.tenant_id = ? ORDER BY r.repo_handle, c.seq',
      tenant,
    );
    const position = new Map<string, number>();
    compare('prompt commits', wantCommits, new Map(commitRows.map((r) => {
      const i = position.get(r.repo_handle) ?? 0;
      position.set(r.repo_handle, i + 1);
      return [`${r.repo_handle}#${i}`, JSON.parse(r.manifest) as unknown];
    })));

    const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
    const operations = sum(c.ops);
    const figures = {
      seed,
      operations,
      operationsByKind: c.ops,
      workers: WORKERS,
      faults: FAULTS,
      requestsAnswered: stats.requests - statsBefore.requests,
      faultsInjected: stats.faultsInjected - statsBefore.faultsInjected,
      internalErrors: stats.internalErrors,
      clientRequests: client.http.stats.requests,
      clientRetries: client.http.stats.retries,
      failedAfterRetries: sum(c.failed),
      failedAfterRetriesByKind: c.failed,
      failedButFoundDone: c.foundDone,
      redoneByDriver: c.redone,
      driverReadsRepeated: c.readsRepeated,
      rowsExpected: {
        projects: wantProjects.size, datasets: wantDatasets.size, examples: wantExamples.size, runs: wantRuns.size, feedback: wantFeedback.size,
        queues: wantQueues.size, queuedRuns: wantQueueRuns.size, prompts: wantPrompts.size, commits: wantCommits.size,
      },
      lost,
      duplicated,
      lostTotal: sum(lost),
      duplicatedTotal: sum(duplicated),
      elapsedMs,
    };
    recordFigures('mixedOperations', figures);
    console.log(
      `      reliability: ${operations} operations in ${(elapsedMs / 1000).toFixed(1)} s; ${figures.faultsInjected} faults injected, ` +
        `${figures.clientRetries} client retries, ${figures.failedAfterRetries} failed after retries (${c.foundDone} found done, ${c.redone} redone); ` +
        `lost ${figures.lostTotal}, duplicated ${figures.duplicatedTotal} (seed ${seed})`,
    );

    assert.ok(operations >= OPERATIONS, `${operations} operations`);
    assert.deepEqual(Object.values(lost).filter((n) => n > 0), [], `lost: ${JSON.stringify(lost)}`);
    assert.deepEqual(Object.values(duplicated).filter((n) => n > 0), [], `duplicated: ${JSON.stringify(duplicated)}`);
    assert.equal(stats.internalErrors, 0, 'no genuine 500 from the server');
    // The faults really were there and were ridden out, both by the client and (for what it reports failed) the driver.
    assert.ok(figures.faultsInjected > OPERATIONS / 20, `${figures.faultsInjected} faults injected`);
    assert.ok(figures.clientRetries > OPERATIONS / 20, `${figures.clientRetries} retries`);
    for (const kind of ['project.create', 'dataset.create', 'example.createBatch', 'feedback.create', 'queue.addRuns', 'prompt.push', 'trace']) {
      assert.ok((c.ops[kind] ?? 0) > 50, `${kind}: ${c.ops[kind] ?? 0} operations`);
    }
    // Every write, prompt pushes included, is made exactly once by the client itself; only a run of faults longer
    // than its retries (a chance of about 1 in 10,000 per write here) leaves one for the driver to settle.
    const failedTotal = Object.values(c.failed).reduce((a, b) => a + b, 0);
    assert.ok(failedTotal <= 10, `writes the client reported failed after its retries: ${JSON.stringify(c.failed)}`);
    assert.ok(elapsedMs < 120_000, `${elapsedMs} ms`);
  });

  it('a delete whose answer was lost: the repeat finds nothing, and that is the delete done, not a failure', async () => {
    await setFaults(srv(), '');
    // A fetch that carries out the first DELETE, then fails as a dropped connection does.
    let dropped = 0;
    const dropFirstDelete = (async (input: string | URL | Request, init?: RequestInit) => {
      const res = await fetch(input, init);
      if (init?.method === 'DELETE' && dropped++ === 0) {
        await res.arrayBuffer();
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
      }
      return res;
    }) as typeof fetch;
    const plain = clientFor(srv());
    for (const [what, make, remove, exists] of [
      ['dataset', async () => (await plain.datasets.create({ name: `del-${randomUUID()}` })).id, (cl: LangSmithClient, id: string) => cl.datasets.delete({ datasetId: id }), (id: string) => plain.datasets.exists({ datasetId: id })],
      ['prompt', async () => (await plain.prompts.create(`del-${randomUUID()}`)).repo_handle, (cl: LangSmithClient, id: string) => cl.prompts.delete(id), (id: string) => plain.prompts.exists(id)],
      ['feedback', async () => (await plain.feedback.create({ projectId: (await plain.projects.create({ name: `del-${randomUUID()}` })).id, key: 'k' })).id, (cl: LangSmithClient, id: string) => cl.feedback.delete(id), async (id: string) => (await plain.http.request({ path: `/feedback/${id}`, action: 'read feedback', nullOn404: true })) !== null],
    ] as const) {
      dropped = 0;
      const lossy = clientFor(srv(), { fetch: dropFirstDelete });
      const id = await make();
      await remove(lossy, id);
      assert.equal(lossy.http.stats.retries, 1, `${what}: deleted, answer lost, repeated`);
      assert.equal(await exists(id), false, what);
      // Not repeated, a 404 is still what it says: there was nothing to delete.
      await assert.rejects(remove(plain, id), (e: unknown) => e instanceof LangSmithError && (e.status === 404 || /does not exist/.test(e.message)), what);
    }
  });

  it('manual-flush tracing under the same faults: 2,000 runs each reach the server once with their end time; a failed flush raises and keeps its runs', async () => {
    const RUNS = 2000;
    await setFaults(srv(), '');
    // No retries inside the client: every fault fails the flush it hits, so flushes fail often and the
    // tracer's own keeping of runs is what gets them through.
    const client = clientFor(srv(), { maxRetries: 0 });
    const projectName = `manual-flush-${randomUUID()}`;
    const tracer = client.createTracer({ manualFlush: true, projectName });
    const db = srv().server.db;
    const onServer = () =>
      db.prepare('SELECT r.id, r.end_time FROM runs r JOIN sessions s ON s.id = r.session_id WHERE s.tenant_id = ? AND s.name = ?').all(srv().tenantId, projectName) as {
        id: string;
        end_time: string | null;
      }[];
    const started = performance.now();
    const statsBefore = srv().server.stats();
    const runs: RunTree[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(tracer.startRun({ name: `run-${i}`, inputs: { i } }).post());
    assert.equal(tracer.pendingCount, RUNS);

    // Every request refused: the flush raises, naming the action, and keeps every run.
    await setFaults(srv(), '503:1');
    await assert.rejects(tracer.flush(), (e: unknown) => {
      assert.ok(e instanceof LangSmithError);
      assert.equal(e.action, 'ingest runs');
      assert.match(e.message, /^Failed to ingest runs: 503/);
      return true;
    });
    assert.equal(tracer.pendingCount, RUNS, 'a failed flush keeps its runs');
    assert.equal(onServer().length, 0);

    await setFaults(srv(), FAULTS);
    let flushes = 1;
    let failedFlushes = 1;
    /** Flushes until nothing is pending; after each failure, whatever is not on the server is still pending. */
    const flushUntilEmpty = async (notDone: () => number) => {
      while (tracer.pendingCount > 0) {
        assert.ok(flushes < 500, 'flushes make progress');
        flushes++;
        const before = tracer.pendingCount;
        try {
          await tracer.flush();
        } catch (e) {
          failedFlushes++;
          assert.ok(e instanceof LangSmithError && e.action === 'ingest runs' && e.message.startsWith('Failed to ingest runs: '), String(e));
          assert.ok(tracer.pendingCount > 0 && tracer.pendingCount <= before, `${tracer.pendingCount} pending after a failed flush of ${before}`);
          assert.ok(notDone() <= tracer.pendingCount, 'every run the server lacks is still pending');
        }
      }
    };
    // Some of the creations get through; then every run ends (its update is queued, merged with its
    // creation where that is still pending), and flushing goes on until nothing is left.
    await tracer.flush().catch(() => failedFlushes++);
    flushes++;
    const endTimes = new Map<string, number>();
    const t0 = Date.now();
    runs.forEach((r, i) => {
      endTimes.set(r.id, t0 + i);
      r.end({ outputs: { i }, endTime: t0 + i }).patch();
    });
    await flushUntilEmpty(() => {
      const ended = new Set(onServer().filter((r) => r.end_time !== null).map((r) => r.id));
      return runs.filter((r) => !ended.has(r.id)).length;
    });
    const elapsedMs = Math.round(performance.now() - started);
    await setFaults(srv(), '');

    const rows = onServer();
    const ids = new Set(rows.map((r) => r.id));
    const lost = runs.filter((r) => !ids.has(r.id)).length;
    const duplicated = rows.length - ids.size + rows.filter((r) => !endTimes.has(r.id)).length;
    const wrongEnd = rows.filter((r) => r.end_time === null || Date.parse(r.end_time) !== endTimes.get(r.id)).length;
    const stats = srv().server.stats();
    const figures = {
      runs: RUNS,
      faults: FAULTS,
      flushes,
      failedFlushes,
      ingestRequests: tracer.requests,
      faultsInjected: stats.faultsInjected - statsBefore.faultsInjected,
      clientRetries: client.http.stats.retries,
      lost,
      duplicated,
      withoutTheirEndTime: wrongEnd,
      elapsedMs,
    };
    recordFigures('manualFlushTracing', figures);
    console.log(
      `      manual flush: ${RUNS} runs in ${flushes} flushes (${failedFlushes} failed, ${tracer.requests} requests, ${figures.faultsInjected} faults); ` +
        `lost ${lost}, duplicated ${duplicated}, without their end time ${wrongEnd}; ${(elapsedMs / 1000).toFixed(1)} s`,
    );
    assert.equal(tracer.pendingCount, 0);
    assert.equal(lost, 0);
    assert.equal(duplicated, 0);
    assert.equal(rows.length, RUNS);
    assert.equal(wrongEnd, 0, 'every run has its end time (a repeated creation never undid an update)');
    assert.equal(stats.internalErrors, 0);
  });
});
