// `.prompty` files (YAML front matter, then a body of messages marked by `system:`, `user:` and `assistant:` lines)
// as prompt files. Prompty's `{{name}}` templates read as mustache; Jinja2 statements and filters, which mustache
// has not, are refused with a clear error rather than pushed as text that renders differently.
// No `vscode` here: this runs in the extension host and in tests alike.
import Mustache from 'mustache';
import { isMap, parseDocument } from 'yaml';
import { PROMPT_NAME, type FileMessage, type PromptFile } from './model';

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A role line: the role alone on its line, optionally after `#` (as Prompty allows). */
const ROLE_LINE = /^[ \t]*#?[ \t]*(system|user|assistant)[ \t]*:[ \t]*$/i;
const ROLE_MAP: Record<string, string> = { system: 'system', user: 'human', assistant: 'ai' };
const MODEL_CLASSES: Record<string, string[]> = {
  openai: ['langchain', 'chat_models', 'openai', 'ChatOpenAI'],
  azure_openai: ['langchain', 'chat_models', 'azure_openai', 'AzureChatOpenAI'],
  azure: ['langchain', 'chat_models', 'azure_openai', 'AzureChatOpenAI'],
};

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** A LangSmith prompt name from a Prompty name: lowercase, spaces as '-', only [a-z0-9_.-], starting with a letter or digit. */
export function promptyName(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .trim()
    .replace(/\s+/g, '-')
    .replace(/[^a-z0-9_.-]/g, '')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 100);
}

function splitFrontMatter(text: string): { front: string; body: string } {
  const lines = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  if (lines[i]?.trim() !== '---') throw new Error('Not a .prompty file: no front matter between --- lines.');
  const start = i + 1;
  let end = start;
  while (end < lines.length && lines[end]!.trim() !== '---') end++;
  if (end >= lines.length) throw new Error('Not a .prompty file: no front matter between --- lines (the closing --- is missing).');
  return { front: lines.slice(start, end).join('\n'), body: lines.slice(end + 1).join('\n') };
}

function readFront(front: string): Obj {
  const doc = parseDocument(front, { prettyErrors: false });
  if (doc.errors.length) throw new Error(`The .prompty front matter is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
  if (doc.contents === null) return {};
  if (!isMap(doc.contents)) throw new Error('The .prompty front matter must be a mapping (name, description, model, inputs…).');
  const data = doc.toJS({ maxAliasCount: 100 }) as unknown;
  return isObj(data) ? data : {};
}

/** Checks that a Prompty template means the same as mustache; throws for Jinja2 that mustache cannot express. */
function checkTemplate(template: string, where: string): void {
  const statement = /\{%.*?%\}|\{%/s.exec(template);
  if (statement) {
    throw new Error(`The ${where} uses the Jinja2 statement “${statement[0].slice(0, 40)}”, which a mustache prompt cannot express: rewrite it with {{#section}}…{{/section}}.`);
  }
  for (const m of template.matchAll(/\{\{(?![#^/!>{&=])(.*?)\}\}/gs)) {
    const expr = m[1]!.trim();
    if (expr !== '.' && !/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(expr)) {
      throw new Error(`The ${where} uses “{{${m[1]}}}”, a Jinja2 expression (filter, call or operator) that a mustache prompt cannot express: use {{name}} or {{name.field}}.`);
    }
  }
  try {
    Mustache.parse(template);
  } catch (e) {
    throw new Error(`The ${where} is not a valid mustache template: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

function readMessages(body: string): FileMessage[] {
  const lines = body.split('\n');
  const chunks: { role: string; lines: string[] }[] = [];
  const before: string[] = [];
  for (const line of lines) {
    const m = ROLE_LINE.exec(line);
    if (m) chunks.push({ role: ROLE_MAP[m[1]!.toLowerCase()]!, lines: [] });
    else if (chunks.length) chunks[chunks.length - 1]!.lines.push(line);
    else before.push(line);
  }
  if (!chunks.length) {
    throw new Error('The .prompty body has no messages: start each message with a line of its own that says system:, user: or assistant:.');
  }
  // Prompty reads text before the first role line as the system message.
  if (before.join('').trim()) chunks.unshift({ role: 'system', lines: before });
  return chunks.map((c, i): FileMessage => {
    const template = c.lines.join('\n').trim();
    checkTemplate(template, `message ${i + 1} (${c.role})`);
    return { kind: 'message', role: c.role, chatRole: false, template, templateFormat: 'mustache' };
  });
}

function readInputs(front: Obj): string[] | undefined {
  const inputs = front['inputs'];
  const sample = front['sample'];
  let names: string[];
  if (isObj(inputs)) names = Object.keys(inputs);
  // The list form: `- name: question`.
  else if (Array.isArray(inputs)) names = inputs.map((i) => (isObj(i) && typeof i['name'] === 'string' ? i['name'] : '')).filter(Boolean);
  else if (isObj(sample)) names = Object.keys(sample);
  else return undefined;
  for (const n of names) {
    if (!VARIABLE.test(n)) throw new Error(`The .prompty input “${n}” is not a variable name: use letters, digits and _.`);
  }
  return names;
}

/** A setting value given literally, not a `${env:…}` or `${file:…}` reference to resolve elsewhere. */
function literal(v: unknown): v is string {
  return typeof v === 'string' && v.trim() !== '' && !/^\$\{.*\}$/.test(v.trim());
}

function readModel(front: Obj): PromptFile['model'] {
  const model = front['model'];
  if (!isObj(model)) return undefined;
  const conf = isObj(model['configuration']) ? model['configuration'] : {};
  const type = typeof conf['type'] === 'string' ? conf['type'].toLowerCase() : undefined;
  const id = type ? MODEL_CLASSES[type] : undefined;
  if (!id) return undefined;
  const azure = id[id.length - 1] === 'AzureChatOpenAI';
  const name = [conf['model'], conf['name'], conf['azure_deployment'], conf['deployment']].find(literal);
  const settings: Obj = {};
  if (name) settings['model'] = name;
  if (azure && literal(conf['azure_deployment'])) settings['azure_deployment'] = conf['azure_deployment'];
  const parameters = model['parameters'];
  if (isObj(parameters)) Object.assign(settings, parameters);
  return { id: [...id], settings };
}

/**
 * The prompt file of a `.prompty` file. `name` is the prompt name to use when the front matter has none (a file's
 * base name, say). Throws an `Error` that says what is wrong when the text is not a `.prompty` file this can convert.
 */
export function promptyToPromptFile(text: string, name?: string): PromptFile {
  const { front, body } = splitFrontMatter(text);
  const meta = readFront(front);
  const messages = readMessages(body);
  const identifier = [meta['name'], name].filter((n): n is string => typeof n === 'string').map(promptyName).find((n) => PROMPT_NAME.test(n));
  const description = typeof meta['description'] === 'string' ? meta['description'].trim() : undefined;
  const tags = Array.isArray(meta['tags']) ? meta['tags'].filter((t): t is string => typeof t === 'string') : undefined;
  const inputVariables = readInputs(meta);
  const model = readModel(meta);
  return {
    ...(identifier ? { identifier } : {}),
    ...(description ? { description } : {}),
    ...(tags?.length ? { tags } : {}),
    templateFormat: 'mustache',
    ...(inputVariables ? { inputVariables } : {}),
    body: { kind: 'chat', messages },
    ...(model ? { model } : {}),
  };
}
