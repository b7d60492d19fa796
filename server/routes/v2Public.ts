// Public v2 reads of a shared trace, without an API key: the share token names the workspace, project and trace,
// and reaches nothing outside that trace.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { pText, qList, qTime, route, uuid } from '../route';
import { sharedRun, sharedTraceRun, sharedTraceRuns } from '../store/runs';
import { originOf } from '../request';
import { v2Runs } from './v2Shape';

/** What a public query may select: the trace's shape and figures, not full payloads (previews only). */
const PUBLIC_QUERY_SELECTS = [
  'ID', 'NAME', 'RUN_TYPE', 'STATUS', 'START_TIME', 'END_TIME', 'LATENCY_SECONDS', 'FIRST_TOKEN_TIME', 'ERROR', 'ERROR_PREVIEW', 'EXTRA',
  'METADATA', 'INPUTS_PREVIEW', 'OUTPUTS_PREVIEW', 'PARENT_RUN_ID', 'PARENT_RUN_IDS', 'PROJECT_ID', 'TRACE_ID', 'THREAD_ID', 'DOTTED_ORDER',
  'IS_ROOT', 'REFERENCE_DATASET_ID', 'TOTAL_TOKENS', 'PROMPT_TOKENS', 'COMPLETION_TOKENS', 'TOTAL_COST', 'PROMPT_COST', 'COMPLETION_COST',
  'PROMPT_TOKEN_DETAILS', 'COMPLETION_TOKEN_DETAILS', 'PROMPT_COST_DETAILS', 'COMPLETION_COST_DETAILS', 'PRICE_MODEL_ID', 'TAGS',
  'THREAD_EVALUATION_TIME', 'FEEDBACK_STATS',
] as const;

const pub = { public: true };

export function registerPublicV2(app: FastifyInstance, ctx: Ctx) {
  route(
    app, 'POST', '/public/:token/runs/query',
    { params: z.object({ token: pText() }), body: z.strictObject({ selects: z.array(z.enum(PUBLIC_QUERY_SELECTS)).nullish() }), config: pub },
    ({ params, body, req }) => {
      const root = sharedRun(ctx, params.token);
      return { items: v2Runs(ctx, sharedTraceRuns(ctx, root, []), body.selects, originOf(req)) };
    },
  );

  // start_time locates the run in LangSmith's store; here the id alone finds it, so it is accepted and not needed.
  route(
    app, 'GET', '/public/:token/run/:id',
    // The same fields as the public query: a shared link shows previews, not whole inputs or private ids.
    { params: z.object({ token: pText(), id: uuid() }), query: z.object({ selects: qList().pipe(z.array(z.enum(PUBLIC_QUERY_SELECTS))), start_time: qTime() }), config: pub },
    ({ params, query, req }) => {
      const run = sharedTraceRun(ctx, sharedRun(ctx, params.token), params.id);
      return v2Runs(ctx, [run], query.selects, originOf(req))[0];
    },
  );
}
