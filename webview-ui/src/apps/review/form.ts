// The review form as data: what each rubric field holds, how a draft restores it, whether it may be submitted,
// and the Review that Done sends. Pure: no React.
import type { Draft, FeedbackConfig, Review, RubricField } from '../../../../src/protocol/review';

export interface FieldValue {
  /** A continuous score, or the chosen category's value. */
  score: number | null;
  /** The chosen category's label, or a freeform text. */
  value: string | null;
}

export interface Form {
  fields: Record<string, FieldValue>;
  comment: string;
  /** The corrected outputs as typed (JSON text); empty: no correction. */
  correction: string;
}

export const EMPTY_FORM: Form = { fields: {}, comment: '', correction: '' };

const EMPTY_VALUE: FieldValue = { score: null, value: null };

/** A field's value; own keys only (a rubric key may be `constructor` or `__proto__`). */
export function valueOf(form: Form, key: string): FieldValue {
  return Object.hasOwn(form.fields, key) ? form.fields[key]! : EMPTY_VALUE;
}

export function withValue(form: Form, key: string, value: FieldValue): Form {
  const fields: Record<string, FieldValue> = {};
  for (const k of Object.keys(form.fields)) if (k !== key) Object.defineProperty(fields, k, { value: form.fields[k], enumerable: true, writable: true, configurable: true });
  Object.defineProperty(fields, key, { value, enumerable: true, writable: true, configurable: true });
  return { ...form, fields };
}

export function fromDraft(draft: Draft | null): Form {
  if (!draft) return EMPTY_FORM;
  return { fields: draft.fields, comment: draft.comment, correction: draft.correction };
}

export function isEmpty(form: Form): boolean {
  return form.comment === '' && form.correction === '' && Object.values(form.fields).every((v) => v.score === null && (v.value === null || v.value === ''));
}

export function isFilled(field: RubricField, v: FieldValue): boolean {
  if (field.config.type === 'freeform') return (v.value ?? '').trim() !== '';
  return v.score !== null;
}

/** The continuous range and step: the step is a tenth of the range, else 0.1. */
export function scale(config: Extract<FeedbackConfig, { type: 'continuous' }>): { min: number | null; max: number | null; step: number } {
  const { min, max } = config;
  const step = min !== null && max !== null && max > min ? roundStep((max - min) / 10) : 0.1;
  return { min, max, step };
}

function roundStep(n: number): number {
  return Number(n.toPrecision(6));
}

/** The score for number key `n` (0–9) on a continuous field: n steps above its minimum, within its range. */
export function scoreForKey(config: Extract<FeedbackConfig, { type: 'continuous' }>, n: number): number {
  const { min, max, step } = scale(config);
  const score = Number(((min ?? 0) + n * step).toPrecision(12));
  return max !== null ? Math.min(max, score) : score;
}

/** Why a continuous score cannot be used, or undefined. */
export function scoreProblem(config: Extract<FeedbackConfig, { type: 'continuous' }>, text: string): string | undefined {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  const { min, max } = config;
  const range = min !== null && max !== null ? `between ${min} and ${max}` : min !== null ? `of at least ${min}` : max !== null ? `of at most ${max}` : '';
  if (!Number.isFinite(n)) return `Enter a number${range ? ` ${range}` : ''}.`;
  if ((min !== null && n < min) || (max !== null && n > max)) return `Enter a number ${range}.`;
  return undefined;
}

export type Parsed = { ok: true; value: Record<string, unknown> | null } | { ok: false; error: string };

/** The correction as typed: nothing (empty), a JSON object, or why not. */
export function parseCorrection(text: string): Parsed {
  if (text.trim() === '') return { ok: true, value: null };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `Not valid JSON: ${(err as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'The corrected outputs must be a JSON object ({ … }).' };
  return { ok: true, value: value as Record<string, unknown> };
}

/** The required fields still empty. */
export function missing(rubric: readonly RubricField[], form: Form): RubricField[] {
  return rubric.filter((f) => f.required && !isFilled(f, valueOf(form, f.key)));
}

/**
 * The review Done sends: one entry per filled rubric field (keys no longer in the rubric are left out), the
 * comment, and the correction when it differs from the run's outputs (`original`).
 */
export function toReview(rubric: readonly RubricField[], form: Form, original: unknown): Review {
  const fields: Review['fields'] = [];
  for (const f of rubric) {
    const v = valueOf(form, f.key);
    if (!isFilled(f, v)) continue;
    if (f.config.type === 'continuous') fields.push({ key: f.key, score: v.score, value: null });
    else if (f.config.type === 'categorical') fields.push({ key: f.key, score: v.score, value: v.value });
    else fields.push({ key: f.key, score: null, value: v.value });
  }
  const parsed = parseCorrection(form.correction);
  const correction = parsed.ok && parsed.value !== null && JSON.stringify(parsed.value) !== JSON.stringify(original ?? null) ? parsed.value : null;
  return { fields, comment: form.comment.trim() === '' ? null : form.comment, correction };
}

export function toDraft(form: Form, savedAt: number): Draft {
  return { fields: form.fields, comment: form.comment, correction: form.correction, savedAt };
}
