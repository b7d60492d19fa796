// Feedback storage: feedback on runs and projects, presigned feedback tokens (submit without an API key until
// expiry) and feedback configs (one per key and workspace). SQL and transactions live here; the route files
// parse input and shape answers.
import type { Ctx, Tenant } from '../context';
import { HttpError, conflict, notFound } from '../errors';
import { newId } from '../ids';
import { toJson } from '../json';
import { SqlWhere } from '../sql';
import { nowIso } from '../time';

export interface FeedbackRow {
  id: string;
  tenant_id: string;
  run_id: string | null;
  session_id: string | null;
  trace_id: string | null;
  key: string;
  score: number | null;
  value: string | null;
  correction: string | null;
  comment: string | null;
  feedback_source: string | null;
  comparative_experiment_id: string | null;
  feedback_config: string | null;
  created_at: string;
  modified_at: string;
}

export interface TokenRow {
  id: string;
  tenant_id: string;
  run_id: string;
  feedback_key: string;
  feedback_config: string | null;
  expires_at: string;
  url: string;
  created_at: string;
}

export interface ConfigRow {
  tenant_id: string;
  feedback_key: string;
  feedback_config: string;
  is_lower_score_better: number;
  modified_at: string;
}

/** The parts of a feedback config these checks read (LangSmith's FeedbackConfig). */
export interface FeedbackConfig {
  type?: unknown;
  min?: unknown;
  max?: unknown;
  categories?: unknown;
  [k: string]: unknown;
}

// ---- config checks -------------------------------------------------------------------------------------------

export function validateConfig(cfg: FeedbackConfig | null | undefined, where: string): void {
  if (!cfg) return;
  if (cfg.type !== undefined && !['continuous', 'categorical', 'freeform'].includes(String(cfg.type)))
    throw new HttpError(422, `${where}.type: must be continuous, categorical or freeform`);
}

/** A score must fit its key's config, when there is one (continuous min/max, categorical values): a 400 as in LangSmith. */
export function checkAgainstConfig(cfg: FeedbackConfig | null | undefined, score: number | null): void {
  if (!cfg || score === null) return;
  if (cfg.type === 'continuous') {
    if (typeof cfg.min === 'number' && score < cfg.min) throw new HttpError(400, `score ${score} is below the minimum ${cfg.min}`);
    if (typeof cfg.max === 'number' && score > cfg.max) throw new HttpError(400, `score ${score} is above the maximum ${cfg.max}`);
  }
  if (cfg.type === 'categorical' && Array.isArray(cfg.categories) && cfg.categories.length) {
    if (!cfg.categories.some((c: { value?: unknown } | null) => c?.value === score)) throw new HttpError(400, `score ${score} is not one of the categories`);
  }
}

const parseConfig = (text: string | null): FeedbackConfig | null => (text === null ? null : (JSON.parse(text) as FeedbackConfig));

// ---- feedback ------------------------------------------------------------------------------------------------

const byId = (ctx: Ctx, id: string) => ctx.st.one<FeedbackRow>('SELECT * FROM feedback WHERE id = ?', id);

/** Inserts one feedback row (inside the caller's transaction); its config becomes the key's when it has none. */
function insertFeedback(ctx: Ctx, tenant: Tenant, f: Partial<FeedbackRow> & { key: string }): FeedbackRow {
  const now = nowIso();
  const id = f.id ?? newId();
  if (byId(ctx, id)) throw conflict(`Feedback ${id} already exists`);
  ctx.st.run(
    `INSERT INTO feedback (id, tenant_id, run_id, session_id, trace_id, key, score, value, correction, comment, feedback_source,
       comparative_experiment_id, feedback_config, created_at, modified_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id, tenant.id, f.run_id ?? null, f.session_id ?? null, f.trace_id ?? null, f.key, f.score ?? null, f.value ?? null,
    f.correction ?? null, f.comment ?? null, f.feedback_source ?? null, f.comparative_experiment_id ?? null,
    f.feedback_config ?? null, f.created_at ?? now, now,
  );
  if (f.feedback_config) {
    ctx.st.run(
      'INSERT OR IGNORE INTO feedback_configs (tenant_id, feedback_key, feedback_config, modified_at) VALUES (?, ?, ?, ?)',
      tenant.id, f.key, f.feedback_config, now,
    );
  }
  return byId(ctx, id)!;
}

export interface NewFeedback {
  id?: string;
  run_id?: string;
  session_id?: string;
  trace_id?: string;
  key: string;
  score: number | null;
  value: unknown;
  correction: unknown;
  comment: string | null;
  feedback_source: unknown;
  comparative_experiment_id?: string;
  feedback_config: FeedbackConfig | null;
  created_at?: string;
}

export function createFeedback(ctx: Ctx, tenant: Tenant, b: NewFeedback): FeedbackRow {
  return ctx.st.tx(() => {
    // Like LangSmith, feedback may arrive before its run (tracing is batched and asynchronous): a run not
    // received yet is accepted and linked when it lands; a run of another workspace is not found.
    let run: { id: string; tenant_id: string; session_id: string; trace_id: string | null } | undefined;
    if (b.run_id) {
      run = ctx.st.one('SELECT id, tenant_id, session_id, trace_id FROM runs WHERE id = ?', b.run_id);
      if (run && run.tenant_id !== tenant.id) throw notFound(`Run ${b.run_id}`);
    }
    const sessionId = run?.session_id ?? b.session_id ?? null;
    if (!run && sessionId && !ctx.st.one('SELECT 1 FROM sessions WHERE id = ? AND tenant_id = ?', sessionId, tenant.id))
      throw notFound(`Session ${sessionId}`);
    if (b.comparative_experiment_id && !ctx.st.one('SELECT 1 FROM comparative_experiments WHERE id = ? AND tenant_id = ?', b.comparative_experiment_id, tenant.id))
      throw notFound(`Comparative experiment ${b.comparative_experiment_id}`);
    checkAgainstConfig(b.feedback_config, b.score);
    return insertFeedback(ctx, tenant, {
      id: b.id, run_id: run?.id ?? b.run_id ?? null, session_id: sessionId, trace_id: run?.trace_id ?? b.trace_id ?? null,
      key: b.key, score: b.score, value: toJson(b.value), correction: toJson(b.correction), comment: b.comment,
      feedback_source: JSON.stringify(b.feedback_source), comparative_experiment_id: b.comparative_experiment_id ?? null,
      feedback_config: toJson(b.feedback_config), created_at: b.created_at,
    });
  });
}

export function getFeedback(ctx: Ctx, tenant: Tenant, id: string): FeedbackRow {
  const f = ctx.st.one<FeedbackRow>('SELECT * FROM feedback WHERE id = ? AND tenant_id = ?', id, tenant.id);
  if (!f) throw notFound(`Feedback ${id}`);
  return f;
}

export interface FeedbackFilter {
  runs: string[];
  sessions: string[];
  keys: string[];
  sources: string[];
  comparativeExperiments: string[];
  hasComment?: boolean;
  hasScore?: boolean;
  /** 'run': feedback on a run; 'session': feedback on a project as a whole. */
  level?: 'run' | 'session';
  minCreatedAt?: string;
  maxCreatedAt?: string;
  limit: number;
  offset: number;
}

/** The conditions every feedback listing shares, on the feedback table aliased `f`. */
function feedbackWhere(where: SqlWhere, f: Omit<FeedbackFilter, 'limit' | 'offset' | 'comparativeExperiments'>): SqlWhere {
  where
    .in('f.run_id', f.runs)
    .in('f.session_id', f.sessions)
    .in('f.key', f.keys)
    .in("json_extract(f.feedback_source, '$.type')", f.sources);
  if (f.hasComment !== undefined) where.where(f.hasComment ? "(f.comment IS NOT NULL AND f.comment <> '')" : "(f.comment IS NULL OR f.comment = '')");
  if (f.hasScore !== undefined) where.where(f.hasScore ? 'f.score IS NOT NULL' : 'f.score IS NULL');
  if (f.level === 'run') where.where('f.run_id IS NOT NULL');
  if (f.level === 'session') where.where('f.run_id IS NULL');
  if (f.minCreatedAt !== undefined) {
    where.clauses.push('f.created_at >= ?');
    where.params.push(f.minCreatedAt);
  }
  if (f.maxCreatedAt !== undefined) {
    where.clauses.push('f.created_at <= ?');
    where.params.push(f.maxCreatedAt);
  }
  return where;
}

export function listFeedback(ctx: Ctx, tenant: Tenant, f: FeedbackFilter): FeedbackRow[] {
  const where = feedbackWhere(new SqlWhere('f.tenant_id = ?', tenant.id), f).in('f.comparative_experiment_id', f.comparativeExperiments);
  return ctx.st.all<FeedbackRow>(
    `SELECT f.* FROM feedback f WHERE ${where.sql} ORDER BY f.created_at DESC, f.id LIMIT ? OFFSET ?`, ...where.params, f.limit, f.offset,
  );
}

/** Feedback on the runs of one trace (a shared trace's), oldest first. */
export function listTraceFeedback(
  ctx: Ctx, tenantId: string, traceId: string, f: Omit<FeedbackFilter, 'comparativeExperiments'>,
): FeedbackRow[] {
  const where = feedbackWhere(new SqlWhere('r.trace_id = ? AND r.tenant_id = ? AND f.tenant_id = r.tenant_id', traceId, tenantId), f);
  return ctx.st.all<FeedbackRow>(
    `SELECT f.* FROM feedback f JOIN runs r ON r.id = f.run_id WHERE ${where.sql} ORDER BY f.created_at, f.id LIMIT ? OFFSET ?`,
    ...where.params, f.limit, f.offset,
  );
}

export interface FeedbackChanges {
  score?: number | null;
  value?: unknown;
  correction?: unknown;
  comment?: string | null;
  feedback_config?: FeedbackConfig | null;
}

/** Fields left undefined keep their value; a null clears it. The new score must fit the (new or kept) config. */
export function updateFeedback(ctx: Ctx, tenant: Tenant, id: string, c: FeedbackChanges): FeedbackRow {
  return ctx.st.tx(() => {
    const f = getFeedback(ctx, tenant, id);
    const cfg = c.feedback_config ?? parseConfig(f.feedback_config);
    const score = c.score !== undefined ? c.score : f.score;
    checkAgainstConfig(cfg, score);
    ctx.st.run(
      'UPDATE feedback SET score = ?, value = ?, correction = ?, comment = ?, feedback_config = ?, modified_at = ? WHERE id = ?',
      score, c.value !== undefined ? toJson(c.value) : f.value, c.correction !== undefined ? toJson(c.correction) : f.correction,
      c.comment !== undefined ? c.comment : f.comment, toJson(cfg), nowIso(), id,
    );
    return byId(ctx, id)!;
  });
}

export function deleteFeedback(ctx: Ctx, tenant: Tenant, id: string): void {
  if (!ctx.st.run('DELETE FROM feedback WHERE id = ? AND tenant_id = ?', id, tenant.id).changes) throw notFound(`Feedback ${id}`);
}

// ---- presigned tokens ----------------------------------------------------------------------------------------

export interface NewToken {
  run_id: string;
  feedback_key: string;
  feedback_config: FeedbackConfig | null;
  expires_at: string;
}

/**
 * Creates tokens for runs of the caller's workspace, all or none. `urlOf` makes a token's URL from its id
 * (the URL is stored, so a token keeps the address it was handed out with).
 */
export function createTokens(ctx: Ctx, tenant: Tenant, list: NewToken[], urlOf: (id: string) => string): TokenRow[] {
  return ctx.st.tx(() =>
    list.map((t) => {
      if (!ctx.st.one('SELECT 1 FROM runs WHERE id = ? AND tenant_id = ?', t.run_id, tenant.id)) throw notFound(`Run ${t.run_id}`);
      const id = newId();
      ctx.st.run(
        'INSERT INTO feedback_tokens (id, tenant_id, run_id, feedback_key, feedback_config, expires_at, url, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        id, tenant.id, t.run_id, t.feedback_key, toJson(t.feedback_config), t.expires_at, urlOf(id), nowIso(),
      );
      return ctx.st.one<TokenRow>('SELECT * FROM feedback_tokens WHERE id = ?', id)!;
    }),
  );
}

export function listTokens(ctx: Ctx, tenant: Tenant, runId: string, limit: number, offset: number): TokenRow[] {
  if (!ctx.st.one('SELECT 1 FROM runs WHERE id = ? AND tenant_id = ?', runId, tenant.id)) throw notFound(`Run ${runId}`);
  return ctx.st.all<TokenRow>(
    'SELECT * FROM feedback_tokens WHERE run_id = ? AND tenant_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?', runId, tenant.id, limit, offset,
  );
}

/** A live token: 404 when unknown, 410 once expired. */
export function liveToken(ctx: Ctx, id: string): TokenRow {
  const token = ctx.st.one<TokenRow>('SELECT * FROM feedback_tokens WHERE id = ?', id);
  if (!token || !ctx.tenantById.has(token.tenant_id)) throw notFound('Feedback token');
  if (Date.parse(token.expires_at) <= Date.now()) throw new HttpError(410, 'Feedback token has expired');
  return token;
}

export interface TokenFeedback {
  score: number | null;
  value?: unknown;
  correction?: unknown;
  comment: string | null;
  metadata: Record<string, unknown>;
}

/** Feedback sent through a token: on the token's run, under its key, checked against its config. */
export function submitWithToken(ctx: Ctx, token: TokenRow, b: TokenFeedback): FeedbackRow {
  const tenant = ctx.tenantById.get(token.tenant_id)!;
  checkAgainstConfig(parseConfig(token.feedback_config), b.score);
  return ctx.st.tx(() => {
    const run = ctx.st.one<{ id: string; session_id: string; trace_id: string | null }>('SELECT id, session_id, trace_id FROM runs WHERE id = ?', token.run_id);
    if (!run) throw notFound(`Run ${token.run_id}`);
    return insertFeedback(ctx, tenant, {
      run_id: run.id, session_id: run.session_id, trace_id: run.trace_id, key: token.feedback_key, score: b.score,
      value: toJson(b.value), correction: toJson(b.correction), comment: b.comment,
      feedback_source: JSON.stringify({ type: 'app', metadata: { ...b.metadata, feedback_token_id: token.id } }),
      feedback_config: token.feedback_config,
    });
  });
}

// ---- feedback configs ----------------------------------------------------------------------------------------

const configRow = (ctx: Ctx, tenant: Tenant, key: string) =>
  ctx.st.one<ConfigRow>('SELECT * FROM feedback_configs WHERE tenant_id = ? AND feedback_key = ?', tenant.id, key);

export function listConfigs(ctx: Ctx, tenant: Tenant, f: { keys: string[]; nameContains?: string; limit: number; offset: number }): ConfigRow[] {
  const where = new SqlWhere('tenant_id = ?', tenant.id).in('feedback_key', f.keys).contains('feedback_key', f.nameContains);
  return ctx.st.all<ConfigRow>(`SELECT * FROM feedback_configs WHERE ${where.sql} ORDER BY feedback_key LIMIT ? OFFSET ?`, ...where.params, f.limit, f.offset);
}

/**
 * Creates a key's config. As LangSmith does (the official client documents it): creating one identical to the
 * stored config answers the stored one; a different config for a key that has one is a 400.
 */
export function createConfig(ctx: Ctx, tenant: Tenant, key: string, cfg: FeedbackConfig, lowerIsBetter: boolean): ConfigRow {
  return ctx.st.tx(() => {
    const cur = configRow(ctx, tenant, key);
    if (cur) {
      const same = sameJson(JSON.parse(cur.feedback_config), cfg) && !!cur.is_lower_score_better === lowerIsBetter;
      if (same) return cur;
      throw new HttpError(400, `Feedback config for key ${key} already exists with a different configuration`);
    }
    ctx.st.run(
      'INSERT INTO feedback_configs (tenant_id, feedback_key, feedback_config, is_lower_score_better, modified_at) VALUES (?, ?, ?, ?, ?)',
      tenant.id, key, JSON.stringify(cfg), lowerIsBetter ? 1 : 0, nowIso(),
    );
    return configRow(ctx, tenant, key)!;
  });
}

export function updateConfig(ctx: Ctx, tenant: Tenant, key: string, c: { feedback_config?: FeedbackConfig | null; is_lower_score_better?: boolean | null }): ConfigRow {
  return ctx.st.tx(() => {
    const cur = configRow(ctx, tenant, key);
    if (!cur) throw notFound(`Feedback config ${key}`);
    ctx.st.run(
      'UPDATE feedback_configs SET feedback_config = ?, is_lower_score_better = ?, modified_at = ? WHERE tenant_id = ? AND feedback_key = ?',
      c.feedback_config ? JSON.stringify(c.feedback_config) : cur.feedback_config,
      c.is_lower_score_better == null ? cur.is_lower_score_better : c.is_lower_score_better ? 1 : 0, nowIso(), tenant.id, key,
    );
    return configRow(ctx, tenant, key)!;
  });
}

export function deleteConfig(ctx: Ctx, tenant: Tenant, key: string): void {
  if (!ctx.st.run('DELETE FROM feedback_configs WHERE tenant_id = ? AND feedback_key = ?', tenant.id, key).changes) throw notFound(`Feedback config ${key}`);
}

/** Deep equality of two JSON values, key order aside. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
