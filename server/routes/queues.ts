// Annotation queues: CRUD, adding runs (by id or by key), the run at an index, removal, size.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx, Tenant } from '../context';
import {
  HttpError, conflict, jsonOrNull, newId, notFound, nowIso, parseBody, queryInt, queryList, queryString, toJson, uuidParam,
  SqlWhere,
} from '../util';
import { parseMaybeJson, runOut, type RunRow } from './runs';

interface QueueRow {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  rubric_instructions: string | null;
  rubric_items: string | null;
  created_at: string;
  updated_at: string;
}

function queueOut(q: QueueRow, totalRuns?: number) {
  return {
    id: q.id,
    name: q.name,
    description: q.description,
    rubric_instructions: q.rubric_instructions,
    rubric_items: jsonOrNull(q.rubric_items) ?? [],
    tenant_id: q.tenant_id,
    created_at: q.created_at,
    updated_at: q.updated_at,
    queue_type: 'single',
    default_dataset: null,
    num_reviewers_per_item: 1,
    enable_reservations: false,
    reservation_minutes: null,
    metadata: null,
    ...(totalRuns !== undefined ? { total_runs: totalRuns } : {}),
  };
}

const CreateQueue = z.strictObject({
  id: z.string().uuid().optional().nullable(),
  name: z.string().min(1),
  description: z.string().optional().nullable(),
  rubric_instructions: z.string().optional().nullable(),
  rubric_items: z.array(z.any()).optional().nullable(),
  default_dataset: z.string().uuid().optional().nullable(),
  num_reviewers_per_item: z.number().int().optional().nullable(),
  enable_reservations: z.boolean().optional().nullable(),
  reservation_minutes: z.number().int().optional().nullable(),
  queue_type: z.enum(['single', 'pairwise']).optional().nullable(),
  metadata: z.record(z.string(), z.any()).optional().nullable(),
});
/** An edit: any of a new queue's fields but its id and type (a name, when given, still not empty). */
const UpdateQueue = CreateQueue.omit({ id: true, queue_type: true }).partial().extend({ name: z.string().min(1).optional().nullable() });
const RunIds = z.array(z.string().uuid());
const RunKeys = z.array(
  z.strictObject({
    run_id: z.string().uuid(),
    session_id: z.string().uuid(),
    start_time: z.string(),
    source_proposed_example_id: z.string().uuid().optional().nullable(),
  }),
);

function getQueue(ctx: Ctx, tenant: Tenant, id: string): QueueRow {
  const q = ctx.st.one<QueueRow>('SELECT * FROM annotation_queues WHERE id = ? AND tenant_id = ?', id, tenant.id);
  if (!q) throw notFound(`Annotation queue ${id}`);
  return q;
}

const queueRunOut = (r: any) => ({ id: r.id, run_id: r.run_id, queue_id: r.queue_id, added_at: r.added_at, last_reviewed_time: r.last_reviewed_time });

export function addRunsToQueue(ctx: Ctx, tenant: Tenant, queueId: string, runIds: string[]) {
  return ctx.st.tx(() => {
    getQueue(ctx, tenant, queueId);
    const out: any[] = [];
    for (const raw of runIds) {
      const runId = raw.toLowerCase();
      if (!ctx.st.one('SELECT 1 FROM runs WHERE id = ? AND tenant_id = ?', runId, tenant.id)) throw notFound(`Run ${runId}`);
      const existing = ctx.st.one('SELECT * FROM queue_runs WHERE queue_id = ? AND run_id = ?', queueId, runId);
      if (existing) {
        out.push(queueRunOut(existing));
        continue;
      }
      const id = newId();
      ctx.st.run('INSERT INTO queue_runs (id, queue_id, run_id, added_at) VALUES (?, ?, ?, ?)', id, queueId, runId, nowIso());
      out.push(queueRunOut(ctx.st.one('SELECT * FROM queue_runs WHERE id = ?', id)));
    }
    ctx.st.run('UPDATE annotation_queues SET updated_at = ? WHERE id = ?', nowIso(), queueId);
    return out;
  });
}

export function registerQueues(app: FastifyInstance, ctx: Ctx) {
  app.get('/annotation-queues', async (req) => {
    const q = req.query as Record<string, unknown>;
    const where = new SqlWhere('q.tenant_id = ?', req.tenant.id)
      .in('q.id', queryList(q, 'ids').map((i) => uuidParam(i, 'ids')))
      .eq('q.name', queryString(q, 'name'))
      .contains('q.name', queryString(q, 'name_contains'));
    const limit = queryInt(q, 'limit', 100, 1, 100);
    const offset = queryInt(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const rows = ctx.st.all<QueueRow & { total_runs: number }>(
      `SELECT q.*, (SELECT COUNT(*) FROM queue_runs r WHERE r.queue_id = q.id) AS total_runs FROM annotation_queues q
        WHERE ${where.sql} ORDER BY q.created_at DESC, q.id LIMIT ? OFFSET ?`,
      ...where.params, limit, offset,
    );
    return rows.map((r) => queueOut(r, r.total_runs));
  });

  app.post('/annotation-queues', async (req) => {
    const b = parseBody(CreateQueue, parseMaybeJson(req.body));
    return ctx.st.tx(() => {
      const id = b.id?.toLowerCase() ?? newId();
      if (ctx.st.one('SELECT 1 FROM annotation_queues WHERE id = ?', id)) throw conflict(`Annotation queue ${id} already exists`);
      if (ctx.st.one('SELECT 1 FROM annotation_queues WHERE tenant_id = ? AND name = ?', req.tenant.id, b.name))
        throw conflict(`Annotation queue with name ${b.name} already exists`);
      const now = nowIso();
      ctx.st.run(
        'INSERT INTO annotation_queues (id, tenant_id, name, description, rubric_instructions, rubric_items, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        id, req.tenant.id, b.name, b.description ?? null, b.rubric_instructions ?? null, toJson(b.rubric_items), now, now,
      );
      return queueOut(getQueue(ctx, req.tenant, id));
    });
  });

  app.get('/annotation-queues/:id', async (req) => {
    const id = uuidParam((req.params as any).id, 'queue_id');
    const q = getQueue(ctx, req.tenant, id);
    return queueOut(q, ctx.st.one<{ n: number }>('SELECT COUNT(*) AS n FROM queue_runs WHERE queue_id = ?', id)!.n);
  });

  app.patch('/annotation-queues/:id', async (req) => {
    const id = uuidParam((req.params as any).id, 'queue_id');
    const b = parseBody(UpdateQueue, parseMaybeJson(req.body));
    return ctx.st.tx(() => {
      const q = getQueue(ctx, req.tenant, id);
      if (b.name && b.name !== q.name && ctx.st.one('SELECT 1 FROM annotation_queues WHERE tenant_id = ? AND name = ?', req.tenant.id, b.name))
        throw conflict(`Annotation queue with name ${b.name} already exists`);
      ctx.st.run(
        `UPDATE annotation_queues SET name = COALESCE(?, name), description = COALESCE(?, description),
           rubric_instructions = COALESCE(?, rubric_instructions), rubric_items = COALESCE(?, rubric_items), updated_at = ? WHERE id = ?`,
        b.name ?? null, b.description ?? null, b.rubric_instructions ?? null, toJson(b.rubric_items), nowIso(), id,
      );
      return queueOut(getQueue(ctx, req.tenant, id));
    });
  });

  app.delete('/annotation-queues/:id', async (req) => {
    const id = uuidParam((req.params as any).id, 'queue_id');
    ctx.st.tx(() => {
      getQueue(ctx, req.tenant, id);
      ctx.st.run('DELETE FROM queue_runs WHERE queue_id = ?', id);
      ctx.st.run('DELETE FROM annotation_queues WHERE id = ?', id);
    });
    return {};
  });

  app.post('/annotation-queues/:id/runs', async (req) => {
    const id = uuidParam((req.params as any).id, 'queue_id');
    const ids = parseBody(RunIds, parseMaybeJson(req.body));
    return addRunsToQueue(ctx, req.tenant, id, ids);
  });

  app.post('/annotation-queues/:id/runs/by-key', async (req) => {
    const id = uuidParam((req.params as any).id, 'queue_id');
    const keys = parseBody(RunKeys, parseMaybeJson(req.body));
    for (const [i, k] of keys.entries()) {
      const run = ctx.st.one<RunRow>('SELECT id, session_id FROM runs WHERE id = ? AND tenant_id = ?', k.run_id.toLowerCase(), req.tenant.id);
      if (!run) throw notFound(`Run ${k.run_id}`);
      if (run.session_id !== k.session_id.toLowerCase()) throw new HttpError(422, `body.${i}.session_id: run ${k.run_id} is not in session ${k.session_id}`);
    }
    return addRunsToQueue(ctx, req.tenant, id, keys.map((k) => k.run_id));
  });

  app.get('/annotation-queues/:id/runs', async (req) => {
    const id = uuidParam((req.params as any).id, 'queue_id');
    getQueue(ctx, req.tenant, id);
    const q = req.query as Record<string, unknown>;
    const limit = queryInt(q, 'limit', 100, 1, 100);
    const offset = queryInt(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const rows = ctx.st.all<RunRow & { queue_run_id: string; added_at: string; last_reviewed_time: string | null }>(
      `SELECT r.*, qr.id AS queue_run_id, qr.added_at AS added_at, qr.last_reviewed_time AS last_reviewed_time
         FROM queue_runs qr JOIN runs r ON r.id = qr.run_id WHERE qr.queue_id = ? ORDER BY qr.seq LIMIT ? OFFSET ?`,
      id, limit, offset,
    );
    return rows.map((r) => ({ ...runOut(r), queue_run_id: r.queue_run_id, added_at: r.added_at, last_reviewed_time: r.last_reviewed_time }));
  });

  app.get('/annotation-queues/:id/run/:index', async (req) => {
    const id = uuidParam((req.params as any).id, 'queue_id');
    const rawIndex = String((req.params as any).index);
    if (!/^\d+$/.test(rawIndex)) throw new HttpError(422, `index: "${rawIndex}" is not a non-negative integer`);
    getQueue(ctx, req.tenant, id);
    const r = ctx.st.one<RunRow & { queue_run_id: string; added_at: string; last_reviewed_time: string | null }>(
      `SELECT r.*, qr.id AS queue_run_id, qr.added_at AS added_at, qr.last_reviewed_time AS last_reviewed_time
         FROM queue_runs qr JOIN runs r ON r.id = qr.run_id WHERE qr.queue_id = ? ORDER BY qr.seq LIMIT 1 OFFSET ?`,
      id, Number(rawIndex),
    );
    if (!r) throw notFound(`No run at index ${rawIndex} in annotation queue ${id}`);
    return { ...runOut(r), queue_run_id: r.queue_run_id, added_at: r.added_at, last_reviewed_time: r.last_reviewed_time };
  });

  app.patch('/annotation-queues/:id/runs/:queueRunId', async (req) => {
    const id = uuidParam((req.params as any).id, 'queue_id');
    const qrId = uuidParam((req.params as any).queueRunId, 'queue_run_id');
    getQueue(ctx, req.tenant, id);
    const b: any = parseMaybeJson(req.body) ?? {};
    const t = b.last_reviewed_time ?? nowIso();
    const r = ctx.st.run('UPDATE queue_runs SET last_reviewed_time = ? WHERE queue_id = ? AND (id = ? OR run_id = ?)', t, id, qrId, qrId);
    if (!r.changes) throw notFound(`Run ${qrId} in annotation queue ${id}`);
    return {};
  });

  app.delete('/annotation-queues/:id/runs/:queueRunId', async (req) => {
    const id = uuidParam((req.params as any).id, 'queue_id');
    const qrId = uuidParam((req.params as any).queueRunId, 'queue_run_id');
    getQueue(ctx, req.tenant, id);
    // The queue-run id, or (as a convenience) the run id itself.
    const r = ctx.st.run('DELETE FROM queue_runs WHERE queue_id = ? AND (id = ? OR run_id = ?)', id, qrId, qrId);
    if (!r.changes) throw notFound(`Run ${qrId} in annotation queue ${id}`);
    return {};
  });

  app.get('/annotation-queues/:id/size', async (req) => {
    const id = uuidParam((req.params as any).id, 'queue_id');
    getQueue(ctx, req.tenant, id);
    return { size: ctx.st.one<{ n: number }>('SELECT COUNT(*) AS n FROM queue_runs WHERE queue_id = ?', id)!.n };
  });
  app.get('/annotation-queues/:id/total_size', async (req) => {
    const id = uuidParam((req.params as any).id, 'queue_id');
    getQueue(ctx, req.tenant, id);
    return { size: ctx.st.one<{ n: number }>('SELECT COUNT(*) AS n FROM queue_runs WHERE queue_id = ?', id)!.n };
  });
}
