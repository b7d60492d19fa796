// Feedback configs: how each feedback key of the workspace is scored (continuous within min/max, categories
// with labels, free text) and whether a lower score is better. One per key; queues' rubrics and review forms
// are built from them.
import * as z from 'zod';
import { ClientContext } from '../context';
import { LangSmithValidationError } from '../errors';
import { offsetPaged } from '../paging';
import { compact } from './common';

export const FEEDBACK_CONFIG_MAX_PAGE = 100;
/** LangSmith's longest feedback key. */
export const FEEDBACK_KEY_MAX = 180;

export const FeedbackConfigBodySchema = z.looseObject({
  type: z.enum(['continuous', 'categorical', 'freeform']),
  min: z.number().nullish(),
  max: z.number().nullish(),
  categories: z.array(z.looseObject({ value: z.number(), label: z.string().nullish() })).nullish(),
});
export type FeedbackConfigBody = z.infer<typeof FeedbackConfigBodySchema>;

export const FeedbackConfigSchema = z.looseObject({
  feedback_key: z.string(),
  feedback_config: FeedbackConfigBodySchema,
  tenant_id: z.string().nullish(),
  modified_at: z.string().nullish(),
  is_lower_score_better: z.boolean().nullish(),
});
export type FeedbackConfigEntry = z.infer<typeof FeedbackConfigSchema>;

/** What LangSmith would refuse, said before any call. */
export function checkFeedbackConfig(key: string, c: FeedbackConfigBody): void {
  if (!key.trim()) throw new LangSmithValidationError('A feedback key must not be empty.');
  if (key.length > FEEDBACK_KEY_MAX) throw new LangSmithValidationError(`A feedback key is at most ${FEEDBACK_KEY_MAX} characters.`);
  if (c.type === 'continuous' && c.min != null && c.max != null && !(c.min < c.max)) {
    throw new LangSmithValidationError(`Feedback config ${key}: min (${c.min}) must be below max (${c.max}).`);
  }
  if (c.type === 'categorical') {
    const cats = c.categories ?? [];
    if (cats.length === 0) throw new LangSmithValidationError(`Feedback config ${key}: a categorical config needs categories.`);
    const values = new Set<number>();
    for (const cat of cats) {
      if (values.has(cat.value)) throw new LangSmithValidationError(`Feedback config ${key}: the value ${cat.value} is used twice.`);
      values.add(cat.value);
    }
  }
}

export class FeedbackConfigsResource {
  constructor(private readonly ctx: ClientContext) {}

  list(o: { keys?: string[]; nameContains?: string; limit?: number; signal?: AbortSignal } = {}): AsyncGenerator<FeedbackConfigEntry, void, undefined> {
    return offsetPaged(
      (offset, limit) =>
        this.ctx.http.request({
          path: '/feedback-configs',
          query: { key: o.keys, name_contains: o.nameContains, offset, limit },
          action: 'list feedback configs',
          schema: z.array(FeedbackConfigSchema),
          signal: o.signal,
        }),
      { pageSize: FEEDBACK_CONFIG_MAX_PAGE, limit: o.limit },
    );
  }

  /** The configs of these keys (absent keys have none), in batches of 50 keys per request. */
  async read(keys: string[], o: { signal?: AbortSignal } = {}): Promise<Map<string, FeedbackConfigEntry>> {
    const out = new Map<string, FeedbackConfigEntry>();
    const unique = [...new Set(keys)];
    for (let i = 0; i < unique.length; i += 50) {
      for await (const c of this.list({ keys: unique.slice(i, i + 50), signal: o.signal })) out.set(c.feedback_key, c);
    }
    return out;
  }

  async create(o: { key: string; config: FeedbackConfigBody; isLowerScoreBetter?: boolean; signal?: AbortSignal }): Promise<FeedbackConfigEntry> {
    checkFeedbackConfig(o.key, o.config);
    return this.ctx.http.request({
      method: 'POST',
      path: '/feedback-configs',
      json: { feedback_key: o.key, feedback_config: o.config, is_lower_score_better: o.isLowerScoreBetter ?? false },
      action: 'create feedback config',
      schema: FeedbackConfigSchema,
      idempotent: true,
      signal: o.signal,
    });
  }

  async update(o: { key: string; config?: FeedbackConfigBody; isLowerScoreBetter?: boolean; signal?: AbortSignal }): Promise<FeedbackConfigEntry> {
    if (o.config) checkFeedbackConfig(o.key, o.config);
    return this.ctx.http.request({
      method: 'PATCH',
      path: '/feedback-configs',
      json: compact({ feedback_key: o.key, feedback_config: o.config, is_lower_score_better: o.isLowerScoreBetter }),
      action: 'update feedback config',
      schema: FeedbackConfigSchema,
      idempotent: true,
      signal: o.signal,
    });
  }

  /** Creates the key's config, or changes it when the workspace has one. */
  async upsert(o: { key: string; config: FeedbackConfigBody; isLowerScoreBetter?: boolean; signal?: AbortSignal }): Promise<FeedbackConfigEntry> {
    const existing = await this.read([o.key], { signal: o.signal });
    return existing.has(o.key) ? this.update(o) : this.create(o);
  }

  async delete(key: string, o: { signal?: AbortSignal } = {}): Promise<void> {
    await this.ctx.http.request({
      method: 'DELETE',
      path: '/feedback-configs',
      query: { feedback_key: key },
      action: 'delete feedback config',
      responseType: 'none',
      signal: o.signal,
    });
  }
}
