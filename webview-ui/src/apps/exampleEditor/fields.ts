// Inputs and outputs edited one top-level field at a time: a string as the text it is (real line breaks), any
// other value as JSON. The mapping is exact both ways: a field left alone gives back the very value it was made from.
//
// A textarea turns every "\r\n" and lone "\r" into "\n", and shows control characters as nothing at all, so a string
// is edited as text only when its text survives a textarea unchanged: line breaks all "\n" or all "\r\n" (then shown
// as "\n" and written back as "\r\n"), tabs, any Unicode, but no other control character and no lone surrogate.
// Any other string is edited as a JSON string, escapes and all.

/** One top-level field of an object, as the user edits it. */
export interface FieldText {
  key: string;
  kind: 'text' | 'json';
  /** What the textarea holds: the string itself (kind text) or the value's JSON (kind json). */
  text: string;
  /** A text field whose line breaks are "\r\n": its "\n" are written back as "\r\n". */
  crlf?: boolean;
}

export type FieldsParsed = { ok: true; value: Record<string, unknown> } | { ok: false; errors: Map<string, string> };

// Control characters other than tab, line feed and carriage return; lone surrogates.
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** How a string shows in a text field, or undefined when a textarea would not give it back unchanged. */
export function asText(value: string): { text: string; crlf: boolean } | undefined {
  if (HIDDEN.test(value)) return undefined;
  if (!value.includes('\r')) return { text: value, crlf: false };
  const text = value.replace(/\r\n/g, '\n');
  // A lone "\r", or "\n" next to "\r\n": the line breaks could not be written back as they were.
  if (text.includes('\r') || text.split('\n').length !== value.split('\r\n').length) return undefined;
  return { text, crlf: true };
}

/** Whether an object is edited field by field: it has fields (an empty one is written as JSON, keys and all). */
export function editsAsFields(value: Record<string, unknown> | null): value is Record<string, unknown> {
  return value !== null && Object.keys(value).length > 0;
}

/** The fields of an object, in its key order. */
export function toFields(value: Record<string, unknown>): FieldText[] {
  return Object.entries(value).map(([key, v]) => {
    const text = typeof v === 'string' ? asText(v) : undefined;
    if (text) return text.crlf ? { key, kind: 'text', text: text.text, crlf: true } : { key, kind: 'text', text: text.text };
    return { key, kind: 'json', text: JSON.stringify(v, null, 2) ?? 'null' };
  });
}

/** The text of a text field as the string it stands for. */
export const fromText = (field: FieldText): string => (field.crlf ? field.text.replace(/\r\n|\r|\n/g, '\r\n') : field.text);

/** The object the fields make, or the error of each field that is not valid JSON, by key. */
export function fromFields(fields: readonly FieldText[], label: string): FieldsParsed {
  const value: Record<string, unknown> = {};
  const errors = new Map<string, string>();
  for (const field of fields) {
    let v: unknown;
    if (field.kind === 'text') v = fromText(field);
    else if (!field.text.trim()) {
      errors.set(field.key, `${label}.${field.key} is empty: write a JSON value (e.g. null, 3, "text", […] or {…}).`);
      continue;
    } else {
      try {
        v = JSON.parse(field.text);
      } catch (err) {
        errors.set(field.key, `${label}.${field.key} is not valid JSON: ${(err as Error).message}`);
        continue;
      }
    }
    // Own properties only, even for a key named __proto__.
    Object.defineProperty(value, field.key, { value: v, enumerable: true, configurable: true, writable: true });
  }
  return errors.size ? { ok: false, errors } : { ok: true, value };
}

/** Rows for a field's textarea: its lines (long lines counted as wrapped), between 1 and 16. */
export function rowsFor(text: string, charsPerLine = 90): number {
  const lines = text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / charsPerLine)), 0);
  return Math.min(16, Math.max(1, lines));
}
