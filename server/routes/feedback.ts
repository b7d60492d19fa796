// Feedback routes: create, read, list with filters, update and delete feedback; feedback configs. Presigned
// tokens and the public feedback of shared traces are in ./feedbackTokens. SQL lives in ../store/feedback.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { idParams, qBool, qEnum, qInt, qList, qText, qTime, qUuids, route, uuid } from '../route';
import {
  createConfig, createFeedback, deleteConfig, deleteFeedback, getFeedback, listConfigs, listFeedback, updateConfig, updateFeedback,
  validateConfig, type ConfigRow,
} from '../store/feedback';
import { HttpError } from '../errors';
import { parseTime } from '../time';
import { ConfigObject, Score, feedbackOut } from './feedbackShapes';
import { registerFeedbackTokens } from './feedbackTokens';


const configOut = (r: ConfigRow) => ({
  feedback_key: r.feedback_key,
  feedback_config: JSON.parse(r.feedback_config) as unknown,
  tenant_id: r.tenant_id,
  modified_at: r.modified_at,
  is_lower_score_better: !!r.is_lower_score_better,
});

// ---- schemas ---------------------------------------------------------------------------------------------------

const time = z.union([z.string(), z.number()]).nullish();

const CreateFeedback = z.strictObject({
  id: uuid().nullish(),
  run_id: uuid().nullish(),
  trace_id: uuid().nullish(),
  session_id: uuid().nullish(),
  key: z.string().min(1),
  score: Score,
  value: z.unknown().optional(),
  correction: z.unknown().optional(),
  comment: z.string().nullish(),
  feedback_source: z
    .looseObject({ type: z.string().nullish(), metadata: z.record(z.string(), z.unknown()).nullish() })
    .nullish(),
  comparative_experiment_id: uuid().nullish(),
  feedback_config: ConfigObject.nullish(),
  // The official JS client sends the config in camelCase.
  feedbackConfig: ConfigObject.nullish(),
  feedback_group_id: uuid().nullish(),
  start_time: time,
  extend_trace_retention: z.boolean().nullish(),
  created_at: time,
  modified_at: time,
  error: z.boolean().nullish(),
});

const UpdateFeedback = z.strictObject({
  score: Score.optional(),
  value: z.unknown().optional(),
  correction: z.unknown().optional(),
  comment: z.string().nullish(),
  feedback_config: ConfigObject.nullish(),
  feedbackConfig: ConfigObject.nullish(),
});

const ListFeedback = z.object({
  run: qUuids(),
  session: qUuids(),
  key: qList(),
  source: qList(),
  comparative_experiment_id: qUuids(),
  has_comment: qBool(),
  has_score: qBool(),
  level: qEnum(['run', 'session']),
  min_created_at: qTime(),
  max_created_at: qTime(),
  // Accepted and without effect here: every workspace member is the one local user.
  user: qUuids(),
  include_user_names: qBool(),
  limit: qInt(100, 1, 100),
  offset: qInt(0, 0, Number.MAX_SAFE_INTEGER),
});

const CreateConfig = z.strictObject({
  feedback_key: z.string().min(1),
  feedback_config: ConfigObject,
  is_lower_score_better: z.boolean().nullish(),
});
const UpdateConfig = z.strictObject({
  feedback_key: z.string().min(1),
  feedback_config: ConfigObject.nullish(),
  is_lower_score_better: z.boolean().nullish(),
});
const ListConfigs = z.object({
  key: qList(),
  name_contains: qText(),
  // Accepted for the official client; this server always answers in key order and reads its own writes.
  sort_by_desc: qBool(),
  read_after_write: qBool(),
  limit: qInt(100, 1, 100),
  offset: qInt(0, 0, Number.MAX_SAFE_INTEGER),
});

export function registerFeedback(app: FastifyInstance, ctx: Ctx) {
  route(app, 'POST', '/feedback', { body: CreateFeedback }, ({ body: b, tenant }) => {
    if (!b.run_id && !b.session_id) throw new HttpError(422, 'One of run_id or session_id is required');
    const cfg = b.feedback_config ?? b.feedbackConfig ?? null;
    validateConfig(cfg, 'body.feedback_config');
    const f = createFeedback(ctx, tenant, {
      id: b.id ?? undefined,
      run_id: b.run_id ?? undefined,
      session_id: b.session_id ?? undefined,
      trace_id: b.trace_id ?? undefined,
      key: b.key,
      score: b.score,
      value: b.value,
      correction: b.correction,
      comment: b.comment ?? null,
      feedback_source: b.feedback_source ?? { type: 'api', metadata: {} },
      comparative_experiment_id: b.comparative_experiment_id ?? undefined,
      feedback_config: cfg,
      created_at: parseTime(b.created_at) ?? undefined,
    });
    return feedbackOut(f);
  });

  route(app, 'GET', '/feedback', { query: ListFeedback }, ({ query: q, tenant }) =>
    listFeedback(ctx, tenant, {
      runs: q.run,
      sessions: q.session,
      keys: q.key,
      sources: q.source,
      comparativeExperiments: q.comparative_experiment_id,
      hasComment: q.has_comment,
      hasScore: q.has_score,
      level: q.level as 'run' | 'session' | undefined,
      minCreatedAt: q.min_created_at,
      maxCreatedAt: q.max_created_at,
      limit: q.limit,
      offset: q.offset,
    }).map(feedbackOut),
  );

  registerFeedbackTokens(app, ctx);

  route(app, 'GET', '/feedback/:id', { params: idParams, query: z.object({ include_user_names: qBool() }) }, ({ params, tenant }) =>
    feedbackOut(getFeedback(ctx, tenant, params.id)),
  );

  route(app, 'PATCH', '/feedback/:id', { params: idParams, body: UpdateFeedback }, ({ params, body: b, tenant }) => {
    const cfg = b.feedback_config ?? b.feedbackConfig ?? undefined;
    validateConfig(cfg, 'body.feedback_config');
    return feedbackOut(
      updateFeedback(ctx, tenant, params.id, { score: b.score, value: b.value, correction: b.correction, comment: b.comment, feedback_config: cfg }),
    );
  });

  route(app, 'DELETE', '/feedback/:id', { params: idParams }, ({ params, tenant }) => {
    deleteFeedback(ctx, tenant, params.id);
    return {};
  });

  // Feedback configs (one per key and workspace)
  route(app, 'GET', '/feedback-configs', { query: ListConfigs }, ({ query: q, tenant }) =>
    listConfigs(ctx, tenant, { keys: q.key, nameContains: q.name_contains, limit: q.limit, offset: q.offset }).map(configOut),
  );
  route(app, 'POST', '/feedback-configs', { body: CreateConfig }, ({ body: b, tenant }) => {
    validateConfig(b.feedback_config, 'body.feedback_config');
    return configOut(createConfig(ctx, tenant, b.feedback_key, b.feedback_config, b.is_lower_score_better ?? false));
  });
  route(app, 'PATCH', '/feedback-configs', { body: UpdateConfig }, ({ body: b, tenant }) => {
    validateConfig(b.feedback_config, 'body.feedback_config');
    return configOut(updateConfig(ctx, tenant, b.feedback_key, b));
  });
  route(app, 'DELETE', '/feedback-configs', { query: z.object({ feedback_key: z.preprocess((v) => (Array.isArray(v) ? v.at(-1) : v), z.string().min(1)) }) }, ({ query, tenant, reply }) => {
    deleteConfig(ctx, tenant, query.feedback_key);
    // 204 without a body, as LangSmith answers (its OpenAPI).
    return reply.code(204).send();
  });
}
