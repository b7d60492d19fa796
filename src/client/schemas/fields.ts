// The field shapes every schema uses, and the reader of numbers that may come as decimal strings.

import * as z from 'zod';

/** Fields the server may omit or send as null. Unknown fields are kept (loose objects). */
export const str = z.string().nullish();
export const num = z.number().nullish();
export const bool = z.boolean().nullish();
/**
 * A JSON object. Its keys are strings by construction, so only the shape is checked: walking every key of
 * large inputs and outputs costs more than the rest of an example's validation.
 */
export const record = z.custom<Record<string, unknown>>((v) => v !== null && typeof v === 'object' && !Array.isArray(v), {
  message: 'expected an object',
});
export const recordish = record.nullish();
export const uuid = z.string();
/** A cost in USD: a number on v2, a number or a decimal string on v1. */
export const cost = z.union([z.number(), z.string()]).nullish();

/** A number from a cost or count that may come as a decimal string (v1) or not at all. */
export function numberOrNull(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}
