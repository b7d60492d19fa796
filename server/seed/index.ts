// Demo data for `--seed demo`, one module per area: projects with nested runs (inputs, outputs, errors, latency,
// tokens), datasets with splits, versions and tags (one with JSON schemas and file attachments), feedback,
// experiments, an annotation queue, prompts with several commits, and the trace viewer's projects.
// Written through the same functions the API uses, so it looks exactly like data a client made. One generator
// feeds the areas in this order, so every demo database is the same.
import type { Ctx } from '../context';
import { seedDatasets } from './datasets';
import { seedExperiments, seedQaExperiment } from './experiments';
import { seedFeedbackConfigs, seedUserFeedback } from './feedback';
import { seedProjects } from './projects';
import { seedOtherWorkspace, seedPrompts } from './prompts';
import { seedReviewQueue } from './queues';
import { rng } from './random';
import { seedTraceViewerDemo } from './traceViewer';

export function seedDemo(ctx: Ctx): void {
  const r = rng(1984);
  const [local, other] = ctx.tenants;
  const now = Date.now();

  ctx.st.tx(() => {
    // Projects with nested runs
    const rootIds = seedProjects(ctx, local, r, now);
    // Datasets with splits, versions and tags
    const { qa, qaIds } = seedDatasets(ctx, local, r);
    seedFeedbackConfigs(ctx, local);
    // An experiment on the QA dataset, with feedback
    seedQaExperiment(ctx, local, r, now, qa, qaIds);
    // Two experiments of the support-answer prompt (v2 better on some examples, worse on others)
    seedExperiments(ctx, local, qa.id, now);
    seedUserFeedback(ctx, local, r, rootIds);
    seedReviewQueue(ctx, local, qa, rootIds);
    const classifier = seedPrompts(ctx, local);
    seedTraceViewerDemo(ctx, local, now);
    if (other) seedOtherWorkspace(ctx, other, local, classifier);
  });
}
