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
  first_token_p50?: number | null;
  first_token_p99?: number | null;
  streaming_rate?: number | null;
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
  /** -1: no limit. */
  limit: number;
  offset: number;
  sort?: { by: 'name' | 'start_time'; desc: boolean };
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
  const dir = f.sort?.desc === false ? 'ASC' : 'DESC';
  const order = f.sort?.by === 'name' ? `name ${dir}, id` : `start_time ${dir}, id`;
  return ctx.st.all<SessionRow>(`SELECT * FROM sessions WHERE ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`, ...where.params, f.limit, f.offset);
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

const FIGURES = ['total_tokens', 'prompt_tokens', 'completion_tokens', 'total_cost', 'prompt_cost', 'completion_cost'] as const;
export type TraceFigures = Record<(typeof FIGURES)[number], number | null>;

/**
 * The SQL of each trace's tokens and costs (`WITH … SELECT session_id, trace, <figures> FROM t`), for the runs
 * whose `column` is in the bound JSON list. A trace counts once: its root's own figure when the root reports one
 * (tokens above 0, any cost), as LangSmith rolls a trace's figures up into its root; else the sum over its other runs.
 * Costs are the runs' derived columns (db.ts RUN_DERIVED).
 */
function traceFiguresSql(column: 'session_id' | 'trace_id'): string {
  const perTrace = FIGURES.map((m) => `MAX(CASE WHEN root THEN ${m} END) AS r_${m}, SUM(CASE WHEN NOT root THEN ${m} END) AS k_${m}`).join(',\n ');
  const rolled = FIGURES.map((m) => `CASE WHEN r_${m} ${m.endsWith('cost') ? 'IS NOT NULL' : '> 0'} THEN r_${m} ELSE k_${m} END AS ${m}`).join(', ');
  return `WITH c AS (
       SELECT session_id, coalesce(trace_id, id) AS trace, parent_run_id IS NULL AS root, ${FIGURES.join(', ')}
         FROM runs WHERE ${column} IN (SELECT value FROM json_each(?)) AND +tenant_id = ?
     ), t AS (SELECT session_id, trace, ${rolled} FROM (SELECT session_id, trace, ${perTrace} FROM c GROUP BY session_id, trace))`;
}

/** Each trace's tokens and costs (see traceFiguresSql), for traces of the workspace. */
export function traceFigures(ctx: Ctx, tenantId: string, traceIds: string[]): Map<string, TraceFigures> {
  if (!traceIds.length) return new Map();
  const rows = ctx.st.all<{ trace: string } & TraceFigures>(`${traceFiguresSql('trace_id')} SELECT * FROM t`, JSON.stringify(traceIds), tenantId);
  return new Map(rows.map((r) => [r.trace, r]));
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

/** Order of a project listing (LangSmith's SessionSortableColumns). */
export type SessionSort = 'name' | 'start_time' | 'last_run_start_time' | 'latency_p50' | 'latency_p99' | 'error_rate' | 'feedback' | 'runs_count';

/**
 * The quantiles of a column over the projects' root runs (the value at floor(p·n), as /runs/stats computes them):
 * each run's rank in its project by that column (read in the order of an index, no sort), kept at the ranks wanted.
 */
const quantilesSql = (name: string, col: string, count: string, index: string) => `${name} AS MATERIALIZED (
       SELECT x.session_id AS session_id,
              MAX(CASE WHEN x.i = MIN(roots.${count} - 1, CAST(roots.${count} * 0.5 AS INTEGER)) THEN x.v END) AS p50,
              MAX(CASE WHEN x.i = MIN(roots.${count} - 1, CAST(roots.${count} * 0.99 AS INTEGER)) THEN x.v END) AS p99
         FROM (SELECT session_id, ${col} AS v, ROW_NUMBER() OVER (PARTITION BY session_id ORDER BY ${col}) - 1 AS i
                 FROM runs INDEXED BY ${index} WHERE session_id IN (SELECT sid FROM ids) AND parent_run_id IS NULL AND ${col} IS NOT NULL AND start_time >= @since) x
         JOIN roots ON roots.session_id = x.session_id
        WHERE x.i IN (MIN(roots.${count} - 1, CAST(roots.${count} * 0.5 AS INTEGER)), MIN(roots.${count} - 1, CAST(roots.${count} * 0.99 AS INTEGER)))
        GROUP BY x.session_id
     )`;

/**
 * Stats for many projects in one statement: their root runs' counts, error and streaming rates and last start (one
 * grouped pass over the projects' root-run index), latency and first-token quantiles (quantilesSql), tokens and costs rolled up per trace, and
 * feedback per key. `since` (stats_start_time) leaves out runs that started before it.
 */
export function sessionStats(ctx: Ctx, tenantId: string, ids: string[], since?: string | null): Map<string, SessionStats> {
  const out = new Map<string, SessionStats>();
  if (!ids.length) return out;
  const from = since ?? '';
  const rolled = (m: string) => (m.endsWith('cost') ? `rt.${m} IS NOT NULL` : `rt.${m} > 0`);
  const perTrace = FIGURES.map(
    (m) => `SUM(CASE WHEN c.parent_run_id IS NULL THEN ${m.endsWith('cost') ? `c.${m}` : `CASE WHEN c.${m} > 0 THEN c.${m} END`} WHEN ${rolled(m)} THEN NULL ELSE c.${m} END) AS ${m}`,
  ).join(', ');
  const rows = ctx.st.all<{ sid: string; feedback: string | null; labels: string | null } & Omit<SessionStats, keyof TraceFigures> & Partial<TraceFigures>>(
    `WITH ids(sid) AS (SELECT value FROM json_each(@ids)),
     roots AS MATERIALIZED (
       SELECT session_id, COUNT(*) AS run_count, SUM(status = 'error') * 1.0 / COUNT(*) AS error_rate, MAX(start_time) AS last_run_start_time,
              SUM(first_token IS NOT NULL) * 1.0 / COUNT(*) AS streaming_rate, COUNT(latency) AS nl, COUNT(first_token) AS nf
         FROM runs INDEXED BY runs_session_stats WHERE session_id IN (SELECT sid FROM ids) AND parent_run_id IS NULL AND start_time >= @since GROUP BY session_id
     ),
     ${quantilesSql('lat', 'latency', 'nl', 'runs_session_root_latency')},
     ${quantilesSql('ftk', 'first_token', 'nf', 'runs_session_stats')},
     -- A trace's figures counted once (see traceFiguresSql): a root's own when it reports one, else its other runs',
     -- each run joined to its trace's root by id rather than the runs grouped by trace.
     figs AS (
       SELECT c.session_id AS session_id, ${perTrace}
         FROM runs c LEFT JOIN runs rt ON rt.id = c.trace_id AND c.parent_run_id IS NOT NULL AND rt.tenant_id = c.tenant_id
        WHERE c.session_id IN (SELECT sid FROM ids) AND +c.tenant_id = @tenant AND c.start_time >= @since GROUP BY c.session_id
     ),
     -- Feedback from the workspace's feedback (an index by workspace), each joined to its run: fewer rows than the runs.
     fbk AS (
       SELECT r.session_id AS session_id, f.key AS key, COUNT(*) AS n, AVG(f.score) AS avg, SUM(f.score * f.score) AS sq, COUNT(f.score) AS scored,
              MIN(f.score) AS min, MAX(f.score) AS max
         FROM feedback f CROSS JOIN runs r ON r.id = f.run_id AND r.tenant_id = f.tenant_id
        WHERE f.tenant_id = @tenant AND +r.session_id IN (SELECT sid FROM ids) AND r.start_time >= @since GROUP BY 1, 2
     ),
     fb AS (SELECT session_id, json_group_array(json_array(key, n, avg, sq, scored, min, max)) AS feedback FROM fbk GROUP BY session_id),
     lbl AS (
       SELECT session_id, json_group_array(json_array(key, label, n)) AS labels FROM (
         SELECT r.session_id AS session_id, f.key AS key, json_extract(f.value, '$') AS label, COUNT(*) AS n
           FROM feedback f CROSS JOIN runs r ON r.id = f.run_id AND r.tenant_id = f.tenant_id
          WHERE f.tenant_id = @tenant AND f.value IS NOT NULL AND +r.session_id IN (SELECT sid FROM ids) AND r.start_time >= @since AND json_valid(f.value) AND json_type(f.value) = 'text'
          GROUP BY 1, 2, 3)
        GROUP BY session_id
     )
     SELECT ids.sid AS sid, roots.run_count, roots.error_rate, roots.last_run_start_time, roots.streaming_rate,
            lat.p50 AS latency_p50, lat.p99 AS latency_p99, ftk.p50 AS first_token_p50, ftk.p99 AS first_token_p99,
            ${FIGURES.map((m) => `figs.${m} AS ${m}`).join(', ')}, fb.feedback, lbl.labels
       FROM ids LEFT JOIN roots ON roots.session_id = ids.sid LEFT JOIN figs ON figs.session_id = ids.sid
            LEFT JOIN lat ON lat.session_id = ids.sid LEFT JOIN ftk ON ftk.session_id = ids.sid
            LEFT JOIN fb ON fb.session_id = ids.sid LEFT JOIN lbl ON lbl.session_id = ids.sid`,
    { ids: JSON.stringify(ids), tenant: tenantId, since: from },
  );
  for (const r of rows) {
    const s: SessionStats = {};
    if (r.run_count) {
      Object.assign(s, {
        run_count: r.run_count, error_rate: r.error_rate, last_run_start_time: r.last_run_start_time, streaming_rate: r.streaming_rate,
        latency_p50: r.latency_p50 ?? undefined, latency_p99: r.latency_p99 ?? undefined,
        first_token_p50: r.first_token_p50, first_token_p99: r.first_token_p99,
      });
    }
    if (r.total_tokens !== undefined && (r.run_count || r.total_tokens !== null || r.total_cost !== null)) {
      Object.assign(s, {
        total_tokens: r.total_tokens ?? 0, prompt_tokens: r.prompt_tokens ?? 0, completion_tokens: r.completion_tokens ?? 0,
        total_cost: costText(r.total_cost), prompt_cost: costText(r.prompt_cost), completion_cost: costText(r.completion_cost),
      });
    }
    if (r.feedback) {
      s.feedback_stats = {};
      for (const [key, n, avg, sq, scored, min, max] of JSON.parse(r.feedback) as [string, number, number | null, number | null, number, number | null, number | null][]) {
        const stdev = scored > 1 && avg !== null ? Math.sqrt(Math.max(0, (sq! - scored * avg * avg) / (scored - 1))) : null;
        s.feedback_stats[key] = { n, avg, stdev, min, max, errors: 0, values: {}, contains_thread_feedback: false };
      }
      for (const [key, label, n] of JSON.parse(r.labels ?? '[]') as [string, string, number][]) {
        const k = s.feedback_stats[key];
        if (k) k.values[label] = n;
      }
    }
    out.set(r.sid, s);
  }
  return out;
}

/** The value a project is sorted by (null: sorted last whichever the direction). */
export function sortValue(row: SessionRow, s: SessionStats | undefined, by: SessionSort, feedbackKey?: string): string | number | null {
  switch (by) {
    case 'name':
      return row.name;
    case 'start_time':
      return row.start_time;
    case 'last_run_start_time':
      return s?.last_run_start_time ?? null;
    case 'latency_p50':
      return s?.latency_p50 ?? null;
    case 'latency_p99':
      return s?.latency_p99 ?? null;
    case 'error_rate':
      return s?.error_rate ?? null;
    case 'runs_count':
      return s?.run_count ?? 0;
    case 'feedback':
      return feedbackKey ? (s?.feedback_stats?.[feedbackKey]?.avg ?? null) : null;
  }
}
