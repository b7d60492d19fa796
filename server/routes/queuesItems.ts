// Annotation queue items, the API LangSmith (0.16.14 on) prefers over the run routes and the official client's
// `client.annotationQueues.items` calls, served under the platform prefixes (/v1/platform, /api/v1/platform):
//
//   POST  /annotation-queues/{queue}/items                  add RUN items           → {items: [...]}
//   GET   /annotation-queues/{queue}/items?status=…         one review section, by cursor → {items, next_cursor}
//   PATCH /annotation-queues/{queue}/items/{item}           added_at / last_reviewed_time
//   POST  /annotation-queues/items/{item}/status            the reviewer's viewed / completed (or null)
//   POST  /annotation-queues/{queue}/items/delete           {item_ids}
//   GET   /annotation-queues/{queue}/items/count?status=…   {count}
//   GET   /annotation-queues/{queue}/items/{item}/placement {section, position, cursor, item_type}
//   POST  /annotation-queues/{queue}/reviewers              {identity_id}: assign a user to review the queue
//   DELETE /annotation-queues/{queue}/reviewers/{identity}  unassign
//
// Sections, order, counts, placement and statuses are the caller's: the user of the API key (store/queues.ts
// explains the rules, reservations included).
//
// These answers come from a Go service: fields without a value are left out, except last_reviewed_time,
// which is always there (null until reviewed). THREAD items name a conversation thread (the root runs sharing
// a thread id in a project: see store/threads.ts) by thread_id and project_id; the legacy run routes list runs only.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { bodyTime, idParams, qBool, qEnum, qInt, qText, qTime, route, uuid } from '../route';
import { addItems, completersOf, deleteItems, updateItemTimes } from '../store/queueItems';
import { countItems, holderOf, pageItems, placement, scopeOf, setItemStatus, type ItemKey, type Scope, type Section } from '../store/queueReview';
import { getItem, getItemAnywhere, getQueue, type QueueItem } from '../store/queueRows';
import { addReviewer, removeReviewer } from '../store/queues';
import { HttpError } from '../errors';
import { StatusBody, statusOut } from './queuesShapes';

const SECTIONS = ['needs_my_review', 'needs_others_review', 'archived'] as const;
const COUNT_SECTIONS = ['all', ...SECTIONS] as const;

/** An item as LangSmith's items API answers it; `listed` adds what the list answers carry. */
function itemOut(it: QueueItem, listed?: { scope: Scope; completedBy: string[] }) {
  return {
    id: it.id,
    queue_id: it.queue_id,
    ...(it.item_type === 'THREAD' ? { item_type: 'THREAD', thread_id: it.thread_id } : { item_type: 'RUN', run_id: it.run_id }),
    project_id: it.session_id,
    ...(it.run_start_time ? { start_time: it.run_start_time } : {}),
    added_at: it.added_at,
    last_reviewed_time: it.last_reviewed_time,
    ...(it.source_proposed_example_id ? { source_proposed_example_id: it.source_proposed_example_id } : {}),
    ...(listed ? listedFields(it, listed.scope, listed.completedBy) : {}),
  };
}

/** What list answers add: the caller's effective time added, who completed it and who holds it (user ids). */
function listedFields(it: QueueItem, scope: Scope, completedBy: string[]) {
  const holder = holderOf(scope, it);
  return {
    effective_added_at: it.override_added_at ?? it.added_at,
    ...(completedBy.length ? { completed_by: completedBy } : {}),
    ...(holder ? { reserved_by: [holder] } : {}),
  };
}

// Cursors are opaque to clients: the sort key of an item, as base64url JSON.
const encodeCursor = (k: ItemKey) => Buffer.from(JSON.stringify(k)).toString('base64url');
const CursorKey = z.tuple([z.string(), z.int()]);

function decodeCursor(s: string): ItemKey {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
  } catch {
    v = undefined;
  }
  const r = CursorKey.safeParse(v);
  if (!r.success) throw new HttpError(422, `query.cursor: "${s}" is not a cursor this list gave out`);
  return r.data;
}

const NewItem = z.strictObject({
  item_type: z.enum(['RUN', 'THREAD']).optional(),
  run_id: z.uuid().optional(),
  project_id: z.uuid().optional(),
  session_id: z.uuid().optional(),
  start_time: z.string().optional(),
  thread_id: z.string().optional(),
  source_proposed_example_id: z.uuid().optional(),
});

const ItemParams = z.object({ id: uuid(), itemId: uuid() });

export function registerQueueItems(app: FastifyInstance, ctx: Ctx) {
  route(
    app, 'POST', '/annotation-queues/:id/items',
    { params: idParams, query: z.object({ extend_trace_retention: qBool() }), body: z.strictObject({ items: z.array(NewItem).min(1) }) },
    ({ params, body, tenant }) => {
      const items = body.items.map((it, i) => {
        if (it.project_id && it.session_id && it.project_id.toLowerCase() !== it.session_id.toLowerCase())
          throw new HttpError(422, `body.items.${i}: project_id and session_id (its alias) differ`);
        if (it.item_type === 'THREAD' || (it.thread_id && !it.run_id)) {
          if (!it.thread_id) throw new HttpError(422, `body.items.${i}.thread_id: required for a THREAD item`);
          if (it.run_id) throw new HttpError(422, `body.items.${i}.run_id: a THREAD item names a thread, not a run`);
          return { thread_id: it.thread_id, session_id: it.project_id ?? it.session_id };
        }
        if (!it.run_id) throw new HttpError(422, `body.items.${i}.run_id: required for a RUN item`);
        return { run_id: it.run_id, session_id: it.project_id ?? it.session_id, source_proposed_example_id: it.source_proposed_example_id };
      });
      return { items: addItems(ctx, tenant, params.id, items).map((it) => itemOut(it)) };
    },
  );

  route(
    app, 'GET', '/annotation-queues/:id/items',
    {
      params: idParams,
      query: z.object({
        status: qEnum([...SECTIONS]),
        item_type: qEnum(['RUN', 'THREAD']),
        direction: qEnum(['forward', 'backward']),
        cursor: qText(),
        page_size: qInt(50, 1, 100),
      }),
    },
    ({ params, query: q, tenant, user }) => {
      if (!q.status) throw new HttpError(422, `query.status: required, one of ${SECTIONS.join(', ')}`);
      const backward = q.direction === 'backward';
      if (backward && !q.cursor) throw new HttpError(422, 'query.cursor: required when direction is backward');
      const scope = scopeOf(ctx, getQueue(ctx, tenant, params.id), user);
      const page = pageItems(ctx, scope, q.status as Section, q.cursor ? decodeCursor(q.cursor) : undefined, backward, q.page_size, q.item_type as 'RUN' | 'THREAD' | undefined);
      const completers = completersOf(ctx, page.items.map((it) => it.id));
      return {
        items: page.items.map((it) => itemOut(it, { scope, completedBy: completers.get(it.id) ?? [] })),
        next_cursor: page.next ? encodeCursor(page.next) : '',
      };
    },
  );

  route(
    app, 'PATCH', '/annotation-queues/:id/items/:itemId',
    { params: ItemParams, body: z.strictObject({ added_at: bodyTime().nullish(), last_reviewed_time: bodyTime().nullish() }) },
    ({ params, body, user }) => {
      const { item } = getItem(ctx, user, params.id, params.itemId);
      return itemOut(updateItemTimes(ctx, user.id, item, body));
    },
  );

  route(app, 'POST', '/annotation-queues/items/:itemId/status', { params: z.object({ itemId: uuid() }), body: StatusBody }, ({ params, body, user }) => {
    const { queue, item } = getItemAnywhere(ctx, user, params.itemId);
    const scope = scopeOf(ctx, queue, user);
    return statusOut(scope, setItemStatus(ctx, scope, item, body.status ?? null, body.override_added_at ?? null));
  });

  route(
    app, 'POST', '/annotation-queues/:id/items/delete',
    { params: idParams, body: z.strictObject({ item_ids: z.array(uuid()).min(1) }) },
    ({ params, body, tenant }) => {
      getQueue(ctx, tenant, params.id);
      deleteItems(ctx, params.id, body.item_ids, false);
      return {};
    },
  );

  route(
    app, 'GET', '/annotation-queues/:id/items/count',
    { params: idParams, query: z.object({ status: qEnum([...COUNT_SECTIONS]), start_time: qTime(), end_time: qTime() }) },
    ({ params, query: q, tenant, user }) => {
      if (!q.status) throw new HttpError(422, `query.status: required, one of ${COUNT_SECTIONS.join(', ')}`);
      const scope = scopeOf(ctx, getQueue(ctx, tenant, params.id), user);
      // The time bounds apply to archived items (when they were archived), as LangSmith's count describes them.
      const archived = q.status === 'archived';
      return { count: countItems(ctx, scope, q.status as Section, archived ? q.start_time : undefined, archived ? q.end_time : undefined) };
    },
  );

  route(app, 'GET', '/annotation-queues/:id/items/:itemId/placement', { params: ItemParams }, ({ params, user }) => {
    const { queue, item } = getItem(ctx, user, params.id, params.itemId);
    const p = placement(ctx, scopeOf(ctx, queue, user), item);
    // Listing the section from this cursor starts at the item.
    return { section: p.section, position: p.position, cursor: encodeCursor(p.key), item_type: item.item_type === 'THREAD' ? 'THREAD' : 'RUN' };
  });

  // Assigned reviewers (AddReviewerRequest / AddReviewerResponse): users of the workspace, by id.
  route(
    app, 'POST', '/annotation-queues/:id/reviewers',
    { params: idParams, body: z.strictObject({ identity_id: z.string().min(1) }) },
    ({ params, body, tenant }) => ({ identity_id: addReviewer(ctx, tenant, params.id, body.identity_id).id }),
  );
  route(
    app, 'DELETE', '/annotation-queues/:id/reviewers/:identityId',
    { params: z.object({ id: uuid(), identityId: z.string().min(1) }) },
    ({ params, tenant }) => {
      removeReviewer(ctx, tenant, params.id, params.identityId);
      return {};
    },
  );
}
