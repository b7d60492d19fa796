// Reading an evaluators file (`*.evaluators.yaml`, format in types.ts): the evaluators it defines and every
// problem with its place (0-based line and column), for the Problems panel. Plain Node: no vscode import.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node, type YAMLMap } from 'yaml';
import { deepest, MAX_DEPTH } from '../promptFile/yamlPositions';
import { checkJsonSchema } from './jsonSchema';
import { EVALUATOR_TYPES, type EvaluatorSpec, type EvaluatorsFile, type EvaluatorsProblem, type EvaluatorType } from './types';

/** Whether a file name is an evaluators file. */
export function isEvaluatorsFile(fileName: string): boolean {
  return /\.evaluators\.ya?ml$/i.test(fileName);
}

const TOP_KEYS = ['dataset', 'evaluators'] as const;
const COMMON_KEYS = ['type', 'key', 'output', 'reference', 'lower_is_better'] as const;
/** The keys each type takes besides the common ones. */
const TYPE_KEYS: Record<EvaluatorType, readonly string[]> = {
  exact_match: ['ignore_case'],
  contains: ['ignore_case'],
  json_valid: [],
  json_schema: ['schema'],
  regex: ['pattern', 'flags'],
  similarity: [],
  llm_judge: ['rubric', 'model'],
};
/** A feedback key: what LangSmith takes and a comparison can name (letters, digits, _ - . : and spaces). */
const FEEDBACK_KEY = /^[\p{L}\p{N}_][\p{L}\p{N}_\-.: ]{0,99}$/u;
const REGEX_FLAGS = /^[dgimsuvy]*$/;

interface Span {
  offset: number;
  length: number;
}

class Problems {
  readonly list: { message: string; offset: number; length: number }[] = [];
  add(message: string, where: Span): void {
    this.list.push({ message, offset: where.offset, length: where.length });
  }
}

function at(node: unknown, fallback: Span = { offset: 0, length: 0 }): Span {
  const r = (node as Node | null | undefined)?.range;
  if (!r) return fallback;
  return { offset: r[0], length: Math.max(0, r[1] - r[0]) };
}

function positioned(text: string, list: Problems['list']): EvaluatorsProblem[] {
  const lines = new LineCounter();
  let start = 0;
  for (;;) {
    lines.addNewLine(start);
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    start = nl + 1;
  }
  return [...list].sort((a, b) => a.offset - b.offset).map((p) => {
    const from = lines.linePos(Math.min(p.offset, text.length));
    const to = lines.linePos(Math.min(p.offset + p.length, text.length));
    return { message: p.message, line: from.line - 1, column: from.col - 1, endLine: to.line - 1, endColumn: to.col - 1 };
  });
}

/** Text of a scalar (numbers and booleans as written), or a problem naming the field. */
function text(p: Problems, node: unknown, field: string): string | undefined {
  if (isScalar(node) && typeof node.value === 'string') return node.value;
  if (isScalar(node) && (typeof node.value === 'number' || typeof node.value === 'boolean')) return String(node.value);
  p.add(`${field} must be text.`, at(node));
  return undefined;
}

function flag(p: Problems, node: unknown, field: string): boolean {
  if (node === undefined) return false;
  if (isScalar(node) && typeof node.value === 'boolean') return node.value;
  p.add(`${field} must be true or false.`, at(node));
  return false;
}

function readEvaluator(p: Problems, doc: Document, item: unknown, n: number): EvaluatorSpec | undefined {
  const label = `Evaluator ${n}`;
  if (!isMap(item)) {
    p.add(`${label} must be a mapping with a type (one of ${EVALUATOR_TYPES.join(', ')}).`, at(item));
    return undefined;
  }
  const map = item as YAMLMap;
  const get = (k: string) => map.get(k, true) as Node | undefined;
  const typeNode = get('type');
  if (typeNode === undefined) {
    p.add(`${label} has no type: add type: with one of ${EVALUATOR_TYPES.join(', ')}.`, at(item));
    return undefined;
  }
  const typeText = text(p, typeNode, `The type of ${label.toLowerCase()}`);
  if (typeText === undefined) return undefined;
  if (!(EVALUATOR_TYPES as readonly string[]).includes(typeText)) {
    p.add(`Unknown evaluator type “${typeText}”: use one of ${EVALUATOR_TYPES.join(', ')}.`, at(typeNode));
    return undefined;
  }
  const type = typeText as EvaluatorType;
  const allowed = [...COMMON_KEYS, ...TYPE_KEYS[type]];
  for (const pair of map.items) {
    const k = isScalar(pair.key) ? String(pair.key.value) : '';
    if (!allowed.includes(k)) p.add(`Unknown key “${k}” in ${label.toLowerCase()} (${type}): it takes ${allowed.join(', ')}.`, at(pair.key));
  }
  const before = p.list.length;
  let key: string = type;
  const keyNode = get('key');
  if (keyNode !== undefined) {
    const k = text(p, keyNode, `\`key\` of ${label.toLowerCase()}`);
    if (k !== undefined) {
      if (!FEEDBACK_KEY.test(k)) p.add(`\`key\` “${k}” is not a feedback key: use letters, digits, _ - . : and spaces (at most 100).`, at(keyNode));
      else key = k;
    }
  }
  const field = (name: 'output' | 'reference'): string | null => {
    const node = get(name);
    if (node === undefined || (isScalar(node) && node.value === null)) return null;
    const s = text(p, node, `\`${name}\` of ${label.toLowerCase()}`);
    if (s !== undefined && !s.trim()) p.add(`\`${name}\` of ${label.toLowerCase()} is empty: name a field, or leave it out.`, at(node));
    return s?.trim() || null;
  };
  const base = { key, output: field('output'), reference: field('reference'), lowerIsBetter: flag(p, get('lower_is_better'), `\`lower_is_better\` of ${label.toLowerCase()}`) };
  const required = (name: string, what: string): Node | undefined => {
    const node = get(name);
    if (node === undefined || (isScalar(node) && (node.value === null || node.value === ''))) {
      p.add(`${label} (${type}) needs \`${name}\`: ${what}.`, at(node ?? item));
      return undefined;
    }
    return node;
  };
  let spec: EvaluatorSpec | undefined;
  switch (type) {
    case 'exact_match':
    case 'contains':
      spec = { ...base, type, ignoreCase: flag(p, get('ignore_case'), `\`ignore_case\` of ${label.toLowerCase()}`) };
      break;
    case 'json_valid':
    case 'similarity':
      spec = { ...base, type };
      break;
    case 'json_schema': {
      const node = required('schema', 'the JSON schema the output must match');
      if (!node) break;
      const schema = node.toJS(doc) as unknown;
      if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
        p.add('`schema` must be a JSON schema: a mapping such as { type: object, required: [answer] }.', at(node));
        break;
      }
      const issues = checkJsonSchema(schema);
      for (const issue of issues.slice(0, 5)) p.add(`\`schema\` is not a valid JSON schema: ${issue}`, at(node));
      if (!issues.length) spec = { ...base, type, schema: schema as Record<string, unknown> };
      break;
    }
    case 'regex': {
      const node = required('pattern', 'the regular expression the output must match');
      const flagsNode = get('flags');
      const flags = flagsNode === undefined ? '' : (text(p, flagsNode, `\`flags\` of ${label.toLowerCase()}`) ?? '');
      if (flagsNode !== undefined && (!REGEX_FLAGS.test(flags) || new Set(flags).size !== flags.length)) {
        p.add(`\`flags\` “${flags}” are not regular-expression flags: use each of d, g, i, m, s, u, v, y at most once.`, at(flagsNode));
        break;
      }
      if (!node) break;
      const pattern = text(p, node, `\`pattern\` of ${label.toLowerCase()}`);
      if (pattern === undefined) break;
      try {
        new RegExp(pattern, flags);
      } catch (e) {
        p.add(`\`pattern\` does not compile: ${e instanceof Error ? e.message : String(e)}`, at(node));
        break;
      }
      spec = { ...base, type, pattern, flags };
      break;
    }
    case 'llm_judge': {
      const node = required('rubric', 'what the judge scores, e.g. “Is the answer correct and helpful?”');
      const modelNode = get('model');
      let model: string | null = null;
      if (modelNode !== undefined && !(isScalar(modelNode) && modelNode.value === null)) {
        model = text(p, modelNode, `\`model\` of ${label.toLowerCase()}`)?.trim() || null;
        if (model === null) p.add(`\`model\` of ${label.toLowerCase()} is empty: name a model, or leave it out for the playground's.`, at(modelNode));
      }
      if (!node) break;
      const rubric = text(p, node, `\`rubric\` of ${label.toLowerCase()}`);
      if (rubric !== undefined) spec = { ...base, type, rubric, model };
      break;
    }
  }
  return p.list.length > before ? undefined : spec;
}

/**
 * Reads an evaluators file. Never throws: what cannot be read is a problem with its place. `file` is null when
 * there is any problem, so that an experiment never runs with part of what the file asks for.
 */
export function parseEvaluators(source: string): { file: EvaluatorsFile | null; problems: EvaluatorsProblem[] } {
  const p = new Problems();
  const done = (file: EvaluatorsFile | null) => ({ file: p.list.length ? null : file, problems: positioned(source, p.list) });
  let doc: Document.Parsed;
  try {
    let deep: { depth: number; offset: number };
    try {
      deep = deepest(source);
    } catch {
      deep = { depth: Infinity, offset: 0 };
    }
    if (deep.depth > MAX_DEPTH) {
      p.add(`Nested too deeply: more than ${MAX_DEPTH} levels of lists and mappings.`, { offset: deep.offset, length: 1 });
      return done(null);
    }
    doc = parseDocument(source, { prettyErrors: false, uniqueKeys: true });
  } catch (e) {
    p.add(`Not valid YAML: ${e instanceof Error ? e.message : String(e)}`, { offset: 0, length: 0 });
    return done(null);
  }
  for (const err of doc.errors) {
    const first = err.message.split('\n')[0]!;
    const message = err.code === 'DUPLICATE_KEY' ? `Duplicate key: ${first}` : `Not valid YAML: ${first}`;
    p.add(message, { offset: err.pos[0], length: Math.max(1, err.pos[1] - err.pos[0]) });
  }
  if (doc.errors.length) return done(null);
  const root = doc.contents;
  if (!isMap(root)) {
    p.add('An evaluators file is a mapping with `dataset` (the dataset’s name) and `evaluators` (a list).', at(root));
    return done(null);
  }
  for (const pair of root.items) {
    const k = isScalar(pair.key) ? String(pair.key.value) : '';
    if (!(TOP_KEYS as readonly string[]).includes(k)) p.add(`Unknown key “${k}”: an evaluators file has ${TOP_KEYS.join(' and ')}.`, at(pair.key));
  }
  const datasetNode = root.get('dataset', true) as Node | undefined;
  let dataset = '';
  if (datasetNode === undefined) p.add('The file names no dataset: add `dataset: <the dataset’s name>`.', { offset: 0, length: 0 });
  else {
    dataset = text(p, datasetNode, '`dataset`')?.trim() ?? '';
    if (!dataset && isScalar(datasetNode)) p.add('`dataset` is empty: name the dataset these evaluators are for.', at(datasetNode));
  }
  const list = root.get('evaluators', true) as Node | undefined;
  const evaluators: EvaluatorSpec[] = [];
  if (list === undefined) p.add('The file has no `evaluators`: add a list, e.g. `- type: exact_match`.', { offset: 0, length: 0 });
  else if (!isSeq(list)) p.add('`evaluators` must be a list of evaluators (each with a type).', at(list));
  else {
    if (list.items.length === 0) p.add('`evaluators` is empty: add at least one evaluator.', at(list));
    const seen = new Map<string, number>();
    list.items.forEach((item, i) => {
      const spec = readEvaluator(p, doc, item, i + 1);
      if (!spec) return;
      const earlier = seen.get(spec.key);
      if (earlier !== undefined) {
        const keyNode = isMap(item) ? ((item as YAMLMap).get('key', true) as Node | undefined) : undefined;
        p.add(`Duplicate feedback key “${spec.key}”: evaluator ${earlier} writes it too; give one of them another \`key\`.`, at(keyNode ?? item));
        return;
      }
      seen.set(spec.key, i + 1);
      evaluators.push(spec);
    });
  }
  return done({ dataset, evaluators });
}
