// LangSmith's filter language for runs (`and(eq(status, "error"), gt(latency, "5s"))`), as the editor reads it:
// parsed with the place of each part, checked for what LangSmith would refuse (an unknown function or field, a
// wrong number of arguments, a status or run type that does not exist, a latency that is not a duration), and
// completed at the cursor. It has no imports, so the runs panel's page checks a filter as it is typed and the host,
// the command line and the rules files check it with the same words. The server has its own reading (it imitates
// LangSmith and shares no code with the client); its message is shown when it refuses what this one passed.

/** A part of a filter and where it is in the text ([start, end) in UTF-16 units). */
export type FilterNode =
  | { kind: 'call'; fn: string; args: FilterNode[]; start: number; end: number; nameEnd: number }
  | { kind: 'str'; value: string; start: number; end: number }
  | { kind: 'num'; value: number; start: number; end: number }
  | { kind: 'ident'; name: string; start: number; end: number }
  | { kind: 'list'; items: FilterNode[]; start: number; end: number };

/** Why a filter cannot be used, and the part of the text that says so. */
export interface FilterProblem {
  message: string;
  start: number;
  end: number;
}

type Arity = 'conditions' | 'condition' | 'compare' | 'list' | 'search' | 'field';

/** The functions of the language, with what they take and what they mean. */
export const FILTER_FUNCTIONS: readonly { name: string; takes: Arity; doc: string }[] = [
  { name: 'and', takes: 'conditions', doc: 'every condition holds' },
  { name: 'or', takes: 'conditions', doc: 'any condition holds' },
  { name: 'not', takes: 'condition', doc: 'the condition does not hold' },
  { name: 'eq', takes: 'compare', doc: 'equal' },
  { name: 'neq', takes: 'compare', doc: 'not equal' },
  { name: 'gt', takes: 'compare', doc: 'greater than' },
  { name: 'gte', takes: 'compare', doc: 'greater than or equal' },
  { name: 'lt', takes: 'compare', doc: 'less than' },
  { name: 'lte', takes: 'compare', doc: 'less than or equal' },
  { name: 'has', takes: 'compare', doc: 'a list (tags) holds the value' },
  { name: 'in', takes: 'list', doc: 'the value is one of a list' },
  { name: 'search', takes: 'search', doc: 'full-text search in name, inputs, outputs, error, tags and metadata' },
  { name: 'exists', takes: 'field', doc: 'the field has a value' },
];

export type FieldType = 'text' | 'id' | 'number' | 'duration' | 'time' | 'status' | 'runType' | 'list' | 'bool' | 'key' | 'value' | 'object';

/** The run fields a filter can name (besides `metadata.<key>`, `inputs.<key>`, `outputs.<key>` paths). */
export const RUN_FILTER_FIELDS: readonly { name: string; type: FieldType; doc: string }[] = [
  { name: 'name', type: 'text', doc: 'the run’s name' },
  { name: 'run_type', type: 'runType', doc: 'llm, chain, tool, retriever, prompt, parser, embedding' },
  { name: 'status', type: 'status', doc: 'success, error or pending' },
  { name: 'error', type: 'text', doc: 'the error text' },
  { name: 'start_time', type: 'time', doc: 'when it started (ISO time)' },
  { name: 'end_time', type: 'time', doc: 'when it ended (ISO time)' },
  { name: 'latency', type: 'duration', doc: 'seconds, or a duration such as "5s" or "500ms"' },
  { name: 'first_token_time', type: 'duration', doc: 'time to the first token' },
  { name: 'total_tokens', type: 'number', doc: 'tokens in all' },
  { name: 'prompt_tokens', type: 'number', doc: 'tokens in' },
  { name: 'completion_tokens', type: 'number', doc: 'tokens out' },
  { name: 'total_cost', type: 'number', doc: 'cost in dollars' },
  { name: 'prompt_cost', type: 'number', doc: 'cost of the tokens in' },
  { name: 'completion_cost', type: 'number', doc: 'cost of the tokens out' },
  { name: 'tags', type: 'list', doc: 'use has(tags, "x")' },
  { name: 'metadata_key', type: 'key', doc: 'a metadata key (pair it with metadata_value)' },
  { name: 'metadata_value', type: 'value', doc: 'a metadata value' },
  { name: 'feedback_key', type: 'key', doc: 'a feedback key (pair it with feedback_score or feedback_value)' },
  { name: 'feedback_score', type: 'number', doc: 'a feedback score' },
  { name: 'feedback_value', type: 'value', doc: 'a feedback value' },
  { name: 'input_key', type: 'key', doc: 'an input key' },
  { name: 'input_value', type: 'value', doc: 'an input value' },
  { name: 'output_key', type: 'key', doc: 'an output key' },
  { name: 'output_value', type: 'value', doc: 'an output value' },
  { name: 'trace_id', type: 'id', doc: 'the trace' },
  { name: 'id', type: 'id', doc: 'the run' },
  { name: 'parent_run_id', type: 'id', doc: 'the parent run' },
  { name: 'reference_example_id', type: 'id', doc: 'the dataset example it ran on' },
  { name: 'thread_id', type: 'text', doc: 'the conversation' },
  { name: 'is_root', type: 'bool', doc: 'a trace’s first run' },
  { name: 'metadata', type: 'object', doc: 'metadata.<key>' },
  { name: 'inputs', type: 'object', doc: 'inputs.<key>' },
  { name: 'outputs', type: 'object', doc: 'outputs.<key>' },
];

export const STATUSES = ['success', 'error', 'pending'] as const;
export const RUN_TYPES = ['llm', 'chain', 'tool', 'retriever', 'prompt', 'parser', 'embedding'] as const;

const FUNCTIONS = new Map(FILTER_FUNCTIONS.map((f) => [f.name, f]));
const FIELDS = new Map(RUN_FILTER_FIELDS.map((f) => [f.name, f]));
const DURATION = /^\s*\d+(\.\d+)?\s*(ms|s|m|h|d)?\s*$/i;

/** Reads a filter into its parts, or says where it stops making sense. An empty filter is no filter (undefined). */
export function parseFilter(text: string): { node?: FilterNode; problem?: FilterProblem } {
  let i = 0;
  const fail = (message: string, start = i, end = Math.max(start + 1, i)): never => {
    throw Object.assign(new Error(message), { filterProblem: { message, start, end: Math.min(end, Math.max(text.length, start + 1)) } });
  };
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const value = (): FilterNode => {
    ws();
    const start = i;
    const c = text[i];
    if (c === undefined) return fail('the filter ends too soon: a value or a condition is missing here');
    if (c === '"' || c === "'") {
      i++;
      let s = '';
      while (i < text.length && text[i] !== c) {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        s += text[i++];
      }
      if (text[i] !== c) fail(`this text has no closing ${c}`, start, text.length);
      i++;
      return { kind: 'str', value: s, start, end: i };
    }
    if (c === '[') {
      i++;
      const items: FilterNode[] = [];
      ws();
      if (text[i] === ']') return { kind: 'list', items, start, end: ++i };
      for (;;) {
        items.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return { kind: 'list', items, start, end: ++i };
        else fail(text[i] === undefined ? 'this list has no closing ]' : 'expected , or ] here', i);
      }
    }
    const m = /^-?\d+(\.\d+)?/.exec(text.slice(i));
    if (m) {
      i += m[0].length;
      return { kind: 'num', value: Number(m[0]), start, end: i };
    }
    const id = /^[A-Za-z_]\w*(?:\.\w+)*/.exec(text.slice(i));
    if (!id) return fail(`“${c}” cannot start a value: expected a condition such as eq(status, "error"), a name, a number or a quoted text`);
    i += id[0].length;
    const nameEnd = i;
    ws();
    if (text[i] !== '(') return { kind: 'ident', name: id[0], start, end: nameEnd };
    i++;
    const args: FilterNode[] = [];
    const fn = id[0].toLowerCase();
    ws();
    if (text[i] === ')') return { kind: 'call', fn, args, start, end: ++i, nameEnd };
    for (;;) {
      args.push(value());
      ws();
      if (text[i] === ',') i++;
      else if (text[i] === ')') return { kind: 'call', fn, args, start, end: ++i, nameEnd };
      else fail(text[i] === undefined ? `${fn}( has no closing )` : 'expected , or ) here', i);
    }
  };
  if (text.trim() === '') return {};
  try {
    const node = value();
    ws();
    if (i < text.length) fail('there is more after the end of the filter: join conditions with and(…) or or(…)', i, text.length);
    return { node };
  } catch (e) {
    const problem = (e as { filterProblem?: FilterProblem }).filterProblem;
    if (problem) return { problem };
    throw e;
  }
}

function isDuration(n: FilterNode): boolean {
  return n.kind === 'num' || (n.kind === 'str' && DURATION.test(n.value));
}

function isTime(n: FilterNode): boolean {
  return n.kind === 'str' && !Number.isNaN(Date.parse(n.value));
}

/** The field a comparison names, or why it names none. */
function fieldOf(n: FilterNode): { name: string; type: FieldType } | FilterProblem {
  const name = n.kind === 'ident' ? n.name : n.kind === 'str' ? n.value : undefined;
  if (name === undefined) return { message: 'expected a field name such as status, latency or tags here', start: n.start, end: n.end };
  const known = FIELDS.get(name);
  if (known) return known;
  const root = name.split('.')[0]!;
  if (name.includes('.') && FIELDS.get(root)?.type === 'object') return { name, type: 'text' };
  return { message: `“${name}” is not a run field; fields are ${RUN_FILTER_FIELDS.filter((f) => f.type !== 'object').map((f) => f.name).slice(0, 12).join(', ')}, … or metadata.<key>`, start: n.start, end: n.end };
}

function checkValue(field: { name: string; type: FieldType }, v: FilterNode, fn: string): FilterProblem | undefined {
  const at = (message: string) => ({ message, start: v.start, end: v.end });
  if (v.kind === 'call' || v.kind === 'list') return at(`${fn}(${field.name}, …) compares with one value, not ${v.kind === 'list' ? 'a list' : 'a condition'}`);
  switch (field.type) {
    case 'status':
      return v.kind === 'str' && (STATUSES as readonly string[]).includes(v.value) ? undefined : at(`status is one of ${STATUSES.map((s) => `"${s}"`).join(', ')}`);
    case 'runType':
      return v.kind === 'str' && (RUN_TYPES as readonly string[]).includes(v.value.toLowerCase()) ? undefined : at(`run_type is one of ${RUN_TYPES.map((s) => `"${s}"`).join(', ')}`);
    case 'duration':
      return isDuration(v) ? undefined : at(`${field.name} takes seconds or a duration such as "5s", "500ms" or "2m"`);
    case 'time':
      return isTime(v) ? undefined : at(`${field.name} takes a time such as "2026-11-29T08:00:00Z"`);
    case 'bool':
      return ['true', 'false'].includes((v.kind === 'ident' ? v.name : v.kind === 'str' ? v.value : '').toLowerCase()) ? undefined : at(`${field.name} is true or false`);
    case 'number':
      return v.kind === 'num' || (v.kind === 'str' && v.value.trim() !== '' && Number.isFinite(Number(v.value))) ? undefined : at(`${field.name} takes a number`);
    default:
      return undefined;
  }
}

/** The first thing LangSmith would refuse in a node, or undefined. */
function checkNode(n: FilterNode): FilterProblem | undefined {
  if (n.kind !== 'call') return { message: 'expected a condition such as eq(status, "error") here', start: n.start, end: n.end };
  const f = FUNCTIONS.get(n.fn);
  const name = { start: n.start, end: n.nameEnd };
  if (!f) return { message: `“${n.fn}” is not a function of the filter language; use ${FILTER_FUNCTIONS.map((x) => x.name).join(', ')}`, ...name };
  const whole = { start: n.start, end: n.end };
  switch (f.takes) {
    case 'conditions':
      if (n.args.length === 0) return { message: `${n.fn}() needs at least one condition`, ...whole };
      for (const a of n.args) {
        const p = checkNode(a);
        if (p) return p;
      }
      return undefined;
    case 'condition':
      if (n.args.length !== 1) return { message: 'not() takes one condition', ...whole };
      return checkNode(n.args[0]!);
    case 'search':
      if (n.args.length === 1 && n.args[0]!.kind === 'str') return undefined;
      return { message: 'search() takes one quoted text: search("refund")', ...whole };
    case 'field': {
      if (n.args.length !== 1) return { message: `${n.fn}() takes one field`, ...whole };
      const field = fieldOf(n.args[0]!);
      return 'message' in field ? field : undefined;
    }
    case 'list':
    case 'compare': {
      if (n.args.length !== 2) return { message: `${n.fn}() takes two arguments: ${n.fn}(field, ${f.takes === 'list' ? '[values]' : 'value'})`, ...whole };
      const field = fieldOf(n.args[0]!);
      if ('message' in field) return field;
      const v = n.args[1]!;
      if (n.fn === 'has' && field.type !== 'list' && field.type !== 'object') return { message: `has() looks in a list such as tags, not in ${field.name}`, start: n.args[0]!.start, end: n.args[0]!.end };
      if (field.type === 'list' && n.fn !== 'has' && n.fn !== 'eq' && n.fn !== 'neq' && n.fn !== 'in') return { message: `${field.name} is a list: use has(${field.name}, "x")`, ...whole };
      if (f.takes === 'list') {
        if (v.kind !== 'list') return { message: `in() takes a list: in(${field.name}, ["a", "b"])`, start: v.start, end: v.end };
        for (const item of v.items) {
          const p = checkValue(field, item, n.fn);
          if (p) return p;
        }
        return undefined;
      }
      if (field.type === 'list' || field.type === 'key' || field.type === 'value' || field.type === 'text' || field.type === 'id' || field.type === 'object') {
        return v.kind === 'str' || v.kind === 'num' || v.kind === 'ident' ? undefined : { message: `${n.fn}(${field.name}, …) compares with one value`, start: v.start, end: v.end };
      }
      return checkValue(field, v, n.fn);
    }
  }
}

/** What is wrong with a run filter, or undefined when LangSmith's grammar accepts it (or it is empty). */
export function checkRunFilter(text: string): FilterProblem | undefined {
  const { node, problem } = parseFilter(text);
  if (problem) return problem;
  return node ? checkNode(node) : undefined;
}

/** A filter's top-level conditions: the arguments of an `and(…)` at the top, or the filter itself. */
export function topConditions(text: string): { text: string; start: number; end: number }[] {
  const { node } = parseFilter(text);
  if (!node) return [];
  const parts = node.kind === 'call' && node.fn === 'and' ? node.args : [node];
  return parts.map((p) => ({ text: text.slice(p.start, p.end), start: p.start, end: p.end }));
}

/** The filter with one more condition, joined with and(…) (into a top-level and when there is one). */
export function withCondition(text: string, condition: string): string {
  const trimmed = text.trim();
  if (!trimmed) return condition;
  const { node, problem } = parseFilter(trimmed);
  if (problem || !node) return `and(${trimmed}, ${condition})`;
  if (node.kind === 'call' && node.fn === 'and') return `and(${topConditions(trimmed).map((c) => c.text).concat(condition).join(', ')})`;
  return `and(${trimmed}, ${condition})`;
}

/** The filter without one of its top-level conditions (by index). */
export function withoutCondition(text: string, index: number): string {
  const parts = topConditions(text).map((c) => c.text);
  parts.splice(index, 1);
  if (parts.length === 0) return '';
  return parts.length === 1 ? parts[0]! : `and(${parts.join(', ')})`;
}

/** A text as the language quotes it. */
export function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Values seen in the project, offered where a value of that kind is typed. */
export interface SeenValues {
  names?: readonly string[];
  tags?: readonly string[];
  metadataKeys?: readonly string[];
  feedbackKeys?: readonly string[];
}

export interface Completion {
  label: string;
  /** The text that replaces [from, to). */
  insert: string;
  detail: string;
}

/** What can be typed at `offset`: functions where a condition starts, fields after `fn(`, values after `field, `. */
export function completeFilter(text: string, offset: number, seen: SeenValues = {}): { from: number; to: number; items: Completion[] } {
  const before = text.slice(0, offset);
  // Where the cursor is: inside a quoted text (from its opening quote), or at the end of a word.
  let stringStart: number | undefined;
  let quoteChar: string | undefined;
  for (let i = 0; i < before.length; i++) {
    const ch = before[i]!;
    if (quoteChar) {
      if (ch === '\\') i++;
      else if (ch === quoteChar) quoteChar = undefined;
    } else if (ch === '"' || ch === "'") {
      quoteChar = ch;
      stringStart = i;
    }
  }
  const inString = quoteChar !== undefined;
  const word = inString ? before.slice(stringStart! + 1) : /[\w.]*$/.exec(before)![0];
  const from = inString ? stringStart! : offset - word.length;
  let to = offset;
  while (to < text.length && /[\w.]/.test(text[to]!)) to++;
  if (inString && text[to] === quoteChar) to++;
  // The innermost open call and how many of its arguments come before the cursor.
  const stack: { fn: string; arg: number; firstArg: string }[] = [];
  let open: string | undefined;
  let argStart = 0;
  for (let i = 0; i < from; i++) {
    const ch = before[i]!;
    if (open) {
      if (ch === '\\') i++;
      else if (ch === open) open = undefined;
      continue;
    }
    if (ch === '"' || ch === "'") open = ch;
    else if (ch === '(') {
      const fn = /(\w+)\s*$/.exec(before.slice(0, i))?.[1]?.toLowerCase() ?? '';
      stack.push({ fn, arg: 0, firstArg: '' });
      argStart = i + 1;
    } else if (ch === ',' && stack.length) {
      const top = stack[stack.length - 1]!;
      if (top.arg === 0) top.firstArg = before.slice(argStart, i).trim().replace(/^["']|["']$/g, '');
      top.arg++;
    } else if (ch === ')') stack.pop();
  }
  // After a whole filter (or a whole argument) nothing is offered until a comma or a new word.
  const lastSignificant = before.slice(0, from).trimEnd().at(-1);
  if (lastSignificant === ')' || lastSignificant === '"' || lastSignificant === "'") return { from, to, items: [] };
  if (stack.length === 0 && before.slice(0, from).trim() !== '') return { from, to, items: [] };
  const top = stack[stack.length - 1];
  const prefix = word.toLowerCase();
  const match = (label: string) => label.toLowerCase().startsWith(prefix);
  const functions = () =>
    FILTER_FUNCTIONS.filter((f) => match(f.name)).map((f) => ({ label: f.name, insert: `${f.name}(`, detail: f.doc }));
  const fnTakes = top ? FUNCTIONS.get(top.fn)?.takes : undefined;
  if (!top || fnTakes === 'conditions' || fnTakes === 'condition') return { from, to, items: functions() };
  if (top.arg === 0 && (fnTakes === 'compare' || fnTakes === 'list' || fnTakes === 'field')) {
    const fields = RUN_FILTER_FIELDS.filter((f) => (top.fn === 'has' ? f.type === 'list' : f.type !== 'object') && match(f.name));
    return { from, to, items: fields.map((f) => ({ label: f.name, insert: f.name, detail: f.doc })) };
  }
  if (top.arg === 1) {
    const field = FIELDS.get(top.firstArg);
    const values: readonly string[] =
      field?.type === 'status'
        ? STATUSES
        : field?.type === 'runType'
          ? RUN_TYPES
          : top.firstArg === 'name'
            ? (seen.names ?? [])
            : top.firstArg === 'tags'
              ? (seen.tags ?? [])
              : top.firstArg === 'metadata_key'
                ? (seen.metadataKeys ?? [])
                : top.firstArg === 'feedback_key'
                  ? (seen.feedbackKeys ?? [])
                  : field?.type === 'duration'
                    ? ['1s', '5s', '10s', '30s']
                    : [];
    return { from, to, items: values.filter(match).map((v) => ({ label: v, insert: quote(v), detail: field?.name ?? '' })) };
  }
  return { from, to, items: [] };
}
