// Projects (tracer sessions): create with upsert / 409, read, list with filters and stats, update, delete.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { idParams, qBool, qEnum, qInt, qJson, qText, qTime, qUuids, route } from '../route';
import {
  createSession, deleteSession, getSession, listSessions, sessionStats, sortValue, updateSession, type SessionRow, type SessionSort, type SessionStats,
} from '../store/sessions';
import { HttpError } from '../errors';
import { newId } from '../ids';
import { jsonOrNull } from '../json';
import { nowIso, parseTime } from '../time';

export function sessionOut(r: SessionRow, stats?: SessionStats) {
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
          first_token_p50: stats.first_token_p50 ?? null,
          first_token_p99: stats.first_token_p99 ?? null,
          streaming_rate: stats.streaming_rate ?? null,
          total_tokens: stats.total_tokens ?? 0,
          prompt_tokens: stats.prompt_tokens ?? 0,
          completion_tokens: stats.completion_tokens ?? 0,
          total_cost: stats.total_cost ?? null,
          prompt_cost: stats.prompt_cost ?? null,
          completion_cost: stats.completion_cost ?? null,
          error_rate: stats.error_rate ?? 0,
          last_run_start_time: stats.last_run_start_time ?? null,
          feedback_stats: stats.feedback_stats ?? {},
        }
      : {}),
  };
}

const time = z.union([z.string(), z.number()]).optional().nullable();

const CreateSession = z.strictObject({
  id: z.string().uuid().optional().nullable(),
  name: z.string().min(1).optional().nullable(),
  description: z.string().optional().nullable(),
  extra: z.record(z.string(), z.any()).optional().nullable(),
  reference_dataset_id: z.string().uuid().optional().nullable(),
  default_dataset_id: z.string().uuid().optional().nullable(),
  start_time: time,
  end_time: time,
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
  end_time: time,
  default_dataset_id: z.string().uuid().optional().nullable(),
  trace_tier: z.string().optional().nullable(),
});

const ListQuery = z.object({
  id: qUuids(),
  name: qText(),
  name_contains: qText(),
  reference_dataset: qUuids(),
  reference_free: qBool(),
  metadata: qJson(),
  include_stats: qBool(),
  stats_start_time: qTime(),
  sort_by: qEnum<[SessionSort, ...SessionSort[]]>(['name', 'start_time', 'last_run_start_time', 'latency_p50', 'latency_p99', 'error_rate', 'feedback', 'runs_count']),
  sort_by_desc: qBool(),
  sort_by_feedback_key: qText(),
  limit: qInt(100, 1, 1000),
  offset: qInt(0, 0, Number.MAX_SAFE_INTEGER),
});

/** A timestamp field of a body → ISO UTC; null when not given; 422 when not a time. */
function bodyTime(v: string | number | null | undefined, field: string): string | null {
  if (v == null) return null;
  const t = parseTime(v);
  if (!t) throw new HttpError(422, `body.${field}: not a valid timestamp`);
  return t;
}

export function registerSessions(app: FastifyInstance, ctx: Ctx) {
  route(app, 'POST', '/sessions', { query: z.object({ upsert: qBool() }), body: CreateSession }, ({ query, body: b, tenant }) => {
    const { row } = createSession(
      ctx,
      tenant,
      {
        id: b.id?.toLowerCase(),
        name: b.name ?? `project-${newId().slice(0, 8)}`,
        description: b.description,
        extra: b.extra ?? {},
        reference_dataset_id: b.reference_dataset_id?.toLowerCase(),
        default_dataset_id: b.default_dataset_id?.toLowerCase(),
        start_time: bodyTime(b.start_time, 'start_time') ?? nowIso(),
        end_time: bodyTime(b.end_time, 'end_time'),
      },
      query.upsert ?? false,
    );
    // 200 whether made or found (with upsert), as LangSmith's OpenAPI has it.
    return sessionOut(row);
  });

  route(app, 'GET', '/sessions', { query: ListQuery }, ({ query: q, tenant }) => {
    const sortBy = q.sort_by ?? 'start_time';
    const desc = q.sort_by_desc ?? true;
    const filter = {
      ids: q.id, name: q.name, nameContains: q.name_contains, referenceDatasets: q.reference_dataset, referenceFree: q.reference_free,
      metadata: q.metadata, limit: q.limit, offset: q.offset,
    };
    if (sortBy === 'name' || sortBy === 'start_time') {
      // A column of the project: ordered and paged in SQL, the stats worked out for the page only.
      const rows = listSessions(ctx, tenant, { ...filter, sort: { by: sortBy, desc } });
      const stats = q.include_stats ? sessionStats(ctx, tenant.id, rows.map((r) => r.id), q.stats_start_time) : undefined;
      return rows.map((r) => sessionOut(r, stats ? stats.get(r.id) ?? {} : undefined));
    }
    // A figure of the runs: every matching project's stats in one statement, sorted (nulls last), then paged.
    const all = listSessions(ctx, tenant, { ...filter, limit: -1, offset: 0, sort: { by: 'start_time', desc: true } });
    const stats = sessionStats(ctx, tenant.id, all.map((r) => r.id), q.stats_start_time);
    const keyed = all.map((r) => ({ r, v: sortValue(r, stats.get(r.id), sortBy, q.sort_by_feedback_key) }));
    keyed.sort((a, b) => {
      if (a.v === null || b.v === null) return a.v === b.v ? 0 : a.v === null ? 1 : -1;
      const c = a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
      return desc ? -c : c;
    });
    return keyed.slice(q.offset, q.offset + q.limit).map(({ r }) => sessionOut(r, q.include_stats ? stats.get(r.id) ?? {} : undefined));
  });

  route(app, 'GET', '/sessions/:id', { params: idParams, query: z.object({ include_stats: qBool(), stats_start_time: qTime() }) }, ({ params, query, tenant }) => {
    const row = getSession(ctx, tenant, params.id);
    return sessionOut(row, query.include_stats ? sessionStats(ctx, tenant.id, [params.id], query.stats_start_time).get(params.id) ?? {} : undefined);
  });

  route(app, 'PATCH', '/sessions/:id', { params: idParams, body: UpdateSession }, ({ params, body: b, tenant }) =>
    sessionOut(
      updateSession(ctx, tenant, params.id, {
        name: b.name,
        description: b.description,
        extra: b.extra,
        end_time: bodyTime(b.end_time, 'end_time'),
        default_dataset_id: b.default_dataset_id?.toLowerCase(),
      }),
    ),
  );

  route(app, 'DELETE', '/sessions/:id', { params: idParams }, ({ params, tenant, reply }) => {
    deleteSession(ctx, tenant, params.id);
    reply.code(202);
    return {};
  });
}
