// The trace viewer: a run opens as its whole trace (the run tree with a timeline, the selected run's inputs,
// outputs, metadata, error and feedback), and a thread opens as its conversation, turn by turn.
//
// The host reads the trace's runs in one request (LangSmith's v2 trace read; v1's query by trace otherwise) with
// only what the tree shows, and sends them as flat rows; the page builds the tree (from `dottedOrder`, else
// `parentId`). A run's payloads are read when it is selected, and reach the page cut to a size a page can hold:
// long strings, long arrays and wide objects are shortened and listed in `cuts`, and "Show all" asks the host
// for the whole value (which opens in an editor when it is too large for the page).
import * as z from 'zod/mini';
import { defineNotification, defineReady, defineRequest } from './messages';

const id = z.string().check(z.minLength(1), z.maxLength(100));
const short = z.string().check(z.maxLength(2000));
const ms = z.number();
const count = z.int().check(z.nonnegative());

/** What a panel shows: one trace (a run selected in it), a shared trace by its token, or a thread. */
export const TraceKey = z.union([
  z.strictObject({
    kind: z.literal('trace'),
    traceId: id,
    /** The trace's project, when known (the v2 read needs it; the host finds it otherwise). */
    projectId: z.optional(id),
    /** The run selected when the panel opens (a child run clicked in the tree). */
    runId: z.optional(id),
  }),
  z.strictObject({ kind: z.literal('shared'), token: id, runId: z.optional(id) }),
  z.strictObject({ kind: z.literal('thread'), threadId: z.string().check(z.minLength(1), z.maxLength(500)), projectId: id }),
]);
export type TraceKey = z.infer<typeof TraceKey>;

export const RunStatus = z.enum(['success', 'error', 'pending']);
export type RunStatus = z.infer<typeof RunStatus>;

export const Tokens = z.strictObject({ prompt: z.nullable(count), completion: z.nullable(count), total: z.nullable(count) });
export type Tokens = z.infer<typeof Tokens>;

/** Costs in US dollars, as LangSmith reports them; null where the server reports none. */
export const Cost = z.strictObject({ prompt: z.nullable(z.number()), completion: z.nullable(z.number()), total: z.nullable(z.number()) });
export type Cost = z.infer<typeof Cost>;

/** One run of a trace, as the tree shows it. Times are epoch milliseconds. */
export const RunRow = z.strictObject({
  id,
  /** The parent run's id; null for the root (and for a run whose parent the server did not say). */
  parentId: z.nullable(id),
  /** LangSmith's dotted order (`<time><id>.<time><id>…`); sorting by it gives the tree depth first. Empty when unknown. */
  dottedOrder: z.string().check(z.maxLength(20_000)),
  name: short,
  /** llm, chain, tool, retriever, prompt, parser, embedding (lower case; others as the server says). */
  runType: z.string().check(z.maxLength(50)),
  status: RunStatus,
  start: z.nullable(ms),
  end: z.nullable(ms),
  /** When the first token arrived (llm runs that streamed). */
  firstToken: z.nullable(ms),
  tokens: Tokens,
  cost: z.nullable(Cost),
  /** The first line or so of the error, when the run failed. */
  errorPreview: z.nullable(short),
});
export type RunRow = z.infer<typeof RunRow>;

export const ProjectRef = z.strictObject({ id, name: short });
export type ProjectRef = z.infer<typeof ProjectRef>;

/** The trace's header: its root run and the trace's totals. */
export const TraceHeader = z.strictObject({
  traceId: id,
  rootRunId: id,
  name: short,
  runType: z.string().check(z.maxLength(50)),
  status: RunStatus,
  start: z.nullable(ms),
  end: z.nullable(ms),
  tokens: Tokens,
  cost: z.nullable(Cost),
  project: z.nullable(ProjectRef),
  threadId: z.nullable(short),
  /** The public link when the trace is shared. */
  shareUrl: z.nullable(short),
  /** A trace read by its share token: no actions that need the workspace. */
  readOnly: z.boolean(),
});
export type TraceHeader = z.infer<typeof TraceHeader>;

export const TraceData = z.strictObject({
  header: TraceHeader,
  /** Every run of the trace, in the order the server answered (the page sorts). */
  runs: z.array(RunRow).check(z.maxLength(25_000)),
  /** How the runs were read: LangSmith's v2 trace read, or v1's query by trace (paged). */
  source: z.enum(['v2', 'v1', 'public']),
  /** Requests the read took. */
  requests: count,
});
export type TraceData = z.infer<typeof TraceData>;

/** What could not be shown, and whether trying again may help. */
export const LoadProblem = z.strictObject({
  code: z.enum(['notFound', 'notSignedIn', 'failed']),
  message: short,
});
export type LoadProblem = z.infer<typeof LoadProblem>;

// ---------------------------------------------------------------------------------------------------------------
// Payloads

/** Where a value was shortened: the keys and indexes down to it, what it was, and how big it is whole. */
export const Cut = z.strictObject({
  path: z.array(z.union([z.string(), z.int()])),
  /** string: `length` characters (the first ones are kept); array: `length` items; object: `length` keys. */
  kind: z.enum(['string', 'array', 'object']),
  length: count,
});
export type Cut = z.infer<typeof Cut>;

/** A JSON value as the page receives it: shortened where `cuts` say; `bytes` is the size of the whole value's JSON. */
export const Payload = z.strictObject({ value: z.unknown(), cuts: z.array(Cut).check(z.maxLength(10_000)), bytes: count });
export type Payload = z.infer<typeof Payload>;

export const Attachment = z.strictObject({
  name: short,
  /** A link the page may load (an image's `src`); the host checked it is http(s). */
  url: z.string().check(z.maxLength(10_000)),
  mimeType: z.nullable(short),
});
export type Attachment = z.infer<typeof Attachment>;

export const FeedbackItem = z.strictObject({
  id,
  key: short,
  score: z.nullable(z.number()),
  value: z.nullable(z.unknown()),
  comment: z.nullable(short),
  /** Where it came from: a person in the app, an API call, a model, an annotation queue. */
  source: z.nullable(short),
  createdAt: z.nullable(ms),
});
export type FeedbackItem = z.infer<typeof FeedbackItem>;

/** The selected run, whole. */
export const RunDetail = z.strictObject({
  id,
  inputs: z.nullable(Payload),
  outputs: z.nullable(Payload),
  error: z.nullable(z.string().check(z.maxLength(100_000))),
  tags: z.array(short),
  metadata: z.nullable(Payload),
  /** The model and its settings (an llm run's invocation parameters). */
  model: z.nullable(short),
  invocationParams: z.nullable(Payload),
  attachments: z.array(Attachment),
  feedback: z.array(FeedbackItem),
  /** Whether an example of a dataset came from this run. */
  inDataset: z.boolean(),
});
export type RunDetail = z.infer<typeof RunDetail>;

// ---------------------------------------------------------------------------------------------------------------
// Threads

export const ThreadTurn = z.strictObject({
  traceId: id,
  rootRunId: id,
  name: short,
  status: RunStatus,
  start: z.nullable(ms),
  end: z.nullable(ms),
  tokens: Tokens,
  cost: z.nullable(Cost),
  inputs: z.nullable(Payload),
  outputs: z.nullable(Payload),
  errorPreview: z.nullable(short),
});
export type ThreadTurn = z.infer<typeof ThreadTurn>;

export const ThreadData = z.strictObject({
  threadId: short,
  project: ProjectRef,
  /** Oldest turn first. */
  turns: z.array(ThreadTurn).check(z.maxLength(1000)),
  /** Turns beyond those shown (the oldest are left out). */
  moreTurns: count,
  totals: z.strictObject({
    turns: count,
    /** The turns' latency percentiles, in milliseconds. */
    latencyP50: z.nullable(ms),
    latencyP99: z.nullable(ms),
    tokens: Tokens,
    cost: z.nullable(Cost),
    erroredTurns: count,
  }),
});
export type ThreadData = z.infer<typeof ThreadData>;

// ---------------------------------------------------------------------------------------------------------------
// State and messages

export const TraceState = z.union([
  z.strictObject({ kind: z.literal('trace'), trace: TraceData, selectedRunId: z.nullable(id) }),
  z.strictObject({ kind: z.literal('thread'), thread: ThreadData }),
  z.strictObject({ kind: z.literal('problem'), problem: LoadProblem }),
]);
export type TraceState = z.infer<typeof TraceState>;

export const TraceReady = defineReady('trace', TraceState);

/** Reads the trace (or thread) again: Retry after a problem, and the refresh of a trace still running. */
export const Reload = defineRequest('trace/reload', z.strictObject({}), TraceState);

/** The selected run's payloads, metadata, error and feedback. */
export const ReadRun = defineRequest('trace/readRun', z.strictObject({ runId: id }), RunDetail);

/**
 * A value in full: a part of a run (`inputs`, `outputs`, `metadata`, `invocationParams`) at `path`. Small
 * enough for the page: `text` (strings as they are, others as JSON); else the host opens it in an editor and
 * `text` is null.
 */
export const ShowAllParams = z.strictObject({
  runId: id,
  part: z.enum(['inputs', 'outputs', 'metadata', 'invocationParams']),
  path: z.array(z.union([z.string().check(z.maxLength(1000)), z.int()])).check(z.maxLength(100)),
});
export const ShowAllResult = z.strictObject({ text: z.nullable(z.string()), opened: z.boolean() });
export const ShowAll = defineRequest('trace/showAll', ShowAllParams, ShowAllResult);

/** The runs whose name, inputs, outputs or error contain `text` (case-blind), in tree order. */
export const FindInTrace = defineRequest(
  'trace/find',
  z.strictObject({ text: z.string().check(z.minLength(1), z.maxLength(500)) }),
  z.strictObject({ runIds: z.array(id) }),
);

export const AddFeedback = defineRequest(
  'trace/addFeedback',
  z.strictObject({
    runId: id,
    key: z.string().check(z.minLength(1), z.maxLength(200)),
    score: z.nullable(z.number()),
    /** A categorical or free-text value. */
    value: z.nullable(z.string().check(z.maxLength(10_000))),
    comment: z.nullable(z.string().check(z.maxLength(10_000))),
  }),
  FeedbackItem,
);

/** What the header and a run's menu can do; the host asks what it needs (a queue, a dataset) with its own pickers. */
export const TraceAction = z.enum([
  'share',
  'copyPublicLink',
  'unshare',
  'addToQueue',
  'addToDataset',
  'openInLangSmith',
  'copyId',
  'openInPlayground',
  'openRawJson',
  'openProject',
  'openThread',
  'openTrace',
]);
export type TraceAction = z.infer<typeof TraceAction>;

/** Does an action on a run of the trace (or on a thread turn's trace: `openTrace`). */
export const Act = defineRequest(
  'trace/act',
  z.strictObject({ action: TraceAction, runId: id }),
  /** `message` is shown briefly (done, copied); `shareUrl` is the trace's public link after share or unshare. */
  z.strictObject({ message: z.nullable(short), shareUrl: z.optional(z.nullable(short)) }),
);

/** The host selects a run in an open panel (another run of the same trace was clicked in the tree). */
export const SelectRun = defineNotification('trace/select', z.strictObject({ runId: id }));

/** How often the page reloads a trace that is still running, while it is shown. */
export const RUNNING_REFRESH_MS = 2000;
