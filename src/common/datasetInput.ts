// What the dataset commands accept: a CSV header, tags, split names, JSON objects, limits. No `vscode` import (unit-tested in Node).
/** A dataset name from a file name: the base name without its extension. */
export function datasetNameFromFile(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  return base.replace(/\.[^.]+$/, '') || base;
}

/** Validation for a dataset version tag: one word. */
export function validateTagName(value: string): string | undefined {
  const v = value.trim();
  if (!v) return 'Give the tag a name.';
  if (/\s/.test(v)) return 'A tag has no spaces; use - or _ instead.';
  if (v.length > 100) return 'Keep the tag under 100 characters.';
  return undefined;
}

/** Validation for a dataset split name. */
export function validateSplitName(value: string): string | undefined {
  const v = value.trim();
  if (!v) return 'Give the split a name.';
  if (v.length > 100) return 'Keep the split name under 100 characters.';
  if (/\p{Cc}/u.test(v)) return 'Names cannot contain control characters.';
  return undefined;
}

/** Parses text as a JSON object (not an array or a single value); throws with a readable message. */
export function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`That is not valid JSON: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('Enter a JSON object ({ … }), not an array or a single value.');
  return value as Record<string, unknown>;
}

/** Validation for an input box that takes a JSON object; `optional` lets an empty answer through. */
export function validateJsonObject(what: string, optional = false): (value: string) => string | undefined {
  return (value) => {
    const v = value.trim();
    if (!v) return optional ? undefined : `Enter the ${what} as a JSON object, e.g. {"question": "What is LangSmith?"}`;
    try {
      parseJsonObject(v);
      return undefined;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  };
}

/** Validation for a whole number in [min, max]. */
export function validateWholeNumber(min: number, max: number): (value: string) => string | undefined {
  return (value) => {
    const v = value.trim();
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) return `Enter a whole number from ${min} to ${max}.`;
    return undefined;
  };
}
