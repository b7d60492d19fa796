// JSON schemas of the json_schema evaluator: a check that a schema is well formed (what the JSON Schema meta-schema
// asks of the keywords used, with a message naming the place), and the validation of an output against it
// (@cfworker/json-schema, which interprets a schema without generating code).
import { Validator, type Schema } from '@cfworker/json-schema';

const JSON_TYPES = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'];
const SCHEMA_KEYWORDS = ['additionalProperties', 'additionalItems', 'contains', 'not', 'if', 'then', 'else', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains'];
const NUMBERS = ['minimum', 'maximum'];
const TEXTS = ['$ref', '$id', '$schema', '$anchor', 'format', 'title', 'description', '$comment'];
const MAX_ISSUES = 20;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The problems of a schema (empty when it is well formed), each naming where: `properties.answer.type: …`. */
export function checkJsonSchema(schema: unknown): string[] {
  const issues: string[] = [];
  const stack: { node: unknown; path: string }[] = [{ node: schema, path: '' }];
  const say = (path: string, message: string) => issues.length < MAX_ISSUES && issues.push(`${path ? `${path}: ` : ''}${message}`);
  const sub = (path: string, key: string) => (path ? `${path}.${key}` : key);
  while (stack.length && issues.length < MAX_ISSUES) {
    const { node, path } = stack.pop()!;
    if (typeof node === 'boolean') continue;
    if (!isObject(node)) {
      say(path, 'a schema must be a mapping (or true/false)');
      continue;
    }
    const t = node['type'];
    if (t !== undefined) {
      const types = Array.isArray(t) ? t : [t];
      if (Array.isArray(t) && t.length === 0) say(sub(path, 'type'), 'must list at least one type');
      for (const x of types) {
        if (typeof x !== 'string' || !JSON_TYPES.includes(x)) say(sub(path, 'type'), `“${String(x)}” is not a JSON type (${JSON_TYPES.join(', ')})`);
      }
    }
    for (const k of SCHEMA_KEYWORDS) if (k in node) stack.push({ node: node[k], path: sub(path, k) });
    for (const k of SCHEMA_MAPS) {
      if (!(k in node)) continue;
      const m = node[k];
      if (!isObject(m)) say(sub(path, k), 'must be a mapping of names to schemas');
      else for (const [name, s] of Object.entries(m)) stack.push({ node: s, path: sub(sub(path, k), name) });
      if (k === 'patternProperties' && isObject(m)) {
        for (const pattern of Object.keys(m)) {
          try {
            new RegExp(pattern, 'u');
          } catch (e) {
            say(sub(path, k), `“${pattern}” does not compile: ${e instanceof Error ? e.message : String(e)}`);
          }
        }
      }
    }
    for (const k of SCHEMA_LISTS) {
      if (!(k in node)) continue;
      const l = node[k];
      if (!Array.isArray(l) || l.length === 0) say(sub(path, k), 'must be a non-empty list of schemas');
      else l.forEach((s, i) => stack.push({ node: s, path: `${sub(path, k)}[${i}]` }));
    }
    if ('items' in node) {
      const items = node['items'];
      if (Array.isArray(items)) items.forEach((s, i) => stack.push({ node: s, path: `${sub(path, 'items')}[${i}]` }));
      else stack.push({ node: items, path: sub(path, 'items') });
    }
    if ('required' in node) {
      const r = node['required'];
      if (!Array.isArray(r) || r.some((x) => typeof x !== 'string')) say(sub(path, 'required'), 'must be a list of property names');
      else if (new Set(r).size !== r.length) say(sub(path, 'required'), 'lists a property twice');
    }
    if ('enum' in node && !Array.isArray(node['enum'])) say(sub(path, 'enum'), 'must be a list of the allowed values');
    if ('uniqueItems' in node && typeof node['uniqueItems'] !== 'boolean') say(sub(path, 'uniqueItems'), 'must be true or false');
    for (const k of COUNTS) {
      if (!(k in node)) continue;
      const v = node[k];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) say(sub(path, k), 'must be a whole number, 0 or more');
    }
    for (const k of NUMBERS) if (k in node && typeof node[k] !== 'number') say(sub(path, k), 'must be a number');
    for (const k of ['exclusiveMinimum', 'exclusiveMaximum']) {
      if (k in node && typeof node[k] !== 'number' && typeof node[k] !== 'boolean') say(sub(path, k), 'must be a number');
    }
    if ('multipleOf' in node && !(typeof node['multipleOf'] === 'number' && node['multipleOf'] > 0)) say(sub(path, 'multipleOf'), 'must be a number above 0');
    for (const k of TEXTS) if (k in node && typeof node[k] !== 'string') say(sub(path, k), 'must be text');
    if ('pattern' in node) {
      const pattern = node['pattern'];
      if (typeof pattern !== 'string') say(sub(path, 'pattern'), 'must be text (a regular expression)');
      else {
        try {
          new RegExp(pattern, 'u');
        } catch (e) {
          say(sub(path, 'pattern'), `does not compile: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    }
  }
  return issues;
}

/** Validates a value against a (well-formed) schema: the first few errors, each with where it is in the value. */
export function validateJson(schema: Record<string, unknown>, value: unknown): { valid: boolean; errors: string[] } {
  const result = new Validator(schema as Schema, '2020-12', false).validate(value);
  if (result.valid) return { valid: true, errors: [] };
  // The deepest errors say what is wrong; the outer ones only that something below failed.
  const errors = result.errors
    .filter((e) => !/^(properties|items|allOf|anyOf|oneOf|\$ref|prefixItems|additionalProperties)$/.test(e.keyword) || result.errors.length === 1)
    .map((e) => `${e.instanceLocation.replace(/^#/, '') || '(root)'}: ${e.error}`);
  return { valid: false, errors: (errors.length ? errors : result.errors.map((e) => e.error)).slice(0, 3) };
}
