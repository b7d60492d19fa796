// Annotation review: a queue's items reviewed one after another beside the code. The panel shows the item's run
// as the trace viewer does (its inputs and outputs as messages, its child runs one click away) or a thread item
// as its conversation, the queue's rubric instructions, one control per rubric item built from the workspace's
// feedback config for its key, a comment and a correction of the outputs.
//
// The host owns the queue, the items and the writes; the page owns the form. A draft of the form is sent to the
// host as it changes (`review/saveDraft`) and comes back with the item, so an unfinished review survives a reload
// and a closed panel. Done, Requeue and Remove answer with the next item needing my review, read ahead by the
// host while the current one is shown.
import * as z from 'zod/mini';
import { defineNotification, defineReady, defineRequest, inboundRecord } from './messages';
import { FeedbackItem, LoadProblem, Payload, RunDetail, ShowAllParams, ShowAllResult, ThreadData, TraceData } from './trace';

const id = z.string().check(z.minLength(1), z.maxLength(100));
const short = z.string().check(z.maxLength(2000));
const text = z.string().check(z.maxLength(100_000));
const count = z.int().check(z.nonnegative());
const ms = z.number();

/** Which queue a panel reviews (one panel per queue), and the item to show first (a click on an item). */
export const ReviewKey = z.strictObject({ queueId: id, itemId: z.optional(id) });
export type ReviewKey = z.infer<typeof ReviewKey>;

// ---------------------------------------------------------------------------------------------------------------
// The rubric

/** A feedback config as LangSmith stores it, for one feedback key. */
export const FeedbackConfig = z.union([
  z.strictObject({ type: z.literal('continuous'), min: z.nullable(z.number()), max: z.nullable(z.number()) }),
  z.strictObject({
    type: z.literal('categorical'),
    /** Each category's score (`value`) and its label. */
    categories: z.array(z.strictObject({ value: z.number(), label: short })).check(z.maxLength(100)),
  }),
  z.strictObject({ type: z.literal('freeform') }),
]);
export type FeedbackConfig = z.infer<typeof FeedbackConfig>;

/** One rubric item of the queue, with the config of its key (freeform when the workspace has none). */
export const RubricField = z.strictObject({
  key: z.string().check(z.minLength(1), z.maxLength(180)),
  description: z.nullable(text),
  required: z.boolean(),
  config: FeedbackConfig,
  /** Lower scores are better for this key (shown beside the control). */
  lowerIsBetter: z.boolean(),
  /** What each score means (continuous), keyed by the score as written. */
  scoreDescriptions: z.record(z.string(), short),
  /** What each category means (categorical), keyed by its label. */
  valueDescriptions: z.record(z.string(), short),
});
export type RubricField = z.infer<typeof RubricField>;

export const QueueInfo = z.strictObject({
  id,
  name: short,
  description: z.nullable(text),
  /** The rubric instructions, shown above the form (plain text, rendered as text). */
  instructions: z.nullable(text),
  rubric: z.array(RubricField).check(z.maxLength(100)),
  defaultDataset: z.nullable(z.strictObject({ id, name: short })),
  /** How many reviewers must complete an item before it is done for everyone (null: one). */
  reviewersPerItem: z.nullable(count),
  /** Whether opening an item reserves it for me (others do not get it until I finish or it expires). */
  reservations: z.boolean(),
  reservationMinutes: z.nullable(count),
});
export type QueueInfo = z.infer<typeof QueueInfo>;

// ---------------------------------------------------------------------------------------------------------------
// Items

/** needs_my_review, needs_others_review (I completed it; it waits for more reviewers, or another reviewer holds
 *  it), archived (done for everyone). */
export const Section = z.enum(['needs_my_review', 'needs_others_review', 'archived']);
export type Section = z.infer<typeof Section>;

export const Counts = z.strictObject({ needs_my_review: count, needs_others_review: count, archived: count });
export type Counts = z.infer<typeof Counts>;

/** An item as the list shows it. */
export const ItemSummary = z.strictObject({
  id,
  kind: z.enum(['run', 'thread']),
  /** The run (run items) or the thread's id (thread items). */
  runId: z.nullable(id),
  threadId: z.nullable(short),
  projectId: z.nullable(id),
  /** The run's name, or the thread's id; filled in by `review/items`, empty until the run is read otherwise. */
  name: short,
  /** The first words of the run's inputs (or the thread's first message), as the tree shows them. */
  preview: short,
  section: Section,
  /** My status on it: viewed (I looked, or requeued it), completed (I pressed Done), or none. */
  myStatus: z.nullable(z.enum(['viewed', 'completed'])),
  /** Another reviewer holds it (reservations). */
  reservedByOther: z.boolean(),
  addedAt: z.nullable(ms),
});
export type ItemSummary = z.infer<typeof ItemSummary>;

/** A draft of the review form, as the page last sent it. Keys are rubric keys. */
export const Draft = z.strictObject({
  /** Per rubric key: a score (continuous, or a category's value) and a label (categorical) or text (freeform). */
  fields: inboundRecord(z.string(), z.strictObject({ score: z.nullable(z.number()), value: z.nullable(z.string().check(z.maxLength(10_000))) })),
  comment: z.string().check(z.maxLength(10_000)),
  /** The corrected outputs as the reviewer typed them (JSON text; empty: no correction). */
  correction: z.string().check(z.maxLength(1_000_000)),
  /** When the page last changed it. */
  savedAt: ms,
});
export type Draft = z.infer<typeof Draft>;

/** The item being reviewed, read whole: its run's trace and the run's detail, or its thread. */
export const ItemView = z.strictObject({
  item: ItemSummary,
  /** 1-based place among the items needing my review when it is one of them, else null; and how many there are. */
  position: z.nullable(count),
  /** The run item's trace (the run and every run under it); null for a thread item or when it could not be read. */
  trace: z.nullable(TraceData),
  /** The item's run in full (inputs, outputs as the trace viewer shows them, feedback already on it). */
  run: z.nullable(RunDetail),
  thread: z.nullable(ThreadData),
  /** Why the run could not be shown (deleted, retention), while the item can still be reviewed or removed. */
  problem: z.nullable(LoadProblem),
  /** The draft of this item's review, if one was kept. */
  draft: z.nullable(Draft),
});
export type ItemView = z.infer<typeof ItemView>;

export const ReviewState = z.union([
  z.strictObject({
    kind: z.literal('review'),
    queue: QueueInfo,
    counts: Counts,
    /** The first item to show: the one asked for, else the first needing my review; null when none is left. */
    current: z.nullable(ItemView),
    /** Key bindings the page shows under `?` (the same on every platform; Cmd on macOS for Ctrl). */
    mac: z.boolean(),
  }),
  z.strictObject({ kind: z.literal('problem'), problem: LoadProblem }),
]);
export type ReviewState = z.infer<typeof ReviewState>;

// ---------------------------------------------------------------------------------------------------------------
// Messages

export const ReviewReady = defineReady('review', ReviewState);

/** Reads the queue again (Retry after a problem; after the queue's rubric was edited). */
export const Reload = defineRequest('review/reload', z.strictObject({}), ReviewState);

/** A page of one section's items, in the order a reviewer meets them; `cursor` from the previous page. */
export const ListItems = defineRequest(
  'review/items',
  z.strictObject({ section: Section, cursor: z.nullable(z.string().check(z.maxLength(2000))) }),
  z.strictObject({ items: z.array(ItemSummary).check(z.maxLength(200)), cursor: z.nullable(z.string()), counts: Counts }),
);

/** Opens an item (from the list, ←/→, Skip): marks it viewed for me (reserving it where the queue reserves). */
export const OpenItem = defineRequest('review/open', z.strictObject({ itemId: id }), ItemView);

/** The item after (or before) `itemId` among those needing my review, without a status change; null at the end. */
export const Neighbour = defineRequest(
  'review/neighbour',
  z.strictObject({ itemId: id, direction: z.enum(['next', 'previous']) }),
  z.strictObject({ item: z.nullable(ItemSummary) }),
);

/** A run of the item's trace in full (a child run clicked). */
export const ReadRun = defineRequest('review/readRun', z.strictObject({ runId: id }), RunDetail);

/** A long value in full, as the trace viewer's Show all. */
export const ShowAll = defineRequest('review/showAll', ShowAllParams, ShowAllResult);

/** Keeps the form of an item (debounced by the page); an empty form (`draft: null`) drops it. */
export const SaveDraft = defineRequest('review/saveDraft', z.strictObject({ itemId: id, draft: z.nullable(Draft) }), z.strictObject({}));

/** The review as submitted with Done. */
export const Review = z.strictObject({
  /** One entry per rubric key that was filled (required ones must be). */
  fields: z.array(
    z.strictObject({
      key: z.string().check(z.minLength(1), z.maxLength(180)),
      score: z.nullable(z.number()),
      value: z.nullable(z.string().check(z.maxLength(10_000))),
    }),
  ).check(z.maxLength(100)),
  comment: z.nullable(z.string().check(z.maxLength(10_000))),
  /** The corrected outputs (already parsed by the page; the host checks it is a JSON object). */
  correction: z.nullable(z.unknown()),
});
export type Review = z.infer<typeof Review>;

/** What Done / Requeue / Remove answer: the next item needing my review (already read), and the counts. */
export const Moved = z.strictObject({
  next: z.nullable(ItemView),
  counts: Counts,
  /** The feedback written (Done), as the run now shows it. */
  feedback: z.array(FeedbackItem),
  /** A short line for the status area ("Done · 3 left"). */
  message: z.nullable(short),
});
export type Moved = z.infer<typeof Moved>;

/** Done: writes one feedback per field (and the comment and correction) with the queue as source, marks the
 *  item completed for me, and moves on. Nothing is marked when a write fails (the error comes back; the page
 *  keeps the form). */
export const Done = defineRequest('review/done', z.strictObject({ itemId: id, review: Review }), Moved);

/** Requeue: the item goes to the end of my queue (a `viewed` status moving it back), and the next one shows. */
export const Requeue = defineRequest('review/requeue', z.strictObject({ itemId: id }), Moved);

/** Remove from Queue: the host asks first; `removed: false` when the user said no. */
export const Remove = defineRequest(
  'review/remove',
  z.strictObject({ itemId: id }),
  z.strictObject({ removed: z.boolean(), moved: z.nullable(Moved) }),
);

/** Add to Dataset: the run's inputs with `outputs` (the correction, else the run's outputs) as an example of
 *  the queue's default dataset, or one the host asks for (`choose`). `example` is null when the user cancelled. */
export const AddToDataset = defineRequest(
  'review/addToDataset',
  z.strictObject({ itemId: id, outputs: z.nullable(z.unknown()), choose: z.boolean() }),
  z.strictObject({ example: z.nullable(z.strictObject({ id, datasetId: id, datasetName: short })), message: z.nullable(short) }),
);

/** Opens something beside the panel: the item's trace (a run of it selected), the queue's settings. */
export const Act = defineRequest(
  'review/act',
  z.strictObject({ action: z.enum(['openTrace', 'openThread', 'editQueue', 'openInLangSmith']), runId: z.optional(id) }),
  z.strictObject({ message: z.nullable(short) }),
);

/** The host pushes the queue again (its settings changed in the settings panel, or the tree refreshed it). */
export const QueueChanged = defineNotification('review/queueChanged', z.strictObject({ queue: QueueInfo, counts: Counts }));

/** The host shows an item in an open panel (an item was clicked in the tree while the queue's panel was open). */
export const ShowItem = defineNotification('review/showItem', z.strictObject({ itemId: id }));

/** How long the page waits after the last keystroke before it sends the draft. */
export const DRAFT_DEBOUNCE_MS = 300;

/** A payload type re-exported for the page's renderers. */
export type { Payload };
