// Annotation queue items: LangSmith's review API (0.16.14 on), which the official client calls
// `annotationQueues.items`. An item is a run (or a thread) in a queue; each reviewer has a status on it
// (viewed, completed = Done), and the server sorts the items per reviewer into sections: needing my review,
// needing others' review (I am done, more reviewers are wanted, or another reviewer holds it), archived.
// The routes live under the platform prefix.
import * as z from 'zod';
import { ClientContext } from '../context';
import { LangSmithValidationError } from '../errors';
import { assertUuid } from '../ids';
import { iso, seg, type DateLike } from './common';

export const QUEUE_ITEM_SECTIONS = ['needs_my_review', 'needs_others_review', 'archived'] as const;
export type QueueItemSection = (typeof QUEUE_ITEM_SECTIONS)[number];

/** LangSmith answers at most 100 items per page. */
export const QUEUE_ITEMS_MAX_PAGE = 100;

const str = z.string().nullish();

export const QueueItemSchema = z.looseObject({
  id: z.uuid(),
  queue_id: str,
  item_type: z.enum(['RUN', 'THREAD']).nullish(),
  run_id: str,
  thread_id: str,
  project_id: str,
  start_time: str,
  added_at: str,
  /** Where the item sits in my order (a requeue moves it). */
  effective_added_at: str,
  last_reviewed_time: str,
  /** Reviewers (user ids) who completed it, and who hold it. */
  completed_by: z.array(z.string()).nullish(),
  reserved_by: z.array(z.string()).nullish(),
  source_proposed_example_id: str,
});
export type QueueItem = z.infer<typeof QueueItemSchema>;

export const QueueItemStatusSchema = z.looseObject({
  queue_item_id: str,
  status: z.enum(['viewed', 'completed']).nullish(),
  is_archived: z.boolean().nullish(),
  override_added_at: str,
});
export type QueueItemStatus = z.infer<typeof QueueItemStatusSchema>;

const PageSchema = z.looseObject({ items: z.array(QueueItemSchema), next_cursor: str });
const CountSchema = z.looseObject({ count: z.number().int().nonnegative() });
const PlacementSchema = z.looseObject({
  section: z.enum(QUEUE_ITEM_SECTIONS).nullish(),
  position: z.number().int().nullish(),
  cursor: str,
  item_type: str,
});

function section(s: string): QueueItemSection {
  if (!(QUEUE_ITEM_SECTIONS as readonly string[]).includes(s)) {
    throw new LangSmithValidationError(`Invalid queue section: ${s} (one of ${QUEUE_ITEM_SECTIONS.join(', ')})`);
  }
  return s as QueueItemSection;
}

export class QueueItemsResource {
  constructor(private readonly ctx: ClientContext) {}

  private path(rest: string): string {
    return this.ctx.http.platformPath(`annotation-queues/${rest}`);
  }

  /** Adds runs as items (a run already in the queue keeps its item). */
  async addRuns(queueId: string, runs: Array<{ runId: string; projectId?: string }>, o: { signal?: AbortSignal } = {}): Promise<QueueItem[]> {
    for (const r of runs) assertUuid(r.runId, 'runId');
    const res = await this.ctx.http.request({
      method: 'POST',
      path: this.path(`${seg(queueId, 'queueId')}/items`),
      json: { items: runs.map((r) => ({ item_type: 'RUN', run_id: r.runId, ...(r.projectId ? { project_id: r.projectId } : {}) })) },
      action: 'add items to annotation queue',
      schema: z.looseObject({ items: z.array(QueueItemSchema).nullish() }),
      idempotent: true,
      signal: o.signal,
    });
    return res.items ?? [];
  }

  /** One page of a section, in the order a reviewer meets the items; `cursor` from the previous page. */
  async page(
    queueId: string,
    o: { section: QueueItemSection; cursor?: string | null; pageSize?: number; direction?: 'forward' | 'backward'; signal?: AbortSignal },
  ): Promise<{ items: QueueItem[]; nextCursor: string | null }> {
    const res = await this.ctx.http.request({
      path: this.path(`${seg(queueId, 'queueId')}/items`),
      query: {
        status: section(o.section),
        cursor: o.cursor || undefined,
        page_size: Math.min(Math.max(1, o.pageSize ?? QUEUE_ITEMS_MAX_PAGE), QUEUE_ITEMS_MAX_PAGE),
        direction: o.direction,
      },
      action: 'list items of annotation queue',
      schema: PageSchema,
      signal: o.signal,
    });
    return { items: res.items, nextCursor: res.next_cursor ? res.next_cursor : null };
  }

  /** Every item of a section, lazily, page by page. */
  async *list(queueId: string, o: { section: QueueItemSection; limit?: number; signal?: AbortSignal }): AsyncGenerator<QueueItem, void, undefined> {
    let cursor: string | null = null;
    let left = o.limit ?? Infinity;
    do {
      const page = await this.page(queueId, { section: o.section, cursor, pageSize: Math.min(QUEUE_ITEMS_MAX_PAGE, left), signal: o.signal });
      for (const it of page.items) {
        yield it;
        if (--left <= 0) return;
      }
      if (page.items.length === 0) return;
      cursor = page.nextCursor;
    } while (cursor);
  }

  /** How many items a section holds for me ('all': every item of the queue). */
  async count(queueId: string, sectionName: QueueItemSection | 'all', o: { signal?: AbortSignal } = {}): Promise<number> {
    const res = await this.ctx.http.request({
      path: this.path(`${seg(queueId, 'queueId')}/items/count`),
      query: { status: sectionName === 'all' ? 'all' : section(sectionName) },
      action: 'count items of annotation queue',
      schema: CountSchema,
      signal: o.signal,
    });
    return res.count;
  }

  /** The three sections' counts, read together. */
  async counts(queueId: string, o: { signal?: AbortSignal } = {}): Promise<Record<QueueItemSection, number>> {
    const [mine, others, archived] = await Promise.all(QUEUE_ITEM_SECTIONS.map((s) => this.count(queueId, s, o)));
    return { needs_my_review: mine, needs_others_review: others, archived };
  }

  /**
   * My status on an item: 'completed' (Done), 'viewed' (looked at; with `overrideAddedAt` now, a requeue: it
   * moves to the end of my order), or null (re-shown to me).
   */
  async setStatus(
    itemId: string,
    status: 'viewed' | 'completed' | null,
    o: { overrideAddedAt?: DateLike; signal?: AbortSignal } = {},
  ): Promise<QueueItemStatus> {
    return this.ctx.http.request({
      method: 'POST',
      path: this.path(`items/${seg(itemId, 'itemId')}/status`),
      json: { status, ...(o.overrideAddedAt ? { override_added_at: iso(o.overrideAddedAt) } : {}) },
      action: 'set status of annotation queue item',
      schema: QueueItemStatusSchema,
      idempotent: true,
      signal: o.signal,
    });
  }

  /** Requeue: viewed, moved to the end of my order. */
  requeue(itemId: string, o: { signal?: AbortSignal } = {}): Promise<QueueItemStatus> {
    return this.setStatus(itemId, 'viewed', { overrideAddedAt: new Date(), signal: o.signal });
  }

  async delete(queueId: string, itemIds: string[], o: { signal?: AbortSignal } = {}): Promise<void> {
    if (itemIds.length === 0) return;
    for (const i of itemIds) assertUuid(i, 'itemId');
    await this.ctx.http.request({
      method: 'POST',
      path: this.path(`${seg(queueId, 'queueId')}/items/delete`),
      json: { item_ids: itemIds },
      action: 'delete items from annotation queue',
      responseType: 'none',
      idempotent: true,
      signal: o.signal,
    });
  }

  /** Where an item is for me: its section, its 0-based position there, and a cursor that lists from it. */
  async placement(queueId: string, itemId: string, o: { signal?: AbortSignal } = {}): Promise<z.infer<typeof PlacementSchema>> {
    return this.ctx.http.request({
      path: this.path(`${seg(queueId, 'queueId')}/items/${seg(itemId, 'itemId')}/placement`),
      action: 'get placement of annotation queue item',
      schema: PlacementSchema,
      signal: o.signal,
    });
  }
}
