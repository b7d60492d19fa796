// Annotation queues, the runs they hold and their size.

import * as z from 'zod';
import { str, num, uuid } from './fields';
import { RunSchema } from './runs';

export const AnnotationQueueSchema = z.looseObject({
  id: uuid,
  name: z.string(),
  description: str,
  rubric_instructions: str,
  created_at: str,
  updated_at: str,
  tenant_id: str,
  /** How many runs the queue holds: listings carry it (LangSmith's AnnotationQueueSchemaWithSize), a single read may not. */
  total_runs: num,
  rubric_items: z
    .array(
      z.looseObject({
        feedback_key: z.string(),
        description: str,
        score_descriptions: z.record(z.string(), z.string()).nullish(),
        value_descriptions: z.record(z.string(), z.string()).nullish(),
        is_required: z.boolean().nullish(),
      }),
    )
    .nullish(),
  default_dataset: str,
  num_reviewers_per_item: num,
  enable_reservations: z.boolean().nullish(),
  reservation_minutes: num,
});
export type AnnotationQueue = z.infer<typeof AnnotationQueueSchema>;

export const QueueRunSchema = RunSchema.extend({
  queue_run_id: str,
  added_at: str,
  last_reviewed_time: str,
});
export type QueueRun = z.infer<typeof QueueRunSchema>;

export const QueueRunAddedSchema = z.looseObject({ id: uuid, run_id: uuid, queue_id: str, added_at: str });

export const QueueSizeSchema = z.looseObject({ size: z.number() });
