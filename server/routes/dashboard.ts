// POST /sessions/{id}/dashboard: a project's prebuilt dashboard (LangSmith's CustomChartsSection) over a window,
// in buckets of a stride aligned in a time zone.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { HttpError } from '../errors';
import { bodyTime, idParams, route } from '../route';
import { projectDashboard } from '../store/dashboard';
import { getSession } from '../store/sessions';
import { isTimeZone } from '../timeZones';
import { GroupBySchema } from './runsStats';

const count = () => z.number().int().min(0, 'expected 0 or more').max(100_000).nullish();

/** LangSmith's CustomChartsSectionRequest. */
const DashboardBody = z.strictObject({
  timezone: z.string().nullish(),
  start_time: bodyTime().nullish(),
  end_time: bodyTime().nullish(),
  stride: z.strictObject({ days: count(), hours: count(), minutes: count() }).nullish(),
  omit_data: z.boolean().nullish(),
  group_by: GroupBySchema.nullish(),
});

const DAY = 86_400_000;

export function registerDashboard(app: FastifyInstance, ctx: Ctx) {
  route(app, 'POST', '/sessions/:id/dashboard', { params: idParams, body: DashboardBody }, ({ params, body, tenant }) => {
    const session = getSession(ctx, tenant, params.id);
    const timezone = body.timezone ?? 'UTC';
    if (!isTimeZone(timezone)) throw new HttpError(422, `body.timezone: "${timezone}" is not a time zone (an IANA name such as "Europe/Paris")`);
    // LangSmith's default stride is 15 minutes; without a start, the last 7 days to the end (or now).
    const stride = { days: body.stride?.days ?? 0, hours: body.stride?.hours ?? 0, minutes: body.stride?.minutes ?? (body.stride ? 0 : 15) };
    if (stride.days + stride.hours + stride.minutes === 0) throw new HttpError(422, 'body.stride: must be longer than 0');
    const end = body.end_time ? Date.parse(body.end_time) : Date.now();
    const start = body.start_time ? Date.parse(body.start_time) : end - 7 * DAY;
    if (start >= end) throw new HttpError(422, 'body.start_time: must be before end_time');
    return projectDashboard(ctx, session, { start, end, stride, timezone, groupBy: body.group_by ?? null, omitData: body.omit_data ?? false });
  });
}
