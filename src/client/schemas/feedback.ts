// Feedback and feedback tokens.

import * as z from 'zod';
import { str, num, recordish, uuid } from './fields';

export const FeedbackSourceSchema = z.looseObject({ type: str, metadata: recordish });

export const FeedbackSchema = z.looseObject({
  id: uuid,
  run_id: str,
  session_id: str,
  key: z.string(),
  score: z.union([z.number(), z.boolean()]).nullish(),
  value: z.unknown().optional(),
  correction: z.unknown().optional(),
  comment: str,
  feedback_source: FeedbackSourceSchema.nullish(),
  comparative_experiment_id: str,
  feedback_config: recordish,
  created_at: str,
  modified_at: str,
});
export type Feedback = z.infer<typeof FeedbackSchema>;

/** Spec §3: a token request carries either expires_at or expires_in, never both. */
export const FeedbackTokenRequestSchema = z
  .object({
    run_id: z.string(),
    feedback_key: z.string(),
    feedback_config: recordish,
    expires_at: z.string().optional(),
    expires_in: z.object({ days: num, hours: num, minutes: num }).optional(),
  })
  .refine((b) => (b.expires_at === undefined) !== (b.expires_in === undefined), 'Either expires_at or expires_in, not both');

export const FeedbackTokenSchema = z.looseObject({ id: uuid, url: z.string(), expires_at: str });
export type FeedbackToken = z.infer<typeof FeedbackTokenSchema>;
