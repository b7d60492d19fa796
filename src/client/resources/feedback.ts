import * as z from 'zod';
import { ClientContext } from '../context';
import { createWithId } from '../createWithId';
import { LangSmithValidationError } from '../errors';
import { assertUuid, ownId } from '../ids';
import { MSG } from '../messages';
import { offsetPaged } from '../paging';
import { FeedbackSchema, FeedbackTokenRequestSchema, FeedbackTokenSchema, type Feedback, type FeedbackToken } from '../schemas';
import { compact, iso, seg, type DateLike } from './common';

/** Spec §9: a presigned feedback token lives 3 hours unless told otherwise. */
export const DEFAULT_FEEDBACK_TOKEN_EXPIRY = { hours: 3 } as const;

export interface FeedbackConfig {
  type: 'continuous' | 'categorical' | 'freeform';
  min?: number;
  max?: number;
  categories?: { value: number; label?: string }[];
}

export interface FeedbackCreate {
  runId?: string;
  projectId?: string;
  key: string;
  score?: number | boolean | null;
  value?: unknown;
  correction?: unknown;
  comment?: string;
  /** 'api' (default), 'model' for evaluators, 'app' for a person reviewing (an annotation queue). */
  feedbackSourceType?: 'api' | 'model' | 'app';
  sourceInfo?: Record<string, unknown>;
  sourceRunId?: string;
  comparativeExperimentId?: string;
  feedbackConfig?: FeedbackConfig;
  /** Client-generated when absent. */
  feedbackId?: string;
  signal?: AbortSignal;
}

export type TokenExpiry = DateLike | { days?: number; hours?: number; minutes?: number };

export class FeedbackResource {
  constructor(private readonly ctx: ClientContext) {}

  async create(o: FeedbackCreate): Promise<Feedback> {
    if (o.runId === undefined && o.projectId === undefined) throw new LangSmithValidationError(MSG.runOrProjectMissing);
    if (o.runId !== undefined && o.projectId !== undefined) throw new LangSmithValidationError(MSG.runAndProject);
    if (o.runId !== undefined) assertUuid(o.runId, 'runId');
    if (o.projectId !== undefined) assertUuid(o.projectId, 'projectId');
    if (o.comparativeExperimentId !== undefined) assertUuid(o.comparativeExperimentId, 'comparativeExperimentId');
    if (o.sourceRunId !== undefined) assertUuid(o.sourceRunId, 'sourceRunId');
    const own = ownId(o.feedbackId, 'feedbackId');
    const id = own.id;
    const metadata = { ...(o.sourceInfo ?? {}), ...(o.sourceRunId ? { __run: { run_id: o.sourceRunId } } : {}) };
    const body = compact({
      id,
      run_id: o.runId,
      session_id: o.projectId,
      key: o.key,
      score: o.score,
      value: o.value,
      correction: o.correction,
      comment: o.comment,
      feedback_source: { type: o.feedbackSourceType ?? 'api', metadata },
      comparative_experiment_id: o.comparativeExperimentId,
      feedback_config: o.feedbackConfig,
    });
    return createWithId(
      this.ctx.http,
      { method: 'POST', path: '/feedback', json: body, action: 'create feedback', schema: FeedbackSchema, signal: o.signal },
      own,
      () => this.readOrNull(id, o.signal),
    );
  }

  private readOrNull(id: string, signal?: AbortSignal): Promise<Feedback | null> {
    return this.ctx.http.request({ path: `/feedback/${seg(id, 'feedbackId')}`, action: 'read feedback', schema: FeedbackSchema, nullOn404: true, signal });
  }

  async read(feedbackId: string, o: { signal?: AbortSignal } = {}): Promise<Feedback> {
    return this.ctx.http.request({ path: `/feedback/${seg(feedbackId, 'feedbackId')}`, action: 'read feedback', schema: FeedbackSchema, signal: o.signal });
  }

  async update(
    feedbackId: string,
    o: { score?: number | boolean | null; value?: unknown; correction?: unknown; comment?: string; signal?: AbortSignal },
  ): Promise<Feedback> {
    return this.ctx.http.request({
      method: 'PATCH',
      path: `/feedback/${seg(feedbackId, 'feedbackId')}`,
      json: compact({ score: o.score, value: o.value, correction: o.correction, comment: o.comment }),
      action: 'update feedback',
      schema: FeedbackSchema,
      idempotent: true,
      signal: o.signal,
    });
  }

  async delete(feedbackId: string, o: { signal?: AbortSignal } = {}): Promise<void> {
    await this.ctx.http.request({
      method: 'DELETE',
      path: `/feedback/${seg(feedbackId, 'feedbackId')}`,
      action: 'delete feedback',
      responseType: 'none',
      signal: o.signal,
    });
  }

  list(
    o: { runIds?: string[]; feedbackKeys?: string[]; feedbackSourceTypes?: string[]; limit?: number; signal?: AbortSignal } = {},
  ): AsyncGenerator<Feedback, void, undefined> {
    for (const r of o.runIds ?? []) assertUuid(r, 'runId');
    return offsetPaged(
      (offset, limit) =>
        this.ctx.http.request({
          path: '/feedback',
          query: { run: o.runIds, key: o.feedbackKeys, source: o.feedbackSourceTypes, offset, limit },
          action: 'list feedback',
          schema: z.array(FeedbackSchema),
          signal: o.signal,
        }),
      { pageSize: 100, limit: o.limit },
    );
  }

  /**
   * POST /feedback/tokens: a presigned link that accepts feedback without an API key. The expiry is
   * a moment (expires_at) or a duration (expires_in), by default 3 hours.
   */
  async createToken(o: {
    runId: string;
    feedbackKey: string;
    expiration?: TokenExpiry;
    feedbackConfig?: FeedbackConfig;
    signal?: AbortSignal;
  }): Promise<FeedbackToken> {
    assertUuid(o.runId, 'runId');
    const body: Record<string, unknown> = compact({ run_id: o.runId, feedback_key: o.feedbackKey, feedback_config: o.feedbackConfig });
    if (o.expiration === undefined) body['expires_in'] = { ...DEFAULT_FEEDBACK_TOKEN_EXPIRY };
    else if (typeof o.expiration === 'string' || o.expiration instanceof Date) body['expires_at'] = iso(o.expiration);
    else body['expires_in'] = compact({ days: o.expiration.days, hours: o.expiration.hours, minutes: o.expiration.minutes });
    return this.ctx.http.request({
      method: 'POST',
      path: '/feedback/tokens',
      json: FeedbackTokenRequestSchema.parse(body),
      action: 'create presigned feedback token',
      schema: FeedbackTokenSchema,
      signal: o.signal,
    });
  }

  listTokens(o: { runId: string; limit?: number; signal?: AbortSignal }): AsyncGenerator<FeedbackToken, void, undefined> {
    assertUuid(o.runId, 'runId');
    return offsetPaged(
      (offset, limit) =>
        this.ctx.http.request({
          path: '/feedback/tokens',
          query: { run_id: o.runId, offset, limit },
          action: 'list presigned feedback tokens',
          schema: z.array(FeedbackTokenSchema),
          signal: o.signal,
        }),
      { pageSize: 100, limit: o.limit },
    );
  }
}
