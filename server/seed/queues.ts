// The demo's annotation queue, demo-review: five of the chatbot's root runs, a rubric over the two feedback configs.
import type { Ctx, Tenant } from '../context';
import { newId } from '../ids';
import { scopeOf, setItemStatus } from '../store/queueReview';
import { findItem } from '../store/queueRows';
import { createQueue } from '../store/queues';

export function seedReviewQueue(ctx: Ctx, local: Tenant, qa: { id: string }, rootIds: string[]): void {
  // Annotation queue: five root runs of the chatbot project, a rubric over the two configs, the QA dataset
  // as the place corrected answers go; user "you" has done the first item (it is archived: one reviewer wanted).
  const review = createQueue(
    ctx, local, newId(),
    {
      name: 'demo-review', description: 'Answers users rated poorly (demo data).',
      rubric_instructions: 'Is the answer correct and grounded in the retrieved documents?',
      rubric_items: [
        {
          feedback_key: 'correctness', description: 'Is the answer factually correct and supported by the retrieved documents?',
          value_descriptions: { incorrect: 'Wrong, or not supported by the documents', correct: 'Right and grounded in the documents' },
          score_descriptions: { '0': 'incorrect', '1': 'correct' }, is_required: true, is_assertion: null,
        },
        {
          feedback_key: 'helpfulness', description: 'How far does the answer resolve what the user asked?',
          value_descriptions: null, score_descriptions: { '0': 'Does not help', '0.5': 'Partly answers the question', '1': 'Fully resolves it' },
          is_required: false, is_assertion: null,
        },
      ],
      default_dataset: qa.id,
    },
    rootIds.slice(0, 5),
  );
  const you = ctx.users.find((u) => u.tenant === local && u.name === 'you') ?? ctx.users.find((u) => u.tenant === local);
  if (you) {
    const done = findItem(ctx, you.id, review.id, rootIds[0]!, true)!;
    setItemStatus(ctx, scopeOf(ctx, review, you), done, 'completed', null);
  }
}
