// An example's JSON is composed in ONE place, `exampleJsonSql`: SQLite writes it from the stored JSON text,
// for pages, single reads and search hits alike, so no code path can drift from another in shape.
import type { Ctx } from '../context';
import { jsonOrNull } from '../json';
import type { AttachmentRef } from './revisions';

/** The fields of an example answer, in the order they are written (LangSmith's `ExampleSelect`). */
export const EXAMPLE_FIELDS = [
  'id', 'dataset_id', 'name', 'inputs', 'outputs', 'metadata', 'source_run_id', 'created_at', 'modified_at', 'attachment_urls',
] as const;
export type ExampleField = (typeof EXAMPLE_FIELDS)[number];

/** Every field: what a single read (`GET /examples/{id}`), a search hit and a public listing answer. */
export const ALL_FIELDS: readonly ExampleField[] = EXAMPLE_FIELDS;

/** The OpenAPI's default `select` of `GET /examples`, which leaves `attachment_urls` out. */
export const OPENAPI_DEFAULT_SELECT: readonly ExampleField[] = EXAMPLE_FIELDS.filter((f) => f !== 'attachment_urls');

/** `GET /examples` without `select`: LangSmith's default, without `attachment_urls` (a client asks for them). */
export const DEFAULT_LIST_FIELDS: readonly ExampleField[] = OPENAPI_DEFAULT_SELECT;

/** Written whatever `select` asks for: what identifies an example and what every consumer reads. */
const ALWAYS: readonly ExampleField[] = ['id', 'dataset_id', 'inputs', 'created_at'];

/** The fields an explicit `select` gives: the asked-for ones and the ones always written, in answer order. */
export function selectedFields(select: readonly ExampleField[]): ExampleField[] {
  const want = new Set<ExampleField>([...ALWAYS, ...select]);
  return EXAMPLE_FIELDS.filter((f) => want.has(f));
}

/**
 * Per field, its piece of the format() text and its argument, over a row of example_revisions. Ids are
 * UUIDs and timestamps ISO strings (both checked on the way in), so they are written as they are; stored
 * JSON text is written as stored; a source run id is quoted by SQLite; attachment URLs by a function.
 */
const FIELD_SQL: Record<ExampleField, [string, string]> = {
  id: ['"id":"%s"', 'example_id'],
  dataset_id: ['"dataset_id":"%s"', 'dataset_id'],
  name: ['"name":"#%.4s"', 'example_id'],
  inputs: ['"inputs":%s', 'inputs'],
  outputs: ['"outputs":%s', "ifnull(outputs, 'null')"],
  metadata: ['"metadata":%s', "ifnull(metadata, 'null')"],
  source_run_id: ['"source_run_id":%s', "ifnull(json_quote(source_run_id), 'null')"],
  created_at: ['"created_at":"%s"', 'created_at'],
  modified_at: ['"modified_at":"%s"', 'valid_from'],
  // The origin is a named parameter (see `originParam`), so it can sit anywhere among a page's `?`s.
  attachment_urls: ['"attachment_urls":%s', "CASE WHEN attachments IS NULL THEN '{}' ELSE ls_attachment_urls(@ls_origin, attachments) END"],
};

/**
 * The SQL expression of one example's JSON text over the columns of example_revisions. When the fields
 * include `attachment_urls`, bind `originParam(fields, origin)` first: the origin the URLs start with.
 */
export function exampleJsonSql(fields: readonly ExampleField[]): string {
  const pieces = fields.map((f) => FIELD_SQL[f]);
  return `format('{${pieces.map((p) => p[0]).join(',')}}', ${pieces.map((p) => p[1]).join(', ')})`;
}

/** The named parameter `exampleJsonSql` takes with these fields (better-sqlite3 wants it only when used). */
export function originParam(fields: readonly ExampleField[], origin: string): Array<{ ls_origin: string }> {
  return fields.includes('attachment_urls') ? [{ ls_origin: origin }] : [];
}

/** URLs this server serves for stored attachments, keyed `attachment.<name>` as LangSmith keys them. */
export function attachmentUrls(origin: string, attachments: string | null) {
  const a: Record<string, AttachmentRef> | null = jsonOrNull(attachments);
  const out: Record<string, { presigned_url: string; mime_type: string }> = {};
  if (!a) return out;
  for (const [name, ref] of Object.entries(a)) {
    out[`attachment.${name}`] = {
      presigned_url: `${origin}/attachments/${ref.hash}?type=${encodeURIComponent(ref.mime_type)}&name=${encodeURIComponent(name)}`,
      mime_type: ref.mime_type,
    };
  }
  return out;
}

const withExampleSql = new WeakSet<object>();

/** Registers the SQL functions example reads use (once per database connection). */
export function registerExampleSql(ctx: Ctx): void {
  if (withExampleSql.has(ctx.db)) return;
  ctx.db.function('ls_attachment_urls', { deterministic: true }, (origin: unknown, attachments: unknown) =>
    JSON.stringify(attachmentUrls(String(origin), typeof attachments === 'string' ? attachments : null)),
  );
  // A stable pseudo-random rank per (seed, example id): `order=random` with a `random_seed` gives the same
  // order on every page and every call, so a client can page through a shuffled dataset. FNV-1a over both.
  ctx.db.function('ls_seeded_rank', { deterministic: true }, (seed: unknown, id: unknown) => {
    const s = `${String(seed)}|${String(id)}`;
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h;
  });
  withExampleSql.add(ctx.db);
}

/** JSON text of one example as stored in a revision (what single reads answer), composed by SQLite. */
export function revisionJson(ctx: Ctx, rev: number, origin: string): string {
  registerExampleSql(ctx);
  return ctx.st.one<{ j: string }>(`SELECT ${exampleJsonSql(ALL_FIELDS)} AS j FROM example_revisions WHERE rev = ?`, ...originParam(ALL_FIELDS, origin), rev)!.j;
}
