// Presigned feedback tokens (a URL that takes feedback on one run without an API key, until it expires) and the
// feedback of a shared trace, public like the trace itself.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { qBool, qInt, qList, qStr, qUuids, route, uuid } from '../route';
import { createTokens, listTokens, listTraceFeedback, liveToken, submitWithToken, validateConfig, type TokenRow } from '../store/feedback';
import { HttpError } from '../errors';
import { apiPrefixOf, originOf } from '../request';
import { parseTime } from '../time';
import { ConfigObject, Score, feedbackOut } from './feedbackShapes';
import { sharedRun } from '../store/runs';

const tokenOut = (t: TokenRow) => ({ id: t.id, url: t.url, expires_at: t.expires_at, feedback_key: t.feedback_key });

const TokenCreate = z.strictObject({
  run_id: uuid(),
  feedback_key: z.string().min(1),
  feedback_config: ConfigObject.nullish(),
  feedbackConfig: ConfigObject.nullish(),
  expires_in: z.strictObject({ days: z.number().optional(), hours: z.number().optional(), minutes: z.number().optional(), seconds: z.number().optional() }).nullish(),
  expires_at: z.union([z.string(), z.number()]).nullish(),
});

/**
 * One token request or a list of them (LangSmith takes both and answers in kind). A single request's problems
 * are reported at `body.<field>`, a list's at `body.<index>.<field>`.
 */
const TokenBody = z.unknown().transform((v, c) => {
  const many = Array.isArray(v);
  const r = z.array(TokenCreate).safeParse(many ? v : [v]);
  if (!r.success) {
    for (const i of r.error.issues) c.addIssue({ ...i, path: many ? i.path : i.path.slice(1) } as Parameters<typeof c.addIssue>[0]);
    return z.NEVER;
  }
  return { many, list: r.data };
});

const TokenSubmit = z.strictObject({
  score: Score,
  value: z.unknown().optional(),
  comment: z.string().nullish(),
  correction: z.unknown().optional(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});

/** A GET submission carries its fields in the query string; a score there is a number or true/false. */
const TokenSubmitQuery = z.object({
  score: qStr().transform((s, c) => {
    if (s === undefined) return null;
    if (s === 'true' || s === 'false') return Number(s === 'true');
    const n = Number(s);
    if (s.trim() === '' || !Number.isFinite(n)) {
      c.addIssue({ code: 'custom', message: `"${s}" is not a number` });
      return z.NEVER;
    }
    return n;
  }),
  value: qStr(),
  comment: qStr(),
  correction: qStr(),
});

const TokenParams = z.object({ token: uuid() });

/** When a token expires: `expires_at`, else now plus `expires_in` (3 hours when neither is given, as in LangSmith). */
function expiryOf(b: z.infer<typeof TokenCreate>, where: string): string {
  if (b.expires_in && b.expires_at != null) throw new HttpError(422, `${where}: give either expires_in or expires_at, not both`);
  if (b.expires_at != null) {
    const t = parseTime(b.expires_at);
    if (!t) throw new HttpError(422, `${where}.expires_at: not a valid timestamp`);
    return t;
  }
  const e = b.expires_in ?? { hours: 3 };
  const ms = (((e.days ?? 0) * 24 + (e.hours ?? 0)) * 60 + (e.minutes ?? 0)) * 60_000 + (e.seconds ?? 0) * 1000;
  if (ms <= 0) throw new HttpError(422, `${where}.expires_in: must be positive`);
  // Dates end in the year 275760: a longer span is no expiry a date can hold.
  const at = new Date(Date.now() + ms);
  if (!Number.isFinite(at.getTime())) throw new HttpError(422, `${where}.expires_in: too far in the future`);
  return at.toISOString();
}

export function registerFeedbackTokens(app: FastifyInstance, ctx: Ctx) {
  route(app, 'POST', '/feedback/tokens', { body: TokenBody }, ({ body, tenant, req }) => {
    const requests = body.list.map((b, i) => {
      const where = body.many ? `body.${i}` : 'body';
      const cfg = b.feedback_config ?? b.feedbackConfig ?? null;
      validateConfig(cfg, `${where}.feedback_config`);
      return { run_id: b.run_id, feedback_key: b.feedback_key, feedback_config: cfg, expires_at: expiryOf(b, where) };
    });
    // The URL is reached through the same origin and API prefix as this request.
    const base = `${originOf(req)}${apiPrefixOf(req)}/feedback/tokens/`;
    const out = createTokens(ctx, tenant, requests, (id) => base + id).map(tokenOut);
    // A 200, as LangSmith answers (its OpenAPI).
    return body.many ? out : out[0];
  });

  route(
    app, 'GET', '/feedback/tokens',
    { query: z.object({ run_id: uuid(), limit: qInt(100, 1, 1000), offset: qInt(0, 0, Number.MAX_SAFE_INTEGER) }) },
    ({ query, tenant }) => listTokens(ctx, tenant, query.run_id, query.limit, query.offset).map(tokenOut),
  );

  // Submissions need no API key: the token is the credential.
  route(app, 'POST', '/feedback/tokens/:token', { params: TokenParams, body: TokenSubmit, config: { public: true } }, ({ params, body: b }) => {
    const token = liveToken(ctx, params.token);
    return feedbackOut(submitWithToken(ctx, token, { ...b, comment: b.comment ?? null, metadata: b.metadata ?? {} }));
  });
  route(app, 'GET', '/feedback/tokens/:token', { params: TokenParams, query: TokenSubmitQuery, config: { public: true } }, ({ params, query }) => {
    const token = liveToken(ctx, params.token);
    return feedbackOut(submitWithToken(ctx, token, { ...query, comment: query.comment ?? null, metadata: {} }));
  });

  // Feedback on the runs of a shared trace.
  const PublicFeedbackQuery = z.object({
    run: qUuids(),
    key: qList(),
    session: qUuids(),
    source: qList(),
    has_comment: qBool(),
    has_score: qBool(),
    limit: qInt(100, 1, 100),
    offset: qInt(0, 0, Number.MAX_SAFE_INTEGER),
  });
  route(
    app, 'GET', '/public/:token/feedbacks',
    { params: z.object({ token: z.string() }), query: PublicFeedbackQuery, config: { public: true } },
    ({ params, query: q }) => {
      const root = sharedRun(ctx, params.token);
      return listTraceFeedback(ctx, root.tenant_id, root.trace_id ?? root.id, {
        runs: q.run, sessions: q.session, keys: q.key, sources: q.source, hasComment: q.has_comment, hasScore: q.has_score,
        limit: q.limit, offset: q.offset,
      }).map(feedbackOut);
    },
  );
}
