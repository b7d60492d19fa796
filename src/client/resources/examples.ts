import { ClientContext, multipartExamplesSupported } from '../context';
import { LangSmithConflictError, LangSmithError, LangSmithPartialWriteError, LangSmithValidationError } from '../errors';
import { RETRYABLE_STATUSES } from '../http';
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

/** An example read from the caller's examples, with its id. `ours`: the id cannot have existed before this write. */
interface PendingExample {
  ex: ExampleCreate;
  id: string;
  ours: boolean;
}

/** One call of examples.create: where to, what is left to read, and how. */
interface ExamplesWrite {
  datasetId: string;
  items: Iterator<PendingExample>;
  now: string;
  total?: number;
  concurrency: number;
  batchSize: number;
  signal?: AbortSignal;
}

/** What a call of examples.create has done so far (kept across its retries). */
interface ExamplesAccount {
  /** Every id assigned, in the caller's order. */
  ids: string[];
  landed: Set<string>;
  done: number;
  asOf: string | null | undefined;
}

function examplePartsOf({ ex, id }: PendingExample, now: string): MultipartPart[] {
  const parts = [
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
  if (ex.inputs) parts.push(jsonPart(`${id}.inputs`, ex.inputs));
  if (ex.outputs) parts.push(jsonPart(`${id}.outputs`, ex.outputs));
  parts.push(...attachmentParts(id, ex.attachments));
  return parts;
}

function concatIterators<T>(first: Iterator<T>, then: Iterator<T>): Iterator<T> {
  let firstDone = false;
  return {
    next: () => {
      if (!firstDone) {
        const step = first.next();
        if (!step.done) return step;
        firstDone = true;
      }
      return then.next();
    },
  };
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
   * Ids are generated here, so nothing is read back: the answer lists the ids. Each batch is retried for as
   * long as the client's timeout allows; a write that still stops part-way throws a
   * LangSmithPartialWriteError (what landed, what did not, and retry() to finish it without duplicates).
   */
  async create(o: {
    datasetId?: string;
    datasetName?: string;
    /** An array, or any iterable (a generator keeps only the batches in flight in memory). */
    examples: Iterable<ExampleCreate>;
    signal?: AbortSignal;
    /** Requests in flight at once (default 2). */
    concurrency?: number;
    /** Examples per request, at most (and by default) 1,000; a request also stays under 16 MiB. */
    batchSize?: number;
  }): Promise<ExamplesCreated> {
    datasetTarget(o);
    if (o.batchSize !== undefined && !(Number.isInteger(o.batchSize) && o.batchSize >= 1 && o.batchSize <= EXAMPLES_BATCH_MAX_COUNT)) {
      throw new LangSmithValidationError(`batchSize must be a whole number from 1 to ${EXAMPLES_BATCH_MAX_COUNT}`);
    }
    if (Array.isArray(o.examples)) for (const ex of o.examples as ExampleCreate[]) checkExample(ex);
    await this.requireMultipart('create examples', o.signal);
    const datasetId = await this.datasets.resolveId(o);
    const ids: string[] = [];
    const source = o.examples[Symbol.iterator]();
    // Each example gets its id when it is read: the caller's, or one made here (never existing before).
    const items: Iterator<PendingExample> = {
      next: () => {
        const step = source.next();
        if (step.done) return { done: true, value: undefined };
        checkExample(step.value);
        const id = step.value.id ?? uuid4();
        ids.push(id);
        return { done: false, value: { ex: step.value, id, ours: step.value.id === undefined } };
      },
    };
    return this.sendExamples(
      {
        datasetId,
        items,
        now: new Date().toISOString(),
        total: Array.isArray(o.examples) ? o.examples.length : undefined,
        concurrency: Math.max(1, o.concurrency ?? 2),
        batchSize: o.batchSize ?? EXAMPLES_BATCH_MAX_COUNT,
        signal: o.signal,
      },
      { ids, landed: new Set(), done: 0, asOf: undefined },
    );
  }

  /**
   * Sends examples in batches, `concurrency` requests at a time, each batch retried for as long as the
   * client's timeout allows. When a batch still fails, no further batch is started; the write then fails
   * with a LangSmithPartialWriteError saying what landed, whose retry() picks up from there.
   */
  private async sendExamples(w: ExamplesWrite, acc: ExamplesAccount): Promise<ExamplesCreated> {
    let pending: { item: PendingExample; parts: MultipartPart[]; size: number } | undefined;
    let stopped = false;
    let failure: unknown;
    const unsent: PendingExample[] = [];

    // Batches are encoded when a request slot is free, so at most `concurrency` bodies exist at once.
    const nextBatch = (): { body: Uint8Array; contentType: string; items: PendingExample[] } | undefined => {
      if (stopped) return undefined;
      const parts: MultipartPart[] = [];
      const batch: PendingExample[] = [];
      let bytes = 0;
      for (;;) {
        let next = pending;
        pending = undefined;
        if (!next) {
          const step = w.items.next();
          if (step.done) break;
          const exParts = examplePartsOf(step.value, w.now);
          const size = exParts.reduce((n, p) => n + (typeof p.data === 'string' ? p.data.length : p.data.byteLength) + 200, 0);
          next = { item: step.value, parts: exParts, size };
        }
        if (batch.length > 0 && (batch.length >= w.batchSize || bytes + next.size > EXAMPLES_BATCH_MAX_BYTES)) {
          pending = next;
          break;
        }
        parts.push(...next.parts);
        batch.push(next.item);
        bytes += next.size;
      }
      if (batch.length === 0) return undefined;
      return { ...encodeMultipart(parts), items: batch };
    };

    const worker = async () => {
      for (;;) {
        let batch: ReturnType<typeof nextBatch>;
        try {
          batch = nextBatch();
        } catch (e) {
          // An invalid example from a generator: nothing more is sent.
          if (!stopped) failure = e;
          stopped = true;
          return;
        }
        if (!batch) return;
        try {
          const res = await this.sendBatch(w, batch);
          for (const it of batch.items) acc.landed.add(it.id);
          // A 2xx answer that does not say how many (its fields are optional): the whole batch was taken.
          acc.done += res.count ?? res.example_ids?.length ?? batch.items.length;
          if (res.as_of && (!acc.asOf || res.as_of > acc.asOf)) acc.asOf = res.as_of;
        } catch (e) {
          unsent.push(...batch.items);
          if (!stopped) failure = e;
          stopped = true;
        }
      }
    };
    await Promise.all(Array.from({ length: w.concurrency }, worker));
    if (!stopped) return { count: acc.done, example_ids: acc.ids, as_of: acc.asOf };

    if (pending) unsent.push(pending.item);
    if (w.signal?.aborted) throw w.signal.reason;
    // An invalid example (from a generator: earlier batches may be stored) is the caller's to fix first.
    if (failure instanceof LangSmithValidationError) throw failure;
    // A refusal before anything landed (a bad example, an unknown dataset) is the plain error it was.
    const transient = !(failure instanceof LangSmithError) || failure.status === undefined || RETRYABLE_STATUSES.has(failure.status);
    if (acc.done === 0 && !transient) throw failure;
    const order = new Map(acc.ids.map((id, i) => [id, i]));
    unsent.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    throw new LangSmithPartialWriteError<ExamplesCreated>('create examples', {
      cause: failure,
      done: acc.done,
      total: w.total,
      landedIds: acc.ids.filter((id) => acc.landed.has(id)),
      pendingIds: unsent.map((it) => it.id),
      retry: async (r = {}) => {
        const signal = r.signal ?? w.signal;
        // An attempt whose answer was lost may have landed: those are done, the others are sent again.
        const found = await this.existingIds(w.datasetId, unsent.map((it) => it.id), signal);
        const again: PendingExample[] = [];
        for (const it of unsent) {
          if (found.has(it.id.toLowerCase())) {
            acc.landed.add(it.id);
            acc.done++;
          } else {
            // Checked absent just now: a 409 on its repeat can only be an attempt of ours landing.
            again.push({ ...it, ours: true });
          }
        }
        return this.sendExamples({ ...w, items: concatIterators(again[Symbol.iterator](), w.items), signal }, acc);
      },
    });
  }

  /** One batch, repeated within the client's timeout; a 409 that is its own earlier attempt landing counts as done. */
  private async sendBatch(w: ExamplesWrite, batch: { body: Uint8Array; contentType: string; items: PendingExample[] }) {
    let repeated = false;
    try {
      return await this.ctx.http.request({
        method: 'POST',
        path: this.ctx.http.platformPath(`datasets/${seg(w.datasetId, 'datasetId')}/examples`),
        body: batch.body,
        contentType: batch.contentType,
        action: 'create examples',
        schema: ExamplesCreatedSchema,
        idempotent: true,
        retryBudgetMs: this.ctx.http.timeoutMs,
        onRetry: () => {
          repeated = true;
        },
        signal: w.signal,
      });
    } catch (e) {
      // A batch whose earlier attempt landed although its answer was lost: all its ids exist now. Ids
      // generated here cannot have existed before; a caller's ids might have, so with those the 409
      // only counts as our own when the batch was sent again.
      const callerIds = batch.items.some((it) => !it.ours);
      if (!(e instanceof LangSmithConflictError) || (callerIds && !repeated)) throw e;
      const ids = batch.items.map((it) => it.id);
      if ((await this.existingIds(w.datasetId, ids, w.signal)).size < new Set(ids.map((id) => id.toLowerCase())).size) throw e;
      return { count: ids.length, example_ids: ids };
    }
  }

  /** Which of `ids` are examples of the dataset now (lower-cased; asked 100 at a time). */
  private async existingIds(datasetId: string, ids: string[], signal?: AbortSignal): Promise<Set<string>> {
    const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
    const seen = new Set<string>();
    for (let i = 0; i < wanted.length; i += 100) {
      const probe = wanted.slice(i, i + 100);
      const found = await this.ctx.http.request({
        path: '/examples',
        query: { dataset: datasetId, id: probe, limit: probe.length, select: ['id'] },
        action: 'check created examples',
        schema: z.array(z.looseObject({ id: z.string() })),
        signal,
      });
      for (const e of found) seen.add(e.id.toLowerCase());
    }
    return seen;
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
