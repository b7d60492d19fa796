// An example with its attachments, the answer of a multipart create, and a listing of ids.

import * as z from 'zod';
import { str, num, bool, record, recordish, uuid } from './fields';

export const AttachmentInfoSchema = z.looseObject({ presigned_url: z.string(), mime_type: str });
export type AttachmentInfo = z.infer<typeof AttachmentInfoSchema>;

/** Length of the `attachment.` prefix on keys of attachment_urls. */
export const ATTACHMENT_PREFIX_LENGTH = 11;

const ExampleWireSchema = z.looseObject({
  id: uuid,
  dataset_id: uuid,
  inputs: record.nullish().transform((v) => v ?? {}),
  outputs: recordish,
  metadata: recordish,
  split: z.union([z.string(), z.array(z.string())]).nullish(),
  created_at: str,
  modified_at: str,
  source_run_id: str,
  use_source_run_io: bool,
  use_source_run_attachments: z.array(z.string()).nullish(),
  attachment_urls: z.record(z.string(), AttachmentInfoSchema).nullish(),
});

export const ExampleSchema = ExampleWireSchema.transform((e) => {
  const attachments: Record<string, AttachmentInfo> = {};
  if (e.attachment_urls) {
    for (const [key, value] of Object.entries(e.attachment_urls)) attachments[key.slice(ATTACHMENT_PREFIX_LENGTH)] = value;
  }
  // The parsed object is already a fresh copy: extend it rather than copy it again.
  return Object.assign(e, { attachments });
});
export type Example = z.infer<typeof ExampleSchema>;

export const ExamplesCreatedSchema = z.looseObject({
  count: num,
  example_ids: z.array(z.string()).nullish(),
  as_of: str,
});

/** A listing that selected only ids (GET /examples?select=id). */
export const IdListSchema = z.array(z.looseObject({ id: z.string() }));
