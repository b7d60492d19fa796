import { ClientContext } from './context';
import { LangSmithError } from './errors';
import { assertUuid, uuid7 } from './ids';
import { encodeMultipart, type MultipartPart } from './multipart';

export type RunType = 'llm' | 'chain' | 'tool' | 'retriever' | 'prompt' | 'parser' | 'embedding' | (string & {});

export interface TracerOptions {
  /** Runs stay pending until flush() is called. Default false (sent shortly after they are queued). */
  manualFlush?: boolean;
  /** Project (session) name for runs that name none. Default 'default'. */
  projectName?: string;
  /** Automatic mode: wait at most this long before sending. Default 250 ms. */
  flushIntervalMs?: number;
  /** Runs per request; default the server's batch_ingest_config.size_limit, else 100. */
  batchSizeLimit?: number;
  /** Bytes per request; default the server's size_limit_bytes, else 20 MB. */
  batchSizeBytesLimit?: number;
  /** Automatic mode: failed sends are reported here (the runs stay queued for the next send). */
  onError?: (error: unknown) => void;
}

export interface RunInit {
  name: string;
  runType?: RunType;
  id?: string;
  inputs?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  tags?: string[];
  startTime?: Date | number;
  projectName?: string;
  referenceExampleId?: string;
  serialized?: Record<string, unknown>;
}

export interface RunEnd {
  outputs?: Record<string, unknown>;
  error?: string;
  endTime?: Date | number;
}

/** A run on the wire (POST /runs, /runs/batch, /runs/multipart). */
export interface RunWire {
  id: string;
  name?: string;
  run_type?: string;
  start_time?: string;
  end_time?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  error?: string;
  extra?: Record<string, unknown>;
  events?: unknown[];
  tags?: string[];
  serialized?: Record<string, unknown>;
  parent_run_id?: string;
  trace_id: string;
  dotted_order: string;
  session_name?: string;
  reference_example_id?: string;
}

let lastMicros = 0;
/** Microseconds since the epoch, strictly increasing within the process (dotted orders never tie). */
function nowMicros(ms: number): number {
  const us = ms * 1000;
  lastMicros = us > lastMicros ? us : lastMicros + 1;
  return lastMicros;
}

/** `YYYYMMDDTHHMMSSffffffZ` for a time in microseconds. */
export function dottedStamp(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return (
    `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}T` +
    `${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}${p(micros % 1_000_000, 6)}Z`
  );
}

function toMs(t: Date | number | undefined): number {
  if (t === undefined) return Date.now();
  return typeof t === 'number' ? t : t.getTime();
}

/** One run of a trace: ids, dotted order and trace id are set at creation. */
export class RunTree {
  readonly id: string;
  readonly traceId: string;
  readonly dottedOrder: string;
  readonly parentRunId?: string;
  readonly name: string;
  readonly runType: RunType;
  readonly projectName: string;
  readonly startTime: number;
  inputs: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  error?: string;
  endTime?: number;
  extra: Record<string, unknown>;
  tags: string[];
  events: unknown[] = [];
  readonly children: RunTree[] = [];
  private readonly referenceExampleId?: string;
  private readonly serialized?: Record<string, unknown>;

  constructor(
    private readonly tracer: Tracer,
    init: RunInit,
    parent?: RunTree,
  ) {
    const startMs = toMs(init.startTime);
    const micros = nowMicros(startMs);
    this.id = init.id ?? uuid7(startMs);
    assertUuid(this.id, 'runId');
    this.name = init.name;
    this.runType = init.runType ?? 'chain';
    this.startTime = startMs;
    this.inputs = init.inputs ?? {};
    this.extra = { ...(init.extra ?? {}) };
    if (init.metadata) this.extra['metadata'] = { ...((this.extra['metadata'] as object) ?? {}), ...init.metadata };
    this.tags = init.tags ?? [];
    if (init.referenceExampleId !== undefined) assertUuid(init.referenceExampleId, 'referenceExampleId');
    this.referenceExampleId = init.referenceExampleId;
    this.serialized = init.serialized;
    const stamp = `${dottedStamp(micros)}${this.id}`;
    if (parent) {
      this.parentRunId = parent.id;
      this.traceId = parent.traceId;
      this.dottedOrder = `${parent.dottedOrder}.${stamp}`;
      this.projectName = init.projectName ?? parent.projectName;
    } else {
      this.traceId = this.id;
      this.dottedOrder = stamp;
      this.projectName = init.projectName ?? tracer.projectName;
    }
  }

  createChild(init: RunInit): RunTree {
    const child = new RunTree(this.tracer, init, this);
    this.children.push(child);
    return child;
  }

  end(o: RunEnd = {}): this {
    this.endTime = toMs(o.endTime);
    if (o.outputs !== undefined) this.outputs = o.outputs;
    if (o.error !== undefined) this.error = o.error;
    return this;
  }

  /** Queues the creation of this run (with its end, if it has ended). */
  post(): this {
    this.tracer.enqueue('post', this.toWire());
    return this;
  }

  /**
   * Queues the update of this run: end time, outputs, error, events, extra, tags, and its inputs (as the
   * official client does; a streamed step learns its whole input only as it ends).
   */
  patch(): this {
    const w: RunWire = {
      id: this.id,
      trace_id: this.traceId,
      dotted_order: this.dottedOrder,
      ...(this.parentRunId ? { parent_run_id: this.parentRunId } : {}),
      end_time: new Date(this.endTime ?? Date.now()).toISOString(),
      inputs: this.inputs,
      ...(this.outputs !== undefined ? { outputs: this.outputs } : {}),
      ...(this.error !== undefined ? { error: this.error } : {}),
      ...(this.events.length ? { events: this.events } : {}),
      extra: this.extra,
      ...(this.tags.length ? { tags: this.tags } : {}),
      session_name: this.projectName,
    };
    this.tracer.enqueue('patch', w);
    return this;
  }

  toWire(): RunWire {
    return {
      id: this.id,
      name: this.name,
      run_type: this.runType,
      start_time: new Date(this.startTime).toISOString(),
      ...(this.endTime !== undefined ? { end_time: new Date(this.endTime).toISOString() } : {}),
      inputs: this.inputs,
      ...(this.outputs !== undefined ? { outputs: this.outputs } : {}),
      ...(this.error !== undefined ? { error: this.error } : {}),
      extra: this.extra,
      ...(this.events.length ? { events: this.events } : {}),
      ...(this.tags.length ? { tags: this.tags } : {}),
      ...(this.serialized ? { serialized: this.serialized } : {}),
      ...(this.parentRunId ? { parent_run_id: this.parentRunId } : {}),
      trace_id: this.traceId,
      dotted_order: this.dottedOrder,
      session_name: this.projectName,
      ...(this.referenceExampleId ? { reference_example_id: this.referenceExampleId } : {}),
    };
  }
}

interface Pending {
  post?: RunWire;
  patch?: RunWire;
}

const SPLIT_FIELDS = ['inputs', 'outputs', 'events', 'extra'] as const;
const enc = new TextEncoder();

/** Parts of one operation for POST /runs/multipart: `post.<id>` plus `post.<id>.inputs` and so on. */
function runParts(kind: 'post' | 'patch', run: RunWire): { parts: MultipartPart[]; bytes: number } {
  const main: Record<string, unknown> = { ...run };
  const parts: MultipartPart[] = [];
  let bytes = 0;
  const add = (name: string, value: unknown) => {
    const data = enc.encode(JSON.stringify(value));
    parts.push({ name, contentType: `application/json; length=${data.byteLength}`, data });
    bytes += data.byteLength + 160;
  };
  const split: [string, unknown][] = [];
  for (const f of SPLIT_FIELDS) {
    if (main[f] !== undefined) {
      split.push([f, main[f]]);
      delete main[f];
    }
  }
  add(`${kind}.${run.id}`, main);
  for (const [f, v] of split) add(`${kind}.${run.id}.${f}`, v);
  return { parts, bytes };
}

/**
 * The run queue. Creations and updates of the same run are merged while pending; sending happens on
 * flush() (manual mode) or shortly after queuing (automatic mode). A failed send puts the runs back,
 * ahead of newer ones, for the next flush.
 */
export class Tracer {
  readonly projectName: string;
  readonly manualFlush: boolean;
  private queue = new Map<string, Pending>();
  private timer?: ReturnType<typeof setTimeout>;
  private flushing: Promise<void> = Promise.resolve();
  private mode?: 'multipart' | 'batch';
  /** Requests sent by flushes (for measurements). */
  requests = 0;

  constructor(
    private readonly ctx: ClientContext,
    private readonly opts: TracerOptions = {},
  ) {
    this.projectName = opts.projectName ?? 'default';
    this.manualFlush = opts.manualFlush ?? false;
  }

  /** A new root run (trace). */
  startRun(init: RunInit): RunTree {
    return new RunTree(this, init);
  }

  /** Runs (creations or updates) waiting to be sent. */
  get pendingCount(): number {
    return this.queue.size;
  }

  enqueue(kind: 'post' | 'patch', run: RunWire): void {
    const entry = this.queue.get(run.id) ?? {};
    if (kind === 'post') entry.post = entry.post ? { ...entry.post, ...run } : run;
    else if (entry.post) entry.post = { ...entry.post, ...run };
    else entry.patch = entry.patch ? { ...entry.patch, ...run } : run;
    this.queue.set(run.id, entry);
    if (this.manualFlush) return;
    // Automatic mode: a full batch goes at once rather than waiting for the timer.
    if (this.queue.size >= (this.opts.batchSizeLimit ?? 100)) {
      this.flush().catch((e: unknown) => this.opts.onError?.(e));
    } else this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((e: unknown) => this.opts.onError?.(e));
    }, this.opts.flushIntervalMs ?? 250);
    this.timer.unref?.();
  }

  /** Sends every pending run. Concurrent calls run one after another. */
  flush(o: { signal?: AbortSignal } = {}): Promise<void> {
    const run = this.flushing.then(() => this.flushNow(o.signal));
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async limits(signal?: AbortSignal): Promise<{ count: number; bytes: number }> {
    let info;
    try {
      info = await this.ctx.info(signal);
    } catch {
      info = undefined;
    }
    if (!this.mode) this.mode = info?.batch_ingest_config?.use_multipart_endpoint === false ? 'batch' : 'multipart';
    return {
      count: Math.max(1, this.opts.batchSizeLimit ?? info?.batch_ingest_config?.size_limit ?? 100),
      bytes: Math.max(1024, this.opts.batchSizeBytesLimit ?? info?.batch_ingest_config?.size_limit_bytes ?? 20 * 1024 * 1024),
    };
  }

  private async flushNow(signal?: AbortSignal): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.queue.size === 0) return;
    const taken = this.queue;
    this.queue = new Map();
    let limits;
    try {
      limits = await this.limits(signal);
    } catch (e) {
      this.restore([...taken.entries()]);
      throw e;
    }
    const entries = [...taken.entries()];
    let i = 0;
    try {
      while (i < entries.length) {
        const start = i;
        let bytes = 0;
        const ops: { kind: 'post' | 'patch'; run: RunWire }[] = [];
        while (i < entries.length && ops.length < limits.count) {
          const [, p] = entries[i]!;
          const add: { kind: 'post' | 'patch'; run: RunWire }[] = [];
          if (p.post) add.push({ kind: 'post', run: p.post });
          if (p.patch) add.push({ kind: 'patch', run: p.patch });
          const size = add.reduce((n, a) => n + JSON.stringify(a.run).length, 0);
          if (ops.length > 0 && bytes + size > limits.bytes) break;
          ops.push(...add);
          bytes += size;
          i++;
        }
        try {
          await this.send(ops, signal);
        } catch (e) {
          i = start;
          throw e;
        }
      }
    } catch (e) {
      this.restore(entries.slice(i));
      throw e;
    }
  }

  /** Puts unsent entries back ahead of anything queued meanwhile, merging updates of the same run. */
  private restore(entries: [string, Pending][]): void {
    const merged = new Map<string, Pending>(entries);
    for (const [id, newer] of this.queue) {
      const older = merged.get(id);
      if (!older) {
        merged.set(id, newer);
        continue;
      }
      if (older.post) {
        // Oldest first, so the newest value of every field wins.
        older.post = { ...older.post, ...(older.patch ?? {}), ...(newer.post ?? {}), ...(newer.patch ?? {}) };
        delete older.patch;
      } else {
        older.post = newer.post;
        older.patch = older.patch || newer.patch ? { ...(older.patch ?? {}), ...(newer.patch ?? {}) } as RunWire : undefined;
      }
    }
    this.queue = merged;
  }

  private async send(ops: { kind: 'post' | 'patch'; run: RunWire }[], signal?: AbortSignal): Promise<void> {
    if (this.mode === 'multipart') {
      const parts: MultipartPart[] = [];
      for (const op of ops) parts.push(...runParts(op.kind, op.run).parts);
      const { body, contentType } = encodeMultipart(parts);
      try {
        this.requests++;
        await this.ctx.http.request({
          method: 'POST',
          path: '/runs/multipart',
          body,
          contentType,
          action: 'ingest runs',
          responseType: 'none',
          idempotent: true,
          signal,
        });
        return;
      } catch (e) {
        if (!(e instanceof LangSmithError) || ![404, 405, 415].includes(e.status ?? 0)) throw e;
        this.mode = 'batch';
      }
    }
    this.requests++;
    await this.ctx.http.request({
      method: 'POST',
      path: '/runs/batch',
      json: {
        post: ops.filter((o) => o.kind === 'post').map((o) => o.run),
        patch: ops.filter((o) => o.kind === 'patch').map((o) => o.run),
      },
      action: 'ingest runs',
      responseType: 'none',
      idempotent: true,
      signal,
    });
  }
}
