// Feedback, feedback configs, and presigned feedback tokens (submit without an API key until expiry).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx, Tenant } from '../context';
import {
  HttpError, apiPrefixOf, conflict, jsonOrNull, newId, notFound, nowIso, originOf, parseBody, parseTime, queryInt,
  queryList, queryString, toJson, uuidParam,
  SqlWhere,
} from '../util';
import { getRun, parseMaybeJson, sharedRun, type RunRow } from './runs';

interface FeedbackRow {
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

function feedbackOut(f: FeedbackRow) {
  return {
    id: f.id,
    run_id: f.run_id,
    session_id: f.session_id,
    trace_id: f.trace_id,
    key: f.key,
    score: f.score,
    value: jsonOrNull(f.value),
    correction: jsonOrNull(f.correction),
    comment: f.comment,
    feedback_source: jsonOrNull(f.feedback_source),
    comparative_experiment_id: f.comparative_experiment_id,
    feedback_config: jsonOrNull(f.feedback_config),
    created_at: f.created_at,
    modified_at: f.modified_at,
  };
}

const Score = z.union([z.number(), z.boolean()]).optional().nullable();
const FeedbackConfig = z.record(z.string(), z.any()).optional().nullable();
const CreateFeedback = z.strictObject({
  id: z.string().uuid().optional().nullable(),
  run_id: z.string().uuid().optional().nullable(),
  trace_id: z.string().uuid().optional().nullable(),
  session_id: z.string().uuid().optional().nullable(),
  key: z.string().min(1),
  score: Score,
  value: z.any().optional(),
  correction: z.any().optional(),
  comment: z.string().optional().nullable(),
  feedback_source: z.object({ type: z.string().optional().nullable(), metadata: z.record(z.string(), z.any()).optional().nullable() }).passthrough().optional().nullable(),
  comparative_experiment_id: z.string().uuid().optional().nullable(),
  feedback_config: FeedbackConfig,
  feedbackConfig: FeedbackConfig,
  feedback_group_id: z.string().uuid().optional().nullable(),
  start_time: z.union([z.string(), z.number()]).optional().nullable(),
  extend_trace_retention: z.boolean().optional().nullable(),
  created_at: z.string().optional().nullable(),
  modified_at: z.string().optional().nullable(),
  error: z.boolean().optional().nullable(),
});
const UpdateFeedback = z.strictObject({
  score: Score,
  value: z.any().optional(),
  correction: z.any().optional(),
  comment: z.string().optional().nullable(),
  feedback_config: FeedbackConfig,
  feedbackConfig: FeedbackConfig,
});
const TokenCreate = z.strictObject({
  run_id: z.string().uuid(),
  feedback_key: z.string().min(1),
  feedback_config: FeedbackConfig,
  feedbackConfig: FeedbackConfig,
  expires_in: z.object({ days: z.number().optional(), hours: z.number().optional(), minutes: z.number().optional(), seconds: z.number().optional() }).strict().optional().nullable(),
  expires_at: z.union([z.string(), z.number()]).optional().nullable(),
});
const TokenSubmit = z.strictObject({
  score: Score,
  value: z.any().optional(),
  comment: z.string().optional().nullable(),
  correction: z.any().optional(),
  metadata: z.record(z.string(), z.any()).optional().nullable(),
});
const ConfigBody = z.strictObject({
  feedback_key: z.string().min(1),
  feedback_config: z.record(z.string(), z.any()).optional().nullable(),
  is_lower_score_better: z.boolean().optional().nullable(),
});

const scoreNum = (s: number | boolean | null | undefined) => (s === undefined || s === null ? null : typeof s === 'boolean' ? Number(s) : s);

function insertFeedback(ctx: Ctx, tenant: Tenant, f: Partial<FeedbackRow> & { key: string }): FeedbackRow {
  const now = nowIso();
  const id = f.id ?? newId();
  if (ctx.st.one('SELECT 1 FROM feedback WHERE id = ?', id)) throw conflict(`Feedback ${id} already exists`);
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
  return ctx.st.one<FeedbackRow>('SELECT * FROM feedback WHERE id = ?', id)!;
}

function validateConfig(cfg: any, where: string) {
  if (!cfg) return;
  if (cfg.type !== undefined && !['continuous', 'categorical', 'freeform'].includes(cfg.type))
    throw new HttpError(422, `${where}.type: must be continuous, categorical or freeform`);
}

/** Score must fit the key's config, when there is one (continuous min/max, categorical values). */
function checkAgainstConfig(cfg: any, score: number | null) {
  if (!cfg || score === null) return;
  if (cfg.type === 'continuous') {
    if (typeof cfg.min === 'number' && score < cfg.min) throw new HttpError(400, `score ${score} is below the minimum ${cfg.min}`);
    if (typeof cfg.max === 'number' && score > cfg.max) throw new HttpError(400, `score ${score} is above the maximum ${cfg.max}`);
  }
  if (cfg.type === 'categorical' && Array.isArray(cfg.categories) && cfg.categories.length) {
    if (!cfg.categories.some((c: any) => c.value === score)) throw new HttpError(400, `score ${score} is not one of the categories`);
  }
}

export function registerFeedback(app: FastifyInstance, ctx: Ctx) {
  app.post('/feedback', async (req) => {
    const b = parseBody(CreateFeedback, parseMaybeJson(req.body));
    if (!b.run_id && !b.session_id) throw new HttpError(422, 'One of run_id or session_id is required');
    const cfg = b.feedback_config ?? b.feedbackConfig ?? null;
    validateConfig(cfg, 'body.feedback_config');
    return ctx.st.tx(() => {
      // Like LangSmith, feedback may arrive before its run (tracing is batched and asynchronous): a run not
      // received yet is accepted and linked when it lands; a run of another workspace is not found.
      let run: RunRow | undefined;
      if (b.run_id) {
        run = ctx.st.one<RunRow>('SELECT * FROM runs WHERE id = ?', b.run_id.toLowerCase());
        if (run && run.tenant_id !== req.tenant.id) throw notFound(`Run ${b.run_id}`);
      }
      const sessionId = run?.session_id ?? b.session_id?.toLowerCase() ?? null;
      if (!run && sessionId && !ctx.st.one('SELECT 1 FROM sessions WHERE id = ? AND tenant_id = ?', sessionId, req.tenant.id))
        throw notFound(`Session ${sessionId}`);
      if (b.comparative_experiment_id && !ctx.st.one('SELECT 1 FROM comparative_experiments WHERE id = ? AND tenant_id = ?', b.comparative_experiment_id, req.tenant.id))
        throw notFound(`Comparative experiment ${b.comparative_experiment_id}`);
      const score = scoreNum(b.score);
      checkAgainstConfig(cfg, score);
      const f = insertFeedback(ctx, req.tenant, {
        id: b.id?.toLowerCase(), run_id: run?.id ?? b.run_id?.toLowerCase() ?? null, session_id: sessionId, trace_id: run?.trace_id ?? b.trace_id ?? null,
        key: b.key, score, value: toJson(b.value), correction: toJson(b.correction), comment: b.comment ?? null,
        feedback_source: JSON.stringify(b.feedback_source ?? { type: 'api', metadata: {} }),
        comparative_experiment_id: b.comparative_experiment_id ?? null, feedback_config: toJson(cfg),
        created_at: (b.created_at && parseTime(b.created_at)) || undefined,
      });
      return feedbackOut(f);
    });
  });

  app.get('/feedback', async (req) => {
    const q = req.query as Record<string, unknown>;
    const where = ['tenant_id = ?'];
    const params: unknown[] = [req.tenant.id];
    const add = (col: string, vals: string[]) => {
      if (!vals.length) return;
      where.push(`${col} IN (${vals.map(() => '?').join(',')})`);
      params.push(...vals);
    };
    add('run_id', queryList(q, 'run').map((r) => uuidParam(r, 'run')));
    add('session_id', queryList(q, 'session').map((r) => uuidParam(r, 'session')));
    add('key', queryList(q, 'key'));
    add("json_extract(feedback_source, '$.type')", queryList(q, 'source'));
    add('comparative_experiment_id', queryList(q, 'comparative_experiment_id').map((r) => uuidParam(r, 'comparative_experiment_id')));
    const limit = queryInt(q, 'limit', 100, 1, 1000);
    const offset = queryInt(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    return ctx.st
      .all<FeedbackRow>(`SELECT * FROM feedback WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`, ...params, limit, offset)
      .map(feedbackOut);
  });

  // Feedback tokens come before /feedback/:id so "tokens" is never read as an id.
  app.post('/feedback/tokens', async (req, reply) => {
    const body = parseMaybeJson(req.body);
    const list = Array.isArray(body) ? body : [body];
    const out = ctx.st.tx(() =>
      list.map((raw, i) => {
        const b = parseBody(TokenCreate, raw, Array.isArray(body) ? `body.${i}` : 'body');
        if (b.expires_in && b.expires_at) throw new HttpError(422, 'Give either expires_in or expires_at, not both');
        const run = getRun(ctx, req.tenant, b.run_id.toLowerCase());
        let expires: string | null;
        if (b.expires_at != null) {
          expires = parseTime(b.expires_at);
          if (!expires) throw new HttpError(422, 'body.expires_at: not a valid timestamp');
        } else {
          const e = b.expires_in ?? { hours: 3 };
          const ms = (((e.days ?? 0) * 24 + (e.hours ?? 0)) * 60 + (e.minutes ?? 0)) * 60_000 + (e.seconds ?? 0) * 1000;
          if (ms <= 0) throw new HttpError(422, 'body.expires_in: must be positive');
          expires = new Date(Date.now() + ms).toISOString();
        }
        const cfg = b.feedback_config ?? b.feedbackConfig ?? null;
        validateConfig(cfg, 'body.feedback_config');
        const id = newId();
        const url = `${originOf(req)}${apiPrefixOf(req)}/feedback/tokens/${id}`;
        ctx.st.run(
          'INSERT INTO feedback_tokens (id, tenant_id, run_id, feedback_key, feedback_config, expires_at, url, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          id, req.tenant.id, run.id, b.feedback_key, toJson(cfg), expires, url, nowIso(),
        );
        return { id, url, expires_at: expires, feedback_key: b.feedback_key };
      }),
    );
    reply.code(201);
    return Array.isArray(body) ? out : out[0];
  });

  app.get('/feedback/tokens', async (req) => {
    const q = req.query as Record<string, unknown>;
    const runId = uuidParam(queryString(q, 'run_id'), 'run_id');
    getRun(ctx, req.tenant, runId);
    const limit = queryInt(q, 'limit', 100, 1, 1000);
    const offset = queryInt(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    return ctx.st
      .all('SELECT id, url, expires_at, feedback_key FROM feedback_tokens WHERE run_id = ? AND tenant_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?', runId, req.tenant.id, limit, offset);
  });

  const submitWithToken = (tokenId: string, raw: unknown) => {
    const token = ctx.st.one<any>('SELECT * FROM feedback_tokens WHERE id = ?', uuidParam(tokenId, 'token'));
    if (!token) throw notFound('Feedback token');
    if (Date.parse(token.expires_at) <= Date.now()) throw new HttpError(410, 'Feedback token has expired');
    const b = parseBody(TokenSubmit, raw);
    const tenant = ctx.tenantById.get(token.tenant_id);
    if (!tenant) throw notFound('Feedback token');
    const cfg = jsonOrNull(token.feedback_config);
    const score = scoreNum(b.score);
    checkAgainstConfig(cfg, score);
    return ctx.st.tx(() => {
      const run = ctx.st.one<RunRow>('SELECT * FROM runs WHERE id = ?', token.run_id);
      if (!run) throw notFound(`Run ${token.run_id}`);
      const f = insertFeedback(ctx, tenant, {
        run_id: run.id, session_id: run.session_id, trace_id: run.trace_id, key: token.feedback_key, score,
        value: toJson(b.value), correction: toJson(b.correction), comment: b.comment ?? null,
        feedback_source: JSON.stringify({ type: 'app', metadata: { ...(b.metadata ?? {}), feedback_token_id: token.id } }),
        feedback_config: token.feedback_config,
      });
      return feedbackOut(f);
    });
  };
  app.post('/feedback/tokens/:token', { config: { public: true } }, async (req) =>
    submitWithToken((req.params as any).token, parseMaybeJson(req.body) ?? {}),
  );
  app.get('/feedback/tokens/:token', { config: { public: true } }, async (req) => {
    const q = req.query as Record<string, unknown>;
    const body: Record<string, unknown> = {};
    const score = queryString(q, 'score');
    if (score !== undefined) {
      const n = Number(score);
      body.score = score === 'true' ? true : score === 'false' ? false : Number.isFinite(n) && score !== '' ? n : score;
    }
    const value = queryString(q, 'value');
    if (value !== undefined) body.value = value;
    const comment = queryString(q, 'comment');
    if (comment !== undefined) body.comment = comment;
    const correction = queryString(q, 'correction');
    if (correction !== undefined) body.correction = correction;
    return submitWithToken((req.params as any).token, body);
  });

  // Feedback on the runs of a shared trace: public, like the trace itself.
  app.get('/public/:token/feedbacks', { config: { public: true } }, async (req) => {
    const root = sharedRun(ctx, (req.params as any).token);
    const q = req.query as Record<string, unknown>;
    const runs = queryList(q, 'run').map((r) => uuidParam(r, 'run'));
    const keys = queryList(q, 'key');
    const where = ['r.trace_id = ?', 'r.tenant_id = ?', 'f.tenant_id = r.tenant_id'];
    const params: unknown[] = [root.trace_id ?? root.id, root.tenant_id];
    if (runs.length) {
      where.push(`f.run_id IN (${runs.map(() => '?').join(',')})`);
      params.push(...runs);
    }
    if (keys.length) {
      where.push(`f.key IN (${keys.map(() => '?').join(',')})`);
      params.push(...keys);
    }
    const limit = queryInt(q, 'limit', 100, 1, 1000);
    const offset = queryInt(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    return ctx.st
      .all<FeedbackRow>(`SELECT f.* FROM feedback f JOIN runs r ON r.id = f.run_id WHERE ${where.join(' AND ')} ORDER BY f.created_at, f.id LIMIT ? OFFSET ?`, ...params, limit, offset)
      .map(feedbackOut);
  });

  app.get('/feedback/:id', async (req) => {
    const id = uuidParam((req.params as any).id, 'feedback_id');
    const f = ctx.st.one<FeedbackRow>('SELECT * FROM feedback WHERE id = ? AND tenant_id = ?', id, req.tenant.id);
    if (!f) throw notFound(`Feedback ${id}`);
    return feedbackOut(f);
  });

  app.patch('/feedback/:id', async (req) => {
    const id = uuidParam((req.params as any).id, 'feedback_id');
    const b = parseBody(UpdateFeedback, parseMaybeJson(req.body));
    return ctx.st.tx(() => {
      const f = ctx.st.one<FeedbackRow>('SELECT * FROM feedback WHERE id = ? AND tenant_id = ?', id, req.tenant.id);
      if (!f) throw notFound(`Feedback ${id}`);
      const cfg = b.feedback_config ?? b.feedbackConfig ?? jsonOrNull(f.feedback_config);
      const score = b.score !== undefined ? scoreNum(b.score) : f.score;
      checkAgainstConfig(cfg, score);
      ctx.st.run(
        `UPDATE feedback SET score = ?, value = ?, correction = ?, comment = ?, feedback_config = ?, modified_at = ? WHERE id = ?`,
        score, b.value !== undefined ? toJson(b.value) : f.value, b.correction !== undefined ? toJson(b.correction) : f.correction,
        b.comment !== undefined ? b.comment : f.comment, toJson(cfg), nowIso(), id,
      );
      return feedbackOut(ctx.st.one<FeedbackRow>('SELECT * FROM feedback WHERE id = ?', id)!);
    });
  });

  app.delete('/feedback/:id', async (req) => {
    const id = uuidParam((req.params as any).id, 'feedback_id');
    const r = ctx.st.run('DELETE FROM feedback WHERE id = ? AND tenant_id = ?', id, req.tenant.id);
    if (!r.changes) throw notFound(`Feedback ${id}`);
    return {};
  });

  // Feedback configs (one per key and tenant)
  const configOut = (r: any) => ({
    feedback_key: r.feedback_key, feedback_config: JSON.parse(r.feedback_config), tenant_id: r.tenant_id,
    modified_at: r.modified_at, is_lower_score_better: !!r.is_lower_score_better,
  });
  app.get('/feedback-configs', async (req) => {
    const q = req.query as Record<string, unknown>;
    const where = new SqlWhere('tenant_id = ?', req.tenant.id)
      .in('feedback_key', queryList(q, 'key'))
      .contains('feedback_key', queryString(q, 'name_contains'));
    const limit = queryInt(q, 'limit', 100, 1, 100);
    const offset = queryInt(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    return ctx.st.all(`SELECT * FROM feedback_configs WHERE ${where.sql} ORDER BY feedback_key LIMIT ? OFFSET ?`, ...where.params, limit, offset).map(configOut);
  });
  app.post('/feedback-configs', async (req) => {
    const b = parseBody(ConfigBody, parseMaybeJson(req.body));
    if (!b.feedback_config) throw new HttpError(422, 'body.feedback_config: required');
    validateConfig(b.feedback_config, 'body.feedback_config');
    ctx.st.run(
      `INSERT INTO feedback_configs (tenant_id, feedback_key, feedback_config, is_lower_score_better, modified_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (tenant_id, feedback_key) DO UPDATE SET feedback_config = excluded.feedback_config,
         is_lower_score_better = excluded.is_lower_score_better, modified_at = excluded.modified_at`,
      req.tenant.id, b.feedback_key, JSON.stringify(b.feedback_config), b.is_lower_score_better ? 1 : 0, nowIso(),
    );
    return configOut(ctx.st.one('SELECT * FROM feedback_configs WHERE tenant_id = ? AND feedback_key = ?', req.tenant.id, b.feedback_key));
  });
  app.patch('/feedback-configs', async (req) => {
    const b = parseBody(ConfigBody, parseMaybeJson(req.body));
    const cur = ctx.st.one('SELECT * FROM feedback_configs WHERE tenant_id = ? AND feedback_key = ?', req.tenant.id, b.feedback_key);
    if (!cur) throw notFound(`Feedback config ${b.feedback_key}`);
    if (b.feedback_config) validateConfig(b.feedback_config, 'body.feedback_config');
    ctx.st.run(
      'UPDATE feedback_configs SET feedback_config = ?, is_lower_score_better = ?, modified_at = ? WHERE tenant_id = ? AND feedback_key = ?',
      b.feedback_config ? JSON.stringify(b.feedback_config) : cur.feedback_config,
      b.is_lower_score_better == null ? cur.is_lower_score_better : b.is_lower_score_better ? 1 : 0, nowIso(), req.tenant.id, b.feedback_key,
    );
    return configOut(ctx.st.one('SELECT * FROM feedback_configs WHERE tenant_id = ? AND feedback_key = ?', req.tenant.id, b.feedback_key));
  });
  app.delete('/feedback-configs', async (req) => {
    const key = queryString(req.query as any, 'feedback_key');
    if (!key) throw new HttpError(422, 'feedback_key: required');
    const r = ctx.st.run('DELETE FROM feedback_configs WHERE tenant_id = ? AND feedback_key = ?', req.tenant.id, key);
    if (!r.changes) throw notFound(`Feedback config ${key}`);
    return {};
  });
}
