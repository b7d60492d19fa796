import { LangSmithValidationError } from '../errors';
import { assertUuid } from '../ids';
import { MSG } from '../messages';

export type DateLike = Date | string;

export function iso(d: DateLike | undefined | null): string | undefined {
  if (d === undefined || d === null) return undefined;
  return typeof d === 'string' ? d : d.toISOString();
}

/** Drops undefined values so the wire carries only what the caller set. */
export function compact<T extends Record<string, unknown>>(o: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as Partial<T>;
}

export function datasetTarget(o: { datasetId?: string; datasetName?: string }): { datasetId?: string; datasetName?: string } {
  if (o.datasetId !== undefined && o.datasetName !== undefined) throw new LangSmithValidationError(MSG.datasetIdAndName);
  if (o.datasetId === undefined && o.datasetName === undefined) throw new LangSmithValidationError(MSG.datasetIdOrName);
  if (o.datasetId !== undefined) assertUuid(o.datasetId, 'datasetId');
  return o;
}

export function projectTarget(o: { projectId?: string; projectName?: string }): { projectId?: string; projectName?: string } {
  if (o.projectId !== undefined && o.projectName !== undefined) throw new LangSmithValidationError(MSG.projectIdAndName);
  if (o.projectId === undefined && o.projectName === undefined) throw new LangSmithValidationError(MSG.projectIdOrName);
  if (o.projectId !== undefined) assertUuid(o.projectId, 'projectId');
  return o;
}

/** Path segment for an id, checked first. */
export function seg(value: string, which: string): string {
  return encodeURIComponent(assertUuid(value, which));
}
