// The demo's feedback: the configs the review rubric scores, and users' feedback on the chatbot's runs.
import type { Ctx, Tenant } from '../context';
import { createConfig, createFeedback } from '../store/feedback';
import type { Rng } from './random';

/** A writer of one feedback on a run of the workspace, from the API unless another source is named. */
export const feedbackWriter = (ctx: Ctx, local: Tenant) =>
  (runId: string, key: string, score: number, comment: string | null, source = 'api') =>
    createFeedback(ctx, local, {
      run_id: runId, key, score, value: null, correction: null, comment, feedback_source: { type: source, metadata: {} }, feedback_config: null,
    });

/** Feedback configs the review rubric scores: one categorical, one continuous. */
export function seedFeedbackConfigs(ctx: Ctx, local: Tenant): void {
  createConfig(ctx, local, 'correctness', { type: 'categorical', categories: [{ value: 0, label: 'incorrect' }, { value: 1, label: 'correct' }] }, false);
  createConfig(ctx, local, 'helpfulness', { type: 'continuous', min: 0, max: 1 }, false);
}

/** User feedback on every other root run of the chatbot, some with a comment. */
export function seedUserFeedback(ctx: Ctx, local: Tenant, r: Rng, rootIds: string[]): void {
  const feedback = feedbackWriter(ctx, local);
  rootIds.forEach((id, i) => {
    if (i % 2 === 0) feedback(id, 'user_score', r.chance(0.75) ? 1 : 0, r.chance(0.2) ? 'Helpful, thanks!' : null);
  });
}
