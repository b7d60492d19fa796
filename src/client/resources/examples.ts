import { ClientContext, multipartExamplesSupported } from '../context';
import { LangSmithConflictError, LangSmithError } from '../errors';
import { assertUuid, uuid4 } from '../ids';
import { MSG } from '../messages';
import { bytesPart, encodeMultipart, jsonPart, type MultipartPart } from '../multipart';
import { offsetPaged } from '../paging';
import { ExampleSchema, ExamplesCreatedSchema, checkExamplePage, type AttachmentInfo, type Example } from '../schemas';
import * as z from 'zod';
import { compact, datasetTarget, iso, seg, type DateLike } from './common';
import type { DatasetsResource } from './datasets';

export type AttachmentData = { mimeType: string; data: Uint8Array | ArrayBuffer | string } | [string, Uint8Array | ArrayBuffer | string];

export interface ExampleCreate {
  /** Client-generated when absent. */
  id?: string;
  /** May be left out when useSourceRunIo takes the inputs from the source run. */
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown> | null;
  metadata?: Record<string, unknown>;
  split?: string | string[];
  createdAt?: DateLike;
  sourceRunId?: string;
  useSourceRunIo?: boolean;
  useSourceRunAttachments?: string[];
  attachments?: Record<string, AttachmentData>;
}

export interface ExampleUpdate {
  id: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  split?: string | string[];
  attachments?: Record<string, AttachmentData>;
  /** Keep only these attachments (`retain`) and rename others (`rename: {old: new}`). */
  attachmentsOperations?: { rename?: Record<string, string>; retain?: string[] };
}

export interface ExamplesCreated {
  count: number;
  example_ids: string[];
  as_of?: string | null;
}

export interface ExampleListOptions {
  datasetId?: string;
  datasetName?: string;
  asOf?: DateLike;
  /** Default true: attachment links come presigned. */
  inlineS3Urls?: boolean;
  ids?: string[];
  splits?: string[];
  metadata?: Record<string, unknown>;
  filter?: string;
  select?: string[];
  /** Total to yield. */
  limit?: number;
  offset?: number;
  /** Pages of at most 100 (the API's maximum). */
  pageSize?: number;
  /** Pages requested ahead of the one being read (default 2): faster, still bounded memory. */
  prefetch?: number;
  signal?: AbortSignal;
}

/** Upload limits per request for example creation. */
export const EXAMPLES_BATCH_MAX_COUNT = 1000;
export const EXAMPLES_BATCH_MAX_BYTES = 16 * 1024 * 1024;

/** Every field of an example (LangSmith's `ExampleSelect`): a listing asks for all of them, attachments included. */
export const EXAMPLE_LIST_SELECT = [
  'id', 'dataset_id', 'name', 'inputs', 'outputs', 'metadata', 'source_run_id', 'created_at', 'modified_at', 'attachment_urls',
] as const;

const enc = new TextEncoder();
function toBytes(data: Uint8Array | ArrayBuffer | string): Uint8Array {
  if (typeof data === 'string') return enc.encode(data);
  return data instanceof Uint8Array ? data : new Uint8Array(data);
}

function attachmentParts(id: string, attachments: Record<string, AttachmentData> | undefined): MultipartPart[] {
  const parts: MultipartPart[] = [];
  for (const [name, att] of Object.entries(attachments ?? {})) {
    const [mimeType, data] = Array.isArray(att) ? att : [att.mimeType, att.data];
    parts.push(bytesPart(`${id}.attachment.${name}`, mimeType, toBytes(data)));
  }
  return parts;
}

function checkExample(ex: ExampleCreate): void {
  if (ex.id !== undefined) assertUuid(ex.id, 'exampleId');
  if (ex.sourceRunId !== undefined) assertUuid(ex.sourceRunId, 'sourceRunId');
}

export class ExamplesResource {
  constructor(
    private readonly ctx: ClientContext,
    private readonly datasets: DatasetsResource,
  ) {}

  private async requireMultipart(action: string, signal?: AbortSignal): Promise<void> {
    const info = await this.ctx.info(signal);
    if (!multipartExamplesSupported(info)) throw new LangSmithError(MSG.multipartUnsupported, { action });
  }

  /**
   * Creates examples through the multipart endpoint, in as few requests as the batch limits allow.
   * Ids are generated here, so nothing is read back: the answer lists the ids.
   */
  async create(o: {
    datasetId?: string;
    datasetName?: string;
    /** An array, or any iterable (a generator keeps only the batches in flight in memory). */
    examples: Iterable<ExampleCreate>;
    signal?: AbortSignal;
    /** Requests in flight at once (default 2). */
    concurrency?: number;
  }): Promise<ExamplesCreated> {
    datasetTarget(o);
    if (Array.isArray(o.examples)) for (const ex of o.examples as ExampleCreate[]) checkExample(ex);
    await this.requireMultipart('create examples', o.signal);
    const datasetId = await this.datasets.resolveId(o);
    const now = new Date().toISOString();
    const ids: string[] = [];
    const source = o.examples[Symbol.iterator]();
    let pending: MultipartPart[] | undefined;
    let pendingId: string | undefined;
    let pendingChosen = false;

    // Batches are encoded when a request slot is free, so at most `concurrency` bodies exist at once.
    const nextBatch = (): { body: Uint8Array; contentType: string; ids: string[]; callerIds: boolean } | undefined => {
      const parts: MultipartPart[] = [];
      const batchIds: string[] = [];
      let callerIds = false;
      let bytes = 0;
      for (;;) {
        let exParts = pending;
        let id = pendingId;
        let chosen = pendingChosen;
        pending = undefined;
        pendingId = undefined;
        pendingChosen = false;
        if (!exParts) {
          const step = source.next();
          if (step.done) break;
          const ex = step.value;
          checkExample(ex);
          chosen = ex.id !== undefined;
          id = ex.id ?? uuid4();
          ids.push(id);
          exParts = [
            jsonPart(
              id,
              compact({
                created_at: iso(ex.createdAt) ?? now,
                metadata: ex.metadata,
                split: ex.split,
                source_run_id: ex.sourceRunId,
                use_source_run_io: ex.useSourceRunIo,
                use_source_run_attachments: ex.useSourceRunAttachments,
              }),
            ),
          ];
          if (ex.inputs) exParts.push(jsonPart(`${id}.inputs`, ex.inputs));
          if (ex.outputs) exParts.push(jsonPart(`${id}.outputs`, ex.outputs));
          exParts.push(...attachmentParts(id, ex.attachments));
        }
        const size = exParts.reduce((n, p) => n + (typeof p.data === 'string' ? p.data.length : p.data.byteLength) + 200, 0);
        if (batchIds.length > 0 && (batchIds.length >= EXAMPLES_BATCH_MAX_COUNT || bytes + size > EXAMPLES_BATCH_MAX_BYTES)) {
          pending = exParts;
          pendingId = id;
          pendingChosen = chosen;
          break;
        }
        parts.push(...exParts);
        batchIds.push(id!);
        callerIds ||= chosen;
        bytes += size;
      }
      if (batchIds.length === 0) return undefined;
      return { ...encodeMultipart(parts), ids: batchIds, callerIds };
    };

    let asOf: string | null | undefined;
    let created = 0;
    const concurrency = Math.max(1, o.concurrency ?? 2);
    const worker = async () => {
      for (let batch = nextBatch(); batch; batch = nextBatch()) {
        const { body, contentType } = batch;
        let res: z.infer<typeof ExamplesCreatedSchema>;
        let repeated = false;
        try {
          res = await this.ctx.http.request({
            method: 'POST',
            path: this.ctx.http.platformPath(`datasets/${seg(datasetId, 'datasetId')}/examples`),
            body,
            contentType,
            action: 'create examples',
            schema: ExamplesCreatedSchema,
            idempotent: true,
            onRetry: () => {
              repeated = true;
            },
            signal: o.signal,
          });
        } catch (e) {
          // A batch whose earlier attempt landed although its answer was lost: all its ids exist now. Ids
          // generated here cannot have existed before; a caller's ids might have, so with those the 409
          // only counts as our own when the batch was sent again.
          if (!(e instanceof LangSmithConflictError) || (batch.callerIds && !repeated)) throw e;
          if (!(await this.allExist(datasetId, batch.ids, o.signal))) throw e;
          res = { count: batch.ids.length, example_ids: batch.ids };
        }
        // A 2xx answer that does not say how many (its fields are optional): the whole batch was taken.
        created += res.count ?? res.example_ids?.length ?? batch.ids.length;
        if (res.as_of && (!asOf || res.as_of > asOf)) asOf = res.as_of;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return { count: created, example_ids: ids, as_of: asOf };
  }

  /** Whether every one of `ids` is an example of the dataset now (asked 100 at a time). */
  private async allExist(datasetId: string, ids: string[], signal?: AbortSignal): Promise<boolean> {
    const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
    for (let i = 0; i < wanted.length; i += 100) {
      const probe = wanted.slice(i, i + 100);
      const found = await this.ctx.http.request({
        path: '/examples',
        query: { dataset: datasetId, id: probe, limit: probe.length, select: ['id'] },
        action: 'check created examples',
        schema: z.array(z.looseObject({ id: z.string() })),
        signal,
      });
      const seen = new Set(found.map((e) => e.id.toLowerCase()));
      if (!probe.every((id) => seen.has(id))) return false;
    }
    return true;
  }

  /** One example; answers it as read back from the server. */
  async createOne(o: ExampleCreate & { datasetId?: string; datasetName?: string; signal?: AbortSignal }): Promise<Example> {
    const { datasetId, datasetName, signal, ...example } = o;
    const res = await this.create({ datasetId, datasetName, examples: [example], signal });
    return this.read(res.example_ids[0]!, { signal });
  }

  /** PATCH multipart: inputs, outputs, metadata, split, new attachments, attachment operations. */
  async update(o: { datasetId: string; updates: ExampleUpdate[]; signal?: AbortSignal }): Promise<ExamplesCreated> {
    assertUuid(o.datasetId, 'datasetId');
    for (const u of o.updates) assertUuid(u.id, 'exampleId');
    await this.requireMultipart('update examples', o.signal);
    const parts: MultipartPart[] = [];
    for (const u of o.updates) {
      parts.push(jsonPart(u.id, compact({ metadata: u.metadata, split: u.split })));
      if (u.inputs) parts.push(jsonPart(`${u.id}.inputs`, u.inputs));
      if (u.outputs) parts.push(jsonPart(`${u.id}.outputs`, u.outputs));
      parts.push(...attachmentParts(u.id, u.attachments));
      if (u.attachmentsOperations) parts.push(jsonPart(`${u.id}.attachments_operations`, u.attachmentsOperations));
    }
    const { body, contentType } = encodeMultipart(parts);
    const res = await this.ctx.http.request({
      method: 'PATCH',
      path: this.ctx.http.platformPath(`datasets/${seg(o.datasetId, 'datasetId')}/examples`),
      body,
      contentType,
      action: 'update examples',
      schema: ExamplesCreatedSchema,
      idempotent: true,
      signal: o.signal,
    });
    return { count: res.count ?? o.updates.length, example_ids: res.example_ids ?? o.updates.map((u) => u.id), as_of: res.as_of };
  }

  async read(exampleId: string, o: { asOf?: DateLike; signal?: AbortSignal } = {}): Promise<Example> {
    return this.ctx.http.request({
      path: `/examples/${seg(exampleId, 'exampleId')}`,
      query: { as_of: iso(o.asOf) },
      action: 'read example',
      schema: ExampleSchema,
      signal: o.signal,
    });
  }

  /**
   * An attachment's bytes, from its presigned link (as a read of the example gives it): through the client's
   * connection (proxy, CA file), without the API key. Attachments may be large: the timeout defaults to 5 minutes.
   */
  downloadAttachment(attachment: Pick<AttachmentInfo, 'presigned_url'>, o: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<Uint8Array> {
    return this.ctx.http.download(attachment.presigned_url, { action: 'download attachment', signal: o.signal, timeoutMs: o.timeoutMs ?? 300_000 });
  }

  async delete(exampleId: string, o: { signal?: AbortSignal } = {}): Promise<void> {
    await this.ctx.http.request({
      method: 'DELETE',
      path: `/examples/${seg(exampleId, 'exampleId')}`,
      action: 'delete example',
      responseType: 'none',
      signal: o.signal,
    });
  }

  /** Lazily pages GET /examples; a dataset (by id or name) is required. */
  list(o: ExampleListOptions): AsyncGenerator<Example, void, undefined> {
    datasetTarget(o);
    for (const id of o.ids ?? []) assertUuid(id, 'exampleId');
    // One generator, not a wrapper around another: every example passes through each generator layer.
    let datasetId: Promise<string> | undefined;
    return offsetPaged(
        async (offset, limit) =>
          this.ctx.http.request({
            path: '/examples',
            query: {
              dataset: await (datasetId ??= this.datasets.resolveId(o)),
              as_of: iso(o.asOf),
              inline_s3_urls: o.inlineS3Urls ?? true,
              id: o.ids,
              splits: o.splits,
              metadata: o.metadata,
              filter: o.filter,
              // LangSmith leaves attachments out of a listing unless they are selected.
              select: o.select ?? EXAMPLE_LIST_SELECT,
              offset,
              limit,
            },
            action: 'list examples',
            check: checkExamplePage,
            signal: o.signal,
          }),
        { pageSize: Math.min(o.pageSize ?? 100, 100), offset: o.offset, limit: o.limit, prefetch: o.prefetch ?? 2 },
      );
  }
}
