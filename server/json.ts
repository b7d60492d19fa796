// Stored JSON text in and out.
/** Parses stored JSON text as the type the caller knows it was written as (unchecked, like a row type). */
export function jsonOrNull<T = unknown>(text: string | null | undefined): T | null {
  if (text === null || text === undefined) return null;
  return JSON.parse(text);
}

export const toJson = (v: unknown): string | null => (v === undefined || v === null ? null : JSON.stringify(v));

/** Canonical JSON (sorted keys) for comparing manifests. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const keys = Object.keys(v as object).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}
