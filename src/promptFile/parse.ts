// Reading a prompt file: the prompt and every problem with its place in the text (for the Problems panel), the
// variables where they are used or declared, and where the templates are (for completion).
import Mustache from 'mustache';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node, type YAMLSeq } from 'yaml';
import { MSG } from '../client/messages';
import { checkTemplateFormat, type TemplateFormat } from '../client/templates/format';
import { promptFileKind } from './fileNames';
import { parseManifestFile } from './manifest';
import { OWNER, PROMPT_NAME, ROLES, TOP_KEYS, VARIABLE, type FileMessage, type FilePart, type ParsedPromptFile, type PromptFile } from './model';
import { deepest, MAX_DEPTH, Reader, valueOffsets } from './yamlPositions';

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

/** Reads a prompt file of either kind, told apart by its name: YAML, or a raw manifest (`*.prompt.json`). */
export function parsePromptText(text: string, fileName: string): ParsedPromptFile {
  if (promptFileKind(fileName) === 'yaml') return parsePromptFile(text);
  const { file, problem } = parseManifestFile(text, fileName.split('/').pop());
  return { ...(file ? { file } : {}), problems: problem ? [problem] : [], variables: [], templates: [] };
}
