/**
 * Runnables: small composable steps (prompt → chat model → parser, and sequences of them) with one way to
 * call them — `invoke` for the whole answer, `stream` for its pieces — and per-call config. Every call is
 * traced as a run tree when the config names a tracer: the outermost runnable is the root run and each
 * step it calls is a child, with inputs, outputs, timing and errors.
 */
import { LangSmithError } from '../errors';
import { MSG } from '../messages';
import type { RunTree, RunType, Tracer } from '../tracing';

/** Spec §9: how deep runnable calls may nest when the config does not say. */
export const DEFAULT_RECURSION_LIMIT = 25;

export interface RunnableConfig {
  /** Tags of the call's runs (inherited by every step). */
  tags?: string[];
  /** Metadata of the call's runs (inherited by every step). */
  metadata?: Record<string, unknown>;
  /** Name of the outermost run instead of the runnable's own. */
  runName?: string;
  /** Id of the outermost run (a UUID); generated when absent. */
  runId?: string;
  /** How deep runnable calls may nest (default 25); deeper raises RecursionLimitError. */
  recursionLimit?: number;
  /** Cancels the call, including a model request in flight. */
  signal?: AbortSignal;
  /** Values read by particular runnables: `sessionId` by the history wrapper. */
  configurable?: { sessionId?: string; [key: string]: unknown };
  /** Where the call's runs are traced; without one nothing is traced. */
  tracer?: Tracer;
  /** Project of the traced runs (default: the tracer's). */
  projectName?: string;
  /** Told when each step of the call ends (the model's answer with its usage, say), traced or not. */
  onStepEnd?: (step: StepEnd) => void;
}

export interface StepEnd {
  name: string;
  runType: RunType;
  /** The step's whole output (streamed pieces put together); undefined when it failed before any. */
  output: unknown;
  error?: unknown;
  /** The step's run, when traced. */
  runId?: string;
}

/** Raised when runnable calls nest deeper than the config's recursionLimit. */
export class RecursionLimitError extends LangSmithError {
  readonly limit: number;
  constructor(limit: number) {
    super(MSG.recursionLimit(limit));
    this.name = 'RecursionLimitError';
    this.limit = limit;
  }
}

/** What a running step knows: its config, its depth, and its run when traced. */
export interface RunContext {
  readonly config: RunnableConfig;
  readonly depth: number;
  readonly limit: number;
  readonly run?: RunTree;
  readonly signal?: AbortSignal;
}

/** Chunks of one answer put together: text appended, messages merged, anything else replaced. */
export function concatChunks<T>(a: T | undefined, b: T): T {
  if (a === undefined) return b;
  if (typeof a === 'string' && typeof b === 'string') return (a + b) as T;
  if (isMergeable(a) && isMergeable(b)) return a.concat(b) as T;
  return b;
}

interface Mergeable {
  concat(other: unknown): unknown;
}
function isMergeable(v: unknown): v is Mergeable {
  return !!v && typeof v === 'object' && typeof (v as { concat?: unknown }).concat === 'function';
}

/** The JSON of a value for a run's inputs or outputs (objects as they are, anything else under `output`/`input`). */
function asRecord(value: unknown, key: string): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const toJSON = (value as { toJSON?: () => unknown }).toJSON;
    const plain = typeof toJSON === 'function' ? toJSON.call(value) : value;
    if (plain && typeof plain === 'object' && !Array.isArray(plain)) return plain as Record<string, unknown>;
    return { [key]: plain };
  }
  return { [key]: value };
}

function errorText(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}

export abstract class Runnable<I = unknown, O = unknown> {
  /** Name of the runs of this runnable. */
  abstract readonly name: string;
  readonly runType: RunType = 'chain';

  /** The work of one call. */
  protected abstract call(input: I, ctx: RunContext): Promise<O>;

  /** The work of one streamed call: by default the whole answer as one piece. */
  protected async *streamCall(input: I, ctx: RunContext): AsyncGenerator<O> {
    yield await this.call(input, ctx);
  }

  /**
   * A streamed call fed with its input in pieces (the previous step's stream): by default the pieces are
   * put together first. Steps that can work on pieces (a parser) override this.
   */
  protected async *transformCall(inputs: AsyncIterable<I>, ctx: RunContext): AsyncGenerator<O> {
    let whole: I | undefined;
    for await (const piece of inputs) whole = concatChunks(whole, piece);
    if (whole === undefined) return;
    yield* this.streamCall(whole, ctx);
  }

  /** What this runnable's run records as inputs and outputs. */
  protected traceInputs(input: I): Record<string, unknown> {
    return asRecord(input, 'input');
  }
  protected traceOutputs(output: O): Record<string, unknown> {
    return asRecord(output, 'output');
  }
  /** Extra fields of this runnable's run (an llm run's invocation params and model metadata). */
  protected traceExtra(): { metadata?: Record<string, unknown>; extra?: Record<string, unknown> } {
    return {};
  }

  /** Runs the whole call and answers when it is done. */
  invoke(input: I, config: RunnableConfig = {}): Promise<O> {
    return this.invokeWithin(input, rootContext(config));
  }

  /** Runs the call and yields its answer in pieces as they come (a model's tokens, a parser's text). */
  stream(input: I, config: RunnableConfig = {}): AsyncGenerator<O> {
    return this.streamWithin(input, rootContext(config));
  }

  /** This runnable, then `next` on its answer. */
  pipe<N>(next: Runnable<O, N>): RunnableSequence<I, N> {
    return new RunnableSequence<I, N>([this as Runnable<unknown, unknown>, next as Runnable<unknown, unknown>]);
  }

  /** Runs this runnable as a step of the call `ctx` belongs to: its run is a child run, one level deeper. */
  async invokeWithin(input: I, ctx: RunContext): Promise<O> {
    const { run, inner } = this.enter(input, ctx);
    try {
      const out = await this.call(input, inner);
      this.leave(ctx, run, out, undefined);
      return out;
    } catch (e) {
      this.leave(ctx, run, undefined, e);
      throw e;
    }
  }

  streamWithin(input: I, ctx: RunContext): AsyncGenerator<O> {
    return this.traceStream(ctx, input, (inner) => this.streamCall(input, inner));
  }

  /**
   * Fed by the previous step's stream. The step's run starts when its first piece of input arrives (so a
   * trace's steps start in the order they work), and records the input put together.
   */
  transformWithin(inputs: AsyncIterable<I>, ctx: RunContext): AsyncGenerator<O> {
    const seen: { whole?: I } = {};
    const traceStream = this.traceStream.bind(this);
    const transformCall = this.transformCall.bind(this);
    return (async function* () {
      const source = inputs[Symbol.asyncIterator]();
      const first = await source.next();
      if (first.done) return;
      const tee = (async function* () {
        let next: IteratorResult<I> = first;
        while (!next.done) {
          seen.whole = concatChunks(seen.whole, next.value);
          yield next.value;
          next = await source.next();
        }
      })();
      yield* traceStream(ctx, undefined, (inner) => transformCall(tee, inner), seen);
    })();
  }

  private async *traceStream(ctx: RunContext, input: I | undefined, body: (inner: RunContext) => AsyncGenerator<O>, seen?: { whole?: I }): AsyncGenerator<O> {
    const { run, inner } = this.enter(input, ctx);
    let whole: O | undefined;
    let finished = false;
    let recorded = false;
    /** The input, once whole, goes on the run (sent with its update). */
    const recordInput = () => {
      if (recorded || !run || !seen || seen.whole === undefined) return;
      recorded = true;
      run.inputs = this.traceInputs(seen.whole);
    };
    try {
      for await (const piece of body(inner)) {
        whole = concatChunks(whole, piece);
        yield piece;
      }
      recordInput();
      finished = true;
      this.leave(ctx, run, whole, undefined);
    } catch (e) {
      finished = true;
      recordInput();
      this.leave(ctx, run, whole, e);
      throw e;
    } finally {
      // The reader stopped early: the run ends with what arrived.
      if (!finished) {
        recordInput();
        this.leave(ctx, run, whole, new Error('Cancelled: the reader stopped before the answer was complete'));
      }
    }
  }

  /** Starts this runnable's run under ctx: checks the depth, opens the run when traced. */
  private enter(input: I | undefined, ctx: RunContext): { run?: RunTree; inner: RunContext } {
    if (ctx.signal?.aborted) throw ctx.signal.reason;
    const depth = ctx.depth + 1;
    if (depth > ctx.limit) throw new RecursionLimitError(ctx.limit);
    const tracer = ctx.config.tracer;
    let run: RunTree | undefined;
    if (tracer) {
      const own = this.traceExtra();
      const root = !ctx.run;
      const init = {
        name: (root ? ctx.config.runName : undefined) ?? this.name,
        runType: this.runType,
        ...(root && ctx.config.runId ? { id: ctx.config.runId } : {}),
        inputs: input === undefined ? {} : this.traceInputs(input),
        tags: [...(ctx.config.tags ?? [])],
        metadata: { ...(ctx.config.metadata ?? {}), ...(own.metadata ?? {}) },
        ...(own.extra ? { extra: own.extra } : {}),
        ...(root && ctx.config.projectName ? { projectName: ctx.config.projectName } : {}),
      };
      run = ctx.run ? ctx.run.createChild(init) : tracer.startRun(init);
      run.post();
    }
    return { run, inner: { ...ctx, depth, run: run ?? ctx.run } };
  }

  private leave(ctx: RunContext, run: RunTree | undefined, out: O | undefined, error: unknown): void {
    try {
      ctx.config.onStepEnd?.({ name: this.name, runType: this.runType, output: out, ...(error !== undefined ? { error } : {}), ...(run ? { runId: run.id } : {}) });
    } catch {
      /* a listener's failure is not the step's */
    }
    if (!run) return;
    run.end({
      ...(out !== undefined ? { outputs: this.traceOutputs(out) } : {}),
      ...(error !== undefined ? { error: errorText(error) } : {}),
    });
    run.patch();
  }
}

function rootContext(config: RunnableConfig): RunContext {
  const limit = config.recursionLimit ?? DEFAULT_RECURSION_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new LangSmithError(MSG.recursionLimitInvalid(limit));
  return { config, depth: 0, limit, signal: config.signal };
}

/** Steps run one after another, each on the previous one's answer; streaming flows through them. */
export class RunnableSequence<I = unknown, O = unknown> extends Runnable<I, O> {
  readonly name: string;
  readonly steps: readonly Runnable<unknown, unknown>[];

  constructor(steps: Runnable<unknown, unknown>[], name = 'RunnableSequence') {
    super();
    if (steps.length === 0) throw new LangSmithError('A sequence needs at least one step');
    this.steps = steps;
    this.name = name;
  }

  static from<I, O>(steps: Runnable<unknown, unknown>[], name?: string): RunnableSequence<I, O> {
    return new RunnableSequence<I, O>(steps, name);
  }

  override pipe<N>(next: Runnable<O, N>): RunnableSequence<I, N> {
    return new RunnableSequence<I, N>([...this.steps, next as Runnable<unknown, unknown>], this.name);
  }

  protected async call(input: I, ctx: RunContext): Promise<O> {
    let value: unknown = input;
    for (const step of this.steps) value = await step.invokeWithin(value, ctx);
    return value as O;
  }

  protected override async *streamCall(input: I, ctx: RunContext): AsyncGenerator<O> {
    const [first, ...rest] = this.steps;
    let pieces: AsyncIterable<unknown> = first!.streamWithin(input, ctx);
    for (const step of rest) pieces = step.transformWithin(pieces, ctx);
    yield* pieces as AsyncIterable<O>;
  }
}

/**
 * A function as a step. It gets the step's context so it can call other runnables one level deeper; a
 * runnable it returns is called on the same input (how recursion happens, and what the limit bounds).
 */
export class RunnableLambda<I = unknown, O = unknown> extends Runnable<I, O> {
  readonly name: string;

  constructor(
    private readonly fn: (input: I, ctx: RunContext) => O | Runnable<I, O> | Promise<O | Runnable<I, O>>,
    name = 'RunnableLambda',
  ) {
    super();
    this.name = name;
  }

  protected async call(input: I, ctx: RunContext): Promise<O> {
    const out = await this.fn(input, ctx);
    return out instanceof Runnable ? (out as Runnable<I, O>).invokeWithin(input, ctx) : out;
  }
}
