// LangSmith's filter language (`and(eq(run_type, "llm"), gt(latency, 2))`) compiled to SQL.
import { HttpError } from './errors';
import { parseTime } from './time';
import { FILTER_LIMITS, parse, quoted, type CompiledFilter, type Node } from './filterParse';
import {
  COMPARATORS, EXAMPLES, OPERATORS, RUNS, durationSeconds, jsonPath, own, short, showLit, sqlStr, textOf,
  type Dialect, type Family, type Field, type Lit, type Operand, type ScalarType,
} from './filterFields';

export { FILTER_LIMITS, type CompiledFilter, type FilterDialect } from './filterParse';
export { FILTER_FIELDS, threadIdSql } from './filterFields';

// ---------- the compiler ----------

class Compiler {
  readonly params: unknown[] = [];
  private aliases = 0;
  /** Values of has() JSON objects, counted against the same bound as the filter's own values. */
  private jsonNodes = 0;

  constructor(
    private readonly text: string,
    private readonly dialect: Dialect,
  ) {}

  fail(msg: string): never {
    throw new HttpError(400, `Invalid filter ${quoted(this.text)}: ${msg}`);
  }

  private bind(v: unknown): string {
    this.params.push(v);
    return '?';
  }

  // --- literals ---

  lit(n: Node, what: string): Lit {
    if (n.kind === 'str') return { t: 'str', v: n.value };
    if (n.kind === 'num') return { t: 'num', v: n.value };
    if (n.kind === 'ident') {
      if (n.name === 'null' || n.name === 'None') return { t: 'null' };
      if (n.name === 'true' || n.name === 'True') return { t: 'bool', v: true };
      if (n.name === 'false' || n.name === 'False') return { t: 'bool', v: false };
    }
    const got = n.kind === 'ident' ? `the name ${n.name}` : n.kind === 'list' ? 'a list' : `${n.fn}(…)`;
    return this.fail(`${what} takes a value ("text", a number, true, false or null), not ${got}`);
  }

  /** A literal as a scalar field stores it (a timestamp normalized, "5s" in seconds, an id in lower case). */
  private scalarValue(l: Exclude<Lit, { t: 'null' }>, type: ScalarType, field: string): string | number {
    const bad = (want: string): never => this.fail(`${field} is compared with ${want}, not ${showLit(l)}`);
    switch (type) {
      case 'text':
        return l.t === 'bool' ? bad('text') : String(l.v);
      case 'id':
        return l.t === 'str' ? l.v.toLowerCase() : bad('an id ("…")');
      case 'number': {
        const n = l.t === 'num' ? l.v : l.t === 'str' && l.v.trim() !== '' ? Number(l.v) : NaN;
        return Number.isFinite(n) ? n : bad('a number');
      }
      case 'duration': {
        const n = l.t === 'num' ? l.v : l.t === 'str' ? durationSeconds(l.v) : undefined;
        return n !== undefined && Number.isFinite(n) ? n : bad('seconds (2.5) or a duration ("5s", "500ms", "2m")');
      }
      case 'time': {
        const t = l.t === 'str' || l.t === 'num' ? parseTime(l.v) : null;
        return t ?? bad('a timestamp ("2024-07-15T12:34:56Z")');
      }
      case 'bool':
        if (l.t === 'bool') return l.v ? 1 : 0;
        if (l.t === 'num' && (l.v === 0 || l.v === 1)) return l.v;
        if (l.t === 'str' && /^(true|false)$/i.test(l.v)) return l.v.toLowerCase() === 'true' ? 1 : 0;
        return bad('true or false');
    }
  }

  // --- comparisons on one operand; the result may be NULL (not() turns NULL into false first) ---

  compare(o: Operand, op: string, l: Lit, field: string): string {
    if (op === 'neq') return `(NOT COALESCE(${this.compare(o, 'eq', l, field)}, 0))`;
    const sqlOp = own(COMPARATORS, op);
    if (o.kind === 'scalar') {
      if (l.t === 'null') return op === 'eq' ? `${o.sql} IS NULL` : this.fail(`${op}(${field}, null): only eq and neq compare with null`);
      if (o.type === 'bool' && op !== 'eq') this.fail(`${op}(${field}, …): ${field} is true or false; use eq or neq`);
      return `${o.sql} ${sqlOp} ${this.bind(this.scalarValue(l, o.type, field))}`;
    }
    switch (l.t) {
      case 'null':
        return op === 'eq' ? `COALESCE(${o.typeSql}, 'null') = 'null'` : this.fail(`${op}(${field}, null): only eq and neq compare with null`);
      case 'bool':
        return op === 'eq' ? `${o.typeSql} = '${l.v}'` : this.fail(`${op}(${field}, ${l.v}): only eq and neq compare with true or false`);
      case 'num':
        return `(${o.typeSql} IN ('integer', 'real') AND ${o.valueSql} ${sqlOp} ${this.bind(l.v)})`;
      case 'str':
        return `${textOf(o)} ${sqlOp} ${this.bind(l.v)}`;
    }
  }

  /** in(field, [a, b]): eq to any of them (values of one kind in one IN list, so long lists stay shallow SQL). */
  compareIn(o: Operand, items: Node[], field: string): string {
    const lits = items.map((n) => this.lit(n, `in(${field}, […])`));
    if (!lits.length) return '0';
    const parts: string[] = [];
    if (o.kind === 'scalar') {
      const vals = lits.filter((l): l is Exclude<Lit, { t: 'null' }> => l.t !== 'null');
      if (vals.length) parts.push(`${o.sql} IN (${vals.map((l) => this.bind(this.scalarValue(l, o.type, field))).join(', ')})`);
      if (vals.length < lits.length) parts.push(`${o.sql} IS NULL`);
    } else {
      const strs = lits.filter((l) => l.t === 'str');
      const nums = lits.filter((l) => l.t === 'num');
      if (strs.length) parts.push(`${textOf(o)} IN (${strs.map((l) => this.bind(l.v)).join(', ')})`);
      if (nums.length) parts.push(`(${o.typeSql} IN ('integer', 'real') AND ${o.valueSql} IN (${nums.map((l) => this.bind(l.v)).join(', ')}))`);
      for (const l of lits) if (l.t === 'null' || l.t === 'bool') parts.push(this.compare(o, 'eq', l, field));
    }
    return parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`;
  }

  /** Case-blind substring (ASCII case, like LangSmith's search); instr, not LIKE, so no text is a pattern. */
  private contains(sql: string, term: string): string {
    return `instr(lower(${sql}), lower(${this.bind(term)})) > 0`;
  }

  searchTerm(n: Node, field: string): string {
    const l = this.lit(n, field);
    if (l.t === 'null' || l.t === 'bool') this.fail(`${field} searches for text, not ${showLit(l)}`);
    return String(l.v);
  }

  // --- fields ---

  fieldName(n: Node | undefined, fn: string): string {
    const name = n?.kind === 'ident' ? n.name : n?.kind === 'str' ? n.value : undefined;
    if (name === undefined) return this.fail(`${fn}() takes a field name first, such as ${fn}(name, …)`);
    // Every message names the field: no field is this long, so say so rather than repeat it.
    if (name.length > 200) this.fail(`unknown field "${short(name)}"`);
    return name;
  }

  resolve(name: string): Field {
    const f = own(this.dialect.fields, name);
    if (f) return f;
    const dot = name.indexOf('.');
    if (dot > 0) {
      const obj = own(this.dialect.objects, name.slice(0, dot));
      if (obj) {
        const path = sqlStr(jsonPath(obj.root, name.slice(dot + 1).split('.')));
        return { kind: 'scalar', operand: { kind: 'json', typeSql: `json_type(${obj.col}, ${path})`, valueSql: `json_extract(${obj.col}, ${path})` } };
      }
    }
    // The full list is in server/README.md; the answer names the field and where fields come from, briefly.
    return this.fail(`unknown field "${short(name)}" (${this.dialect.name === 'runs' ? 'a run' : 'an example'} field, or ${Object.keys(this.dialect.objects).join('/')}.<key>)`);
  }

  // --- conditions ---

  cond(n: Node): string {
    if (n.kind !== 'call') return this.fail(`expected a condition such as eq(name, "x"), not ${n.kind === 'ident' ? n.name : 'a value'}`);
    const { fn, args } = n;
    switch (fn) {
      case 'and':
        if (!args.length) this.fail('and() needs arguments');
        return this.and(args);
      case 'or':
        if (!args.length) this.fail('or() needs arguments');
        return args.length === 1 ? this.cond(args[0]) : `(${args.map((a) => this.cond(a)).join(' OR ')})`;
      case 'not':
        if (args.length !== 1) this.fail('not() takes one argument');
        return `(NOT COALESCE(${this.cond(args[0])}, 0))`;
      case 'search':
        return this.search(args);
      case 'has':
        return this.has(args);
      case 'exists':
        return this.exists(args);
      case 'in':
      case 'eq':
      case 'neq':
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        return this.comparison(n);
      default:
        return this.fail(`unknown operator ${fn}(); the operators are ${OPERATORS.join(', ')}`);
    }
  }

  /** eq/neq/gt/gte/lt/lte/in on a field. */
  comparison(n: Extract<Node, { kind: 'call' }>): string {
    const { fn, args } = n;
    if (args.length !== 2) this.fail(`${fn}() takes two arguments: ${fn}(field, ${fn === 'in' ? '[values]' : 'value'})`);
    const name = this.fieldName(args[0], fn);
    const f = this.resolve(name);
    if (f.kind === 'part') return this.family([{ node: n, field: f }]);
    if (fn === 'in' && args[1].kind !== 'list') this.fail(`in(${name}, …) takes a list: in(${name}, ["a", "b"])`);
    switch (f.kind) {
      case 'scalar':
        return fn === 'in' ? this.compareIn(f.operand, (args[1] as Extract<Node, { kind: 'list' }>).items, name) : this.compare(f.operand, fn, this.lit(args[1], `${fn}(${name}, …)`), name);
      case 'list': {
        // A list field equals a value when it holds it (eq(tags, "x") is has(tags, "x")).
        if (fn === 'in') {
          const items = (args[1] as Extract<Node, { kind: 'list' }>).items.map((i) => this.listItem(i, name));
          return items.length ? `EXISTS (SELECT 1 FROM ${f.each} li WHERE li.value IN (${items.map((v) => this.bind(v)).join(', ')}))` : '0';
        }
        if (fn !== 'eq' && fn !== 'neq') this.fail(`${fn}(${name}, …): ${name} is a list; use has(${name}, "x"), eq, neq or in`);
        const holds = `EXISTS (SELECT 1 FROM ${f.each} li WHERE li.value = ${this.bind(this.listItem(args[1], name))})`;
        return fn === 'eq' ? holds : `(NOT ${holds})`;
      }
      case 'object':
        return this.fail(`${fn}(${name}, …): ${name} is a JSON object; compare one key (${name}.<key>), or use has(${name}, '{"key": "value"}') or exists(${name}, "key")`);
    }
  }

  private listItem(n: Node, name: string): string {
    const l = this.lit(n, name);
    if (l.t !== 'str' && l.t !== 'num') this.fail(`${name} holds text, not ${showLit(l)}`);
    return String(l.v);
  }

  /** and(…): conditions on one family (feedback, metadata keys, …) are about the same row of it. */
  and(args: Node[]): string {
    type Item = { node: Extract<Node, { kind: 'call' }>; field: Extract<Field, { kind: 'part' }> };
    // First group the family conditions (nothing bound yet), then compile in the order the SQL is written, so the
    // bound values line up with their placeholders.
    const out: (Node | Family)[] = [];
    const groups = new Map<Family, Item[]>();
    for (const a of args) {
      const f =
        a.kind === 'call' && (own(COMPARATORS, a.fn) || a.fn === 'in' || (a.fn === 'search' && a.args.length === 2)) && (a.args[0]?.kind === 'ident' || a.args[0]?.kind === 'str')
          ? this.resolve(this.fieldName(a.args[0], a.fn))
          : undefined;
      if (a.kind === 'call' && f?.kind === 'part') {
        if (!groups.has(f.family)) {
          groups.set(f.family, []);
          out.push(f.family);
        }
        groups.get(f.family)!.push({ node: a, field: f });
      } else out.push(a);
    }
    const sql = out.map((x) => ('kind' in x ? this.cond(x) : this.family(groups.get(x)!)));
    return sql.length === 1 ? sql[0] : `(${sql.join(' AND ')})`;
  }

  /**
   * Conditions on one family's rows. As LangSmith reads them: neq on the key (neq(metadata_key, "k")) is "no such
   * row"; neq on another column is "the keyed row has another value" when the key is given (and(eq(metadata_key,
   * "k"), neq(metadata_value, "v"))), else "no row has that value"; all the rest hold together on one row.
   */
  family(items: { node: Extract<Node, { kind: 'call' }>; field: Extract<Field, { kind: 'part' }> }[]): string {
    const fam = items[0].field.family;
    const keyed = items.some((i) => i.field.isKey && i.node.fn !== 'neq');
    const alone = (i: (typeof items)[number]) => i.node.fn === 'neq' && (i.field.isKey || !keyed);
    const row = (conds: string[]) => `EXISTS (SELECT 1 FROM ${fam.from} WHERE ${fam.where} AND ${conds.join(' AND ')})`;
    // The one-row EXISTS comes first in the SQL, so its values are bound first.
    const together = items.filter((i) => !alone(i)).map(({ node, field }) => this.rowCondition(node, field));
    const out = together.length ? [row(together)] : [];
    for (const { node, field } of items.filter(alone)) {
      const name = this.fieldName(node.args[0], node.fn);
      if (node.args.length !== 2) this.fail(`neq() takes two arguments: neq(${name}, value)`);
      out.push(`NOT ${row([this.compare(field.operand, 'eq', this.lit(node.args[1], `neq(${name}, …)`), name)])}`);
    }
    return out.length === 1 ? out[0] : `(${out.join(' AND ')})`;
  }

  /** One condition on a family's row (in, search, or a comparison). */
  private rowCondition(node: Extract<Node, { kind: 'call' }>, field: Extract<Field, { kind: 'part' }>): string {
    const name = this.fieldName(node.args[0], node.fn);
    if (node.fn === 'search') {
      if (node.args.length !== 2) this.fail('search() takes search("text") or search(field, "text")');
      const term = this.searchTerm(node.args[1], `search(${name}, …)`);
      return this.contains(field.operand.kind === 'scalar' ? field.operand.sql : textOf(field.operand), term);
    }
    if (node.args.length !== 2) this.fail(`${node.fn}() takes two arguments: ${node.fn}(field, ${node.fn === 'in' ? '[values]' : 'value'})`);
    if (node.fn === 'in') {
      if (node.args[1].kind !== 'list') this.fail(`in(${name}, …) takes a list: in(${name}, ["a", "b"])`);
      return this.compareIn(field.operand, node.args[1].items, name);
    }
    return this.compare(field.operand, node.fn, this.lit(node.args[1], `${node.fn}(${name}, …)`), name);
  }

  /** search("text") anywhere in the run or example; search(field, "text") in one field. */
  search(args: Node[]): string {
    if (args.length === 1) {
      const term = this.searchTerm(args[0], 'search(…)');
      return `(${this.dialect.searchIn.map((c) => this.contains(c, term)).join(' OR ')})`;
    }
    if (args.length !== 2) this.fail('search() takes search("text") or search(field, "text")');
    const name = this.fieldName(args[0], 'search');
    const f = this.resolve(name);
    if (f.kind === 'part') return this.family([{ node: { kind: 'call', fn: 'search', args }, field: f }]);
    const term = this.searchTerm(args[1], `search(${name}, …)`);
    switch (f.kind) {
      case 'scalar':
        if (f.operand.kind === 'json') return this.contains(textOf(f.operand), term);
        if (f.operand.type !== 'text' && f.operand.type !== 'id') this.fail(`search(${name}, …): ${name} is not text`);
        return this.contains(f.operand.sql, term);
      case 'list':
        return `EXISTS (SELECT 1 FROM ${f.each} li WHERE ${this.contains('li.value', term)})`;
      case 'object':
        return this.contains(f.root === '$' ? f.col : `json_extract(${f.col}, ${sqlStr(f.root)})`, term);
    }
  }

  /** has(tags, "x"): the list holds it; has(metadata, '{"k": "v"}'): the object contains that JSON. */
  has(args: Node[]): string {
    if (args.length !== 2) this.fail('has() takes two arguments: has(tags, "x") or has(metadata, \'{"key": "value"}\')');
    const name = this.fieldName(args[0], 'has');
    const f = this.resolve(name);
    if (f.kind === 'list') return `EXISTS (SELECT 1 FROM ${f.each} li WHERE li.value = ${this.bind(this.listItem(args[1], name))})`;
    if (f.kind !== 'object') return this.fail(`has(${name}, …): has() looks in a list (tags) or a JSON object (${Object.keys(this.dialect.objects).join(', ')})`);
    const l = this.lit(args[1], `has(${name}, …)`);
    let blob: unknown;
    try {
      blob = l.t === 'str' ? JSON.parse(l.v) : undefined;
    } catch {
      blob = undefined;
    }
    if (!blob || typeof blob !== 'object' || Array.isArray(blob)) this.fail(`has(${name}, …) takes a JSON object: has(${name}, '{"key": "value"}')`);
    return this.objectContains(`${f.col}, ${sqlStr(f.root)}`, blob as Record<string, unknown>, 1);
  }

  /** Every key of `want` is in the JSON object at `source` (json_each arguments) with a value that contains its value. */
  private objectContains(source: string, want: Record<string, unknown>, depth: number): string {
    const entries = Object.entries(want);
    if (!entries.length) return `json_type(${source}) = 'object'`;
    return `(${entries
      .map(([k, v]) => {
        const a = `j${++this.aliases}`;
        return `EXISTS (SELECT 1 FROM json_each(${source}) ${a} WHERE ${a}.key = ${this.bind(k)} AND ${this.valueContains(a, v, depth)})`;
      })
      .join(' AND ')})`;
  }

  /** The JSON value of row `a` contains `want`: equal scalars, objects with those keys, arrays with those items. */
  private valueContains(a: string, want: unknown, depth: number): string {
    if (++this.jsonNodes > FILTER_LIMITS.MAX_NODES) this.fail(`the JSON in has() has more than ${FILTER_LIMITS.MAX_NODES} values`);
    if (depth > FILTER_LIMITS.MAX_JSON_DEPTH) this.fail(`the JSON in has() is nested more than ${FILTER_LIMITS.MAX_JSON_DEPTH} levels deep`);
    if (want === null) return `${a}.type = 'null'`;
    if (typeof want === 'boolean') return `${a}.type = '${want}'`;
    if (typeof want === 'number') return `${a}.type IN ('integer', 'real') AND ${a}.atom = ${this.bind(want)}`;
    if (typeof want === 'string') return `${a}.type = 'text' AND ${a}.atom = ${this.bind(want)}`;
    if (Array.isArray(want)) {
      const items = want.map((w) => {
        const b = `j${++this.aliases}`;
        return `EXISTS (SELECT 1 FROM json_each(${a}.value) ${b} WHERE ${this.valueContains(b, w, depth + 1)})`;
      });
      return `${a}.type = 'array'${items.map((i) => ` AND ${i}`).join('')}`;
    }
    return `${a}.type = 'object' AND ${this.objectContains(`${a}.value`, want as Record<string, unknown>, depth + 1)}`;
  }

  /** exists(metadata, "key"): the object has the key; exists(field) or exists(metadata.key): it has a value. */
  exists(args: Node[]): string {
    if (args.length !== 1 && args.length !== 2) this.fail('exists() takes exists(metadata, "key") or exists(field)');
    const name = this.fieldName(args[0], 'exists');
    const f = this.resolve(name);
    if (args.length === 2) {
      if (f.kind !== 'object') this.fail(`exists(${name}, …): exists(object, "key") looks in ${Object.keys(this.dialect.objects).join(', ')}`);
      const key = this.listItem(args[1], `exists(${name}, …)`);
      return `EXISTS (SELECT 1 FROM json_each(${f.col}, ${sqlStr(f.root)}) jk WHERE jk.key = ${this.bind(key)})`;
    }
    switch (f.kind) {
      case 'scalar':
        return f.operand.kind === 'scalar' ? `${f.operand.sql} IS NOT NULL` : `${f.operand.typeSql} IS NOT NULL`;
      case 'list':
        return `EXISTS (SELECT 1 FROM ${f.each} li)`;
      case 'object':
        return `json_type(${f.col}, ${sqlStr(f.root)}) IS NOT NULL`;
      case 'part':
        return `EXISTS (SELECT 1 FROM ${f.family.from} WHERE ${f.family.where})`;
    }
  }
}

function compileDialect(text: string, dialect: Dialect): CompiledFilter {
  const c = new Compiler(text, dialect);
  const sql = c.cond(parse(text));
  if (c.params.length > FILTER_LIMITS.MAX_PARAMS) c.fail(`more than ${FILTER_LIMITS.MAX_PARAMS} values to compare`);
  return { sql, params: c.params };
}

/** A run filter (`filter`, `trace_filter`, `tree_filter` of /runs/query) as SQL on the `runs` table, unaliased. */
export function compileRunFilter(text: string): CompiledFilter {
  return compileDialect(text, RUNS);
}

/** An example filter (`GET /examples?filter=`) as SQL on example_revisions aliased `e`. */
export function compileExampleFilter(text: string): CompiledFilter {
  return compileDialect(text, EXAMPLES);
}

export type { Node as FilterNode };
