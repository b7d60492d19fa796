// Public reads of a shared trace by its share token (v1 paths), without an API key: the token is the capability,
// and it reaches only the runs of the trace it shares.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { pText, qList, route, uuid } from '../route';
import { sharedRun, sharedTraceRun, sharedTraceRuns } from '../store/runs';
import { HttpError, notFound } from '../errors';
import { isUuid } from '../ids';
import { RunQueryBody, queryRunsParsed, runOut } from './runsShape';

const TokenParams = z.object({ token: pText() });
const pub = { public: true };

export function registerPublicRuns(app: FastifyInstance, ctx: Ctx) {
  route(app, 'GET', '/public/:token/run', { params: TokenParams, config: pub }, ({ params }) => runOut(sharedRun(ctx, params.token)));

  route(app, 'GET', '/public/:token/run/:id', { params: z.object({ token: pText(), id: uuid() }), config: pub }, ({ params }) =>
    runOut(sharedTraceRun(ctx, sharedRun(ctx, params.token), params.id)),
  );

  route(app, 'POST', '/public/:token/runs/query', { params: TokenParams, body: RunQueryBody, config: pub }, ({ params, body }) => {
    const root = sharedRun(ctx, params.token);
    return queryRunsParsed(ctx, { tenantId: root.tenant_id, traceId: root.trace_id ?? root.id }, body);
  });

  const listShared = (token: string, ids: string[]) => {
    const root = sharedRun(ctx, token);
    for (const i of ids) if (!isUuid(i)) throw new HttpError(422, `id: "${i}" is not a valid UUID`);
    return sharedTraceRuns(ctx, root, ids.map((i) => i.toLowerCase())).map((r) => runOut(r));
  };
  route(app, 'GET', '/public/:token/runs', { params: TokenParams, query: z.object({ id: qList() }), config: pub }, ({ params, query }) =>
    listShared(params.token, query.id),
  );
  // The official JS client appends its query string to `/runs` without a `?` (`/runs&id=…`); that spelling is
  // one path segment, read here.
  route(app, 'GET', '/public/:token/:tail', { params: z.object({ token: pText(), tail: pText() }), config: pub }, ({ params }) => {
    if (!params.tail.startsWith('runs')) throw notFound('Not Found');
    const qs = new URLSearchParams(params.tail.slice('runs'.length));
    const token = qs.get('share_token') ?? params.token;
    if (token !== params.token) throw notFound('Shared run');
    return listShared(token, qs.getAll('id'));
  });
}
