// LangSmith's filter language: the parser (text → a tree of calls, names and values) and its bounds.
import { HttpError } from './errors';

/**
 * Bounds on a filter, so any text gives a 400 rather than a 500: nesting deeper than MAX_DEPTH would overflow the
 * recursive parser (or SQLite's expression depth, 1000), more than MAX_NODES values or MAX_PARAMS bound values
 * would exceed SQLite's expression depth or its limit on SQL variables. The JSON of has() becomes one subquery per
 * level, each some 30 levels of SQLite's expression depth: MAX_JSON_DEPTH keeps it (under 32 not()s) below 1000.
 */
export const FILTER_LIMITS = { MAX_DEPTH: 32, MAX_NODES: 1000, MAX_PARAMS: 1000, MAX_JSON_DEPTH: 16 } as const;

/** The filter as quoted in an error message (a long one cut short). */
export const quoted = (text: string) => `"${text.length > 200 ? `${text.slice(0, 200)}…` : text}"`;

export type Node =
  | { kind: 'call'; fn: string; args: Node[] }
  | { kind: 'str'; value: string }
  | { kind: 'num'; value: number }
  | { kind: 'ident'; name: string }
  | { kind: 'list'; items: Node[] };

export function parse(text: string): Node {
  let i = 0;
  let depth = 0;
  let nodes = 0;
  const fail = (msg: string): never => {
    throw new HttpError(400, `Invalid filter ${quoted(text)}: ${msg} at position ${i}`);
  };
  const enter = () => {
    if (++depth > FILTER_LIMITS.MAX_DEPTH) fail(`nested more than ${FILTER_LIMITS.MAX_DEPTH} levels deep`);
  };
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const value = (): Node => {
    if (++nodes > FILTER_LIMITS.MAX_NODES) fail(`more than ${FILTER_LIMITS.MAX_NODES} values and conditions`);
    ws();
    const c = text[i];
    if (c === '"' || c === "'") {
      i++;
      let s = '';
      while (i < text.length && text[i] !== c) {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        s += text[i++];
      }
      if (text[i] !== c) fail('unterminated string');
      i++;
      return { kind: 'str', value: s };
    }
    if (c === '[') {
      i++;
      enter();
      const items: Node[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        depth--;
        return { kind: 'list', items };
      }
      for (;;) {
        items.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          depth--;
          return { kind: 'list', items };
        } else fail('expected , or ]');
      }
    }
    const m = /^-?\d+(\.\d+)?/.exec(text.slice(i));
    if (m) {
      i += m[0].length;
      return { kind: 'num', value: Number(m[0]) };
    }
    // A name, or dotted names (metadata.key): a dot is always followed by a name.
    const id = /^[A-Za-z_]\w*(?:\.\w+)*/.exec(text.slice(i));
    if (!id) return fail('expected a value');
    i += id[0].length;
    ws();
    if (text[i] === '(') {
      i++;
      enter();
      const args: Node[] = [];
      ws();
      if (text[i] === ')') {
        i++;
        depth--;
        return { kind: 'call', fn: id[0].toLowerCase(), args };
      }
      for (;;) {
        args.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ')') {
          i++;
          depth--;
          return { kind: 'call', fn: id[0].toLowerCase(), args };
        } else fail('expected , or )');
      }
    }
    return { kind: 'ident', name: id[0] };
  };
  const root = value();
  ws();
  if (i !== text.length) fail('unexpected trailing text');
  return root;
}

/** The two places LangSmith's filter language is used: `/runs/query` and `GET /examples?filter=`. */
export type FilterDialect = 'runs' | 'examples';

export interface CompiledFilter {
  sql: string;
  params: unknown[];
}
