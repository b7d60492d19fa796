// Runs (v1): ingestion of one run, an update, a batch; reads and /runs/query with cursors; sharing. Multipart
// ingestion is in runsMultipart.ts, the public reads by share token in runsPublic.ts, the v2 reads in v2*.ts.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { idParams, route } from '../route';
import { getRun, ingestRuns, runFeedbackStats, shareRun, unshareRun } from '../store/runs';
import { originOf } from '../request';
import { BatchSchema, RunPayloadSchema, RunQueryBody, queryRunsParsed, runOut } from './runsShape';

const ShareBody = z.strictObject({ run_id: z.string().nullish(), share_token: z.string().nullish() });

export function registerRuns(app: FastifyInstance, ctx: Ctx) {
  // A create needs a body: an absent one is refused rather than made into an empty run in the default project.
  route(app, 'POST', '/runs', { body: RunPayloadSchema, bodyRequired: true }, ({ body, tenant, reply }) => {
    ingestRuns(ctx, tenant, [body], []);
    reply.code(202);
    return { message: 'Run created' };
  });

  route(app, 'PATCH', '/runs/:id', { params: idParams, body: RunPayloadSchema }, ({ params, body, tenant, reply }) => {
    ingestRuns(ctx, tenant, [], [{ ...body, id: params.id }]);
    reply.code(202);
    return { message: 'Run updated' };
  });

  route(app, 'POST', '/runs/batch', { body: BatchSchema, bodyRequired: true }, ({ body, tenant, reply }) => {
    ingestRuns(ctx, tenant, body.post ?? [], body.patch ?? []);
    reply.code(202);
    return { message: 'Runs batch ingested' };
  });

  route(app, 'POST', '/runs/query', { body: RunQueryBody }, ({ body, tenant, req }) => queryRunsParsed(ctx, { tenantId: tenant.id, origin: originOf(req) }, body));

  route(app, 'GET', '/runs/:id', { params: idParams }, ({ params, tenant, req }) =>
    runOut(getRun(ctx, tenant, params.id), null, originOf(req), runFeedbackStats(ctx, [params.id]).get(params.id) ?? {}),
  );

  // Sharing: a token shares the run's whole trace.
  route(app, 'PUT', '/runs/:id/share', { params: idParams, body: ShareBody }, ({ params, body, tenant }) => ({
    run_id: params.id,
    share_token: shareRun(ctx, tenant, params.id, body.share_token),
  }));
  route(app, 'GET', '/runs/:id/share', { params: idParams }, ({ params, tenant }) => {
    const run = getRun(ctx, tenant, params.id);
    return run.share_token ? { run_id: params.id, share_token: run.share_token } : null;
  });
  route(app, 'DELETE', '/runs/:id/share', { params: idParams }, ({ params, tenant }) => {
    unshareRun(ctx, tenant, params.id);
    return {};
  });
}
