// The demo's experiments on the `demo-support-qa` dataset. demo-qa-experiment-1: the support pipeline run on each
// example, with model feedback on correctness (drawn from the seed's shared generator). And two experiments of
// the prompt `support-answer` made a few days
// apart, as the extension's experiment runner records them: a project tied to the dataset (prompt, commit and
// model in its metadata), one root run per example of the dataset's latest version, and model feedback from
// three evaluators (`contains`, `similarity`, `helpfulness`). v2 improves on some examples and regresses on
// others, and one of its runs failed. Deterministic: its own seeded generator, fixed offsets from `now`.
import type { Ctx, Tenant } from '../context';
import { ingestCreate } from '../store/runs';
import { createSession, sessionByName } from '../store/sessions';
import { createFeedback } from '../store/feedback';
import { newId } from '../ids';
import { jsonOrNull } from '../json';
import { feedbackWriter } from './feedback';
import type { Rng } from './random';
import { ANSWERS, QUESTIONS } from './support';
import { writeTrace } from './traces';

export const DEMO_EXPERIMENTS = ['support-answer-v1', 'support-answer-v2'] as const;
export const DEMO_EXPERIMENT_KEYS = ['contains', 'similarity', 'helpfulness'] as const;

type Quality = 'full' | 'partial' | 'off';
/**
 * Per example (by its place in the dataset, cycling every 5): the quality of v1's answer and of v2's. Examples
 * 1 and 3 of each five improve in v2, 2 and 4 regress, 0 stays (at 15 examples: 6 better, 6 worse, 3 the same).
 */
const PLAN: Array<[Quality, Quality]> = [['full', 'full'], ['partial', 'full'], ['full', 'partial'], ['off', 'partial'], ['partial', 'off']];
/** v2's run for this example (by place) failed. */
const V2_ERRORED_AT = 5;
const GENERIC = 'Thanks for reaching out! Please contact our support team and we will look into it.';

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** 1 − the edit distance between the two texts' words over the longer one's length, to 2 decimals. */
export function wordSimilarity(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  if (!x.length && !y.length) return 1;
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return Math.round((1 - prev[y.length]! / Math.max(x.length, y.length)) * 100) / 100;
}

function answerOf(reference: string, q: Quality, r: () => number): string {
  if (q === 'full') return r() < 0.5 ? reference : `Sure! ${reference}`;
  if (q === 'off') return GENERIC;
  const w = reference.split(' ');
  const keep = Math.max(1, Math.floor(w.length * (0.3 + r() * 0.3)));
  return `${w.slice(0, keep).join(' ')}… ${GENERIC}`;
}

export function seedExperiments(ctx: Ctx, tenant: Tenant, datasetId: string, now: number): void {
  const r = rng(2525);
  const examples = ctx.st.all<{ example_id: string; inputs: string; outputs: string | null }>(
    'SELECT example_id, inputs, outputs FROM example_revisions WHERE dataset_id = ? AND valid_to IS NULL ORDER BY created_at, example_id',
    datasetId,
  );
  const ids = DEMO_EXPERIMENTS.map((name, version) => {
    const start = now - (5 - version * 3) * 86_400_000; // v1 five days ago, v2 two days ago
    const commit = version === 0 ? '3f2a9c1d' : '8b7e4f20';
    const { row: project } = createSession(ctx, tenant, {
      name,
      description: `support-answer over demo-support-qa (demo data, prompt commit ${commit}).`,
      extra: { metadata: { prompt: 'support-answer', prompt_commit: commit, model: 'local-echo', evaluators: [...DEMO_EXPERIMENT_KEYS], dataset_version: 'latest' } },
      reference_dataset_id: datasetId,
      start_time: new Date(start).toISOString(),
      end_time: new Date(start + examples.length * 4_000 + 5_000).toISOString(),
    }, false);
    examples.forEach((ex, i) => {
      const question = String((jsonOrNull<{ question?: unknown }>(ex.inputs) ?? {}).question ?? '');
      const reference = String((jsonOrNull<{ answer?: unknown }>(ex.outputs) ?? {}).answer ?? '');
      const failed = version === 1 && i === V2_ERRORED_AT;
      const answer = answerOf(reference, PLAN[i % PLAN.length]![version]!, r);
      const begin = start + i * 4_000;
      const latency = 350 + Math.floor(r() * (version === 0 ? 2200 : 1500));
      const promptTokens = 24 + words(question).length + Math.floor(r() * 8);
      const completionTokens = failed ? 0 : words(answer).length + 2;
      const id = newId();
      const startIso = new Date(begin).toISOString();
      ingestCreate(ctx, tenant, {
        id, name: 'support-answer', run_type: 'chain', inputs: { question }, outputs: failed ? null : { answer },
        error: failed ? 'RateLimitError: 429 Too Many Requests (the local model was busy)' : null,
        start_time: startIso, end_time: new Date(begin + latency).toISOString(), session_id: project.id, trace_id: id,
        dotted_order: `${startIso.replace(/[-:]/g, '').replace(/\.(\d{3})Z$/, '$1000Z')}${id}`,
        reference_example_id: ex.example_id, tags: ['experiment'],
        extra: { metadata: { prompt: 'support-answer', prompt_commit: commit, model: 'local-echo', ls_model_name: 'local-echo', example_version: 'latest' } },
        prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens,
      });
      if (failed) return;
      const similarity = wordSimilarity(answer, reference);
      const contains = answer.toLowerCase().includes(reference.toLowerCase()) ? 1 : 0;
      const helpfulness = Math.round(Math.min(1, Math.max(0, similarity * 0.8 + r() * 0.2)) * 100) / 100;
      const at = new Date(begin + latency + 500).toISOString();
      const scored: Array<[string, number, string]> = [
        ['contains', contains, contains ? 'The reference answer is in the output.' : 'The reference answer is not in the output.'],
        ['similarity', similarity, `Word edit similarity to the reference: ${similarity}.`],
        ['helpfulness', helpfulness, `local-echo judge: helpfulness ${helpfulness}.`],
      ];
      for (const [key, score, comment] of scored) {
        createFeedback(ctx, tenant, {
          run_id: id, key, score, value: null, correction: null, comment, feedback_source: { type: 'model', metadata: { experiment: name } },
          feedback_config: null, created_at: at,
        });
      }
    });
    return project.id;
  });
  // v1 is the dataset's baseline: comparisons mark v2 against it.
  ctx.st.run('UPDATE datasets SET baseline_experiment_id = ? WHERE id = ?', ids[0], datasetId);
}

/** An experiment of the support pipeline on the QA dataset, with model feedback on correctness. */
export function seedQaExperiment(ctx: Ctx, local: Tenant, r: Rng, now: number, qa: { id: string }, qaIds: string[]): void {
  const exp = sessionByName(ctx, local, 'demo-qa-experiment-1');
  ctx.st.run('UPDATE sessions SET reference_dataset_id = ? WHERE id = ?', qa.id, exp.id);
  const feedback = feedbackWriter(ctx, local);
  qaIds.forEach((exId, i) => {
    const base = now - 3 * 3600_000 + i * 20_000;
    const id = writeTrace(ctx, local, exp.id, base, {
      name: 'SupportPipeline', run_type: 'chain', inputs: { question: QUESTIONS[i] }, outputs: { answer: ANSWERS[(i + (r.chance(0.2) ? 1 : 0)) % ANSWERS.length] },
      startOffset: 0, duration: r.int(800, 3000),
      children: [{ name: 'ChatOpenAI', run_type: 'llm', inputs: { question: QUESTIONS[i] }, outputs: { text: ANSWERS[i] }, startOffset: 5, duration: 700, tokens: [400, 60] }],
    });
    ctx.st.run('UPDATE runs SET reference_example_id = ? WHERE id = ?', exId, id);
    feedback(id, 'correctness', r.chance(0.8) ? 1 : 0, null, 'model');
  });
}
