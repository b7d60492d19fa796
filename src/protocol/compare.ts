// Experiment comparison: two or more experiments of one dataset side by side, per example, against a baseline.
//
// The host reads the experiments' summaries (feedback averages, error rate, latency, tokens, cost) and an index
// of every example of the dataset with each experiment's root run for it: the run's id, whether it errored, its
// scores per feedback key. The index is small (no inputs or outputs), so the page marks better / worse / same per
// cell, counts regressions and improvements, filters and sorts on its own. The heavy part of a row (the example's
// inputs and reference outputs, each experiment's output) is asked for as rows scroll into view.
import * as z from 'zod/mini';
import { defineNotification, defineReady, defineRequest } from './messages';
import { LoadProblem } from './trace';

const id = z.string().check(z.minLength(1), z.maxLength(100));
const short = z.string().check(z.maxLength(2000));
const count = z.int().check(z.nonnegative());

/** At most this many experiments in one comparison. */
export const MAX_COMPARED = 10;
/** At most this many examples in the index (a larger dataset is compared on its first examples, said so). */
export const MAX_INDEXED = 20_000;
/** Row contents asked for at once. */
export const MAX_ROWS_PER_REQUEST = 200;
/** How much of a long text a cell carries (the rest through Show all / the diff). */
export const CELL_TEXT_LIMIT = 4000;

/** Which comparison a panel shows (one panel per dataset and set of experiments, in the order given). */
export const CompareKey = z.strictObject({
  datasetId: id,
  experimentIds: z.array(id).check(z.minLength(1), z.maxLength(MAX_COMPARED)),
});
export type CompareKey = z.infer<typeof CompareKey>;

/** A feedback key of the comparison and which way is better for it. */
export const FeedbackKey = z.strictObject({
  key: z.string().check(z.minLength(1), z.maxLength(180)),
  /** From the workspace's feedback config (`is_lower_score_better`) or the evaluators file; default false. */
  lowerIsBetter: z.boolean(),
});
export type FeedbackKey = z.infer<typeof FeedbackKey>;

/** One experiment as the summary shows it. */
export const Experiment = z.strictObject({
  id,
  name: short,
  createdAt: z.nullable(z.number()),
  /** Root runs in the experiment. */
  runCount: count,
  /** Share of root runs that errored, 0–1; null when there are none. */
  errorRate: z.nullable(z.number()),
  /** Seconds. */
  latencyP50: z.nullable(z.number()),
  latencyP99: z.nullable(z.number()),
  totalTokens: z.nullable(z.number()),
  totalCost: z.nullable(z.number()),
  /** Average score and count per feedback key. */
  feedback: z.record(z.string(), z.strictObject({ n: count, avg: z.nullable(z.number()) })),
  /** What made it, when its metadata says (a prompt and commit, a model): shown under its name. */
  source: z.nullable(short),
  /** Its page in LangSmith. */
  url: z.nullable(short),
});
export type Experiment = z.infer<typeof Experiment>;

/** One experiment's run for one example, as the index carries it. */
export const IndexCell = z.strictObject({
  runId: id,
  error: z.boolean(),
  /** Score per feedback key (a categorical value without a score is left out). */
  scores: z.record(z.string(), z.nullable(z.number())),
});
export type IndexCell = z.infer<typeof IndexCell>;

/** One example of the dataset with each experiment's run for it (null: that experiment has no run for it). */
export const IndexRow = z.strictObject({
  exampleId: id,
  cells: z.record(z.string(), z.nullable(IndexCell)),
});
export type IndexRow = z.infer<typeof IndexRow>;

/** One experiment's output for one example, as a cell shows it. */
export const CellContent = z.strictObject({
  runId: id,
  /** The output as text (a single string output as it is, else JSON), cut at CELL_TEXT_LIMIT. */
  output: z.string(),
  truncated: z.boolean(),
  error: z.nullable(short),
  latencyMs: z.nullable(z.number()),
  totalTokens: z.nullable(z.number()),
  /** Per feedback key: the value (categorical label or free text) and the comment, where there are. */
  feedback: z.record(z.string(), z.strictObject({ score: z.nullable(z.number()), value: z.nullable(short), comment: z.nullable(short) })),
});
export type CellContent = z.infer<typeof CellContent>;

/** The heavy part of a row. */
export const RowContent = z.strictObject({
  exampleId: id,
  /** The example's inputs and reference outputs as text, cut at CELL_TEXT_LIMIT. */
  inputs: z.string(),
  reference: z.nullable(z.string()),
  cells: z.record(z.string(), z.nullable(CellContent)),
});
export type RowContent = z.infer<typeof RowContent>;

export const CompareState = z.union([
  z.strictObject({
    kind: z.literal('compare'),
    dataset: z.strictObject({ id, name: short, url: z.nullable(short) }),
    /** In the order of the key. */
    experiments: z.array(Experiment).check(z.maxLength(MAX_COMPARED)),
    keys: z.array(FeedbackKey).check(z.maxLength(100)),
    /** The experiment the others are compared with: the dataset's baseline when it is one of them, else the first. */
    baselineId: id,
    /** Every example (up to MAX_INDEXED), in the dataset's order. */
    index: z.array(IndexRow).check(z.maxLength(MAX_INDEXED)),
    /** The dataset has more examples than the index holds. */
    indexTruncated: z.boolean(),
    /** The contents of the first rows, so the first screen paints without another request. */
    rows: z.array(RowContent).check(z.maxLength(MAX_ROWS_PER_REQUEST)),
    mac: z.boolean(),
  }),
  z.strictObject({ kind: z.literal('problem'), problem: LoadProblem }),
]);
export type CompareState = z.infer<typeof CompareState>;

// ---------------------------------------------------------------------------------------------------------------
// Messages

export const CompareReady = defineReady('compare', CompareState);

/** Reads everything again (Retry after a problem; Refresh). */
export const Reload = defineRequest('compare/reload', z.strictObject({}), CompareState);

/** The contents of these rows (as they scroll into view). Unknown ids are left out of the answer. */
export const Rows = defineRequest(
  'compare/rows',
  z.strictObject({ exampleIds: z.array(id).check(z.minLength(1), z.maxLength(MAX_ROWS_PER_REQUEST)) }),
  z.strictObject({ rows: z.array(RowContent).check(z.maxLength(MAX_ROWS_PER_REQUEST)) }),
);

/** Opens something beside the panel:
 *  - diff: VS Code's diff of two experiments' outputs for an example (`experimentId` left, `otherId` right);
 *  - openExample: the example in the example editor;
 *  - openTrace: a run's trace in the trace viewer;
 *  - openExperiment / openDataset: the page in LangSmith. */
export const Act = defineRequest(
  'compare/act',
  z.strictObject({
    action: z.enum(['diff', 'openExample', 'openTrace', 'openExperiment', 'openDataset']),
    exampleId: z.optional(id),
    experimentId: z.optional(id),
    otherId: z.optional(id),
    runId: z.optional(id),
  }),
  z.strictObject({ message: z.nullable(short) }),
);

/** Export the rows shown (the filter applied, in the order shown) as CSV or JSONL: the host asks where to save
 *  and writes every field in full (not cut). `path` is null when the user cancelled. */
export const Export = defineRequest(
  'compare/export',
  z.strictObject({
    format: z.enum(['csv', 'jsonl']),
    exampleIds: z.array(id).check(z.maxLength(MAX_INDEXED)),
    baselineId: id,
  }),
  z.strictObject({ path: z.nullable(z.string()), rows: count, message: z.nullable(short) }),
);

/** The baseline chosen on the page, kept by the host for the next time the comparison opens. */
export const SetBaseline = defineRequest('compare/setBaseline', z.strictObject({ experimentId: id }), z.strictObject({}));

/** The host pushes everything again (an experiment of the comparison got new runs or feedback). */
export const Changed = defineNotification('compare/changed', z.strictObject({}));

/** The page's filters (kept in the webview state with the sort and the baseline). */
export const FilterKind = z.enum(['all', 'regressions', 'improvements', 'errors']);
export type FilterKind = z.infer<typeof FilterKind>;
