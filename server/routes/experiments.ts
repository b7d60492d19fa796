// LangSmith's v2 `POST /datasets/{dataset_id}/experiment-runs` (served under /v2 and /api/v2, as the official
// client's `client.datasets.experimentRuns.query` calls it): a page of the dataset's examples, each with the root
// runs of the asked-for experiments for it, the runs in v2's shape (fields by `selects`, the id alone without).
// Pages are `{items, next_cursor}`; `page_size` 1–100, default 20, as LangSmith documents.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { idParams, route } from '../route';
import { getDataset } from '../store/datasets';
import { experimentExamples, experimentRootRuns, runsFeedbackStats, type ExperimentPageQuery, type LargeRunColumn } from '../store/experiments';
import { traceFigures, type TraceFigures } from '../store/sessions';
import { runCosts, tracesWithChildren, type RunRow } from '../store/runs';
import { jsonOrNull } from '../json';
import { HttpError, notFound } from '../errors';
import { originOf } from '../request';
import { bodyUuid, decodeCursor, encodeCursor } from './runsShape';
import { bodySelects, required, v2Runs, type RunSelect } from './v2Shape';

/** At most this many example ids per request (LangSmith's limit). */
export const MAX_EXAMPLE_IDS = 1000;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const Body = z.strictObject({
  // Checked after the dataset (see below), so another workspace's dataset is a 404 whatever the body holds.
  experiment_ids: z.array(bodyUuid()).nullish(),
  example_ids: z.array(bodyUuid()).max(MAX_EXAMPLE_IDS, { error: `at most ${MAX_EXAMPLE_IDS} example ids per request` }).nullish(),
  selects: bodySelects(),
  filters: z.record(z.string(), z.array(z.string())).nullish(),
  sort: z.strictObject({ by: z.string().min(1), order: z.string().nullish() }).nullish(),
  comparative_experiment_id: bodyUuid().nullish(),
  cursor: z.string().nullish(),
  page_size: z.number().int().min(1, { error: `must be between 1 and ${MAX_PAGE_SIZE}` }).max(MAX_PAGE_SIZE, { error: `must be between 1 and ${MAX_PAGE_SIZE}` }).nullish(),
});

/** Which large run columns the selected fields need. */
const NEEDS: Partial<Record<RunSelect, LargeRunColumn[]>> = {
  INPUTS: ['inputs'], INPUTS_PREVIEW: ['inputs'], OUTPUTS: ['outputs'], OUTPUTS_PREVIEW: ['outputs'],
  EXTRA: ['extra'], METADATA: ['extra'], THREAD_ID: ['extra'], EVENTS: ['events'], FIRST_TOKEN_TIME: ['events'],
  MANIFEST: ['serialized'], ATTACHMENTS: ['attachments'],
};
/** Figures answered for the whole trace, rolled up into its root (see traceFigures). */
const TRACE_FIGURES: Partial<Record<RunSelect, 'total_tokens' | 'prompt_tokens' | 'completion_tokens' | 'total_cost' | 'prompt_cost' | 'completion_cost'>> = {
  TOTAL_TOKENS: 'total_tokens', PROMPT_TOKENS: 'prompt_tokens', COMPLETION_TOKENS: 'completion_tokens',
  TOTAL_COST: 'total_cost', PROMPT_COST: 'prompt_cost', COMPLETION_COST: 'completion_cost',
};

/** A root's own tokens and costs (what a trace of one run reports). */
function ownFigures(r: RunRow): TraceFigures {
  const costs = r.outputs !== null || r.extra !== null ? runCosts(jsonOrNull(r.outputs), jsonOrNull(r.extra)) : null;
  return {
    total_tokens: r.total_tokens, prompt_tokens: r.prompt_tokens, completion_tokens: r.completion_tokens,
    total_cost: costs?.total ?? null, prompt_cost: costs?.prompt ?? null, completion_cost: costs?.completion ?? null,
  };
}

export function registerExperimentRuns(app: FastifyInstance, ctx: Ctx) {
  route(app, 'POST', '/datasets/:id/experiment-runs', { params: idParams, body: Body }, ({ params, body: b, tenant, req, reply }) => {
    const dataset = getDataset(ctx, tenant, params.id);
    const experiments = [...new Set(required(b.experiment_ids, 'body.experiment_ids').map((id) => id.toLowerCase()))];
    if (!experiments.length) throw new HttpError(422, 'body.experiment_ids: at least one experiment id is required');
    const own = new Set(
      ctx.st.all<{ id: string }>('SELECT id FROM sessions WHERE tenant_id = ? AND id IN (SELECT value FROM json_each(?))', tenant.id, JSON.stringify(experiments)).map((r) => r.id),
    );
    const missing = experiments.find((id) => !own.has(id));
    if (missing) throw notFound(`Session ${missing}`);
    const comparative = b.comparative_experiment_id?.toLowerCase() ?? null;
    if (comparative && !ctx.st.one('SELECT 1 FROM comparative_experiments WHERE id = ? AND tenant_id = ?', comparative, tenant.id))
      throw notFound(`Comparative experiment ${comparative}`);

    const filters = new Map<string, string[]>();
    for (const [key, exprs] of Object.entries(b.filters ?? {})) {
      const id = key.toLowerCase();
      if (!own.has(id)) throw new HttpError(422, `body.filters.${key}: not one of experiment_ids`);
      const kept = exprs.filter((x) => x.trim() !== '');
      if (kept.length) filters.set(id, kept);
    }

    let sort: ExperimentPageQuery['sort'] = null;
    if (b.sort) {
      if (experiments.length !== 1) throw new HttpError(422, 'body.sort: sorting by feedback takes exactly one experiment in experiment_ids');
      const key = b.sort.by.startsWith('feedback.') ? b.sort.by.slice('feedback.'.length) : b.sort.by;
      if (!key) throw new HttpError(422, 'body.sort.by: name a feedback key, e.g. feedback.correctness');
      const order = (b.sort.order ?? 'DESC').toUpperCase();
      if (order !== 'ASC' && order !== 'DESC') throw new HttpError(422, `body.sort.order: must be ASC or DESC, not ${JSON.stringify(b.sort.order)}`);
      sort = { experiment: experiments[0]!, key, descending: order === 'DESC' };
    }

    const pageSize = b.page_size ?? DEFAULT_PAGE_SIZE;
    const offset = decodeCursor(b.cursor);
    const origin = originOf(req);
    const query: ExperimentPageQuery = {
      tenantId: tenant.id, datasetId: dataset.id, experiments, exampleIds: b.example_ids ? b.example_ids.map((id) => id.toLowerCase()) : null,
      filters, sort, comparativeExperimentId: comparative, limit: pageSize, offset,
    };
    const { examples, more } = experimentExamples(ctx, query, origin);

    const selects = new Set<RunSelect>(b.selects ?? []);
    const large = new Set<LargeRunColumn>();
    for (const s of selects) for (const c of NEEDS[s] ?? []) large.add(c);
    if ([...selects].some((s) => s.endsWith('_COST'))) large.add('outputs').add('extra');
    const runs = experimentRootRuns(ctx, query, examples.map((e) => e.id), large);
    // Feedback stats in LangSmith's per-run shape, and tokens and costs of the whole trace, filled in below.
    const plainSelects = [...selects].filter((s) => s !== 'FEEDBACK_STATS' && !TRACE_FIGURES[s]);
    const shaped = v2Runs(ctx, runs, plainSelects, origin);
    const figures = [...selects].filter((s) => TRACE_FIGURES[s]);
    // Only traces with runs under the root need their figures summed; a lone root's are its own.
    const nested = figures.length ? tracesWithChildren(ctx, tenant.id, runs.map((r) => r.trace_id ?? r.id)) : [];
    const totals = nested.length ? traceFigures(ctx, tenant.id, nested) : null;
    const feedback = selects.has('FEEDBACK_STATS') ? runsFeedbackStats(ctx, tenant.id, runs.map((r) => r.id), comparative) : null;
    const byExample = new Map<string, Record<string, unknown>[]>();
    runs.forEach((r, i) => {
      const out = shaped[i]!;
      const own = figures.length ? ownFigures(r) : null;
      for (const s of figures) {
        const v = (totals?.get(r.trace_id ?? r.id) ?? own)?.[TRACE_FIGURES[s]!] ?? null;
        if (s.endsWith('_TOKENS')) out[s.toLowerCase()] = v ?? 0;
        else if (v !== null) out[s.toLowerCase()] = v;
      }
      if (feedback) out.feedback_stats = feedback.get(r.id) ?? {};
      const list = byExample.get(r.reference_example_id!) ?? [];
      list.push(out);
      byExample.set(r.reference_example_id!, list);
    });
    // The examples' JSON is the stored text, composed by SQLite; each item is it with `runs` added.
    const items = examples.map((e) => `${e.json.slice(0, -1)},"runs":${JSON.stringify(byExample.get(e.id) ?? [])}}`);
    reply.type('application/json; charset=utf-8');
    return `{"items":[${items.join(',')}]${more ? `,"next_cursor":${JSON.stringify(encodeCursor(offset + pageSize))}` : ''}}`;
  });
}
