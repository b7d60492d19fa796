// Projects (tracer sessions): create with upsert / 409, read, list with filters and stats, update, delete.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx, Tenant } from '../context';
import {
  HttpError, conflict, jsonOrNull, newId, notFound, nowIso, parseBody, parseTime, queryBool, queryInt, queryJson,
  queryList, queryString, toJson, uuidParam,
  SqlWhere,
} from '../util';

export interface SessionRow {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  extra: string | null;
  reference_dataset_id: string | null;
  default_dataset_id: string | null;
  start_time: string;
  end_time: string | null;
  created_at: string;
}

export function sessionOut(r: SessionRow, stats?: any) {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    extra: jsonOrNull(r.extra) ?? {},
    reference_dataset_id: r.reference_dataset_id,
    default_dataset_id: r.default_dataset_id,
    start_time: r.start_time,
    end_time: r.end_time,
    tenant_id: r.tenant_id,
    trace_tier: 'longlived',
    ...(stats
      ? {
          run_count: stats.run_count ?? 0,
          latency_p50: stats.latency_p50 ?? null,
          latency_p99: stats.latency_p99 ?? null,
          total_tokens: stats.total_tokens ?? 0,
          prompt_tokens: stats.prompt_tokens ?? 0,
          completion_tokens: stats.completion_tokens ?? 0,
          error_rate: stats.error_rate ?? 0,
          last_run_start_time: stats.last_run_start_time ?? null,
          feedback_stats: stats.feedback_stats ?? {},
        }
      : {}),
  };
}

export function getSession(ctx: Ctx, tenant: Tenant, id: string): SessionRow {
  const r = ctx.st.one<SessionRow>('SELECT * FROM sessions WHERE id = ? AND tenant_id = ?', id, tenant.id);
  if (!r) throw notFound(`Session ${id}`);
  return r;
}

/** Find a project by name, creating it on first use (what tracing does with `session_name`). */
export function sessionByName(ctx: Ctx, tenant: Tenant, name: string): SessionRow {
  const r = ctx.st.one<SessionRow>('SELECT * FROM sessions WHERE tenant_id = ? AND name = ?', tenant.id, name);
  if (r) return r;
  const now = nowIso();
  const id = newId();
  ctx.st.run(
    'INSERT INTO sessions (id, tenant_id, name, extra, start_time, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    id, tenant.id, name, '{}', now, now,
  );
  return ctx.st.one<SessionRow>('SELECT * FROM sessions WHERE id = ?', id)!;
}

/** Stats for many sessions in one pass (no per-session queries). */
export function sessionStats(ctx: Ctx, ids: string[]): Map<string, any> {
  const out = new Map<string, any>();
  if (!ids.length) return out;
  const marks = ids.map(() => '?').join(',');
  const rows = ctx.st.all(
    `SELECT session_id,
            COUNT(*) AS run_count,
            SUM(CASE WHEN error IS NOT NULL THEN 1 ELSE 0 END) * 1.0 / COUNT(*) AS error_rate,
            MAX(start_time) AS last_run_start_time,
            COALESCE(SUM(total_tokens), 0) AS total_tokens,
            COALESCE(SUM(prompt_tokens), 0) AS prompt_tokens,
            COALESCE(SUM(completion_tokens), 0) AS completion_tokens
       FROM runs WHERE session_id IN (${marks}) AND parent_run_id IS NULL GROUP BY session_id`,
    ...ids,
  );
  for (const r of rows) out.set(r.session_id, r);
  const lat = ctx.st.all(
    `SELECT session_id, ROUND((julianday(end_time) - julianday(start_time)) * 86400.0, 3) AS latency
       FROM runs WHERE session_id IN (${marks}) AND parent_run_id IS NULL AND end_time IS NOT NULL
       ORDER BY session_id, latency`,
    ...ids,
  );
  const bySession = new Map<string, number[]>();
  for (const r of lat) {
    if (!bySession.has(r.session_id)) bySession.set(r.session_id, []);
    bySession.get(r.session_id)!.push(r.latency);
  }
  for (const [sid, arr] of bySession) {
    const s = out.get(sid) ?? {};
    const q = (p: number) => arr[Math.min(arr.length - 1, Math.floor(p * arr.length))];
    s.latency_p50 = q(0.5);
    s.latency_p99 = q(0.99);
    out.set(sid, s);
  }
  const fb = ctx.st.all(
    `SELECT r.session_id AS session_id, f.key AS key, COUNT(*) AS n, AVG(f.score) AS avg
       FROM feedback f JOIN runs r ON r.id = f.run_id AND r.tenant_id = f.tenant_id WHERE r.session_id IN (${marks}) GROUP BY r.session_id, f.key`,
    ...ids,
  );
  for (const r of fb) {
    const s = out.get(r.session_id) ?? {};
    s.feedback_stats = { ...(s.feedback_stats ?? {}), [r.key]: { n: r.n, avg: r.avg } };
    out.set(r.session_id, s);
  }
  return out;
}

const CreateSession = z.strictObject({
  id: z.string().uuid().optional().nullable(),
  name: z.string().min(1).optional().nullable(),
  description: z.string().optional().nullable(),
  extra: z.record(z.string(), z.any()).optional().nullable(),
  reference_dataset_id: z.string().uuid().optional().nullable(),
  default_dataset_id: z.string().uuid().optional().nullable(),
  start_time: z.union([z.string(), z.number()]).optional().nullable(),
  end_time: z.union([z.string(), z.number()]).optional().nullable(),
  num_examples: z.number().optional().nullable(),
  num_repetitions: z.number().optional().nullable(),
  evaluator_keys: z.array(z.string()).optional().nullable(),
  tag_value_ids: z.array(z.string()).optional().nullable(),
  trace_tier: z.string().optional().nullable(),
});

const UpdateSession = z.strictObject({
  name: z.string().min(1).optional().nullable(),
  description: z.string().optional().nullable(),
  extra: z.record(z.string(), z.any()).optional().nullable(),
  end_time: z.union([z.string(), z.number()]).optional().nullable(),
  default_dataset_id: z.string().uuid().optional().nullable(),
  trace_tier: z.string().optional().nullable(),
});

function checkDataset(ctx: Ctx, tenant: Tenant, id: string | null | undefined) {
  if (!id) return;
  if (!ctx.st.one('SELECT 1 FROM datasets WHERE id = ? AND tenant_id = ?', id, tenant.id)) throw notFound(`Dataset ${id}`);
}

export function registerSessions(app: FastifyInstance, ctx: Ctx) {
  app.post('/sessions', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const upsert = queryBool(q, 'upsert') ?? false;
    const b = parseBody(CreateSession, req.body);
    const name = b.name ?? `project-${newId().slice(0, 8)}`;
    checkDataset(ctx, req.tenant, b.reference_dataset_id);
    checkDataset(ctx, req.tenant, b.default_dataset_id);
    const startTime = b.start_time != null ? parseTime(b.start_time) : nowIso();
    if (!startTime) throw new HttpError(422, 'body.start_time: not a valid timestamp');
    const endTime = b.end_time != null ? parseTime(b.end_time) : null;
    const extra = b.extra ?? {};
    const result = ctx.st.tx(() => {
      const existing = ctx.st.one<SessionRow>('SELECT * FROM sessions WHERE tenant_id = ? AND name = ?', req.tenant.id, name);
      if (existing) {
        if (!upsert) throw conflict(`Session with name ${name} already exists`);
        ctx.st.run(
          `UPDATE sessions SET description = COALESCE(?, description), extra = ?, reference_dataset_id = COALESCE(?, reference_dataset_id),
             default_dataset_id = COALESCE(?, default_dataset_id), end_time = COALESCE(?, end_time) WHERE id = ?`,
          b.description ?? null, JSON.stringify({ ...(jsonOrNull(existing.extra) ?? {}), ...extra }),
          b.reference_dataset_id ?? null, b.default_dataset_id ?? null, endTime, existing.id,
        );
        return { row: ctx.st.one<SessionRow>('SELECT * FROM sessions WHERE id = ?', existing.id)!, created: false };
      }
      const id = b.id ?? newId();
      if (ctx.st.one('SELECT 1 FROM sessions WHERE id = ?', id)) throw conflict(`Session ${id} already exists`);
      ctx.st.run(
        `INSERT INTO sessions (id, tenant_id, name, description, extra, reference_dataset_id, default_dataset_id, start_time, end_time, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        id, req.tenant.id, name, b.description ?? null, JSON.stringify(extra), b.reference_dataset_id ?? null,
        b.default_dataset_id ?? null, startTime, endTime, nowIso(),
      );
      return { row: ctx.st.one<SessionRow>('SELECT * FROM sessions WHERE id = ?', id)!, created: true };
    });
    reply.code(result.created ? 201 : 200);
    return sessionOut(result.row);
  });

  app.get('/sessions', async (req) => {
    const q = req.query as Record<string, unknown>;
    const where = new SqlWhere('tenant_id = ?', req.tenant.id)
      .in('id', queryList(q, 'id').map((id) => uuidParam(id, 'id')))
      .eq('name', queryString(q, 'name'))
      .contains('name', queryString(q, 'name_contains'))
      .in('reference_dataset_id', queryList(q, 'reference_dataset').map((id) => uuidParam(id, 'reference_dataset')));
    const refFree = queryBool(q, 'reference_free');
    if (refFree === true) where.where('reference_dataset_id IS NULL');
    if (refFree === false) where.where('reference_dataset_id IS NOT NULL');
    where.metadata('extra', queryJson(q, 'metadata'));
    const limit = queryInt(q, 'limit', 100, 1, 1000);
    const offset = queryInt(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const rows = ctx.st.all<SessionRow>(
      `SELECT * FROM sessions WHERE ${where.sql} ORDER BY start_time DESC, id LIMIT ? OFFSET ?`,
      ...where.params, limit, offset,
    );
    const withStats = queryBool(q, 'include_stats') ?? false;
    const stats = withStats ? sessionStats(ctx, rows.map((r) => r.id)) : undefined;
    return rows.map((r) => sessionOut(r, stats ? stats.get(r.id) ?? {} : undefined));
  });

  app.get('/sessions/:id', async (req) => {
    const id = uuidParam((req.params as any).id, 'session_id');
    const row = getSession(ctx, req.tenant, id);
    const withStats = queryBool(req.query as any, 'include_stats') ?? false;
    return sessionOut(row, withStats ? sessionStats(ctx, [id]).get(id) ?? {} : undefined);
  });

  app.patch('/sessions/:id', async (req) => {
    const id = uuidParam((req.params as any).id, 'session_id');
    const b = parseBody(UpdateSession, req.body);
    return ctx.st.tx(() => {
      const row = getSession(ctx, req.tenant, id);
      if (b.name && b.name !== row.name) {
        if (ctx.st.one('SELECT 1 FROM sessions WHERE tenant_id = ? AND name = ?', req.tenant.id, b.name))
          throw conflict(`Session with name ${b.name} already exists`);
      }
      checkDataset(ctx, req.tenant, b.default_dataset_id);
      const endTime = b.end_time != null ? parseTime(b.end_time) : null;
      if (b.end_time != null && !endTime) throw new HttpError(422, 'body.end_time: not a valid timestamp');
      ctx.st.run(
        `UPDATE sessions SET name = COALESCE(?, name), description = COALESCE(?, description), extra = COALESCE(?, extra),
           end_time = COALESCE(?, end_time), default_dataset_id = COALESCE(?, default_dataset_id) WHERE id = ?`,
        b.name ?? null, b.description ?? null, toJson(b.extra), endTime, b.default_dataset_id ?? null, id,
      );
      return sessionOut(ctx.st.one<SessionRow>('SELECT * FROM sessions WHERE id = ?', id)!);
    });
  });

  app.delete('/sessions/:id', async (req, reply) => {
    const id = uuidParam((req.params as any).id, 'session_id');
    ctx.st.tx(() => {
      getSession(ctx, req.tenant, id);
      // The workspace's own feedback only (another may have sent feedback for a run id before the run existed).
      ctx.st.run('DELETE FROM feedback WHERE tenant_id = ? AND (run_id IN (SELECT id FROM runs WHERE session_id = ?) OR session_id = ?)', req.tenant.id, id, id);
      ctx.st.run('DELETE FROM queue_runs WHERE run_id IN (SELECT id FROM runs WHERE session_id = ?)', id);
      ctx.st.run('DELETE FROM runs WHERE session_id = ?', id);
      ctx.st.run('DELETE FROM sessions WHERE id = ?', id);
    });
    reply.code(202);
    return {};
  });
}

