// LangSmith's filter language (`and(eq(run_type, "llm"), gt(latency, 2))`) compiled to SQL.
import { HttpError } from './util';

/**
 * Bounds on a filter, so any text gives a 400 rather than a 500: nesting deeper than MAX_DEPTH would overflow the
 * recursive parser (or SQLite's expression depth, 1000), more than MAX_NODES values or MAX_PARAMS bound values
 * would exceed SQLite's expression depth or its limit on SQL variables.
 */
export const FILTER_LIMITS = { MAX_DEPTH: 32, MAX_NODES: 1000, MAX_PARAMS: 1000 } as const;

/** The filter as quoted in an error message (a long one cut short). */
const quoted = (text: string) => `"${text.length > 200 ? `${text.slice(0, 200)}…` : text}"`;

type Node =
  | { kind: 'call'; fn: string; args: Node[] }
  | { kind: 'str'; value: string }
  | { kind: 'num'; value: number }
  | { kind: 'ident'; name: string }
  | { kind: 'list'; items: Node[] };

function parse(text: string): Node {
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

export interface FieldResolver {
  /** SQL expression for a field name, or undefined when unknown. */
  field(name: string): string | undefined;
  /** Special handling for has()/exists()/search(); return undefined to fall back. */
  special?(fn: string, args: Node[], lit: (n: Node) => unknown, params: unknown[]): string | undefined;
}

const OPS: Record<string, string> = { eq: '=', neq: '!=', gt: '>', gte: '>=', lt: '<', lte: '<=' };

export function compileFilter(text: string, resolver: FieldResolver): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const lit = (n: Node): unknown => {
    if (n.kind === 'str') return n.value;
    if (n.kind === 'num') return n.value;
    if (n.kind === 'ident') {
      if (n.name === 'null' || n.name === 'None') return null;
      if (n.name === 'true' || n.name === 'True') return 1;
      if (n.name === 'false' || n.name === 'False') return 0;
    }
    throw new HttpError(400, `Invalid filter ${quoted(text)}: expected a literal value`);
  };
  const fieldOf = (n: Node): string => {
    const name = n.kind === 'ident' ? n.name : n.kind === 'str' ? n.value : '';
    const f = resolver.field(name);
    if (!f) throw new HttpError(400, `Invalid filter ${quoted(text)}: unknown field "${name}"`);
    return f;
  };
  const comp = (n: Node): string => {
    if (n.kind !== 'call') throw new HttpError(400, `Invalid filter ${quoted(text)}: expected a comparison`);
    const special = resolver.special?.(n.fn, n.args, lit, params);
    if (special !== undefined) return special;
    switch (n.fn) {
      case 'and':
      case 'or':
        if (!n.args.length) throw new HttpError(400, `Invalid filter ${quoted(text)}: ${n.fn}() needs arguments`);
        return `(${n.args.map(comp).join(n.fn === 'and' ? ' AND ' : ' OR ')})`;
      case 'not':
        if (n.args.length !== 1) throw new HttpError(400, `Invalid filter ${quoted(text)}: not() takes one argument`);
        return `(NOT ${comp(n.args[0])})`;
      case 'in': {
        if (n.args.length !== 2 || n.args[1].kind !== 'list')
          throw new HttpError(400, `Invalid filter ${quoted(text)}: in(field, [values])`);
        const f = fieldOf(n.args[0]);
        const vals = n.args[1].items.map(lit);
        if (!vals.length) return '0';
        params.push(...vals);
        return `${f} IN (${vals.map(() => '?').join(',')})`;
      }
      default: {
        const op = OPS[n.fn];
        if (!op || n.args.length !== 2) throw new HttpError(400, `Invalid filter ${quoted(text)}: unknown operator ${n.fn}()`);
        const f = fieldOf(n.args[0]);
        const v = lit(n.args[1]);
        if (v === null) {
          if (op === '=') return `${f} IS NULL`;
          if (op === '!=') return `${f} IS NOT NULL`;
          throw new HttpError(400, `Invalid filter ${quoted(text)}: cannot compare with null`);
        }
        params.push(v);
        return `${f} ${op} ?`;
      }
    }
  };
  const sql = comp(parse(text));
  if (params.length > FILTER_LIMITS.MAX_PARAMS) throw new HttpError(400, `Invalid filter ${quoted(text)}: more than ${FILTER_LIMITS.MAX_PARAMS} values to compare`);
  return { sql, params };
}

export type { Node as FilterNode };
