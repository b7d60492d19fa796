import * as z from 'zod';
import { ClientContext } from '../context';
import { createWithId } from '../createWithId';
import { LangSmithNotFoundError } from '../errors';
import { assertUuid, ownId } from '../ids';
import { MSG } from '../messages';
import { offsetPaged } from '../paging';
import { ProjectDashboardSchema, ProjectSchema, type Project, type ProjectDashboard, type RunStatsGroupBy } from '../schemas';
import { compact, iso, projectTarget, seg, type DateLike } from './common';

export interface ProjectCreate {
  name: string;
  /** Client-generated when absent, so a repeated create never makes two projects. */
  id?: string;
  description?: string;
  metadata?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  referenceDatasetId?: string;
  startTime?: DateLike;
  /** POST /sessions?upsert=true: answer the existing project of that name instead of a conflict. */
  upsert?: boolean;
  signal?: AbortSignal;
}

export interface ProjectRef {
  projectId?: string;
  projectName?: string;
  includeStats?: boolean;
  signal?: AbortSignal;
}

export interface ProjectUpdate {
  name?: string;
  description?: string;
  metadata?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  endTime?: DateLike | null;
  signal?: AbortSignal;
}

export interface ProjectListOptions {
  name?: string;
  nameContains?: string;
  referenceDatasetId?: string;
  referenceFree?: boolean;
  metadata?: Record<string, unknown>;
  includeStats?: boolean;
  ids?: string[];
  /** LangSmith's sortable columns (default `start_time`); `feedback` sorts by `sortByFeedbackKey`'s average. */
  sortBy?: ProjectSortBy;
  /** Descending (the default) or ascending. */
  sortByDesc?: boolean;
  sortByFeedbackKey?: string;
  /** Stats over the runs that started at or after this time only. */
  statsStartTime?: DateLike;
  /** Total number of projects to yield. */
  limit?: number;
  offset?: number;
  pageSize?: number;
  signal?: AbortSignal;
}

/** LangSmith's SessionSortableColumns. */
export type ProjectSortBy = 'name' | 'start_time' | 'last_run_start_time' | 'latency_p50' | 'latency_p99' | 'error_rate' | 'feedback' | 'runs_count';

export interface ProjectDashboardOptions {
  startTime: DateLike;
  /** Default: now. */
  endTime?: DateLike;
  /** The bucket width. */
  stride: { days?: number; hours?: number; minutes?: number };
  /** An IANA time zone the buckets are aligned in (default UTC). */
  timezone?: string;
  /** Splits every series that has no grouping of its own. */
  groupBy?: { attribute: 'name' | 'run_type' | 'tag' | 'metadata'; path?: string; maxGroups?: number };
  /** The charts and series only. */
  omitData?: boolean;
  signal?: AbortSignal;
}

export class ProjectsResource {
  constructor(private readonly ctx: ClientContext) {}

  async create(o: ProjectCreate): Promise<Project> {
    const own = ownId(o.id, 'id');
    const id = own.id;
    if (o.referenceDatasetId !== undefined) assertUuid(o.referenceDatasetId, 'referenceDatasetId');
    const extra = { ...(o.extra ?? {}), ...(o.metadata ? { metadata: o.metadata } : {}) };
    const body = compact({
      id,
      name: o.name,
      description: o.description,
      extra,
      reference_dataset_id: o.referenceDatasetId,
      start_time: iso(o.startTime),
    });
    return createWithId(
      this.ctx.http,
      {
        method: 'POST',
        path: '/sessions',
        query: o.upsert ? { upsert: true } : undefined,
        json: body,
        action: 'create project',
        schema: ProjectSchema,
        signal: o.signal,
      },
      own,
      () => this.readById(id, false, o.signal),
    );
  }

  private readById(id: string, includeStats: boolean | undefined, signal?: AbortSignal): Promise<Project | null> {
    return this.ctx.http.request({
      path: `/sessions/${seg(id, 'projectId')}`,
      query: { include_stats: includeStats },
      action: 'read project',
      schema: ProjectSchema,
      nullOn404: true,
      signal,
    });
  }

  /** By id or by exact name; raises `Project[id=…, name=…] not found` when there is none. */
  async read(o: ProjectRef): Promise<Project> {
    projectTarget(o);
    let project: Project | null;
    if (o.projectId !== undefined) {
      project = await this.readById(o.projectId, o.includeStats, o.signal);
    } else {
      const list = await this.ctx.http.request({
        path: '/sessions',
        query: { name: o.projectName, limit: 1, include_stats: o.includeStats },
        action: 'read project',
        schema: z.array(ProjectSchema),
        signal: o.signal,
      });
      project = list[0] ?? null;
    }
    if (!project) {
      throw new LangSmithNotFoundError(MSG.projectNotFound(o.projectId, o.projectName), { action: 'read project' });
    }
    return project;
  }

  /** Whether the project exists: a not-found answer is false, other failures raise. */
  async exists(o: ProjectRef): Promise<boolean> {
    try {
      await this.read(o);
      return true;
    } catch (e) {
      if (e instanceof LangSmithNotFoundError) return false;
      throw e;
    }
  }

  async update(projectId: string, o: ProjectUpdate): Promise<Project> {
    const extra = o.extra || o.metadata ? { ...(o.extra ?? {}), ...(o.metadata ? { metadata: o.metadata } : {}) } : undefined;
    return this.ctx.http.request({
      method: 'PATCH',
      path: `/sessions/${seg(projectId, 'projectId')}`,
      json: compact({ name: o.name, description: o.description, extra, end_time: o.endTime === null ? null : iso(o.endTime) }),
      action: 'update project',
      schema: ProjectSchema,
      idempotent: true,
      signal: o.signal,
    });
  }

  async delete(o: { projectId?: string; projectName?: string; signal?: AbortSignal }): Promise<void> {
    projectTarget(o);
    const id = o.projectId ?? (await this.read(o)).id;
    await this.ctx.http.request({
      method: 'DELETE',
      path: `/sessions/${seg(id, 'projectId')}`,
      action: 'delete project',
      responseType: 'none',
      signal: o.signal,
    });
  }

  list(o: ProjectListOptions = {}): AsyncGenerator<Project, void, undefined> {
    if (o.referenceDatasetId !== undefined) assertUuid(o.referenceDatasetId, 'referenceDatasetId');
    for (const id of o.ids ?? []) assertUuid(id, 'projectId');
    return offsetPaged(
      (offset, limit) =>
        this.ctx.http.request({
          path: '/sessions',
          query: {
            name: o.name,
            name_contains: o.nameContains,
            reference_dataset: o.referenceDatasetId,
            reference_free: o.referenceFree,
            metadata: o.metadata,
            include_stats: o.includeStats,
            id: o.ids,
            sort_by: o.sortBy,
            sort_by_desc: o.sortByDesc,
            sort_by_feedback_key: o.sortByFeedbackKey,
            stats_start_time: iso(o.statsStartTime),
            offset,
            limit,
          },
          action: 'list projects',
          schema: z.array(ProjectSchema),
          signal: o.signal,
        }),
      { pageSize: Math.min(o.pageSize ?? 100, 100), offset: o.offset, limit: o.limit },
    );
  }

  /** POST /sessions/{id}/dashboard: the project's prebuilt charts over a window, in buckets of `stride`. */
  async dashboard(projectId: string, o: ProjectDashboardOptions): Promise<ProjectDashboard> {
    const g = o.groupBy;
    return this.ctx.http.request({
      method: 'POST',
      path: `/sessions/${seg(projectId, 'projectId')}/dashboard`,
      json: compact({
        start_time: iso(o.startTime),
        end_time: iso(o.endTime),
        stride: { days: o.stride.days ?? 0, hours: o.stride.hours ?? 0, minutes: o.stride.minutes ?? 0 },
        timezone: o.timezone,
        group_by: g ? compact({ attribute: g.attribute, path: g.path, max_groups: g.maxGroups }) as RunStatsGroupBy : undefined,
        omit_data: o.omitData,
      }),
      action: 'read project dashboard',
      schema: ProjectDashboardSchema,
      idempotent: true,
      signal: o.signal,
    });
  }
}
