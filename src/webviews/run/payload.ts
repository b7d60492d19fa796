// A run's inputs, outputs or metadata, cut to what a page can hold. A run may carry megabytes (a whole document
// in a prompt, a long array of embeddings); the page gets the first part of each long string, the first items
// of each long array, the first keys of each wide object, and a list of where it was cut, so it can say how
// much more there is and ask for the whole value by its path. Plain functions, no `vscode`: tested in Node.
import type { Cut, Payload } from '../../protocol/trace';

export interface CutLimits {
  /** Characters kept of a long string. */
  string: number;
  /** Items kept of a long array. */
  array: number;
  /** Keys kept of a wide object. */
  object: number;
  /** Levels below which a container is cut whole. */
  depth: number;
  /**
   * Roughly the characters the page gets in all: once spent, strings keep `spentString` characters and arrays
   * and objects `spentItems` items, so a payload of many medium values stays small too.
   */
  budget: number;
  spentString: number;
  spentItems: number;
  /** Places listed (the protocol bounds them); beyond them values are still cut, without a Show all. */
  cuts: number;
}

export const DEFAULT_LIMITS: CutLimits = {
  string: 20_000,
  array: 200,
  object: 500,
  depth: 40,
  budget: 1_000_000,
  spentString: 200,
  spentItems: 20,
  cuts: 5_000,
};

type Path = (string | number)[];

/** The value with long parts cut, where they were cut, and the size of the whole value's JSON. */
export function cutPayload(value: unknown, limits: CutLimits = DEFAULT_LIMITS): Payload {
  const cuts: Cut[] = [];
  let spent = 0;
  const spentOut = () => spent >= limits.budget;
  const note = (cut: Cut) => {
    if (cuts.length < limits.cuts) cuts.push(cut);
  };

  function walk(v: unknown, path: Path, depth: number): unknown {
    if (typeof v === 'string') {
      const keep = spentOut() ? limits.spentString : limits.string;
      if (v.length > keep) {
        note({ path, kind: 'string', length: v.length });
        spent += keep;
        return v.slice(0, keep);
      }
      spent += v.length;
      return v;
    }
    if (v === null || typeof v !== 'object') {
      spent += 8;
      return v;
    }
    if (Array.isArray(v)) {
      if (depth >= limits.depth && v.length > 0) {
        note({ path, kind: 'array', length: v.length });
        return [];
      }
      const keep = Math.min(v.length, spentOut() ? limits.spentItems : limits.array);
      if (keep < v.length) note({ path, kind: 'array', length: v.length });
      const out: unknown[] = new Array<unknown>(keep);
      for (let i = 0; i < keep; i++) out[i] = walk(v[i], [...path, i], depth + 1);
      spent += 2;
      return out;
    }
    const keys = Object.keys(v);
    if (depth >= limits.depth && keys.length > 0) {
      note({ path, kind: 'object', length: keys.length });
      return {};
    }
    const keep = Math.min(keys.length, spentOut() ? limits.spentItems : limits.object);
    if (keep < keys.length) note({ path, kind: 'object', length: keys.length });
    // A null prototype: a key named "__proto__" stays a key, and nothing reaches Object.prototype.
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (let i = 0; i < keep; i++) {
      const k = keys[i]!;
      spent += k.length + 4;
      out[k] = walk((v as Record<string, unknown>)[k], [...path, k], depth + 1);
    }
    return out;
  }

  const cut = walk(value, [], 0);
  return { value: cut, cuts, bytes: jsonLength(value) };
}

/** The length of the value's JSON, or 0 when it has none (a cycle cannot come from JSON, but say so plainly). */
function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}

/** The value at `path` in `value` (own keys only), or undefined when the path leads nowhere. */
export function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let v: unknown = value;
  for (const step of path) {
    if (v === null || typeof v !== 'object') return undefined;
    if (Array.isArray(v)) {
      if (typeof step !== 'number' || step < 0 || step >= v.length) return undefined;
      v = v[step];
    } else {
      const key = String(step);
      if (!Object.hasOwn(v, key)) return undefined;
      v = (v as Record<string, unknown>)[key];
    }
  }
  return v;
}

/** A value as text to show whole: a string as it is, anything else as indented JSON. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2) ?? String(value);
}
