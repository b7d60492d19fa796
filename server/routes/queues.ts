// Annotation queues: CRUD with rubric items, and the (legacy, still served) run routes: add runs (by id or
// by key), list them by review status, the run at an index, review status, removal, sizes. The items API
// that LangSmith now prefers is in queuesItems.ts; the SQL of both is in store/queues.ts.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import type { QueueRow } from '../store/queueRows';
import { bodyTime, idParams, pText, qBool, qEnum, qInt, qText, qTime, qUuids, route, uuid } from '../route';
import { addItems, completersOf, deleteAllItemsExcept, deleteItems, updateItemTimes } from '../store/queueItems';
import { countItems, listQueueRuns, scopeOf, setItemStatus } from '../store/queueReview';
import { getItem, getItemAnywhere, getQueue } from '../store/queueRows';
import { createQueue, deleteQueues, listQueues, queuesOfRun, reviewersOf, rootRunIds, updateQueue } from '../store/queues';
import { HttpError, notFound } from '../errors';
import { newId } from '../ids';
import { nowIso } from '../time';
import type { RunRow } from '../store/runs';
import {
  AddRuns, CreateQueue, LegacyStatus, QueueRunParams, RetentionQuery, RunKeys, StatusBody, UpdateQueue, queueOut, queueRunOut,
  runWithQueueInfo, statusOut, toNewItems,
} from './queuesShapes';

export function registerQueues(app: FastifyInstance, ctx: Ctx) {
  /** A queue as answered, with its assigned reviewers. */
  const out = (q: QueueRow, totalRuns?: number) => queueOut(q, totalRuns, reviewersOf(ctx, q.id));

  route(
    app, 'GET', '/annotation-queues',
    {
      query: z.object({
        ids: qUuids(),
        name: qText(),
        name_contains: qText(),
        queue_type: qEnum(['single', 'pairwise']),
        dataset_id: uuid().optional(),
        assigned_to_me: qBool(),
        limit: qInt(100, 1, 100),
        offset: qInt(0, 0, Number.MAX_SAFE_INTEGER),
      }),
    },
    ({ query: q, tenant, user }) =>
      listQueues(ctx, tenant, {
        ids: q.ids, name: q.name, nameContains: q.name_contains, queueType: q.queue_type, datasetId: q.dataset_id,
        assignedTo: q.assigned_to_me ? user.id : undefined, limit: q.limit, offset: q.offset,
      }).map((r) => out(r, r.total_runs)),
  );

  route(app, 'POST', '/annotation-queues', { body: CreateQueue }, ({ body: b, tenant }) => {
    const { id, session_ids, created_at: _c, updated_at: _u, ...fields } = b;
    // LangSmith fills a new queue with the root runs of these projects.
    const runs = rootRunIds(ctx, tenant, session_ids ?? []);
    const { rubric_instructions, ...created } = out(createQueue(ctx, tenant, id?.toLowerCase() ?? newId(), fields, runs));
    // LangSmith's create answer (AnnotationQueueSchema) has no rubric_instructions: a queue created without
    // one answers without the key (a read answers null); one given is echoed, as the extension shows it.
    return rubric_instructions == null ? created : { ...created, rubric_instructions };
  });

  route(app, 'DELETE', '/annotation-queues', { query: z.object({ queue_ids: qUuids() }) }, ({ query, tenant }) => {
    if (!query.queue_ids.length) throw new HttpError(422, 'query.queue_ids: at least one queue id is required');
    if (query.queue_ids.length > 100) throw new HttpError(422, 'query.queue_ids: at most 100 queue ids');
    deleteQueues(ctx, tenant, query.queue_ids);
    return {};
  });

  route(app, 'GET', '/annotation-queues/:id', { params: idParams }, ({ params, tenant, user }) => {
    const q = getQueue(ctx, tenant, params.id);
    return out(q, countItems(ctx, scopeOf(ctx, q, user), 'all'));
  });

  route(app, 'PATCH', '/annotation-queues/:id', { params: idParams, body: UpdateQueue }, ({ params, body, tenant }) =>
    out(updateQueue(ctx, tenant, params.id, { ...body, name: body.name ?? undefined })),
  );

  route(app, 'DELETE', '/annotation-queues/:id', { params: idParams }, ({ params, tenant }) => {
    deleteQueues(ctx, tenant, [params.id]);
    return {};
  });

  /** The workspace's queues holding a run (the path's id is a run id, as in LangSmith). */
  route(app, 'GET', '/annotation-queues/:id/queues', { params: idParams }, ({ params, tenant }) => {
    return queuesOfRun(ctx, tenant, params.id).map((q) => out(q));
  });

  route(app, 'POST', '/annotation-queues/:id/runs', { params: idParams, query: RetentionQuery, body: AddRuns }, ({ params, body, tenant }) =>
    addItems(ctx, tenant, params.id, toNewItems(body)).map(queueRunOut),
  );

  route(app, 'POST', '/annotation-queues/:id/runs/by-key', { params: idParams, query: RetentionQuery, body: RunKeys }, ({ params, body, tenant }) =>
    addItems(ctx, tenant, params.id, body.map((k) => ({ run_id: k.run_id, session_id: k.session_id, source_proposed_example_id: k.source_proposed_example_id })))
      .map(queueRunOut),
  );

  route(
    app, 'GET', '/annotation-queues/:id/runs',
    {
      params: idParams,
      query: z.object({
        status: LegacyStatus,
        archived: qBool(),
        include_stats: qBool(),
        limit: qInt(100, 1, 100),
        offset: qInt(0, 0, Number.MAX_SAFE_INTEGER),
      }),
    },
    ({ params, query: q, tenant, user }) => {
      const scope = scopeOf(ctx, getQueue(ctx, tenant, params.id), user);
      const rows = listQueueRuns<RunRow>(ctx, scope, q.status ?? 'all', q.archived, q.limit, q.offset);
      const completers = completersOf(ctx, rows.map((r) => r.queue_run_id));
      return rows.map((r) => runWithQueueInfo(r, scope, completers.get(r.queue_run_id) ?? []));
    },
  );

  route(
    app, 'GET', '/annotation-queues/:id/run/:index',
    { params: z.object({ id: uuid(), index: pText().regex(/^\d{1,15}$/, 'not a non-negative integer').transform(Number) }), query: z.object({ include_extra: qBool() }) },
    ({ params, tenant, user }) => {
      const scope = scopeOf(ctx, getQueue(ctx, tenant, params.id), user);
      const [r] = listQueueRuns<RunRow>(ctx, scope, 'all', undefined, 1, params.index);
      if (!r) throw notFound(`No run at index ${params.index} in annotation queue ${params.id}`);
      return runWithQueueInfo(r, scope, completersOf(ctx, [r.queue_run_id]).get(r.queue_run_id) ?? []);
    },
  );

  route(
    app, 'PATCH', '/annotation-queues/:id/runs/:queueRunId',
    { params: QueueRunParams, body: z.strictObject({ last_reviewed_time: bodyTime().nullish(), added_at: bodyTime().nullish() }) },
    ({ params, body, user }) => {
      const { item } = getItem(ctx, user, params.id, params.queueRunId, true);
      // As before: a PATCH without a review time marks the run reviewed now.
      updateItemTimes(ctx, user.id, item, { added_at: body.added_at, last_reviewed_time: body.last_reviewed_time ?? nowIso() });
      return {};
    },
  );

  route(app, 'DELETE', '/annotation-queues/:id/runs/:queueRunId', { params: QueueRunParams }, ({ params, user }) => {
    const { item } = getItem(ctx, user, params.id, params.queueRunId, true);
    deleteItems(ctx, params.id, [item.id], false);
    return {};
  });

  route(
    app, 'POST', '/annotation-queues/:id/runs/delete',
    { params: idParams, body: z.strictObject({ run_ids: z.array(uuid()).nullish(), exclude_run_ids: z.array(uuid()).nullish(), delete_all: z.boolean().optional() }) },
    ({ params, body, tenant }) => {
      getQueue(ctx, tenant, params.id);
      if (body.delete_all) deleteAllItemsExcept(ctx, params.id, body.exclude_run_ids ?? []);
      else if (body.run_ids?.length) deleteItems(ctx, params.id, body.run_ids, true);
      else throw new HttpError(422, 'body: give run_ids, or delete_all: true');
      return {};
    },
  );

  /** The caller's status of a queue item (LangSmith's "Done" is `completed`). */
  route(app, 'POST', '/annotation-queues/status/:queueRunId', { params: z.object({ queueRunId: uuid() }), body: StatusBody }, ({ params, body, user }) => {
    const { queue, item } = getItemAnywhere(ctx, user, params.queueRunId);
    const scope = scopeOf(ctx, queue, user);
    return statusOut(scope, setItemStatus(ctx, scope, item, body.status ?? null, body.override_added_at ?? null));
  });

  // Sizes: /size is what is left to review (or a section's size, for the caller), /total_size everything,
  // /total_archived the done.
  route(app, 'GET', '/annotation-queues/:id/size', { params: idParams, query: z.object({ status: LegacyStatus }) }, ({ params, query, tenant, user }) => {
    const scope = scopeOf(ctx, getQueue(ctx, tenant, params.id), user);
    return { size: query.status ? countItems(ctx, scope, query.status) : countItems(ctx, scope, 'all') - countItems(ctx, scope, 'archived') };
  });
  route(app, 'GET', '/annotation-queues/:id/total_size', { params: idParams }, ({ params, tenant, user }) => ({
    size: countItems(ctx, scopeOf(ctx, getQueue(ctx, tenant, params.id), user), 'all'),
  }));
  route(
    app, 'GET', '/annotation-queues/:id/total_archived',
    { params: idParams, query: z.object({ start_time: qTime(), end_time: qTime() }) },
    ({ params, query, tenant, user }) => ({ size: countItems(ctx, scopeOf(ctx, getQueue(ctx, tenant, params.id), user), 'archived', query.start_time, query.end_time) }),
  );
}
