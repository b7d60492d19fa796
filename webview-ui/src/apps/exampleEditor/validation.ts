// Checks of the example editor's fields, done as the user types: JSON that parses to an object, and the
// dataset's JSON Schema for inputs and outputs. @cfworker/json-schema interprets schemas without generating code,
// so it runs under the webview's CSP (no eval).
import { Validator, type Schema } from '@cfworker/json-schema';

export type Parsed = { ok: true; value: Record<string, unknown> | null } | { ok: false; error: string };

/** The field's text as a JSON object; an empty optional field is null. */
export function parseObject(text: string, label: string, optional: boolean): Parsed {
  if (!text.trim()) return optional ? { ok: true, value: null } : { ok: false, error: `${label} cannot be empty: write a JSON object, e.g. {"question": "…"}.` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `${label} is not valid JSON: ${(err as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: `${label} must be a JSON object ({…}), not ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}.` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

const validators = new WeakMap<object, Validator>();

/** A part of a JSON pointer as text; a malformed escape (a key with a lone surrogate) is shown as it is. */
function decodePart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
const WRAPPERS = new Set(['properties', 'patternProperties', 'allOf', 'anyOf', 'oneOf', 'items', 'prefixItems', '$ref', 'if', 'then', 'else', 'dependentSchemas']);

/** Where the value breaks the schema, one line each: "inputs.currency: …". */
export function schemaErrors(schema: Record<string, unknown> | null, value: Record<string, unknown> | null, field: string): string[] {
  if (!schema) return [];
  let result: ReturnType<Validator['validate']>;
  try {
    let validator = validators.get(schema);
    if (!validator) {
      validator = new Validator(schema as Schema, '2020-12', false);
      validators.set(schema, validator);
    }
    result = validator.validate(value ?? {});
  } catch (err) {
    // The schema comes from the server: one the interpreter cannot use is reported at the field, not a broken page.
    return [`${field}: the dataset’s schema cannot be checked (${err instanceof Error ? err.message : String(err)}).`];
  }
  if (result.valid) return [];
  // The interpreter reports each failure and also the keywords that wrap it ("properties", "allOf"): keep the leaves.
  // A `false` subschema (what additionalProperties: false becomes) only repeats its parent's message.
  const leaves = result.errors.filter((e) => !WRAPPERS.has(e.keyword) && e.keyword !== 'false');
  const lines = (leaves.length ? leaves : result.errors).map((e) => {
    const where = e.instanceLocation.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodePart).join('.');
    return `${where ? `${field}.${where}` : field}: ${e.error.replace(/^Instance /, '')}`;
  });
  return [...new Set(lines)].slice(0, 8);
}
