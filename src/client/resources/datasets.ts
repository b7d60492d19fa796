import * as z from 'zod';
import { ClientContext } from '../context';
import { createWithId } from '../createWithId';
import { LangSmithError, LangSmithNotFoundError, LangSmithValidationError } from '../errors';
import { assertUuid, ownId } from '../ids';
import { publicDatasetUrl } from '../links';
import { MSG } from '../messages';
import { offsetPaged } from '../paging';
import {
  DatasetDiffSchema,
  DatasetSplitUpdateSchema,
  DatasetTagSchema,
  DatasetSchema,
  DatasetVersionSchema,
  ExampleSchema,
  ShareSchema,
  type Dataset,
  type DatasetDiff,
  type DatasetVersion,
  type Example,
} from '../schemas';
import { compact, datasetTarget, iso, seg, type DateLike } from './common';

const SharedEntitiesSchema = z.looseObject({
  entities: z.array(z.looseObject({ type: z.string(), share_token: z.string(), dataset_id: z.string().nullish(), run_id: z.string().nullish() })),
});

/** Spec §9: the default dataset type. */
export const DEFAULT_DATA_TYPE = 'kv';
/** Spec §9: dataset listing defaults. */
export const DATASET_LIST_DEFAULT_LIMIT = 100;
export const DATASET_LIST_DEFAULT_OFFSET = 0;

export type DataType = 'kv' | 'llm' | 'chat' | (string & {});

export interface DatasetCreate {
  name: string;
  id?: string;
  description?: string;
  dataType?: DataType;
  inputsSchema?: Record<string, unknown>;
  outputsSchema?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  signal?: AbortSignal;
}

export interface DatasetRef {
  datasetId?: string;
  datasetName?: string;
  signal?: AbortSignal;
}

export interface DatasetListOptions {
  name?: string;
  nameContains?: string;
  metadata?: Record<string, unknown>;
  ids?: string[];
  dataType?: DataType;
  /** Page size (spec default 100). */
  pageSize?: number;
  /** Total number to yield. */
  limit?: number;
  /** Start offset (spec default 0). */
  offset?: number;
  signal?: AbortSignal;
}

export interface DatasetShare {
  share_token: string;
  dataset_id?: string | null;
  url: string;
  [k: string]: unknown;
}

export interface CsvUpload {
  /** The CSV content. */
  csv: string | Uint8Array | Blob;
  fileName?: string;
  inputKeys: string[];
  outputKeys?: string[];
  name?: string;
  description?: string;
  dataType?: DataType;
  signal?: AbortSignal;
}

export interface VersionRef extends DatasetRef {
  asOf?: DateLike;
  tag?: string;
}

export class DatasetsResource {
  constructor(private readonly ctx: ClientContext) {}

  async create(o: DatasetCreate): Promise<Dataset> {
    const own = ownId(o.id, 'id');
    const id = own.id;
    const body = compact({
      id,
      name: o.name,
      description: o.description,
      data_type: o.dataType ?? DEFAULT_DATA_TYPE,
      inputs_schema_definition: o.inputsSchema,
      outputs_schema_definition: o.outputsSchema,
      extra: o.metadata ? { metadata: o.metadata } : undefined,
    });
    return createWithId(
      this.ctx.http,
      { method: 'POST', path: '/datasets', json: body, action: 'create dataset', schema: DatasetSchema, signal: o.signal },
      own,
      () => this.readById(id, o.signal),
    );
  }

  private readById(id: string, signal?: AbortSignal): Promise<Dataset | null> {
    return this.ctx.http.request({
      path: `/datasets/${seg(id, 'datasetId')}`,
      action: 'read dataset',
      schema: DatasetSchema,
      nullOn404: true,
      signal,
    });
  }

  /** By id or exact name (a name read asks for one row); raises `Dataset[id=…, name=…] not found`. */
  async read(o: DatasetRef): Promise<Dataset> {
    datasetTarget(o);
    let ds: Dataset | null;
    if (o.datasetId !== undefined) {
      ds = await this.readById(o.datasetId, o.signal);
    } else {
      const list = await this.ctx.http.request({
        path: '/datasets',
        query: { name: o.datasetName, limit: 1 },
        action: 'read dataset',
        schema: z.array(DatasetSchema),
        signal: o.signal,
      });
      ds = list[0] ?? null;
    }
    if (!ds) throw new LangSmithNotFoundError(MSG.datasetNotFound(o.datasetId, o.datasetName), { action: 'read dataset' });
    return ds;
  }

  async exists(o: DatasetRef): Promise<boolean> {
    try {
      await this.read(o);
      return true;
    } catch (e) {
      if (e instanceof LangSmithNotFoundError) return false;
      throw e;
    }
  }

  /** The dataset id, reading the dataset only when a name was given. */
  async resolveId(o: DatasetRef): Promise<string> {
    datasetTarget(o);
    return o.datasetId ?? (await this.read(o)).id;
  }

  list(o: DatasetListOptions = {}): AsyncGenerator<Dataset, void, undefined> {
    for (const id of o.ids ?? []) assertUuid(id, 'datasetId');
    return offsetPaged(
      (offset, limit) =>
        this.ctx.http.request({
          path: '/datasets',
          query: {
            limit,
            offset,
            name: o.name,
            name_contains: o.nameContains,
            metadata: o.metadata,
            id: o.ids,
            data_type: o.dataType,
          },
          action: 'list datasets',
          schema: z.array(DatasetSchema),
          signal: o.signal,
        }),
      {
        pageSize: Math.min(o.pageSize ?? DATASET_LIST_DEFAULT_LIMIT, 100),
        offset: o.offset ?? DATASET_LIST_DEFAULT_OFFSET,
        limit: o.limit,
      },
    );
  }

  async update(
    datasetId: string,
    o: { name?: string; description?: string; metadata?: Record<string, unknown>; inputsSchema?: Record<string, unknown>; outputsSchema?: Record<string, unknown>; signal?: AbortSignal },
  ): Promise<Dataset> {
    return this.ctx.http.request({
      method: 'PATCH',
      path: `/datasets/${seg(datasetId, 'datasetId')}`,
      json: compact({
        name: o.name,
        description: o.description,
        metadata: o.metadata,
        inputs_schema_definition: o.inputsSchema,
        outputs_schema_definition: o.outputsSchema,
      }),
      action: 'update dataset',
      schema: DatasetSchema,
      idempotent: true,
      signal: o.signal,
    });
  }

  async delete(o: DatasetRef): Promise<void> {
    const id = await this.resolveId(o);
    await this.ctx.http.request({
      method: 'DELETE',
      path: `/datasets/${seg(id, 'datasetId')}`,
      action: 'delete dataset',
      responseType: 'none',
      signal: o.signal,
    });
  }

  /** PUT /datasets/{id}/share: the share record with its public link. */
  async share(o: DatasetRef): Promise<DatasetShare> {
    const id = await this.resolveId(o);
    const res = await this.ctx.http.request({
      method: 'PUT',
      path: `/datasets/${seg(id, 'datasetId')}/share`,
      json: { dataset_id: id },
      action: 'share dataset',
      signal: o.signal,
    });
    return this.withUrl(res);
  }

  /**
   * GET /workspaces/current/shared: the ids of the workspace's publicly shared datasets (one request for a
   * whole tree of datasets, instead of a share read per dataset).
   */
  async sharedIds(o: { signal?: AbortSignal } = {}): Promise<Set<string>> {
    const ids = new Set<string>();
    const pages = offsetPaged(
      async (offset, limit) =>
        (
          await this.ctx.http.request({
            path: '/workspaces/current/shared',
            query: { limit, offset },
            action: 'list shared datasets',
            schema: SharedEntitiesSchema,
            signal: o.signal,
          })
        ).entities,
      { pageSize: 100 },
    );
    for await (const e of pages) if (e.type === 'dataset' && typeof e.dataset_id === 'string') ids.add(e.dataset_id);
    return ids;
  }

  /** GET /datasets/{id}/share: the share record, or null when the dataset is not shared. */
  async readShare(o: DatasetRef): Promise<DatasetShare | null> {
    const id = await this.resolveId(o);
    const res = await this.ctx.http.request({
      path: `/datasets/${seg(id, 'datasetId')}/share`,
      action: 'read dataset share',
      signal: o.signal,
    });
    if (res === null || typeof res !== 'object' || !('share_token' in res)) return null;
    return this.withUrl(res);
  }

  async unshare(o: DatasetRef): Promise<void> {
    const id = await this.resolveId(o);
    await this.ctx.http.request({
      method: 'DELETE',
      path: `/datasets/${seg(id, 'datasetId')}/share`,
      action: 'unshare dataset',
      responseType: 'none',
      signal: o.signal,
    });
  }

  private withUrl(res: unknown): DatasetShare {
    if (res === null || typeof res !== 'object' || !('share_token' in res)) {
      throw new LangSmithError(MSG.invalidShareResponse, { action: 'share dataset' });
    }
    const share = ShareSchema.parse(res);
    return { ...share, url: publicDatasetUrl(this.ctx.webUrl, share.share_token) };
  }

  /** POST /datasets/upload: a dataset from a CSV file. */
  async uploadCsv(o: CsvUpload): Promise<Dataset> {
    const form = new FormData();
    const blob = o.csv instanceof Blob ? o.csv : new Blob([o.csv as string | Uint8Array<ArrayBuffer>], { type: 'text/csv' });
    form.append('file', blob, o.fileName ?? `${o.name ?? 'dataset'}.csv`);
    for (const k of o.inputKeys) form.append('input_keys', k);
    for (const k of o.outputKeys ?? []) form.append('output_keys', k);
    if (o.description !== undefined) form.append('description', o.description);
    form.append('data_type', o.dataType ?? DEFAULT_DATA_TYPE);
    if (o.name !== undefined) form.append('name', o.name);
    return this.ctx.http.request({
      method: 'POST',
      path: '/datasets/upload',
      body: form,
      action: 'upload CSV',
      schema: DatasetSchema,
      signal: o.signal,
    });
  }

  /** Reads a version by exactly one of asOf and tag: `{as_of, tags}`. */
  async readVersion(o: VersionRef): Promise<DatasetVersion> {
    if ((o.asOf === undefined) === (o.tag === undefined)) throw new LangSmithValidationError(MSG.asOfXorTag);
    const id = await this.resolveId(o);
    return this.ctx.http.request({
      path: `/datasets/${seg(id, 'datasetId')}/version`,
      query: { as_of: iso(o.asOf), tag: o.tag },
      action: 'read dataset version',
      schema: DatasetVersionSchema,
      signal: o.signal,
    });
  }

  listVersions(o: DatasetRef & { limit?: number }): AsyncGenerator<DatasetVersion, void, undefined> {
    datasetTarget(o);
    const resolveId = (x: DatasetRef) => this.resolveId(x);
    const http = this.ctx.http;
    return (async function* () {
      const id = await resolveId(o);
      yield* offsetPaged(
        (offset, limit) =>
          http.request({
            path: `/datasets/${seg(id, 'datasetId')}/versions`,
            query: { offset, limit },
            action: 'list dataset versions',
            schema: z.array(DatasetVersionSchema),
            signal: o.signal,
          }),
        { pageSize: 100, limit: o.limit },
      );
    })();
  }

  /** PUT /datasets/{id}/tags: name the version at asOf (moves the tag when it exists). */
  async updateTag(o: DatasetRef & { asOf: DateLike; tag: string }): Promise<void> {
    const id = await this.resolveId(o);
    await this.ctx.http.request({
      method: 'PUT',
      path: `/datasets/${seg(id, 'datasetId')}/tags`,
      json: DatasetTagSchema.parse({ as_of: iso(o.asOf), tag: o.tag }),
      action: 'update dataset tag',
      responseType: 'none',
      signal: o.signal,
    });
  }

  /** Example ids added, modified and removed between two versions (timestamps, tags or 'latest'). */
  async diff(o: DatasetRef & { fromVersion: DateLike; toVersion: DateLike }): Promise<DatasetDiff> {
    const id = await this.resolveId(o);
    return this.ctx.http.request({
      path: `/datasets/${seg(id, 'datasetId')}/versions/diff`,
      query: { from_version: iso(o.fromVersion), to_version: iso(o.toVersion) },
      action: 'diff dataset versions',
      schema: DatasetDiffSchema,
      signal: o.signal,
    });
  }

  /** POST /datasets/{id}/index: index the dataset (at a tag) for similarity search. */
  async index(o: DatasetRef & { tag?: string }): Promise<void> {
    const id = await this.resolveId(o);
    await this.ctx.http.request({
      method: 'POST',
      path: `/datasets/${seg(id, 'datasetId')}/index`,
      json: { tag: o.tag ?? 'latest' },
      action: 'index dataset',
      responseType: 'none',
      idempotent: true,
      signal: o.signal,
    });
  }

  /** POST /datasets/{id}/search: the examples most similar to inputs. */
  async similarExamples(o: DatasetRef & { inputs: Record<string, unknown>; limit: number; filter?: string }): Promise<Example[]> {
    const id = await this.resolveId(o);
    const res = await this.ctx.http.request({
      method: 'POST',
      path: `/datasets/${seg(id, 'datasetId')}/search`,
      json: compact({ inputs: o.inputs, limit: o.limit, filter: o.filter }),
      action: 'search similar examples',
      schema: z.looseObject({ examples: z.array(ExampleSchema.or(z.looseObject({ id: z.string() }))) }),
      idempotent: true,
      signal: o.signal,
    });
    return res.examples as Example[];
  }

  /** GET /datasets/{id}/openai_ft: one object per JSON line. */
  async readOpenAiFineTuning(o: DatasetRef): Promise<unknown[]> {
    const id = await this.resolveId(o);
    const text = await this.ctx.http.request<string>({
      path: `/datasets/${seg(id, 'datasetId')}/openai_ft`,
      action: 'read dataset for OpenAI fine-tuning',
      responseType: 'text',
      signal: o.signal,
    });
    return text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .map((l) => JSON.parse(l) as unknown);
  }

  async listSplits(o: DatasetRef & { asOf?: DateLike }): Promise<string[]> {
    const id = await this.resolveId(o);
    return this.ctx.http.request({
      path: `/datasets/${seg(id, 'datasetId')}/splits`,
      query: { as_of: iso(o.asOf) },
      action: 'list dataset splits',
      schema: z.array(z.string()),
      signal: o.signal,
    });
  }

  /** PUT /datasets/{id}/splits: add examples to a split, or remove them with remove: true. */
  async updateSplits(o: DatasetRef & { splitName: string; exampleIds: string[]; remove?: boolean }): Promise<void> {
    for (const e of o.exampleIds) assertUuid(e, 'exampleId');
    const id = await this.resolveId(o);
    await this.ctx.http.request({
      method: 'PUT',
      path: `/datasets/${seg(id, 'datasetId')}/splits`,
      json: DatasetSplitUpdateSchema.parse({ split_name: o.splitName, examples: o.exampleIds, remove: o.remove ?? false }),
      action: 'update dataset splits',
      responseType: 'none',
      signal: o.signal,
    });
  }
}
