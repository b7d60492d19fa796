// The example editor: edits one example of a dataset (or writes a new one): inputs, outputs and metadata as
// JSON, its splits and its attachments. The host owns what the server has; the webview owns the draft.
import * as z from 'zod/mini';
import { defineNotification, defineReady, defineRequest, inboundRecord } from './messages';

const json = z.record(z.string(), z.unknown());
const id = z.string().check(z.minLength(1), z.maxLength(200));

/** Which example a panel shows; a new example gets its id when the panel opens, so it keeps one panel. */
export const ExampleEditorKey = z.strictObject({ datasetId: id, exampleId: id, isNew: z.boolean(), split: z.optional(z.string().check(z.maxLength(200))) });
export type ExampleEditorKey = z.infer<typeof ExampleEditorKey>;

export const AttachmentInfo = z.strictObject({ name: z.string(), mimeType: z.string() });
export type AttachmentInfo = z.infer<typeof AttachmentInfo>;

/** The example as the server has it. `modifiedAt` tells whether someone changed it since. */
export const ExampleSnapshot = z.strictObject({
  id: z.string(),
  inputs: json,
  outputs: z.nullable(json),
  metadata: z.nullable(json),
  splits: z.array(z.string()),
  attachments: z.array(AttachmentInfo),
  modifiedAt: z.nullable(z.string()),
});
export type ExampleSnapshot = z.infer<typeof ExampleSnapshot>;

export const ExampleEditorState = z.strictObject({
  dataset: z.strictObject({
    id: z.string(),
    name: z.string(),
    /** JSON Schemas the dataset requires of inputs and outputs, when it has them. */
    inputsSchema: z.nullable(json),
    outputsSchema: z.nullable(json),
    splits: z.array(z.string()),
  }),
  /** Null for a new example (nothing on the server yet). */
  example: z.nullable(ExampleSnapshot),
  exampleId: z.string(),
  /** The split a new example starts in (New Example… on a split). */
  split: z.nullable(z.string()),
  /** The text of a panel closed with unsaved changes, reopened from the question the host asked. */
  recoveredDraft: z.nullable(z.lazy(() => DraftText)),
});
export type ExampleEditorState = z.infer<typeof ExampleEditorState>;

export const ExampleEditorReady = defineReady('exampleEditor', ExampleEditorState);

/** JSON the user wrote. */
const draftJson = inboundRecord(z.string(), z.unknown());

/** What the user wrote, as the webview checked it. */
export const ExampleDraft = z.strictObject({
  inputs: draftJson,
  outputs: z.nullable(draftJson),
  metadata: z.nullable(draftJson),
  splits: z.array(z.string().check(z.minLength(1), z.maxLength(200))),
});
export type ExampleDraft = z.infer<typeof ExampleDraft>;

/** The draft as typed (JSON fields as text, possibly not valid yet), for the question when a dirty tab closes. */
const text = z.string().check(z.maxLength(5_000_000));
/**
 * Inputs or outputs edited one top-level field at a time (a string as its text, any other value as JSON), in key
 * order; when set, it is the draft of that object and the object's JSON text is not.
 */
const FieldTexts = z.nullable(
  z.array(z.strictObject({ key: z.string().check(z.maxLength(1000)), kind: z.enum(['text', 'json']), text, crlf: z.optional(z.boolean()) })).check(z.maxLength(10_000)),
);
export const DraftText = z.strictObject({
  inputs: text,
  outputs: text,
  metadata: text,
  splits: z.array(z.string().check(z.maxLength(200))),
  inputsFields: z.optional(FieldTexts),
  outputsFields: z.optional(FieldTexts),
});
export type DraftText = z.infer<typeof DraftText>;

/** The name of an attachment the example has (the server's names may be longer than the ones the editor gives). */
const existingName = z.string().check(z.maxLength(1000));

/** Attachment changes: files added (held by the host under a token), renamed and removed. */
export const AttachmentChanges = z.strictObject({
  add: z.array(z.strictObject({ token: z.string().check(z.maxLength(100)), name: z.string().check(z.minLength(1), z.maxLength(200)) })),
  rename: inboundRecord(existingName, z.string().check(z.minLength(1), z.maxLength(200))),
  remove: z.array(existingName),
});
export type AttachmentChanges = z.infer<typeof AttachmentChanges>;

export const SaveResult = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('saved'), example: ExampleSnapshot }),
  /** Someone changed (or deleted: null) the example since `base`: nothing was written. */
  z.strictObject({ status: z.literal('conflict'), server: z.nullable(ExampleSnapshot) }),
]);
export type SaveResult = z.infer<typeof SaveResult>;

/** Saves the draft. `base` is the server version the draft started from; `force` overwrites a newer one. */
export const SaveExample = defineRequest(
  'exampleEditor/save',
  z.strictObject({ base: z.nullable(z.string().check(z.maxLength(100))), draft: ExampleDraft, attachments: AttachmentChanges, force: z.boolean() }),
  SaveResult,
);

/** Opens VS Code's diff editor: the example on the server against the draft. */
export const ShowConflictDiff = defineRequest('exampleEditor/showDiff', z.strictObject({ draft: ExampleDraft }), z.strictObject({}));

/** Asks the user for a file to attach; the host keeps its bytes until the save. Null when they cancelled. */
export const PickAttachment = defineRequest(
  'exampleEditor/pickAttachment',
  z.strictObject({}),
  z.nullable(z.strictObject({ token: z.string(), name: z.string(), mimeType: z.string(), size: z.number() })),
);

/** Opens an attachment of the saved example in VS Code. */
export const OpenAttachment = defineRequest('exampleEditor/openAttachment', z.strictObject({ name: existingName }), z.strictObject({}));

/** The webview tells the host whether it has unsaved changes (for the tab title and the question on close). */
export const DraftState = defineNotification('exampleEditor/draftState', z.strictObject({ dirty: z.boolean(), draft: z.nullable(DraftText) }));

/** The example changed on the server (seen when the panel came back into view). */
export const ExampleChanged = defineNotification('exampleEditor/changed', z.strictObject({ example: z.nullable(ExampleSnapshot) }));
