// An example's revisions: each row is one state of an example, valid from one dataset version to the next. The
// examples and datasets stores both write them (an example changed; a dataset's examples moved between splits),
// so they live below both.
import type { Ctx } from '../context';

export interface RevRow {
  rev: number;
  example_id: string;
  dataset_id: string;
  valid_from: string;
  valid_to: string | null;
  inputs: string;
  outputs: string | null;
  metadata: string | null;
  source_run_id: string | null;
  attachments: string | null;
  created_at: string;
}

export interface AttachmentRef {
  hash: string;
  mime_type: string;
  size: number;
}

/** JSON already serialized by the client (validated), stored as received. */
export class RawJson {
  constructor(readonly text: string) {}
}
const jsonText = (v: unknown): string | null => (v instanceof RawJson ? v.text : v == null ? null : JSON.stringify(v));

export interface ExampleState {
  inputs: unknown;
  outputs: unknown;
  metadata: unknown;
  source_run_id: string | null;
  attachments: Record<string, AttachmentRef> | null;
  created_at: string;
}

/** Writes a new state of an example at `version` (closing the previous one). */
export function writeRevision(ctx: Ctx, datasetId: string, exampleId: string, version: string, s: ExampleState) {
  ctx.st.run('UPDATE example_revisions SET valid_to = ? WHERE example_id = ? AND valid_to IS NULL', version, exampleId);
  insertRevision(ctx, datasetId, exampleId, version, s);
}

/** The first state of a new example (nothing to close). */
export function insertRevision(ctx: Ctx, datasetId: string, exampleId: string, version: string, s: ExampleState) {
  ctx.st.run(
    `INSERT INTO example_revisions (example_id, dataset_id, valid_from, inputs, outputs, metadata, source_run_id, attachments, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    exampleId, datasetId, version, jsonText(s.inputs) ?? '{}', jsonText(s.outputs),
    JSON.stringify(s.metadata ?? {}), s.source_run_id,
    s.attachments && Object.keys(s.attachments).length ? JSON.stringify(s.attachments) : null, s.created_at,
  );
}

export function currentRevision(ctx: Ctx, exampleId: string): RevRow | undefined {
  return ctx.st.one<RevRow>('SELECT * FROM example_revisions WHERE example_id = ? AND valid_to IS NULL', exampleId);
}
