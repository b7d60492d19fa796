import * as z from 'zod';
import { ClientContext } from '../context';
import { createWithId } from '../createWithId';
import { LangSmithValidationError } from '../errors';
import { assertUuid, ownId } from '../ids';
import { MSG } from '../messages';
import { ComparativeExperimentSchema, type ComparativeExperiment } from '../schemas';
import { compact, iso, seg, type DateLike } from './common';
import type { ProjectsResource } from './projects';

export class ComparativeExperimentsResource {
  constructor(
    private readonly ctx: ClientContext,
    private readonly projects: ProjectsResource,
  ) {}

  /**
   * POST /datasets/comparative. Needs at least one experiment and a reference dataset; when none is
   * given, the first experiment's reference dataset is used.
   */
  async create(o: {
    name: string;
    experimentIds: string[];
    referenceDatasetId?: string;
    description?: string;
    createdAt?: DateLike;
    metadata?: Record<string, unknown>;
    id?: string;
    signal?: AbortSignal;
  }): Promise<ComparativeExperiment> {
    if (!o.experimentIds || o.experimentIds.length === 0) throw new LangSmithValidationError(MSG.experimentRequired);
    for (const e of o.experimentIds) assertUuid(e, 'experimentId');
    if (o.referenceDatasetId !== undefined) assertUuid(o.referenceDatasetId, 'referenceDatasetId');
    const own = ownId(o.id, 'id');
    const id = own.id;
    let referenceDatasetId = o.referenceDatasetId;
    if (!referenceDatasetId) {
      const first = await this.projects.read({ projectId: o.experimentIds[0]!, signal: o.signal });
      referenceDatasetId = first.reference_dataset_id ?? undefined;
    }
    if (!referenceDatasetId) throw new LangSmithValidationError(MSG.referenceDatasetRequired);
    const dataset = referenceDatasetId;
    const request = {
      method: 'POST' as const,
      path: '/datasets/comparative',
      json: compact({
        id,
        name: o.name,
        experiment_ids: o.experimentIds,
        reference_dataset_id: dataset,
        description: o.description,
        created_at: iso(o.createdAt ?? new Date()),
        extra: o.metadata ? { metadata: o.metadata } : {},
      }),
      action: 'create comparative experiment',
      schema: ComparativeExperimentSchema,
      signal: o.signal,
    };
    return createWithId(this.ctx.http, request, own, async () => {
      // There is no read by id: the reference dataset's comparative experiments, filtered by id.
      const found = await this.ctx.http.request({
        path: `/datasets/${seg(dataset, 'referenceDatasetId')}/comparative`,
        query: { id: [id] },
        action: 'read comparative experiment',
        schema: z.array(ComparativeExperimentSchema),
        signal: o.signal,
      });
      return found.find((c) => c.id.toLowerCase() === id.toLowerCase()) ?? null;
    });
  }
}
