import Mustache from 'mustache';
import { LangSmithValidationError } from '../errors';
import { stringifyValue } from './fstring';

type Token = [string, string, number, number, Token[]?, number?];

/** Sections nested deeper than this are refused: reading and rendering them recurses once per level. */
export const MAX_MUSTACHE_DEPTH = 100;

function parse(template: string): Token[] {
  let tokens: Token[];
  try {
    tokens = Mustache.parse(template) as unknown as Token[];
  } catch (e) {
    throw new LangSmithValidationError(`Invalid mustache template: ${e instanceof Error ? e.message : String(e)}`);
  }
  // Measured without recursion, so no depth overflows the stack here either.
  const pending: Array<[Token[], number]> = [[tokens, 0]];
  while (pending.length) {
    const [list, depth] = pending.pop()!;
    for (const t of list) {
      if (!t[4]) continue;
      if (depth + 1 > MAX_MUSTACHE_DEPTH) throw new LangSmithValidationError(`Invalid mustache template: sections nested more than ${MAX_MUSTACHE_DEPTH} deep`);
      pending.push([t[4], depth + 1]);
    }
  }
  return tokens;
}

/**
 * Full variable paths of a mustache template (`a.b` stays `a.b`), in order of appearance, each once.
 * Names inside a section belong to the section's context and are listed with the section as prefix
 * only when the section is not a plain list; here they are left out, as LangChain does.
 */
export function mustacheVariablePaths(template: string): string[] {
  const seen = new Set<string>();
  const walk = (tokens: Token[], inSection: boolean) => {
    for (const t of tokens) {
      const [type, value] = t;
      if ((type === 'name' || type === '&') && !inSection && value !== '.') seen.add(value);
      if (type === '#' || type === '^') {
        if (!inSection) seen.add(value);
        walk(t[4] ?? [], true);
      }
    }
  };
  walk(parse(template), false);
  return [...seen];
}

/** The inputs a mustache template needs: the first segment of each top-level name. */
export function mustacheVariables(template: string): string[] {
  return [...new Set(mustacheVariablePaths(template).map((p) => p.split('.')[0]!))];
}

const hasOwn = (o: unknown, name: string): boolean => o !== null && o !== undefined && Object.hasOwn(Object(o), name);

/** A context and the ones around it, innermost first. */
function* upwards(context: Mustache.Context): Generator<Mustache.Context> {
  for (let c: Mustache.Context | undefined = context; c; c = c.parent) yield c;
}

/**
 * Mustache's lookup with the values' own properties only. mustache.js finds names with `in` and calls any function
 * it finds, so `{{constructor}}` rendered what calling `Object` gives and `{{list.map}}` or `{{__defineGetter__}}`
 * threw a TypeError: names now reach only what the values hold (a string's `length` still counts: it is its own).
 */
class OwnContext extends Mustache.Context {
  override push(view: unknown): Mustache.Context {
    return new OwnContext(view, this);
  }

  override lookup(name: string): unknown {
    if (name === '.') return this.view;
    const names = name.indexOf('.') > 0 ? name.split('.') : [name];
    for (const context of upwards(this)) {
      let value: unknown = context.view;
      let hit = false;
      for (let i = 0; i < names.length && value !== null && value !== undefined; i++) {
        // Without dots only an object's own name counts (as mustache.js: `{{length}}` of a string context is not found).
        hit = names.length === 1 ? typeof value === 'object' && hasOwn(value, names[i]!) : hasOwn(value, names[i]!);
        value = hit ? (value as Record<string, unknown>)[names[i]!] : undefined;
      }
      if (hit) return typeof value === 'function' ? (value as (this: unknown) => unknown).call(this.view) : value;
    }
    return undefined;
  }
}

/** Renders with sections and dotted names; values are not HTML-escaped (prompts are not HTML). */
export function renderMustache(template: string, values: Record<string, unknown>): string {
  parse(template);
  // No prototype: a value named __proto__ is an ordinary name.
  const view: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(values)) view[k] = v;
  return Mustache.render(template, new OwnContext(view), {}, { escape: (s: unknown) => stringifyValue(s) });
}
