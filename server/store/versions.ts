// Dataset versions: every change to a dataset's examples opens one, named by its timestamp, and a tag or a
// timestamp names one to read at.
import type { Ctx } from '../context';
import { HttpError } from '../errors';
import { parseTime } from '../time';

/** Opens a new dataset version (strictly later than every earlier one) and returns its timestamp. */
export function newVersion(ctx: Ctx, datasetId: string): string {
  const last = ctx.st.one<{ as_of: string }>('SELECT MAX(as_of) AS as_of FROM dataset_versions WHERE dataset_id = ?', datasetId)?.as_of;
  const asOf = ctx.clock.next(datasetId, last);
  ctx.st.run('INSERT INTO dataset_versions (dataset_id, as_of) VALUES (?, ?)', datasetId, asOf);
  ctx.st.run('UPDATE datasets SET modified_at = ? WHERE id = ?', asOf, datasetId);
  return asOf;
}

/**
 * Resolves a version reference: undefined/'latest' → null (the current state), a tag → its timestamp,
 * a timestamp → itself. Tags win over timestamps so a tag named like a date still works.
 */
export function resolveVersion(ctx: Ctx, datasetId: string, ref: string | undefined | null, what = 'as_of'): string | null {
  if (ref === undefined || ref === null || ref === '' || ref === 'latest') return null;
  const tag = ctx.st.one<{ as_of: string }>('SELECT as_of FROM dataset_tags WHERE dataset_id = ? AND tag = ?', datasetId, ref);
  if (tag) return tag.as_of;
  const t = parseTime(ref);
  if (!t) throw new HttpError(404, `${what}: no tag named "${ref}" and not a timestamp`);
  return t;
}

/** SQL for "the examples of dataset ? as they were at version ?" (null = now). */
export function stateWhere(asOf: string | null): { sql: string; params: (v: string) => unknown[] } {
  if (asOf === null) return { sql: 'e.dataset_id = ? AND e.valid_to IS NULL', params: (d) => [d] };
  return { sql: 'e.dataset_id = ? AND e.valid_from <= ? AND (e.valid_to IS NULL OR e.valid_to > ?)', params: (d) => [d, asOf, asOf] };
}
