// Prompt files: a readable YAML form of a LangSmith prompt (`*.prompt.yaml`) and a raw manifest (`*.prompt.json`).
// Parsing gives the prompt and every problem with its place in the text (for the Problems panel); the prompt
// converts to the LangChain manifest LangSmith stores and back. Converting onto the manifest it came from
// (`base`) gives back that very manifest when nothing changed, so a pulled file pushed unchanged is "nothing to
// commit". No `vscode` here: this runs in the extension host, in tests and in the unit layer alike.
import Mustache from 'mustache';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, Parser, Scalar, YAMLSeq, type CST, type Document, type Node } from 'yaml';
import { MSG } from '../../client/messages';
import { checkTemplateFormat, TEMPLATE_FORMATS, type TemplateFormat } from '../../client/templates/format';
import { fstringVariables } from '../../client/templates/fstring';
import {
  readManifest,
  writeManifest,
  type ChatMessage,
  type LcNode,
  type MessageTemplate,
  type OpaquePart,
  type PromptManifest,
  type PromptModel,
  type TextPart,
} from '../../client/templates/manifest';
import { mustacheVariables } from '../../client/templates/mustache';

export const PROMPT_FILE_SUFFIX = '.prompt.yaml';
export const MANIFEST_FILE_SUFFIX = '.prompt.json';
export const ROLES = ['system', 'human', 'ai'] as const;
const TOP_KEYS = ['prompt', 'description', 'visibility', 'tags', 'template_format', 'input_variables', 'messages', 'template', 'model', 'readme'] as const;
/** Prompt names as LangSmith accepts them. */
export const PROMPT_NAME = /^[a-z0-9][a-z0-9_.-]*$/i;
const OWNER = /^[a-z0-9][a-z0-9_-]*$/i;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

export type Severity = 'error' | 'warning' | 'info' | 'hint';
export interface Problem {
  message: string;
  severity: Severity;
  /** Offsets into the file's text. */
  offset: number;
  length: number;
  code: string;
}

export type FilePart = { type: 'text'; text: string } | { type: 'raw'; raw: unknown };
export type FileMessage =
  | { kind: 'message'; role: string; chatRole: boolean; template: string | FilePart[]; templateFormat: TemplateFormat }
  | { kind: 'placeholder'; name: string; optional: boolean };

export interface PromptFile {
  /** `name` or `owner/name`, when the file names its prompt. */
  identifier?: string;
  description?: string;
  readme?: string;
  tags?: string[];
  visibility?: 'public' | 'private';
  templateFormat: TemplateFormat;
  inputVariables?: string[];
  body: { kind: 'chat'; messages: FileMessage[] } | { kind: 'string'; template: string };
  model?: { id: string[]; settings: Record<string, unknown> };
  /** A `*.prompt.json` file's manifest: what a push commits, unchanged. */
  rawManifest?: unknown;
}

/** Where a variable appears in the text: in a template, or in `input_variables`. */
export interface VariableUse {
  name: string;
  offset: number;
  length: number;
  where: 'template' | 'declaration';
  /** 'messages[1] (human)', 'template', 'input_variables'. */
  label: string;
  /** An optional placeholder: LangChain does not list it among the input variables. */
  optional?: boolean;
}

/** A template's place in the text (for completion inside templates). */
export interface TemplateSpan {
  offset: number;
  end: number;
  format: TemplateFormat;
}

export interface ParsedPromptFile {
  /** Undefined when the file cannot be read as a prompt at all. */
  file?: PromptFile;
  problems: Problem[];
  variables: VariableUse[];
  templates: TemplateSpan[];
}

// ---------- reading ----------

class Reader {
  readonly problems: Problem[] = [];
  readonly variables: VariableUse[] = [];
  readonly templates: TemplateSpan[] = [];
  /** The parsed document, for resolving aliases. */
  doc?: Document;

  constructor(readonly text: string) {}

  /** The node as plain data with its aliases resolved (without the document an alias reads as `{source}`). */
  plain(node: unknown): unknown {
    if (!node || typeof node !== 'object' || !('toJSON' in node)) return node;
    try {
      return this.doc ? (node as Node).toJS(this.doc) : (node as Node).toJSON();
    } catch (e) {
      this.add('error', 'yaml', e instanceof Error ? e.message : String(e), this.at(node as Node));
      return undefined;
    }
  }

  at(node: Node | null | undefined, fallback = 0): { offset: number; length: number } {
    const r = node?.range;
    if (!r) return { offset: fallback, length: 0 };
    return { offset: r[0], length: Math.max(0, r[1] - r[0]) };
  }

  add(severity: Severity, code: string, message: string, where: { offset: number; length: number }): void {
    this.problems.push({ severity, code, message, offset: where.offset, length: where.length });
  }

  string(node: unknown, what: string): string | undefined {
    if (isScalar(node) && typeof node.value === 'string') return node.value;
    if (isScalar(node) && (typeof node.value === 'number' || typeof node.value === 'boolean')) return String(node.value);
    this.add('error', 'type', `${what} must be text.`, this.at(node as Node));
    return undefined;
  }

  strings(node: unknown, what: string): string[] | undefined {
    if (!isSeq(node)) {
      this.add('error', 'type', `${what} must be a list of text.`, this.at(node as Node));
      return undefined;
    }
    const out: string[] = [];
    for (const item of node.items) {
      const s = this.string(item, `Each entry of ${what}`);
      if (s !== undefined) out.push(s);
    }
    return out;
  }
}

/** Maps each character of a scalar's value to its offset in the source (escapes, quotes and indentation skipped). */
export function valueOffsets(text: string, node: Scalar, value: string): number[] {
  const [start, end] = node.range ?? [0, 0];
  const out: number[] = new Array<number>(value.length + 1);
  let i = start;
  const type = node.type;
  // Skip the block header (`|-`, `>+2`) and the opening quote.
  if (type === 'BLOCK_LITERAL' || type === 'BLOCK_FOLDED') {
    while (i < end && text[i] !== '\n') i++;
    i++;
  } else if (type === 'QUOTE_DOUBLE' || type === 'QUOTE_SINGLE') i++;
  for (let j = 0; j < value.length; j++) {
    const ch = value[j]!;
    while (i < end) {
      const s = text[i]!;
      if (type === 'QUOTE_DOUBLE' && s === '\\') {
        const next = text[i + 1];
        const width = next === 'x' ? 4 : next === 'u' ? 6 : next === 'U' ? 10 : 2;
        if (next === '\n') {
          i += 2;
          continue;
        }
        out[j] = i;
        i += width;
        break;
      }
      if (type === 'QUOTE_SINGLE' && s === "'" && text[i + 1] === "'" && ch === "'") {
        out[j] = i;
        i += 2;
        break;
      }
      if (s === ch || (/\s/.test(ch) && /\s/.test(s))) {
        out[j] = i;
        i++;
        break;
      }
      i++;
    }
    if (out[j] === undefined) out[j] = Math.min(i, end);
  }
  out[value.length] = Math.min(i, end);
  return out;
}

interface TemplateIssue {
  message: string;
  index: number;
  length: number;
}
interface VariableHit {
  name: string;
  index: number;
  length: number;
}

/** The template's variables with their places, and its errors (spec §5 messages for f-strings). */
export function scanTemplate(template: string, format: TemplateFormat): { variables: VariableHit[]; issues: TemplateIssue[] } {
  const variables: VariableHit[] = [];
  const issues: TemplateIssue[] = [];
  if (format === 'f-string') {
    for (let i = 0; i < template.length; ) {
      const ch = template[i];
      const next = template[i + 1];
      if ((ch === '{' && next === '{') || (ch === '}' && next === '}')) {
        i += 2;
      } else if (ch === '{') {
        const close = template.indexOf('}', i + 1);
        const open = template.indexOf('{', i + 1);
        if (close < 0 || (open >= 0 && open < close)) {
          issues.push({ message: MSG.unclosedBrace, index: i, length: 1 });
          i++;
          continue;
        }
        const name = template.slice(i + 1, close);
        variables.push({ name, index: i + 1, length: name.length });
        i = close + 1;
      } else if (ch === '}') {
        issues.push({ message: MSG.singleBrace, index: i, length: 1 });
        i++;
      } else i++;
    }
    for (const v of variables) {
      if (!VARIABLE.test(v.name)) issues.push({ message: `“{${v.name}}” is not a variable name: use letters, digits and _ (write {{ and }} for literal braces).`, index: v.index, length: Math.max(1, v.length) });
    }
    return { variables: variables.filter((v) => VARIABLE.test(v.name)), issues };
  }
  let tokens: unknown[];
  try {
    tokens = Mustache.parse(template) as unknown[];
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const at = /at (\d+)/.exec(message);
    issues.push({ message: `Invalid mustache template: ${message}`, index: at ? Math.min(Number(at[1]), template.length) : 0, length: at ? 2 : template.length });
    return { variables, issues };
  }
  type Tok = [string, string, number, number, Tok[]?];
  // A name inside a section may belong to the section's item; only top-level names are inputs. (No walk into
  // sections: thousands of nested sections must not exhaust the stack.)
  for (const [type, value, start, end] of tokens as Tok[]) {
    if ((type === 'name' || type === '&' || type === '#' || type === '^') && value !== '.') {
      const top = value.split('.')[0]!;
      const inner = template.indexOf(top, start);
      variables.push({ name: top, index: inner >= 0 && inner < end ? inner : start, length: top.length });
    }
  }
  return { variables, issues };
}

function readTemplate(r: Reader, node: unknown, format: TemplateFormat, label: string): string | undefined {
  if (!isScalar(node) || typeof node.value !== 'string') {
    if (isScalar(node) && (typeof node.value === 'number' || typeof node.value === 'boolean')) return String(node.value);
    r.add('error', 'type', `The template of ${label} must be text.`, r.at(node as Node));
    return undefined;
  }
  const value = node.value;
  const map = valueOffsets(r.text, node, value);
  const span = { offset: map[0] ?? 0, end: map[value.length] ?? 0, format };
  r.templates.push(span);
  const { variables, issues } = scanTemplate(value, format);
  for (const issue of issues) {
    const from = map[issue.index] ?? span.offset;
    const to = map[Math.min(issue.index + issue.length, value.length)] ?? from + 1;
    r.add('error', 'template', issue.message, { offset: from, length: Math.max(1, to - from) });
  }
  for (const v of variables) {
    const from = map[v.index] ?? span.offset;
    const to = map[v.index + v.length] ?? from + v.length;
    r.variables.push({ name: v.name, offset: from, length: Math.max(1, to - from), where: 'template', label });
  }
  return value;
}

function readFormat(r: Reader, node: unknown, fallback: TemplateFormat): TemplateFormat {
  if (node === undefined) return fallback;
  const value = isScalar(node) ? node.value : undefined;
  try {
    return checkTemplateFormat(value);
  } catch {
    r.add('error', 'format', MSG.invalidTemplateFormat(isScalar(node) ? node.value : JSON.stringify((node as Node).toJSON?.() ?? node)), r.at(node as Node));
    return fallback;
  }
}

function readParts(r: Reader, seq: YAMLSeq, format: TemplateFormat, label: string): FilePart[] {
  const parts: FilePart[] = [];
  seq.items.forEach((item, i) => {
    if (isMap(item) && item.has('text')) parts.push({ type: 'text', text: readTemplate(r, item.get('text', true), format, `${label} part ${i + 1}`) ?? '' });
    else if (isMap(item) && item.has('raw')) {
      parts.push({ type: 'raw', raw: r.plain(item.get('raw', true)) });
      // An image template's inputs are the inputs it lists.
      const vars = item.getIn(['raw', 'kwargs', 'input_variables'], true);
      if (isSeq(vars))
        for (const v of vars.items) {
          if (isScalar(v) && typeof v.value === 'string') r.variables.push({ name: v.value, ...r.at(v), where: 'template', label: `${label} part ${i + 1}` });
        }
    } else r.add('error', 'part', 'A content part is `text: …` or `raw: {…}` (a LangChain object kept as it is).', r.at(item as Node));
  });
  return parts;
}

function readMessages(r: Reader, node: unknown, format: TemplateFormat): FileMessage[] {
  if (!isSeq(node)) {
    r.add('error', 'type', '`messages` must be a list of messages (role and template) or placeholders.', r.at(node as Node));
    return [];
  }
  const out: FileMessage[] = [];
  node.items.forEach((item, i) => {
    const n = i + 1;
    if (!isMap(item)) {
      r.add('error', 'message', `Message ${n} must be a mapping: role and template, or placeholder.`, r.at(item as Node));
      return;
    }
    for (const pair of item.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (!['role', 'chat_role', 'template', 'template_format', 'placeholder', 'optional'].includes(key)) {
        r.add('warning', 'key', `Unknown key “${key}” in message ${n}.`, r.at(pair.key as Node));
      }
    }
    if (item.has('placeholder')) {
      const name = r.string(item.get('placeholder', true), `The placeholder of message ${n}`) ?? '';
      const node = item.get('placeholder', true) as Node;
      if (name && !VARIABLE.test(name)) r.add('error', 'placeholder', `“${name}” is not a variable name: use letters, digits and _.`, r.at(node));
      const optNode = item.get('optional', true);
      const optional = isScalar(optNode) ? optNode.value === true : false;
      if (optNode !== undefined && !(isScalar(optNode) && typeof optNode.value === 'boolean')) r.add('error', 'type', '`optional` must be true or false.', r.at(optNode as Node));
      if (name) r.variables.push({ name, ...r.at(node), where: 'template', label: `messages[${n}] (placeholder)`, ...(optional ? { optional } : {}) });
      out.push({ kind: 'placeholder', name, optional });
      return;
    }
    const roleNode = item.get('role', true) ?? item.get('chat_role', true);
    const chatRole = !item.has('role') && item.has('chat_role');
    let role = '';
    if (roleNode === undefined) r.add('error', 'role', `Message ${n} has no role: add role: system, human or ai.`, r.at(item, 0));
    else {
      role = r.string(roleNode, `The role of message ${n}`) ?? '';
      if (!chatRole && role && !(ROLES as readonly string[]).includes(role)) {
        const hint = role === 'user' ? ' (use human)' : role === 'assistant' ? ' (use ai)' : '';
        r.add('error', 'role', `Unknown role “${role}”${hint}: a message's role is system, human or ai (chat_role: for any other).`, r.at(roleNode as Node));
      }
    }
    const fmt = readFormat(r, item.get('template_format', true), format);
    const label = `messages[${n}] (${role || 'message'})`;
    const t = item.get('template', true);
    if (t === undefined) {
      r.add('error', 'template', `Message ${n} has no template.`, r.at(item));
      return;
    }
    const template = isSeq(t) ? readParts(r, t, fmt, label) : (readTemplate(r, t, fmt, label) ?? '');
    out.push({ kind: 'message', role, chatRole, template, templateFormat: fmt });
  });
  return out;
}

function readModel(r: Reader, node: unknown): PromptFile['model'] {
  if (!isMap(node)) {
    r.add('error', 'model', '`model` must be a mapping: class (the LangChain class, e.g. langchain.chat_models.openai.ChatOpenAI) and its settings.', r.at(node as Node));
    return undefined;
  }
  const settings = (r.plain(node) ?? {}) as Record<string, unknown>;
  const cls = settings['class'];
  delete settings['class'];
  if (typeof cls !== 'string' || !/^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)+$/.test(cls)) {
    r.add('error', 'model', '`model.class` must name the model’s LangChain class, e.g. langchain.chat_models.openai.ChatOpenAI.', r.at((node.get('class', true) as Node) ?? node));
    return undefined;
  }
  return { id: cls.split('.'), settings };
}

/**
 * Deeper than this, a file is refused before it is composed: composing recurses per level (near the stack's end a
 * regular expression compiled by V8 can abort the process) and slows down badly on nested complex keys. A prompt
 * file needs a few levels.
 */
const MAX_DEPTH = 64;

/** The deepest nesting of lists and mappings in the text, and where, from yaml's CST (parsed without recursion). */
function deepest(text: string): { depth: number; offset: number } {
  let best = { depth: 0, offset: 0 };
  const stack: [CST.Token, number][] = [];
  for (const token of new Parser().parse(text)) stack.push([token, 0]);
  while (stack.length) {
    const [t, d] = stack.pop()!;
    if (t.type === 'document' && t.value) stack.push([t.value, d]);
    else if (t.type === 'block-map' || t.type === 'block-seq' || t.type === 'flow-collection') {
      if (d + 1 > best.depth) best = { depth: d + 1, offset: t.offset };
      for (const item of t.items) {
        if (item.key) stack.push([item.key, d + 1]);
        if (item.value) stack.push([item.value, d + 1]);
      }
    }
  }
  return best;
}

/** Reads a prompt file. Never throws: what cannot be read is a problem with its place. */
export function parsePromptFile(text: string): ParsedPromptFile {
  const r = new Reader(text);
  let doc: Document.Parsed;
  try {
    let deep: { depth: number; offset: number };
    try {
      deep = deepest(text);
    } catch {
      // The CST parser recurses on thousands of pending block levels (a RangeError, caught here).
      deep = { depth: Infinity, offset: 0 };
    }
    if (deep.depth > MAX_DEPTH) {
      r.add('error', 'yaml', `Nested too deeply: more than ${MAX_DEPTH} levels of lists and mappings.`, { offset: deep.offset, length: 1 });
      return { problems: r.problems, variables: [], templates: [] };
    }
    doc = parseDocument(text, { lineCounter: new LineCounter(), prettyErrors: false, uniqueKeys: true });
  } catch (e) {
    r.add('error', 'yaml', `Not valid YAML: ${e instanceof Error ? e.message : String(e)}`, { offset: 0, length: 0 });
    return { problems: r.problems, variables: [], templates: [] };
  }
  for (const err of doc.errors) r.add('error', 'yaml', err.message.split('\n')[0]!, { offset: err.pos[0], length: Math.max(1, err.pos[1] - err.pos[0]) });
  if (doc.errors.length) return { problems: r.problems, variables: [], templates: [] };
  r.doc = doc;
  for (const w of doc.warnings) r.add('warning', 'yaml', w.message.split('\n')[0]!, { offset: w.pos[0], length: Math.max(1, w.pos[1] - w.pos[0]) });
  const root = doc.contents;
  if (!isMap(root)) {
    r.add('error', 'shape', 'A prompt file is a mapping with `prompt`, `template_format` and `messages` (or `template`).', r.at(root as Node));
    return { problems: r.problems, variables: [], templates: [] };
  }
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (!(TOP_KEYS as readonly string[]).includes(key)) r.add('warning', 'key', `Unknown key “${key}”: a prompt file has ${TOP_KEYS.join(', ')}.`, r.at(pair.key as Node));
  }
  const get = (k: string) => root.get(k, true) as Node | undefined;
  const file: PromptFile = { templateFormat: 'f-string', body: { kind: 'chat', messages: [] } };

  const id = get('prompt');
  if (id !== undefined) {
    const s = r.string(id, '`prompt`');
    if (s !== undefined) {
      const [owner, name, extra] = s.includes('/') ? s.split('/') : [undefined, s];
      if (extra !== undefined || !name || !PROMPT_NAME.test(name) || (owner !== undefined && !OWNER.test(owner))) {
        r.add('error', 'identifier', `“${s}” is not a prompt name: use name or owner/name (letters, digits, -, _ and .).`, r.at(id));
      } else file.identifier = s;
    }
  } else r.add('info', 'identifier', 'This file names no prompt: add `prompt: <name>` to push it to LangSmith.', { offset: 0, length: 0 });
  for (const k of ['description', 'readme'] as const) {
    const n = get(k);
    if (n !== undefined && !(isScalar(n) && n.value === null)) {
      const s = r.string(n, `\`${k}\``);
      if (s !== undefined) file[k] = s;
    }
  }
  const tags = get('tags');
  if (tags !== undefined) file.tags = r.strings(tags, '`tags`');
  const vis = get('visibility');
  if (vis !== undefined) {
    const s = isScalar(vis) ? vis.value : undefined;
    if (s === 'public' || s === 'private') file.visibility = s;
    else r.add('error', 'visibility', '`visibility` is public or private.', r.at(vis));
  }
  file.templateFormat = readFormat(r, get('template_format'), 'f-string');

  const vars = get('input_variables');
  if (vars !== undefined) {
    const names = r.strings(vars, '`input_variables`');
    if (names && isSeq(vars)) {
      file.inputVariables = names;
      vars.items.forEach((item, i) => {
        const name = names[i];
        if (name === undefined) return;
        if (!VARIABLE.test(name)) r.add('error', 'variable', `“${name}” is not a variable name: use letters, digits and _.`, r.at(item as Node));
        r.variables.push({ name, ...r.at(item as Node), where: 'declaration', label: 'input_variables' });
      });
    }
  }

  const messages = get('messages');
  const template = get('template');
  if (messages !== undefined && template !== undefined) {
    r.add('error', 'shape', 'A prompt has either `messages` (a chat prompt) or `template` (a string prompt), not both.', r.at(template));
  }
  if (messages !== undefined) file.body = { kind: 'chat', messages: readMessages(r, messages, file.templateFormat) };
  else if (template !== undefined) file.body = { kind: 'string', template: readTemplate(r, template, file.templateFormat, 'template') ?? '' };
  else r.add('error', 'shape', 'The prompt has no `messages` (a chat prompt) and no `template` (a string prompt).', { offset: 0, length: 0 });

  const model = get('model');
  if (model !== undefined && !(isScalar(model) && model.value === null)) file.model = readModel(r, model);

  // Declared against used.
  if (file.inputVariables) {
    const used = new Set(r.variables.filter((v) => v.where === 'template').map((v) => v.name));
    const declared = new Set(file.inputVariables);
    for (const v of r.variables) {
      if (v.where === 'template' && !v.optional && !declared.has(v.name)) {
        r.add('warning', 'undeclared', `The variable “${v.name}” is used in ${v.label} but not declared in input_variables.`, v);
      } else if (v.where === 'declaration' && !used.has(v.name)) {
        r.add('hint', 'unused', `The variable “${v.name}” is declared but no template uses it.`, v);
      }
    }
  }
  const fatal = r.problems.some((p) => p.severity === 'error');
  return { ...(fatal ? {} : { file }), problems: r.problems, variables: r.variables, templates: r.templates };
}

/** The first error of a parse, as one line, or undefined when the file can be pushed. */
export function firstError(parsed: ParsedPromptFile): string | undefined {
  return parsed.problems.find((p) => p.severity === 'error')?.message;
}

// ---------- file → manifest ----------

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function baseModel(base: unknown): PromptManifest | undefined {
  if (base === undefined || base === null) return undefined;
  try {
    return readManifest(base);
  } catch {
    return undefined;
  }
}

function toChatMessage(m: FileMessage, base: ChatMessage | undefined): ChatMessage {
  if (m.kind === 'placeholder') {
    return { kind: 'placeholder', variableName: m.name, optional: m.optional, ...(base?.kind === 'placeholder' && base.raw ? { raw: base.raw } : {}) };
  }
  const raw = base?.kind === 'message' ? base.raw : undefined;
  let template: MessageTemplate['template'];
  if (typeof m.template === 'string') template = m.template;
  else {
    const baseParts = base?.kind === 'message' && Array.isArray(base.template) ? base.template : [];
    template = m.template.map((p, i): TextPart | OpaquePart => {
      const b = baseParts[i];
      if (p.type === 'raw') return { type: 'opaque', raw: p.raw };
      return { type: 'text', template: p.text, templateFormat: m.templateFormat, ...(b?.type === 'text' && b.raw ? { raw: b.raw } : {}) };
    });
  }
  return { kind: 'message', role: m.role, template, templateFormat: m.templateFormat, ...(raw ? { raw } : {}) };
}

/** The inputs a raw content part (an image template…) lists in its `input_variables`. */
function rawVariables(raw: unknown): string[] {
  const vars = (raw as LcNode | undefined)?.kwargs?.['input_variables'];
  return Array.isArray(vars) ? vars.filter((v): v is string => typeof v === 'string') : [];
}

function fileVariables(file: PromptFile, rawOnly = false): string[] {
  const seen = new Set<string>();
  const add = (t: string, f: TemplateFormat) => {
    if (!rawOnly) for (const v of f === 'mustache' ? mustacheVariables(t) : fstringVariables(t)) seen.add(v);
  };
  if (file.body.kind === 'string') add(file.body.template, file.templateFormat);
  else
    for (const m of file.body.messages) {
      if (m.kind === 'placeholder') {
        if (!m.optional && !rawOnly) seen.add(m.name);
      } else if (typeof m.template === 'string') add(m.template, m.templateFormat);
      else
        for (const p of m.template) {
          if (p.type === 'text') add(p.text, m.templateFormat);
          else for (const v of rawVariables(p.raw)) seen.add(v);
        }
    }
  return [...seen];
}

/**
 * The manifest of a prompt file. With `base` (the manifest of the commit the file is pushed onto), every part
 * the file does not change keeps the base's JSON exactly, so an unchanged file gives back the base.
 */
export function toManifest(file: PromptFile, base?: unknown): LcNode {
  if (file.rawManifest !== undefined) return JSON.parse(JSON.stringify(file.rawManifest)) as LcNode;
  const b = baseModel(base);
  let prompt: PromptModel;
  const declared = file.inputVariables;
  const computed = fileVariables(file);
  // The declared order is kept when it names the same variables as the templates.
  const inputVariables = declared && same([...declared].sort(), [...computed].sort()) ? declared : computed;
  if (file.body.kind === 'string') {
    const raw = b?.prompt.kind === 'string' ? b.prompt.raw : undefined;
    prompt = { kind: 'string', template: file.body.template, templateFormat: file.templateFormat, inputVariables, ...(raw ? { raw } : {}) };
  } else {
    const bp = b?.prompt.kind === 'chat' ? b.prompt : undefined;
    const messages = file.body.messages.map((m, i) => toChatMessage(m, bp?.messages[i]));
    const hasTopFormat = bp?.raw ? bp.raw.kwargs?.['template_format'] !== undefined : false;
    prompt = { kind: 'chat', messages, inputVariables, ...(hasTopFormat ? { templateFormat: file.templateFormat } : {}), ...(bp?.raw ? { raw: bp.raw } : {}) };
  }
  let manifest: PromptManifest = { prompt };
  if (file.model) {
    const baseModelNode = b?.model as LcNode | undefined;
    const node: LcNode =
      baseModelNode && same(baseModelNode.id, file.model.id) && same(baseModelNode.kwargs ?? {}, file.model.settings)
        ? baseModelNode
        : { ...(baseModelNode && same(baseModelNode.id, file.model.id) ? baseModelNode : { lc: 1, type: 'constructor' }), id: file.model.id, kwargs: file.model.settings } as LcNode;
    const wrapper: LcNode = b?.wrapper ?? { lc: 1, type: 'constructor', id: ['langchain_core', 'runnables', 'RunnableSequence'], kwargs: {} };
    manifest = { prompt, model: node, wrapper };
  }
  const out = writeManifest(manifest);
  // The written prompt lists the templates' variables (not those of raw parts); a file that declares the same set
  // keeps its order.
  const promptNode = manifest.wrapper ? (out.kwargs?.['first'] as LcNode) : out;
  const k = promptNode.kwargs ?? {};
  const written = [...new Set([...((k['input_variables'] as string[]) ?? []), ...fileVariables(file, true)])];
  if (!same(k['input_variables'], inputVariables) && same(written.sort(), [...inputVariables].sort())) {
    k['input_variables'] = [...inputVariables];
  }
  return out;
}

/** Reads a `*.prompt.json` file (a raw manifest) into a prompt file model; problems when it is not one. */
export function parseManifestFile(text: string, fileName?: string): { manifest?: unknown; file?: PromptFile; problem?: Problem } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec(String(e));
    return { problem: { severity: 'error', code: 'json', message: `Not valid JSON: ${e instanceof Error ? e.message : String(e)}`, offset: m ? Number(m[1]) : 0, length: 1 } };
  }
  try {
    // The prompt it belongs to: LangChain hub metadata when the manifest carries it, else the file's name.
    const k = (json as { kwargs?: { metadata?: Record<string, unknown> } } | null)?.kwargs;
    const hubRepo = typeof k?.metadata?.['lc_hub_repo'] === 'string' ? (k.metadata['lc_hub_repo'] as string) : undefined;
    const hubOwner = typeof k?.metadata?.['lc_hub_owner'] === 'string' ? (k.metadata['lc_hub_owner'] as string) : undefined;
    const fromName = fileName?.replace(/\.prompt\.json$/i, '');
    const name = hubRepo ?? (fromName && PROMPT_NAME.test(fromName) ? fromName : undefined);
    const identifier = name ? (hubOwner && hubOwner !== '-' && OWNER.test(hubOwner) ? `${hubOwner}/${name}` : name) : undefined;
    const file = fromManifest(json, { identifier });
    // A raw manifest is pushed as it is.
    file.rawManifest = json;
    return { manifest: json, file };
  } catch (e) {
    return { problem: { severity: 'error', code: 'manifest', message: e instanceof Error ? e.message : String(e), offset: 0, length: 0 } };
  }
}

// ---------- manifest → file ----------

export interface PromptMeta {
  identifier?: string;
  description?: string | null;
  readme?: string | null;
  tags?: string[] | null;
  isPublic?: boolean | null;
}

function fromMessage(m: ChatMessage, top: TemplateFormat): FileMessage {
  if (m.kind === 'placeholder') return { kind: 'placeholder', name: m.variableName, optional: m.optional };
  const template: string | FilePart[] =
    typeof m.template === 'string' ? m.template : m.template.map((p): FilePart => (p.type === 'text' ? { type: 'text', text: p.template } : { type: 'raw', raw: p.raw }));
  return { kind: 'message', role: m.role, chatRole: !(ROLES as readonly string[]).includes(m.role), template, templateFormat: m.templateFormat ?? top };
}

/** The prompt file model of a manifest (throws a clear error for what is not a prompt manifest). */
export function fromManifest(manifest: unknown, meta: PromptMeta = {}): PromptFile {
  const m = readManifest(manifest);
  const p = m.prompt;
  const top: TemplateFormat =
    p.kind === 'string' ? p.templateFormat : (p.templateFormat ?? p.messages.find((x): x is MessageTemplate => x.kind === 'message')?.templateFormat ?? 'f-string');
  const file: PromptFile = {
    ...(meta.identifier ? { identifier: meta.identifier } : {}),
    ...(meta.description ? { description: meta.description } : {}),
    ...(meta.readme ? { readme: meta.readme } : {}),
    ...(meta.tags?.length ? { tags: meta.tags } : {}),
    ...(meta.isPublic === true ? { visibility: 'public' as const } : meta.isPublic === false ? { visibility: 'private' as const } : {}),
    templateFormat: top,
    ...(p.inputVariables.length ? { inputVariables: [...p.inputVariables] } : {}),
    body: p.kind === 'string' ? { kind: 'string', template: p.template } : { kind: 'chat', messages: p.messages.map((x) => fromMessage(x, top)) },
  };
  const model = m.model as LcNode | undefined;
  if (model && typeof model === 'object' && Array.isArray(model.id)) file.model = { id: model.id.map(String), settings: { ...(model.kwargs ?? {}) } };
  return file;
}

/** The plain object a prompt file is written from, keys in the file's order. */
function fileObject(file: PromptFile): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (file.identifier) o['prompt'] = file.identifier;
  if (file.description !== undefined) o['description'] = file.description;
  if (file.visibility) o['visibility'] = file.visibility;
  if (file.tags) o['tags'] = file.tags;
  o['template_format'] = file.templateFormat;
  if (file.inputVariables) o['input_variables'] = file.inputVariables;
  if (file.body.kind === 'string') o['template'] = file.body.template;
  else
    o['messages'] = file.body.messages.map((m) => {
      if (m.kind === 'placeholder') return m.optional ? { placeholder: m.name, optional: true } : { placeholder: m.name };
      const template = typeof m.template === 'string' ? m.template : m.template.map((p) => (p.type === 'text' ? { text: p.text } : { raw: p.raw }));
      return {
        [m.chatRole ? 'chat_role' : 'role']: m.role,
        ...(m.templateFormat !== file.templateFormat ? { template_format: m.templateFormat } : {}),
        template,
      };
    });
  if (file.model) o['model'] = { class: file.model.id.join('.'), ...file.model.settings };
  if (file.readme !== undefined) o['readme'] = file.readme;
  return o;
}

// Double-quoted text stays on one line: yaml's multi-line double quoting garbles a line of one space ("a \n \nb").
const WRITE_OPTIONS = { lineWidth: 0, minContentWidth: 0, blockQuote: 'literal', doubleQuotedMinMultiLineLength: Number.MAX_SAFE_INTEGER } as const;

const HEADER = ' A LangSmith prompt file: “LangSmith: Push Prompt File as Commit…” pushes it, the Prompts view pulls it.';

function styleStrings(node: unknown): void {
  // Multi-line text as literal blocks, so a template reads as it is written. Text of blanks and line breaks
  // alone is double-quoted: a block scalar would read its blank-only lines back as empty lines.
  if (isScalar(node) && typeof node.value === 'string' && node.value.includes('\n')) {
    node.type = /[^ \t\n]/.test(node.value) ? Scalar.BLOCK_LITERAL : Scalar.QUOTE_DOUBLE;
  }
  if (isMap(node)) for (const pair of node.items) styleStrings(pair.value);
  if (isSeq(node)) for (const item of node.items) styleStrings(item);
}

/** The text of a prompt file. `header` adds the comment that says what the file is. */
export function writePromptFile(file: PromptFile, o: { header?: boolean } = {}): string {
  const doc = parseDocument('{}');
  doc.contents = doc.createNode(fileObject(file)) as unknown as typeof doc.contents;
  styleStrings(doc.contents);
  if (o.header) doc.commentBefore = HEADER;
  return doc.toString(WRITE_OPTIONS);
}

/** Writes the value into the YAML node in place: comments, key order and styles of what stays are kept. */
function merge(doc: Document, node: Node | null | undefined, value: unknown): Node {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && isMap(node)) {
    const obj = value as Record<string, unknown>;
    for (const pair of [...node.items]) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (key === undefined || !(key in obj)) node.delete(pair.key);
    }
    for (const [k, v] of Object.entries(obj)) {
      const existing = node.get(k, true) as Node | undefined;
      node.set(k, merge(doc, existing, v));
    }
    return node;
  }
  if (Array.isArray(value) && isSeq(node)) {
    node.items = value.map((v, i) => merge(doc, node.items[i] as Node | undefined, v)) as typeof node.items;
    return node;
  }
  if (isScalar(node) && (value === null || typeof value !== 'object') && node.value === value) return node;
  const fresh = doc.createNode(value) as Node;
  styleStrings(fresh);
  if (isScalar(node) && isScalar(fresh)) {
    fresh.commentBefore = node.commentBefore;
    fresh.comment = node.comment;
  }
  return fresh;
}

/** Rewrites an existing prompt file with new content, keeping its comments and the order of its keys. */
export function rewritePromptFile(text: string, file: PromptFile): string {
  const doc = parseDocument(text);
  if (doc.errors.length || !isMap(doc.contents)) return writePromptFile(file, { header: true });
  merge(doc, doc.contents, fileObject(file));
  return doc.toString(WRITE_OPTIONS);
}

/** A manifest as the readable prompt file text (what the diff editor and commit documents show). */
export function manifestAsPromptFile(manifest: unknown, meta: PromptMeta = {}): string {
  return writePromptFile(fromManifest(manifest, meta));
}

// ---------- names ----------

const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/** A safe file name for a prompt: its name alone, no path separators, no `..`, no reserved device names. */
export function promptFileName(repo: string, suffix = PROMPT_FILE_SUFFIX): string {
  let base = repo.normalize('NFKC').replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/\.{2,}/g, '.').replace(/^[.-]+|[.-]+$/g, '');
  if (!base || RESERVED.test(base.split('.')[0]!)) base = `prompt-${base || 'untitled'}`;
  return `${base.slice(0, 100)}${suffix}`;
}

export function isPromptFileName(name: string): boolean {
  return name.endsWith(PROMPT_FILE_SUFFIX) || name.endsWith(MANIFEST_FILE_SUFFIX);
}

export { TEMPLATE_FORMATS };
export type { LcNode };
