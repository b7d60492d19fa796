// The items of an annotation queue (queue runs, or THREAD items): adding runs and threads, changing an item's
// times, removing items (with the statuses they leave behind), and who completed each item.
import type { Ctx, Tenant } from '../context';
import { HttpError, notFound } from '../errors';
import { newId } from '../ids';
import { SqlWhere } from '../sql';
import { nowIso } from '../time';
import { ITEM_SELECT, findItem, getQueue, type QueueItem, type QueueRunRow } from './queueRows';
import { threadExists } from './threads';

/** The users who completed each of these items, in the order they did. */
export function completersOf(ctx: Ctx, itemIds: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!itemIds.length) return out;
  const rows = ctx.st.all<{ item_id: string; user_id: string }>(
    `SELECT item_id, user_id FROM queue_item_status WHERE item_id IN (SELECT value FROM json_each(?)) AND status = 'completed' ORDER BY status_at, user_id`,
    JSON.stringify(itemIds),
  );
  for (const r of rows) out.set(r.item_id, [...(out.get(r.item_id) ?? []), r.user_id]);
  return out;
}

export interface NewItem {
  run_id?: string;
  /** A THREAD item: the thread's id, in the project `session_id` (required then). */
  thread_id?: string;
  /** When given, the run must be in this project (what LangSmith's by-key adds check). */
  session_id?: string;
  source_proposed_example_id?: string | null;
}

/**
 * Adds runs to a queue in order; a run already there keeps its one item (and is answered with it). The items
 * come back without anyone's status (the add answers carry none).
 */
export function addItems(ctx: Ctx, tenant: Tenant, queueId: string, items: NewItem[]): QueueItem[] {
  const nobody = '';
  return ctx.st.tx(() => {
    getQueue(ctx, tenant, queueId);
    const out: QueueItem[] = [];
    for (const [i, it] of items.entries()) {
      if (it.thread_id !== undefined) {
        out.push(addThread(ctx, tenant, queueId, it.thread_id, it.session_id ?? '', i));
        continue;
      }
      const runId = it.run_id!.toLowerCase();
      const run = ctx.st.one<{ session_id: string }>('SELECT session_id FROM runs WHERE id = ? AND tenant_id = ?', runId, tenant.id);
      if (!run) throw notFound(`Run ${runId}`);
      if (it.session_id && run.session_id !== it.session_id.toLowerCase())
        throw new HttpError(422, `body.${i}.session_id: run ${runId} is not in session ${it.session_id}`);
      const existing = ctx.st.one<QueueItem>(`${ITEM_SELECT} WHERE qr.queue_id = ? AND qr.run_id = ?`, nobody, queueId, runId);
      if (existing) {
        out.push(existing);
        continue;
      }
      const id = newId();
      ctx.st.run(
        'INSERT INTO queue_runs (id, queue_id, run_id, added_at, source_proposed_example_id) VALUES (?, ?, ?, ?, ?)',
        id, queueId, runId, nowIso(), it.source_proposed_example_id?.toLowerCase() ?? null,
      );
      out.push(findItem(ctx, nobody, queueId, id, false)!);
    }
    ctx.st.run('UPDATE annotation_queues SET updated_at = ? WHERE id = ?', nowIso(), queueId);
    return out;
  });
}

/** Adds a thread (the runs sharing a thread id in a project) as one THREAD item, or answers the one there. */
function addThread(ctx: Ctx, tenant: Tenant, queueId: string, threadId: string, projectId: string, i: number): QueueItem {
  const project = projectId.toLowerCase();
  if (!project) throw new HttpError(422, `body.items.${i}.project_id: required for a THREAD item`);
  if (!threadExists(ctx, tenant.id, threadId, project)) throw notFound(`Thread ${threadId} in project ${projectId}`);
  const key = `thread:${project}:${threadId}`;
  const nobody = '';
  const existing = ctx.st.one<QueueItem>(`${ITEM_SELECT} WHERE qr.queue_id = ? AND qr.run_id = ?`, nobody, queueId, key);
  if (existing) return existing;
  const id = newId();
  ctx.st.run(
    "INSERT INTO queue_runs (id, queue_id, run_id, added_at, item_type, thread_id, project_id) VALUES (?, ?, ?, ?, 'THREAD', ?, ?)",
    id, queueId, key, nowIso(), threadId, project,
  );
  return findItem(ctx, nobody, queueId, id, false)!;
}

/** Changes an item's times; undefined or null leaves a time as it is. */
export function updateItemTimes(ctx: Ctx, userId: string, item: QueueRunRow, t: { added_at?: string | null; last_reviewed_time?: string | null }): QueueItem {
  ctx.st.run(
    'UPDATE queue_runs SET added_at = COALESCE(?, added_at), last_reviewed_time = COALESCE(?, last_reviewed_time) WHERE id = ?',
    t.added_at ?? null, t.last_reviewed_time ?? null, item.id,
  );
  return findItem(ctx, userId, item.queue_id, item.id, false)!;
}

/** Drops the statuses of items no longer in the queue. */
const dropOrphanStatuses = (ctx: Ctx, queueId: string) =>
  ctx.st.run('DELETE FROM queue_item_status WHERE queue_id = ? AND item_id NOT IN (SELECT id FROM queue_runs WHERE queue_id = ?)', queueId, queueId);

/** Removes items by id (or, with `alsoRunId`, by run id); answers how many went. */
export function deleteItems(ctx: Ctx, queueId: string, ids: string[], alsoRunId: boolean): number {
  if (!ids.length) return 0;
  // One bound JSON list, not a `?` per id: a request body may name tens of thousands.
  const list = 'SELECT value FROM json_each(?)';
  const cond = alsoRunId ? `(id IN (${list}) OR run_id IN (${list}))` : `id IN (${list})`;
  const json = JSON.stringify(ids);
  return ctx.st.tx(() => {
    const n = Number(ctx.st.run(`DELETE FROM queue_runs WHERE queue_id = ? AND ${cond}`, queueId, json, ...(alsoRunId ? [json] : [])).changes);
    dropOrphanStatuses(ctx, queueId);
    return n;
  });
}

/** Removes every item but those of the given runs. */
export function deleteAllItemsExcept(ctx: Ctx, queueId: string, keepRunIds: string[]): number {
  const where = new SqlWhere('queue_id = ?', queueId);
  if (keepRunIds.length) where.where('run_id NOT IN (SELECT value FROM json_each(?))').params.push(JSON.stringify(keepRunIds));
  return ctx.st.tx(() => {
    const n = Number(ctx.st.run(`DELETE FROM queue_runs WHERE ${where.sql}`, ...where.params).changes);
    dropOrphanStatuses(ctx, queueId);
    return n;
  });
}
