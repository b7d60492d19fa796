import { LangSmithValidationError } from '../errors';
import { MSG } from '../messages';

export type FStringNode = { type: 'literal'; text: string } | { type: 'variable'; name: string };

/**
 * Parses a Python-style f-string template: `{name}` is a variable, `{{` and `}}` are literal braces;
 * an unclosed `{` or a lone `}` is an error.
 */
export function parseFString(template: string): FStringNode[] {
  const nodes: FStringNode[] = [];
  let text = '';
  const flush = () => {
    if (text) nodes.push({ type: 'literal', text });
    text = '';
  };
  for (let i = 0; i < template.length; ) {
    const ch = template[i]!;
    const next = template[i + 1];
    if (ch === '{' && next === '{') {
      text += '{';
      i += 2;
    } else if (ch === '}' && next === '}') {
      text += '}';
      i += 2;
    } else if (ch === '{') {
      const close = template.indexOf('}', i + 1);
      if (close < 0) throw new LangSmithValidationError(MSG.unclosedBrace);
      flush();
      nodes.push({ type: 'variable', name: template.slice(i + 1, close) });
      i = close + 1;
    } else if (ch === '}') {
      throw new LangSmithValidationError(MSG.singleBrace);
    } else {
      text += ch;
      i++;
    }
  }
  flush();
  return nodes;
}

/** Variable names in order of first appearance, each once. */
export function fstringVariables(template: string): string[] {
  const seen = new Set<string>();
  for (const n of parseFString(template)) if (n.type === 'variable') seen.add(n.name);
  return [...seen];
}

export function stringifyValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Renders the template; a variable without a value raises `(f-string) Missing value for input {name}`. */
export function renderFString(template: string, values: Record<string, unknown>): string {
  let out = '';
  for (const n of parseFString(template)) {
    if (n.type === 'literal') out += n.text;
    else {
      // Own values only: `{constructor}` is a missing input, not Object's constructor.
      if (!Object.hasOwn(values, n.name) || values[n.name] === undefined) throw new LangSmithValidationError(MSG.missingFStringInput(n.name));
      out += stringifyValue(values[n.name]);
    }
  }
  return out;
}

/** The template text of nodes, with literal braces escaped again (parse → write is the identity up to escapes). */
export function writeFString(nodes: FStringNode[]): string {
  return nodes.map((n) => (n.type === 'literal' ? n.text.replace(/\{/g, '{{').replace(/\}/g, '}}') : `{${n.name}}`)).join('');
}
