// LangSmith's filter language: the fields of runs and of examples, what each compiles to, and the literals'
// helpers the compiler shares.
import type { FilterDialect } from './filterParse';

// ---------- values ----------

export type Lit = { t: 'str'; v: string } | { t: 'num'; v: number } | { t: 'bool'; v: boolean } | { t: 'null' };

/** A name or value as an error message shows it: a long one cut short, like the filter itself. */
export const short = (s: string) => (s.length > 60 ? `${s.slice(0, 60)}…` : s);
export const showLit = (l: Lit) => short(l.t === 'null' ? 'null' : l.t === 'str' ? JSON.stringify(l.v) : String(l.v));

/** `"5s"`, `"500ms"`, `"2m"`, `"1h"` or a bare number: seconds (LangSmith writes latencies as `gt(latency, "5s")`). */
export function durationSeconds(text: string): number | undefined {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = (m[2] ?? 's').toLowerCase();
  return unit === 'ms' ? n / 1000 : unit === 'm' ? n * 60 : unit === 'h' ? n * 3600 : n;
}

/** A SQL string literal (only for text this module builds itself: JSON paths of `\w` names). */
export const sqlStr = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** A JSON path from names the parser accepted (`\w+` each), e.g. ['a', 'b'] → `$."a"."b"`. */
export const jsonPath = (root: string, names: string[]) => `${root}${names.map((n) => `.${JSON.stringify(n)}`).join('')}`;

// ---------- fields ----------

/** How a scalar field's literal is read: `time` as a timestamp, `duration` in seconds ("5s"), `id` case-blind. */
export type ScalarType = 'text' | 'id' | 'number' | 'duration' | 'time' | 'bool';

/** Something a comparison can be made on: a plain SQL value, or a JSON value (its json_type and its SQL value). */
export type Operand = { kind: 'scalar'; sql: string; type: ScalarType } | { kind: 'json'; typeSql: string; valueSql: string };

/**
 * Rows a run or an example has several of (feedback; the keys of its metadata, inputs, outputs). Conditions on one
 * family inside one `and(…)` are about the same row, as in LangSmith: `and(eq(feedback_key, "k"), gt(feedback_score,
 * 0.5))` is a run with a "k" feedback scored above 0.5, not one with some "k" feedback and some feedback above 0.5.
 */
export interface Family {
  /** `FROM …` of the rows, aliased `kv` or `fb`, and what ties them to the run or example. */
  from: string;
  where: string;
}

export type Field =
  | { kind: 'scalar'; operand: Operand }
  /** A list of strings (a run's tags, an example's splits): the json_each source of its items. */
  | { kind: 'list'; each: string }
  /** A JSON object (metadata, inputs, outputs, extra): its column and the path of the object in it. */
  | { kind: 'object'; col: string; root: string }
  /** One column of a family's rows; `isKey` for the column that names the row (feedback_key, metadata_key). */
  | { kind: 'part'; family: Family; operand: Operand; isKey: boolean };

export interface Dialect {
  name: FilterDialect;
  fields: Record<string, Field>;
  /** Where `metadata.a.b`-style paths start: the first name → the JSON object. */
  objects: Record<string, { col: string; root: string }>;
  /** What `search("text")` looks in. */
  searchIn: string[];
}

export const scalar = (sql: string, type: ScalarType): Field => ({ kind: 'scalar', operand: { kind: 'scalar', sql, type } });

/** The JSON value of a json_each/json_tree row. */
const rowValue = (alias: string): Operand => ({ kind: 'json', typeSql: `${alias}.type`, valueSql: `${alias}.value` });

/** Key/value families over the top-level keys of a JSON object (LangSmith's metadata_key/metadata_value pairs). */
function keyValueFields(prefix: string, source: string): Record<string, Field> {
  const family: Family = { from: `json_each(${source}) kv`, where: '1' };
  return {
    [`${prefix}_key`]: { kind: 'part', family, operand: { kind: 'scalar', sql: 'kv.key', type: 'text' }, isKey: true },
    [`${prefix}_value`]: { kind: 'part', family, operand: rowValue('kv'), isKey: false },
  };
}

const RUN_OBJECTS: Dialect['objects'] = {
  metadata: { col: 'runs.extra', root: '$.metadata' },
  inputs: { col: 'runs.inputs', root: '$' },
  outputs: { col: 'runs.outputs', root: '$' },
  extra: { col: 'runs.extra', root: '$' },
};

// Feedback of the run's own workspace (another workspace may have sent feedback for the id before the run existed).
const RUN_FEEDBACK: Family = { from: 'feedback fb', where: 'fb.run_id = runs.id AND fb.tenant_id = runs.tenant_id' };
// feedback.value and feedback_source are JSON written by the server; checked anyway, so a bad row is no match, not a 500.
const fbJson = (path: string): Operand => ({
  kind: 'json',
  typeSql: `(CASE WHEN json_valid(fb.value) THEN json_type(fb.value, ${sqlStr(path)}) END)`,
  valueSql: `(CASE WHEN json_valid(fb.value) THEN json_extract(fb.value, ${sqlStr(path)}) END)`,
});

/** The run table is `runs`, unaliased, wherever a run filter is used (also in trace_filter/tree_filter subqueries). */
export const RUNS: Dialect = {
  name: 'runs',
  objects: RUN_OBJECTS,
  searchIn: ['runs.name', 'runs.inputs', 'runs.outputs', 'runs.error', 'runs.tags', "json_extract(runs.extra, '$.metadata')"],
  fields: {
    id: scalar('runs.id', 'id'),
    trace_id: scalar('runs.trace_id', 'id'),
    parent_run_id: scalar('runs.parent_run_id', 'id'),
    session_id: scalar('runs.session_id', 'id'),
    project_id: scalar('runs.session_id', 'id'),
    reference_example_id: scalar('runs.reference_example_id', 'id'),
    project_name: scalar('(SELECT s.name FROM sessions s WHERE s.id = runs.session_id)', 'text'),
    session_name: scalar('(SELECT s.name FROM sessions s WHERE s.id = runs.session_id)', 'text'),
    name: scalar('runs.name', 'text'),
    run_type: scalar('runs.run_type', 'text'),
    error: scalar('runs.error', 'text'),
    // Status, latency, time to first token and costs are columns worked out when the run is written (db.ts
    // RUN_DERIVED), so a filter on them reads a column or an index, never the run's JSON.
    status: scalar('runs.status', 'text'),
    start_time: scalar('runs.start_time', 'time'),
    end_time: scalar('runs.end_time', 'time'),
    latency: scalar('runs.latency', 'duration'),
    first_token_time: scalar('runs.first_token', 'duration'),
    total_tokens: scalar('runs.total_tokens', 'number'),
    prompt_tokens: scalar('runs.prompt_tokens', 'number'),
    completion_tokens: scalar('runs.completion_tokens', 'number'),
    total_cost: scalar('runs.total_cost', 'number'),
    prompt_cost: scalar('runs.prompt_cost', 'number'),
    completion_cost: scalar('runs.completion_cost', 'number'),
    // The run's place in its trace, 1 for the root: dotted orders sort runs in the order they started.
    execution_order: scalar(
      '(SELECT COUNT(*) FROM runs r_eo WHERE r_eo.trace_id = runs.trace_id AND r_eo.tenant_id = runs.tenant_id AND r_eo.dotted_order <= runs.dotted_order)',
      'number',
    ),
    is_root: scalar('(runs.parent_run_id IS NULL)', 'bool'),
    // The LangSmith UI groups a thread by any of these three metadata keys.
    thread_id: scalar(threadIdSql('runs.extra'), 'text'),
    tags: { kind: 'list', each: 'json_each(runs.tags)' },
    metadata: { kind: 'object', ...RUN_OBJECTS.metadata },
    inputs: { kind: 'object', ...RUN_OBJECTS.inputs },
    outputs: { kind: 'object', ...RUN_OBJECTS.outputs },
    extra: { kind: 'object', ...RUN_OBJECTS.extra },
    ...keyValueFields('metadata', "runs.extra, '$.metadata'"),
    ...keyValueFields('input', 'runs.inputs'),
    ...keyValueFields('output', 'runs.outputs'),
    feedback_key: { kind: 'part', family: RUN_FEEDBACK, operand: { kind: 'scalar', sql: 'fb.key', type: 'text' }, isKey: true },
    feedback_score: { kind: 'part', family: RUN_FEEDBACK, operand: { kind: 'scalar', sql: 'fb.score', type: 'number' }, isKey: false },
    feedback_value: { kind: 'part', family: RUN_FEEDBACK, operand: fbJson('$'), isKey: false },
    feedback_comment: { kind: 'part', family: RUN_FEEDBACK, operand: { kind: 'scalar', sql: 'fb.comment', type: 'text' }, isKey: false },
    feedback_source: {
      kind: 'part',
      family: RUN_FEEDBACK,
      operand: { kind: 'scalar', sql: "(CASE WHEN json_valid(fb.feedback_source) THEN json_extract(fb.feedback_source, '$.type') END)", type: 'text' },
      isKey: false,
    },
  },
};

const EXAMPLE_OBJECTS: Dialect['objects'] = {
  metadata: { col: 'e.metadata', root: '$' },
  inputs: { col: 'e.inputs', root: '$' },
  outputs: { col: 'e.outputs', root: '$' },
};

/** The example revisions table is aliased `e` wherever an example filter is used. */
export const EXAMPLES: Dialect = {
  name: 'examples',
  objects: EXAMPLE_OBJECTS,
  searchIn: ['e.inputs', 'e.outputs', 'e.metadata'],
  fields: {
    id: scalar('e.example_id', 'id'),
    dataset_id: scalar('e.dataset_id', 'id'),
    source_run_id: scalar('e.source_run_id', 'id'),
    created_at: scalar('e.created_at', 'time'),
    // An example's current revision started when it was last changed.
    modified_at: scalar('e.valid_from', 'time'),
    splits: { kind: 'list', each: "json_each(e.metadata, '$.dataset_split')" },
    metadata: { kind: 'object', ...EXAMPLE_OBJECTS.metadata },
    inputs: { kind: 'object', ...EXAMPLE_OBJECTS.inputs },
    outputs: { kind: 'object', ...EXAMPLE_OBJECTS.outputs },
    ...keyValueFields('metadata', 'e.metadata'),
    ...keyValueFields('input', 'e.inputs'),
    ...keyValueFields('output', 'e.outputs'),
  },
};


/** Field names a dialect understands (besides `<object>.<key>…` paths), for the README and error messages. */
export const FILTER_FIELDS: Record<FilterDialect, string[]> = { runs: Object.keys(RUNS.fields), examples: Object.keys(EXAMPLES.fields) };

export const COMPARATORS: Record<string, string> = { eq: '=', neq: '!=', gt: '>', gte: '>=', lt: '<', lte: '<=' };

/**
 * The thread a run belongs to, over its `extra` column: LangSmith groups runs into threads by any of these
 * metadata keys (the first one present wins), compared as text (a numeric id is the same thread as its digits).
 */
export function threadIdSql(extra: string): string {
  const key = (k: string) => `json_extract(${extra}, '$.metadata.${k}')`;
  return `CAST(COALESCE(${key('thread_id')}, ${key('session_id')}, ${key('conversation_id')}) AS TEXT)`;
}

/** A table's own entry: names from a filter are user text, and `constructor` or `__proto__` must not find Object's. */
export function own<T>(table: Record<string, T>, name: string): T | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
export const OPERATORS = ['and', 'or', 'not', 'eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'has', 'exists', 'search'];

/** The JSON text form a string literal is compared with: strings as they are, numbers and booleans as written. */
export const textOf = (o: Extract<Operand, { kind: 'json' }>) =>
  `(CASE ${o.typeSql} WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'null' THEN NULL ELSE CAST(${o.valueSql} AS TEXT) END)`;
