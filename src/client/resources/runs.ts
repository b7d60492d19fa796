import { ClientContext } from '../context';
import { LangSmithError, LangSmithValidationError } from '../errors';
import { assertUuid, uuid4 } from '../ids';
import { publicRunUrl } from '../links';
import { MSG } from '../messages';
import { cursorPaged } from '../paging';
import { RunSchema, RunsQueryResponseSchema, type Run } from '../schemas';
import { compact, iso, seg, type DateLike } from './common';
import type { ProjectsResource } from './projects';

export interface RunQueryOptions {
  projectId?: string;
  projectIds?: string[];
  projectName?: string;
  traceId?: string;
  parentRunId?: string;
  runIds?: string[];
  isRoot?: boolean;
  runType?: string;
  error?: boolean;
  /** LangSmith filter expression, e.g. `eq(name, "x")`. */
  filter?: string;
  traceFilter?: string;
  treeFilter?: string;
  startTime?: DateLike;
  endTime?: DateLike;
  select?: string[];
  order?: 'asc' | 'desc';
  /** Total to yield. */
  limit?: number;
  /** Runs per request (default 100). */
  pageSize?: number;
  signal?: AbortSignal;
}

export class RunsResource {
  constructor(
    private readonly ctx: ClientContext,
    private readonly projects: ProjectsResource,
  ) {}

  async read(runId: string, o: { signal?: AbortSignal } = {}): Promise<Run> {
    return this.ctx.http.request({ path: `/runs/${seg(runId, 'runId')}`, action: 'read run', schema: RunSchema, signal: o.signal });
  }

  /** Lazily pages POST /runs/query by cursor. */
  query(o: RunQueryOptions = {}): AsyncGenerator<Run, void, undefined> {
    if (o.projectId !== undefined && o.projectName !== undefined) throw new LangSmithValidationError(MSG.projectIdAndName);
    if (o.projectId !== undefined) assertUuid(o.projectId, 'projectId');
    for (const p of o.projectIds ?? []) assertUuid(p, 'projectId');
    for (const r of o.runIds ?? []) assertUuid(r, 'runId');
    if (o.traceId !== undefined) assertUuid(o.traceId, 'traceId');
    if (o.parentRunId !== undefined) assertUuid(o.parentRunId, 'parentRunId');
    const projects = this.projects;
    const http = this.ctx.http;
    return (async function* () {
      const sessions = [...(o.projectIds ?? [])];
      if (o.projectId) sessions.push(o.projectId);
      if (o.projectName !== undefined) sessions.push((await projects.read({ projectName: o.projectName, signal: o.signal })).id);
      const pageSize = Math.min(o.pageSize ?? 100, 100);
      const base = compact({
        session: sessions.length ? sessions : undefined,
        trace: o.traceId,
        parent_run: o.parentRunId,
        id: o.runIds,
        is_root: o.isRoot,
        run_type: o.runType,
        error: o.error,
        filter: o.filter,
        trace_filter: o.traceFilter,
        tree_filter: o.treeFilter,
        start_time: iso(o.startTime),
        end_time: iso(o.endTime),
        select: o.select,
        order: o.order,
      });
      let remaining = o.limit ?? Infinity;
      yield* cursorPaged(async (cursor) => {
        const res = await http.request({
          method: 'POST',
          path: '/runs/query',
          json: { ...base, limit: Math.min(pageSize, remaining), cursor },
          action: 'query runs',
          schema: RunsQueryResponseSchema,
          idempotent: true,
          signal: o.signal,
        });
        remaining -= res.runs.length;
        return { items: res.runs, next: remaining > 0 ? res.cursors?.next : null };
      }, o.limit);
    })();
  }

  /** PUT /runs/{id}/share: the public link of the run. */
  async share(runId: string, o: { shareId?: string; signal?: AbortSignal } = {}): Promise<string> {
    const id = seg(runId, 'runId');
    const token = o.shareId ?? uuid4();
    assertUuid(token, 'shareId');
    const res = await this.ctx.http.request({
      method: 'PUT',
      path: `/runs/${id}/share`,
      json: { run_id: runId, share_token: token },
      action: 'share run',
      signal: o.signal,
    });
    if (res === null || typeof res !== 'object' || typeof (res as { share_token?: unknown }).share_token !== 'string') {
      throw new LangSmithError(MSG.invalidShareResponse, { action: 'share run' });
    }
    return publicRunUrl(this.ctx.webUrl, (res as { share_token: string }).share_token);
  }

  /** GET /runs/{id}/share: the public link, or undefined when the run is not shared. */
  async readShareLink(runId: string, o: { signal?: AbortSignal } = {}): Promise<string | undefined> {
    const res = await this.ctx.http.request({ path: `/runs/${seg(runId, 'runId')}/share`, action: 'read run shared link', signal: o.signal });
    if (res === null || typeof res !== 'object' || typeof (res as { share_token?: unknown }).share_token !== 'string') return undefined;
    return publicRunUrl(this.ctx.webUrl, (res as { share_token: string }).share_token);
  }

  async unshare(runId: string, o: { signal?: AbortSignal } = {}): Promise<void> {
    await this.ctx.http.request({
      method: 'DELETE',
      path: `/runs/${seg(runId, 'runId')}/share`,
      action: 'unshare run',
      responseType: 'none',
      signal: o.signal,
    });
  }

  /** Whether the run is shared: its public link exists. */
  async isShared(runId: string, o: { signal?: AbortSignal } = {}): Promise<boolean> {
    return (await this.readShareLink(runId, o)) !== undefined;
  }
}

