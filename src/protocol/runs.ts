// The runs panel: a project's runs as a table (root runs, all runs or LLM calls), filtered in LangSmith's filter
// language, paged by cursor as the table scrolls, with the columns a user picks; and what can be done with the
// selected runs. The host reads the runs and shapes each into a row of short texts and numbers (never the whole
// payloads); the page keeps the query, the selection and the layout, and asks the host to act.
import * as z from 'zod/mini';
import { defineNotification, defineReady, defineRequest } from './messages';
import { LoadProblem, RunStatus } from './trace';

const id = z.string().check(z.minLength(1), z.maxLength(100));
const short = z.string().check(z.maxLength(2000));
const filterText = z.string().check(z.maxLength(20_000));
const time = z.nullable(z.number());

/** Rows asked for at once. */
export const RUNS_PAGE = 100;
/** How much of an input or output a cell carries. */
export const CELL_TEXT = 300;
/** Filters a project keeps by name. */
export const MAX_SAVED_FILTERS = 50;
/** How often a visible page asks whether runs arrived. */
export const NEW_RUNS_EVERY_MS = 10_000;
/** Runs one action takes at once (a queue, a dataset, copied ids). */
export const MAX_SELECTED = 500;

export const RunsScope = z.enum(['root', 'all', 'llm']);
export type RunsScope = z.infer<typeof RunsScope>;

/** What the table shows: which runs, filtered how, in which order, within which window. */
export const RunsQuery = z.strictObject({
  scope: RunsScope,
  filter: filterText,
  /** Applies to the root of each run's trace. */
  traceFilter: filterText,
  /** Applies to any run of each run's trace. */
  treeFilter: filterText,
  /** Epoch ms; null: no bound. */
  startTime: time,
  endTime: time,
  order: z.enum(['desc', 'asc']),
});
export type RunsQuery = z.infer<typeof RunsQuery>;

export const EMPTY_QUERY: RunsQuery = { scope: 'root', filter: '', traceFilter: '', treeFilter: '', startTime: null, endTime: null, order: 'desc' };

/** Which project a panel shows, and (from a chart, a command) the query it opens with. */
export const RunsKey = z.strictObject({
  projectId: id,
  projectName: z.optional(short),
  query: z.optional(z.partial(RunsQuery)),
});
export type RunsKey = z.infer<typeof RunsKey>;

/** One feedback key's figure on a run: its average score, or its value when it has no score. */
export const FeedbackCell = z.strictObject({ score: z.nullable(z.number()), value: z.nullable(short), n: z.int() });
export type FeedbackCell = z.infer<typeof FeedbackCell>;

/** One run as a row of the table. */
export const RunsRow = z.strictObject({
  id,
  traceId: id,
  name: short,
  runType: short,
  status: RunStatus,
  /** Epoch ms. */
  start: time,
  /** Milliseconds; null while running or unknown. */
  latency: time,
  firstToken: time,
  tokens: z.nullable(z.number()),
  cost: z.nullable(z.number()),
  input: short,
  output: short,
  error: z.nullable(short),
  feedback: z.record(z.string(), FeedbackCell),
  tags: z.array(short).check(z.maxLength(50)),
  metadata: z.record(z.string(), short),
});
export type RunsRow = z.infer<typeof RunsRow>;

/** The table's columns: fixed ones by id, feedback keys as `feedback:<key>`, metadata keys as `metadata:<key>`. */
export const FIXED_COLUMNS = ['name', 'input', 'output', 'status', 'start', 'latency', 'firstToken', 'tokens', 'cost', 'tags'] as const;
export const DEFAULT_COLUMNS: readonly string[] = ['name', 'input', 'output', 'status', 'start', 'latency', 'tokens', 'cost'];

export const Layout = z.strictObject({
  /** Shown columns in order. */
  columns: z.array(short).check(z.maxLength(100)),
  /** Widths in px by column. */
  widths: z.record(z.string(), z.number().check(z.gte(40), z.lte(2000))),
});
export type Layout = z.infer<typeof Layout>;

export const SavedFilter = z.strictObject({ name: z.string().check(z.minLength(1), z.maxLength(100)), query: RunsQuery });
export type SavedFilter = z.infer<typeof SavedFilter>;

export const RunsState = z.union([
  z.strictObject({
    kind: z.literal('ready'),
    project: z.strictObject({ id, name: short, url: z.nullable(short) }),
    query: RunsQuery,
    layout: Layout,
    saved: z.array(SavedFilter).check(z.maxLength(MAX_SAVED_FILTERS)),
    /** Values seen in the project for completion: run names, tags, metadata keys, feedback keys. */
    seen: z.strictObject({ names: z.array(short), tags: z.array(short), metadataKeys: z.array(short), feedbackKeys: z.array(short) }),
    /** The query's first page, read with the state so the first screen paints from the ready answer (null: not read). */
    first: z.nullable(z.strictObject({ rows: z.array(RunsRow).check(z.maxLength(RUNS_PAGE)), cursor: z.nullable(short) })),
  }),
  z.strictObject({ kind: z.literal('problem'), problem: LoadProblem }),
]);
export type RunsState = z.infer<typeof RunsState>;

export const RunsReady = defineReady('runs', RunsState);

/** A page of runs; `cursor` from the previous page (null: the first). */
export const QueryRuns = defineRequest(
  'runs/query',
  z.strictObject({ query: RunsQuery, cursor: z.nullable(short) }),
  z.strictObject({ rows: z.array(RunsRow).check(z.maxLength(RUNS_PAGE)), cursor: z.nullable(short) }),
);

/** How many runs of the query started after `since` (the newest row's start): the "N new runs" bar. */
export const CountNewer = defineRequest('runs/countNewer', z.strictObject({ query: RunsQuery, since: z.number() }), z.strictObject({ count: z.int(), more: z.boolean() }));

export const SaveLayout = defineRequest('runs/saveLayout', Layout, z.strictObject({}));
export const SaveFilters = defineRequest('runs/saveFilters', z.strictObject({ saved: z.array(SavedFilter).check(z.maxLength(MAX_SAVED_FILTERS)) }), z.strictObject({}));

export const RunAction = z.enum(['openTrace', 'pinTrace', 'addToQueue', 'addToDataset', 'addFeedback', 'compare', 'copyIds', 'openInLangSmith', 'openJson']);
export type RunAction = z.infer<typeof RunAction>;

/** Something to do with the selected runs (each named with its trace, which the trace viewer needs). */
export const ActOnRuns = defineRequest(
  'runs/act',
  z.strictObject({ action: RunAction, runs: z.array(z.strictObject({ id, traceId: id, start: time })).check(z.minLength(1), z.maxLength(MAX_SELECTED)) }),
  z.strictObject({ done: z.boolean() }),
);

/** Opens the project's monitoring charts. */
export const OpenMonitor = defineRequest('runs/openMonitor', z.strictObject({}), z.strictObject({}));

/** The host asks the page to show another query (the panel was opened again from a chart or a command). */
export const ShowQuery = defineNotification('runs/showQuery', RunsQuery);

/** Runs changed elsewhere (feedback given, runs queued): the page reads the rows in view again. */
export const RunsChanged = defineNotification('runs/changed', z.strictObject({}));

/** Reads the panel's state again (Retry after a problem). */
export const Reload = defineRequest('runs/reload', z.strictObject({}), RunsState);
