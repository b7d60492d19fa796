// The dataset version diff: the examples added, removed and modified between two versions of a dataset, with a
// field-level diff of each. The host holds the diff (ids by kind) and fetches both versions of the examples a
// page at a time; the webview shows a virtualised list and asks for the pages that scroll into view. The JSON
// of an example at either version is shown by VS Code's own diff editor, opened by the host.
import * as z from 'zod/mini';
import { defineReady, defineRequest } from './messages';

const uuid = z.guid();
const count = z.int().check(z.nonnegative());

/** A version of the dataset: `asOf` is what the API is given (a timestamp, or a tag), `label` what people read. */
export const VersionRef = z.strictObject({
  asOf: z.string().check(z.minLength(1), z.maxLength(100)),
  label: z.string().check(z.minLength(1), z.maxLength(200)),
});
export type VersionRef = z.infer<typeof VersionRef>;

/** Which diff a panel shows (one panel per dataset and pair of versions); kept to restore it after a reload. */
export const DatasetDiffKey = z.strictObject({
  datasetId: uuid,
  datasetName: z.string().check(z.maxLength(500)),
  from: VersionRef,
  to: VersionRef,
});
export type DatasetDiffKey = z.infer<typeof DatasetDiffKey>;

export const DiffKind = z.enum(['added', 'removed', 'modified']);
export type DiffKind = z.infer<typeof DiffKind>;
/** The order kinds are listed in (and the filter's buttons). */
export const DIFF_KINDS: readonly DiffKind[] = ['added', 'removed', 'modified'];

/** One changed value: `path` is the field and the keys down to it (`outputs.answer`, `split`). */
export const FieldChange = z.strictObject({
  path: z.string(),
  op: z.enum(['added', 'removed', 'changed']),
  /** The value's text (strings as they are, other values as JSON), shortened; null when absent on that side. */
  before: z.nullable(z.string()),
  after: z.nullable(z.string()),
  /**
   * A changed value, around where it changes: both sides from the same character (`offset`: what comes before
   * is the same on both), up to a little after the change (`more`: the rest, the same on both, is left out).
   * So a long value whose change is far in shows that change rather than a start that reads the same.
   */
  around: z.optional(
    z.strictObject({
      offset: z.int().check(z.nonnegative()),
      before: z.string().check(z.maxLength(2000)),
      after: z.string().check(z.maxLength(2000)),
      more: z.boolean(),
    }),
  ),
});
export type FieldChange = z.infer<typeof FieldChange>;

export const DiffRow = z.strictObject({
  id: z.string(),
  kind: DiffKind,
  /** A one-line preview of the example's inputs. */
  summary: z.string(),
  changes: z.array(FieldChange),
  /** Changed values not listed in `changes` (the diff editor shows them all). */
  moreChanges: count,
});
export type DiffRow = z.infer<typeof DiffRow>;

export const DatasetDiffState = z.strictObject({
  dataset: z.strictObject({ id: z.string(), name: z.string() }),
  from: VersionRef,
  to: VersionRef,
  counts: z.strictObject({ added: count, removed: count, modified: count }),
});
export type DatasetDiffState = z.infer<typeof DatasetDiffState>;

export const DatasetDiffReady = defineReady('datasetDiff', DatasetDiffState);

/** Rows one page request may ask for. */
export const PAGE_LIMIT_MAX = 200;

export const DiffQuery = z.strictObject({
  /** The kinds shown, in any order (the rows keep the order of DIFF_KINDS). */
  kinds: z.array(DiffKind).check(z.maxLength(3)),
  /** Case-insensitive text to find in an example's id, keys or values, in either version; empty for all. */
  search: z.string().check(z.maxLength(200)),
});
export type DiffQuery = z.infer<typeof DiffQuery>;

/** The rows [offset, offset + limit) of the diff filtered by kinds and search; `total` counts all that match. */
export const DiffPage = defineRequest(
  'datasetDiff/page',
  z.strictObject({
    ...DiffQuery.shape,
    offset: count.check(z.maximum(100_000_000)),
    limit: z.int().check(z.minimum(1), z.maximum(PAGE_LIMIT_MAX)),
  }),
  z.strictObject({ offset: count, total: count, rows: z.array(DiffRow) }),
);

/** How a row opens its example: `diff` in VS Code's diff editor (both versions' JSON), `edit` in the example editor. */
export const OpenHow = z.enum(['diff', 'edit']);
export type OpenHow = z.infer<typeof OpenHow>;

/** Opens one example the way `how` says. */
export const OpenExample = defineRequest('datasetDiff/open', z.strictObject({ exampleId: uuid, how: OpenHow }), z.strictObject({}));

/** Opens the dataset's page in LangSmith (in the browser, through the host). */
export const OpenInLangSmith = defineRequest('datasetDiff/openInLangSmith', z.strictObject({}), z.strictObject({}));
