// Projects (tracer sessions): their rows, lookups, writes and stats. SQL lives here; routes shape answers.
import type { Ctx, Tenant } from '../context';
import { conflict, notFound } from '../errors';
import { newId } from '../ids';
import { jsonOrNull, toJson } from '../json';
import { SqlWhere } from '../sql';
import { nowIso } from '../time';

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

/** Per-project figures over its root runs and their feedback. */
export interface SessionStats {
  run_count?: number;
  error_rate?: number;
  last_run_start_time?: string | null;
  total_tokens?: number;
  prompt_tokens?: number;
  completion_tokens?: number;
  latency_p50?: number;
  latency_p99?: number;
  feedback_stats?: Record<string, { n: number; avg: number | null }>;
}

const byId = (ctx: Ctx, id: string) => ctx.st.one<SessionRow>('SELECT * FROM sessions WHERE id = ?', id)!;

export function getSession(ctx: Ctx, tenant: Tenant, id: string): SessionRow {
  const r = ctx.st.one<SessionRow>('SELECT * FROM sessions WHERE id = ? AND tenant_id = ?', id, tenant.id);
  if (!r) throw notFound(`Session ${id}`);
  return r;
}

const byName = (ctx: Ctx, tenant: Tenant, name: string) =>
  ctx.st.one<SessionRow>('SELECT * FROM sessions WHERE tenant_id = ? AND name = ?', tenant.id, name);

/** Find a project by name, creating it on first use (what tracing does with `session_name`). */
export function sessionByName(ctx: Ctx, tenant: Tenant, name: string): SessionRow {
  const r = byName(ctx, tenant, name);
  if (r) return r;
  const now = nowIso();
  const id = newId();
  ctx.st.run('INSERT INTO sessions (id, tenant_id, name, extra, start_time, created_at) VALUES (?, ?, ?, ?, ?, ?)', id, tenant.id, name, '{}', now, now);
  return byId(ctx, id);
}

/** A dataset id a project refers to must be the workspace's own. */
export function checkDatasetRef(ctx: Ctx, tenant: Tenant, id: string | null | undefined) {
  if (!id) return;
  if (!ctx.st.one('SELECT 1 FROM datasets WHERE id = ? AND tenant_id = ?', id, tenant.id)) throw notFound(`Dataset ${id}`);
}

export interface NewSession {
  id?: string | null;
  name: string;
  description?: string | null;
  extra: Record<string, unknown>;
  reference_dataset_id?: string | null;
  default_dataset_id?: string | null;
  start_time: string;
  end_time: string | null;
}

/** Creates a project; with `upsert`, an existing one of that name is updated instead (else a 409). */
export function createSession(ctx: Ctx, tenant: Tenant, s: NewSession, upsert: boolean): { row: SessionRow; created: boolean } {
  checkDatasetRef(ctx, tenant, s.reference_dataset_id);
  checkDatasetRef(ctx, tenant, s.default_dataset_id);
  return ctx.st.tx(() => {
    const existing = byName(ctx, tenant, s.name);
    if (existing) {
      if (!upsert) throw conflict(`Session with name ${s.name} already exists`);
      ctx.st.run(
        `UPDATE sessions SET description = COALESCE(?, description), extra = ?, reference_dataset_id = COALESCE(?, reference_dataset_id),
           default_dataset_id = COALESCE(?, default_dataset_id), end_time = COALESCE(?, end_time) WHERE id = ?`,
        s.description ?? null, JSON.stringify({ ...(jsonOrNull(existing.extra) ?? {}), ...s.extra }),
        s.reference_dataset_id ?? null, s.default_dataset_id ?? null, s.end_time, existing.id,
      );
      return { row: byId(ctx, existing.id), created: false };
    }
    const id = s.id ?? newId();
    if (ctx.st.one('SELECT 1 FROM sessions WHERE id = ?', id)) throw conflict(`Session ${id} already exists`);
    ctx.st.run(
      `INSERT INTO sessions (id, tenant_id, name, description, extra, reference_dataset_id, default_dataset_id, start_time, end_time, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      id, tenant.id, s.name, s.description ?? null, JSON.stringify(s.extra), s.reference_dataset_id ?? null,
      s.default_dataset_id ?? null, s.start_time, s.end_time, nowIso(),
    );
    return { row: byId(ctx, id), created: true };
  });
}

export interface SessionFilter {
  ids: string[];
  name?: string;
  nameContains?: string;
  referenceDatasets: string[];
  referenceFree?: boolean;
  metadata?: unknown;
  limit: number;
  offset: number;
}

export function listSessions(ctx: Ctx, tenant: Tenant, f: SessionFilter): SessionRow[] {
  const where = new SqlWhere('tenant_id = ?', tenant.id)
    .in('id', f.ids)
    .eq('name', f.name)
    .contains('name', f.nameContains)
    .in('reference_dataset_id', f.referenceDatasets);
  if (f.referenceFree === true) where.where('reference_dataset_id IS NULL');
  if (f.referenceFree === false) where.where('reference_dataset_id IS NOT NULL');
  where.metadata('extra', f.metadata);
  return ctx.st.all<SessionRow>(`SELECT * FROM sessions WHERE ${where.sql} ORDER BY start_time DESC, id LIMIT ? OFFSET ?`, ...where.params, f.limit, f.offset);
}

export interface SessionChanges {
  name?: string | null;
  description?: string | null;
  extra?: Record<string, unknown> | null;
  end_time: string | null;
  default_dataset_id?: string | null;
}

export function updateSession(ctx: Ctx, tenant: Tenant, id: string, c: SessionChanges): SessionRow {
  return ctx.st.tx(() => {
    const row = getSession(ctx, tenant, id);
    if (c.name && c.name !== row.name && byName(ctx, tenant, c.name)) throw conflict(`Session with name ${c.name} already exists`);
    checkDatasetRef(ctx, tenant, c.default_dataset_id);
    ctx.st.run(
      `UPDATE sessions SET name = COALESCE(?, name), description = COALESCE(?, description), extra = COALESCE(?, extra),
         end_time = COALESCE(?, end_time), default_dataset_id = COALESCE(?, default_dataset_id) WHERE id = ?`,
      c.name ?? null, c.description ?? null, toJson(c.extra), c.end_time, c.default_dataset_id ?? null, id,
    );
    return byId(ctx, id);
  });
}

/** Deletes a project with its runs, their queue entries and the workspace's feedback on them. */
export function deleteSession(ctx: Ctx, tenant: Tenant, id: string): void {
  ctx.st.tx(() => {
    getSession(ctx, tenant, id);
    // The workspace's own feedback only (another may have sent feedback for a run id before the run existed).
    ctx.st.run('DELETE FROM feedback WHERE tenant_id = ? AND (run_id IN (SELECT id FROM runs WHERE session_id = ?) OR session_id = ?)', tenant.id, id, id);
    ctx.st.run('DELETE FROM queue_runs WHERE run_id IN (SELECT id FROM runs WHERE session_id = ?)', id);
    ctx.st.run('DELETE FROM runs WHERE session_id = ?', id);
    ctx.st.run('DELETE FROM sessions WHERE id = ?', id);
  });
}

/** Stats for many sessions in one pass (no per-session queries). */
export function sessionStats(ctx: Ctx, ids: string[]): Map<string, SessionStats> {
  const out = new Map<string, SessionStats>();
  if (!ids.length) return out;
  const marks = ids.map(() => '?').join(',');
  const rows = ctx.st.all<SessionStats & { session_id: string }>(
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
  const lat = ctx.st.all<{ session_id: string; latency: number }>(
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
  const fb = ctx.st.all<{ session_id: string; key: string; n: number; avg: number | null }>(
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
