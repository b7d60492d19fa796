import * as z from 'zod';
import { ClientContext } from '../context';
import { createWithId } from '../createWithId';
import { LangSmithValidationError } from '../errors';
import { assertUuid, ownId } from '../ids';
import { offsetPaged } from '../paging';
import { AnnotationQueueSchema, QueueRunAddedSchema, QueueRunSchema, QueueSizeSchema, type AnnotationQueue, type QueueRun } from '../schemas';
import { compact, seg } from './common';
import { QueueItemsResource } from './queueItems';

/** Spec §9: annotation queue listing asks for at most 100 per page. */
export const ANNOTATION_QUEUE_MAX_PAGE = 100;

/** One rubric item as LangSmith stores it on a queue. */
export interface RubricItem {
  feedback_key: string;
  description?: string | null;
  score_descriptions?: Record<string, string> | null;
  value_descriptions?: Record<string, string> | null;
  is_required?: boolean | null;
}

/** A queue's review settings (camelCase here, snake_case on the wire); null clears one on update. */
export interface QueueSettings {
  description?: string | null;
  rubricInstructions?: string | null;
  rubricItems?: RubricItem[] | null;
  defaultDatasetId?: string | null;
  numReviewersPerItem?: number | null;
  enableReservations?: boolean;
  reservationMinutes?: number | null;
}

function settingsBody(o: QueueSettings) {
  if (o.defaultDatasetId) assertUuid(o.defaultDatasetId, 'defaultDatasetId');
  if (o.numReviewersPerItem != null && (!Number.isInteger(o.numReviewersPerItem) || o.numReviewersPerItem < 1)) {
    throw new LangSmithValidationError(`Invalid reviewers per item: ${String(o.numReviewersPerItem)} (a whole number from 1)`);
  }
  if (o.reservationMinutes != null && (!Number.isInteger(o.reservationMinutes) || o.reservationMinutes < 1)) {
    throw new LangSmithValidationError(`Invalid reservation minutes: ${String(o.reservationMinutes)} (a whole number from 1)`);
  }
  const keys = new Set<string>();
  for (const r of o.rubricItems ?? []) {
    if (!r.feedback_key.trim()) throw new LangSmithValidationError('A rubric item needs a feedback key.');
    if (keys.has(r.feedback_key)) throw new LangSmithValidationError(`"${r.feedback_key}" is already in the rubric.`);
    keys.add(r.feedback_key);
  }
  return compact({
    description: o.description,
    rubric_instructions: o.rubricInstructions,
    rubric_items: o.rubricItems,
    default_dataset: o.defaultDatasetId,
    num_reviewers_per_item: o.numReviewersPerItem,
    enable_reservations: o.enableReservations,
    reservation_minutes: o.reservationMinutes,
  });
}

export class AnnotationQueuesResource {
  /** The review API: items, sections, statuses (LangSmith 0.16.14 on). */
  readonly items: QueueItemsResource;

  constructor(private readonly ctx: ClientContext) {
    this.items = new QueueItemsResource(ctx);
  }

  list(
    o: { queueIds?: string[]; name?: string; nameContains?: string; limit?: number; pageSize?: number; signal?: AbortSignal } = {},
  ): AsyncGenerator<AnnotationQueue, void, undefined> {
    for (const id of o.queueIds ?? []) assertUuid(id, 'queueId');
    return offsetPaged(
      (offset, limit) =>
        this.ctx.http.request({
          path: '/annotation-queues',
          query: { ids: o.queueIds, name: o.name, name_contains: o.nameContains, offset, limit },
          action: 'list annotation queues',
          schema: z.array(AnnotationQueueSchema),
          signal: o.signal,
        }),
      { pageSize: Math.min(o.pageSize ?? ANNOTATION_QUEUE_MAX_PAGE, ANNOTATION_QUEUE_MAX_PAGE), limit: o.limit },
    );
  }

  async create(o: { name: string; queueId?: string; signal?: AbortSignal } & QueueSettings): Promise<AnnotationQueue> {
    const own = ownId(o.queueId, 'queueId');
    const id = own.id;
    const settings = settingsBody(o);
    return createWithId(
      this.ctx.http,
      {
        method: 'POST',
        path: '/annotation-queues',
        json: { id, name: o.name, ...settings },
        action: 'create annotation queue',
        schema: AnnotationQueueSchema,
        signal: o.signal,
      },
      own,
      () => this.ctx.http.request({ path: `/annotation-queues/${id}`, action: 'read annotation queue', schema: AnnotationQueueSchema, nullOn404: true, signal: o.signal }),
    );
  }

  async read(queueId: string, o: { signal?: AbortSignal } = {}): Promise<AnnotationQueue> {
    return this.ctx.http.request({
      path: `/annotation-queues/${seg(queueId, 'queueId')}`,
      action: 'read annotation queue',
      schema: AnnotationQueueSchema,
      signal: o.signal,
    });
  }

  async update(queueId: string, o: { name?: string; signal?: AbortSignal } & QueueSettings): Promise<void> {
    const settings = settingsBody(o);
    await this.ctx.http.request({
      method: 'PATCH',
      path: `/annotation-queues/${seg(queueId, 'queueId')}`,
      json: compact({ name: o.name, ...settings }),
      action: 'update annotation queue',
      responseType: 'none',
      idempotent: true,
      signal: o.signal,
    });
  }

  async delete(queueId: string, o: { signal?: AbortSignal } = {}): Promise<void> {
    await this.ctx.http.request({
      method: 'DELETE',
      path: `/annotation-queues/${seg(queueId, 'queueId')}`,
      action: 'delete annotation queue',
      responseType: 'none',
      signal: o.signal,
    });
  }

  /** POST /annotation-queues/{id}/runs: adding a run twice keeps one entry, so repeating is safe. */
  async addRuns(queueId: string, runIds: string[], o: { signal?: AbortSignal } = {}): Promise<z.infer<typeof QueueRunAddedSchema>[]> {
    for (const r of runIds) assertUuid(r, 'runId');
    const res = await this.ctx.http.request({
      method: 'POST',
      path: `/annotation-queues/${seg(queueId, 'queueId')}/runs`,
      json: runIds,
      action: 'add runs to annotation queue',
      idempotent: true,
      signal: o.signal,
    });
    return Array.isArray(res) ? z.array(QueueRunAddedSchema).parse(res) : [];
  }

  /** The queued runs in order, lazily, 100 per page. */
  listRuns(queueId: string, o: { limit?: number; signal?: AbortSignal } = {}): AsyncGenerator<QueueRun, void, undefined> {
    const id = seg(queueId, 'queueId');
    return offsetPaged(
      (offset, limit) =>
        this.ctx.http.request({
          path: `/annotation-queues/${id}/runs`,
          query: { offset, limit },
          action: 'list runs of annotation queue',
          schema: z.array(QueueRunSchema),
          signal: o.signal,
        }),
      { pageSize: ANNOTATION_QUEUE_MAX_PAGE, limit: o.limit },
    );
  }

  /** The run at a position of the queue (0-based); not found past the end. */
  async getRun(queueId: string, index: number, o: { signal?: AbortSignal } = {}): Promise<QueueRun> {
    if (!Number.isInteger(index) || index < 0) throw new LangSmithValidationError(`Invalid queue position: ${String(index)} (a whole number from 0)`);
    return this.ctx.http.request({
      path: `/annotation-queues/${seg(queueId, 'queueId')}/run/${index}`,
      action: 'get run from annotation queue',
      schema: QueueRunSchema,
      signal: o.signal,
    });
  }

  async deleteRun(queueId: string, queueRunId: string, o: { signal?: AbortSignal } = {}): Promise<void> {
    await this.ctx.http.request({
      method: 'DELETE',
      path: `/annotation-queues/${seg(queueId, 'queueId')}/runs/${seg(queueRunId, 'queueRunId')}`,
      action: 'delete run from annotation queue',
      responseType: 'none',
      signal: o.signal,
    });
  }

  async size(queueId: string, o: { signal?: AbortSignal } = {}): Promise<number> {
    const res = await this.ctx.http.request({
      path: `/annotation-queues/${seg(queueId, 'queueId')}/size`,
      action: 'get size from annotation queue',
      schema: QueueSizeSchema,
      signal: o.signal,
    });
    return res.size;
  }
}
