import Mustache from 'mustache';
import { LangSmithValidationError } from '../errors';
import { stringifyValue } from './fstring';

type Token = [string, string, number, number, Token[]?, number?];

function parse(template: string): Token[] {
  try {
    return Mustache.parse(template) as unknown as Token[];
  } catch (e) {
    throw new LangSmithValidationError(`Invalid mustache template: ${e instanceof Error ? e.message : String(e)}`);
  }
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

/** Renders with sections and dotted names; values are not HTML-escaped (prompts are not HTML). */
export function renderMustache(template: string, values: Record<string, unknown>): string {
  parse(template);
  const view: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) view[k] = v;
  return Mustache.render(template, view, {}, { escape: (s: unknown) => stringifyValue(s) });
}
