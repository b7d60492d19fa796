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
  total_cost?: string | null;
  prompt_cost?: string | null;
  completion_cost?: string | null;
  feedback_stats?: Record<string, KeyStats>;
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

/** SQL over a `runs` row: the `usage_metadata` object a run reports costs in (its outputs', else its metadata's). */
const USAGE_SQL = `CASE WHEN instr(outputs, '"usage_metadata"') > 0 AND json_type(outputs, '$.usage_metadata') = 'object' THEN json_extract(outputs, '$.usage_metadata')
  WHEN instr(extra, '"usage_metadata"') > 0 AND json_type(extra, '$.metadata.usage_metadata') = 'object' THEN json_extract(extra, '$.metadata.usage_metadata') END`;
/** A number field of that object, or NULL (as `runCosts` reads it). */
const costSql = (field: string) => `CASE WHEN json_type(usage, '$.${field}') IN ('integer', 'real') THEN json_extract(usage, '$.${field}') END`;

const FIGURES = ['total_tokens', 'prompt_tokens', 'completion_tokens', 'total_cost', 'prompt_cost', 'completion_cost'] as const;
export type TraceFigures = Record<(typeof FIGURES)[number], number | null>;

/**
 * The SQL of each trace's tokens and costs (`WITH … SELECT session_id, trace, <figures> FROM t`), for the runs
 * whose `column` is in the bound JSON list. A trace counts once: its root's own figure when the root reports one
 * (tokens above 0, any cost), as LangSmith rolls a trace's figures up into its root; else the sum over its other runs.
 */
function traceFiguresSql(column: 'session_id' | 'trace_id'): string {
  const perTrace = FIGURES.map((m) => `MAX(CASE WHEN root THEN ${m} END) AS r_${m}, SUM(CASE WHEN NOT root THEN ${m} END) AS k_${m}`).join(',\n ');
  const rolled = FIGURES.map((m) => `CASE WHEN r_${m} ${m.endsWith('cost') ? 'IS NOT NULL' : '> 0'} THEN r_${m} ELSE k_${m} END AS ${m}`).join(', ');
  return `WITH u AS (
       SELECT session_id, coalesce(trace_id, id) AS trace, parent_run_id IS NULL AS root, total_tokens, prompt_tokens, completion_tokens, ${USAGE_SQL} AS usage
         FROM runs WHERE ${column} IN (SELECT value FROM json_each(?)) AND +tenant_id = ?
     ), c AS (
       SELECT session_id, trace, root, total_tokens, prompt_tokens, completion_tokens,
              ${costSql('input_cost')} AS prompt_cost, ${costSql('output_cost')} AS completion_cost,
              coalesce(${costSql('total_cost')}, CASE WHEN ${costSql('input_cost')} IS NOT NULL OR ${costSql('output_cost')} IS NOT NULL
                THEN ifnull(${costSql('input_cost')}, 0) + ifnull(${costSql('output_cost')}, 0) END) AS total_cost
         FROM u
     ), t AS (SELECT session_id, trace, ${rolled} FROM (SELECT session_id, trace, ${perTrace} FROM c GROUP BY session_id, trace))`;
}

/** Each trace's tokens and costs (see traceFiguresSql), for traces of the workspace. */
export function traceFigures(ctx: Ctx, tenantId: string, traceIds: string[]): Map<string, TraceFigures> {
  if (!traceIds.length) return new Map();
  const rows = ctx.st.all<{ trace: string } & TraceFigures>(`${traceFiguresSql('trace_id')} SELECT * FROM t`, JSON.stringify(traceIds), tenantId);
  return new Map(rows.map((r) => [r.trace, r]));
}

/** Per-session sums of each trace's tokens and costs. */
function traceTotals(ctx: Ctx, tenantId: string, ids: string[]) {
  return ctx.st.all<{ session_id: string } & TraceFigures>(
    `${traceFiguresSql('session_id')} SELECT session_id, ${FIGURES.map((m) => `SUM(${m}) AS ${m}`).join(', ')} FROM t GROUP BY session_id`,
    JSON.stringify(ids), tenantId,
  );
}

/** A cost as LangSmith's sessions answer it: a decimal string (null when no run reported one). */
const costText = (v: number | null | undefined) => (v == null ? null : String(Math.round(v * 1e10) / 1e10));

/** One feedback key's figures, in LangSmith's shape. */
export interface KeyStats {
  n: number;
  avg: number | null;
  stdev: number | null;
  min: number | null;
  max: number | null;
  errors: number;
  values: Record<string, number>;
  contains_thread_feedback: boolean;
}

/** Stats for many sessions in one pass (no per-session queries). */
export function sessionStats(ctx: Ctx, tenantId: string, ids: string[]): Map<string, SessionStats> {
  const out = new Map<string, SessionStats>();
  if (!ids.length) return out;
  const marks = ids.map(() => '?').join(',');
  const rows = ctx.st.all<SessionStats & { session_id: string }>(
    `SELECT session_id,
            COUNT(*) AS run_count,
            SUM(CASE WHEN error IS NOT NULL THEN 1 ELSE 0 END) * 1.0 / COUNT(*) AS error_rate,
            MAX(start_time) AS last_run_start_time
       FROM runs WHERE session_id IN (${marks}) AND parent_run_id IS NULL GROUP BY session_id`,
    ...ids,
  );
  for (const r of rows) out.set(r.session_id, r);
  for (const t of traceTotals(ctx, tenantId, ids)) {
    const s = out.get(t.session_id) ?? {};
    Object.assign(s, {
      total_tokens: t.total_tokens ?? 0, prompt_tokens: t.prompt_tokens ?? 0, completion_tokens: t.completion_tokens ?? 0,
      total_cost: costText(t.total_cost), prompt_cost: costText(t.prompt_cost), completion_cost: costText(t.completion_cost),
    });
    out.set(t.session_id, s);
  }
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
  // Feedback of the runs' own workspace on the project's runs.
  const fb = ctx.st.all<{ session_id: string; key: string; n: number; avg: number | null; sq: number | null; scored: number; min: number | null; max: number | null }>(
    `SELECT r.session_id AS session_id, f.key AS key, COUNT(*) AS n, AVG(f.score) AS avg, SUM(f.score * f.score) AS sq, COUNT(f.score) AS scored,
            MIN(f.score) AS min, MAX(f.score) AS max
       FROM feedback f JOIN runs r ON r.id = f.run_id AND r.tenant_id = f.tenant_id WHERE r.session_id IN (${marks}) GROUP BY r.session_id, f.key`,
    ...ids,
  );
  const labels = ctx.st.all<{ session_id: string; key: string; label: string; n: number }>(
    `SELECT r.session_id AS session_id, f.key AS key, json_extract(f.value, '$') AS label, COUNT(*) AS n
       FROM feedback f JOIN runs r ON r.id = f.run_id AND r.tenant_id = f.tenant_id
      WHERE r.session_id IN (${marks}) AND f.value IS NOT NULL AND json_valid(f.value) AND json_type(f.value) = 'text'
      GROUP BY r.session_id, f.key, label`,
    ...ids,
  );
  for (const r of fb) {
    const s = out.get(r.session_id) ?? {};
    const stdev = r.scored > 1 && r.avg !== null ? Math.sqrt(Math.max(0, (r.sq! - r.scored * r.avg * r.avg) / (r.scored - 1))) : null;
    s.feedback_stats = {
      ...(s.feedback_stats ?? {}),
      [r.key]: { n: r.n, avg: r.avg, stdev, min: r.min, max: r.max, errors: 0, values: {}, contains_thread_feedback: false },
    };
    out.set(r.session_id, s);
  }
  for (const l of labels) {
    const k = out.get(l.session_id)?.feedback_stats?.[l.key];
    if (k) k.values[l.label] = l.n;
  }
  return out;
}
