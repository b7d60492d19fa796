/**
 * LangChain prompt manifests (serialized `lc: 1` constructor JSON) read into a small model and written
 * back. Writing an unchanged model gives back the very manifest that was read: every node keeps its
 * original JSON and only fields that changed are rewritten.
 */
import { LangSmithValidationError } from '../errors';
import { checkTemplateFormat, extractVariables, renderTemplate, type TemplateFormat } from './format';

export interface LcNode {
  lc: number;
  type: string;
  id: string[];
  kwargs?: Record<string, unknown>;
  [k: string]: unknown;
}

export type MessageRole = 'system' | 'human' | 'ai' | (string & {});

export interface TextPart {
  type: 'text';
  template: string;
  templateFormat: TemplateFormat;
  raw?: LcNode;
}
/** A content part we do not interpret (an image template…), kept as is. */
export interface OpaquePart {
  type: 'opaque';
  raw: unknown;
}

export interface MessageTemplate {
  kind: 'message';
  role: MessageRole;
  /** A string, or content parts for multi-part messages. */
  template: string | (TextPart | OpaquePart)[];
  templateFormat: TemplateFormat;
  raw?: LcNode;
}

export interface MessagesPlaceholder {
  kind: 'placeholder';
  variableName: string;
  optional: boolean;
  raw?: LcNode;
}

export type ChatMessage = MessageTemplate | MessagesPlaceholder;

export interface ChatPrompt {
  kind: 'chat';
  messages: ChatMessage[];
  /** Top-level template_format of the ChatPromptTemplate, when it has one. */
  templateFormat?: TemplateFormat;
  inputVariables: string[];
  raw?: LcNode;
}

export interface StringPrompt {
  kind: 'string';
  template: string;
  templateFormat: TemplateFormat;
  inputVariables: string[];
  raw?: LcNode;
}

export type PromptModel = ChatPrompt | StringPrompt;

export interface PromptManifest {
  prompt: PromptModel;
  /** The model node of a model-bound wrapper (RunnableSequence, playground wrapper), unchanged. */
  model?: unknown;
  /** The wrapper node itself, when the manifest is model-bound. */
  wrapper?: LcNode;
}

const ROLE_BY_CLASS: Record<string, MessageRole> = {
  SystemMessagePromptTemplate: 'system',
  HumanMessagePromptTemplate: 'human',
  AIMessagePromptTemplate: 'ai',
};
const CLASS_BY_ROLE: Record<string, string> = {
  system: 'SystemMessagePromptTemplate',
  human: 'HumanMessagePromptTemplate',
  ai: 'AIMessagePromptTemplate',
};
const PROMPT_CLASSES = new Set(['ChatPromptTemplate', 'PromptTemplate', 'StructuredPrompt']);

function isLcNode(v: unknown): v is LcNode {
  if (!v || typeof v !== 'object' || (v as LcNode).lc !== 1 || !Array.isArray((v as LcNode).id)) return false;
  // kwargs, when there, is an object: a node whose kwargs is text or a number is not one we can read or write back.
  const k = (v as LcNode).kwargs as unknown;
  return k === undefined || k === null || (typeof k === 'object' && !Array.isArray(k));
}

function className(n: LcNode): string {
  return n.id[n.id.length - 1] ?? '';
}

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

function fmt(v: unknown, fallback: TemplateFormat = 'f-string'): TemplateFormat {
  return v === undefined || v === null ? fallback : checkTemplateFormat(v);
}

function readPromptTemplate(n: LcNode, fallback?: TemplateFormat): { template: string; templateFormat: TemplateFormat } {
  const k = n.kwargs ?? {};
  if (typeof k['template'] !== 'string') throw new LangSmithValidationError('Invalid prompt manifest: PromptTemplate without a template');
  return { template: k['template'], templateFormat: fmt(k['template_format'], fallback) };
}

function readMessage(n: LcNode, fallback?: TemplateFormat): ChatMessage {
  const cls = className(n);
  const k = n.kwargs ?? {};
  if (cls === 'MessagesPlaceholder') {
    return { kind: 'placeholder', variableName: String(k['variable_name'] ?? ''), optional: !!k['optional'], raw: n };
  }
  const role = cls === 'ChatMessagePromptTemplate' ? String(k['role'] ?? 'chat') : ROLE_BY_CLASS[cls];
  if (!role) throw new LangSmithValidationError(`Invalid prompt manifest: unknown message class ${cls}`);
  const prompt = k['prompt'];
  if (Array.isArray(prompt)) {
    const parts = prompt.map((p): TextPart | OpaquePart =>
      isLcNode(p) && className(p) === 'PromptTemplate' ? { type: 'text', ...readPromptTemplate(p, fallback), raw: p } : { type: 'opaque', raw: p },
    );
    const first = parts.find((p): p is TextPart => p.type === 'text');
    return { kind: 'message', role, template: parts, templateFormat: first?.templateFormat ?? fallback ?? 'f-string', raw: n };
  }
  if (!isLcNode(prompt)) throw new LangSmithValidationError('Invalid prompt manifest: message without a prompt');
  return { kind: 'message', role, ...readPromptTemplate(prompt, fallback), raw: n };
}

function readPrompt(n: LcNode): PromptModel {
  const cls = className(n);
  const k = n.kwargs ?? {};
  const inputVariables = Array.isArray(k['input_variables']) ? (k['input_variables'] as string[]) : [];
  if (cls === 'PromptTemplate') return { kind: 'string', ...readPromptTemplate(n), inputVariables, raw: n };
  if (cls === 'ChatPromptTemplate' || cls === 'StructuredPrompt') {
    const top = k['template_format'] === undefined ? undefined : fmt(k['template_format']);
    const messages = Array.isArray(k['messages']) ? k['messages'] : [];
    return {
      kind: 'chat',
      messages: messages.map((m) => {
        if (!isLcNode(m)) throw new LangSmithValidationError('Invalid prompt manifest: message is not a LangChain object');
        return readMessage(m, top);
      }),
      ...(top ? { templateFormat: top } : {}),
      inputVariables,
      raw: n,
    };
  }
  throw new LangSmithValidationError(`Invalid prompt manifest: unsupported class ${cls}`);
}

/** Reads a manifest: a prompt, or a wrapper that binds a prompt to a model. */
export function readManifest(manifest: unknown): PromptManifest {
  if (!isLcNode(manifest)) throw new LangSmithValidationError('Invalid prompt manifest: not a LangChain serialized object');
  if (PROMPT_CLASSES.has(className(manifest))) return { prompt: readPrompt(manifest) };
  const k = manifest.kwargs ?? {};
  const first = k['first'];
  if (isLcNode(first) && PROMPT_CLASSES.has(className(first))) {
    return { prompt: readPrompt(first), model: k['last'], wrapper: manifest };
  }
  throw new LangSmithValidationError(`Invalid prompt manifest: unsupported class ${className(manifest)}`);
}

// ---------- writing ----------

function ns(raw?: LcNode): string {
  return raw?.id[0] === 'langchain' ? 'langchain' : 'langchain_core';
}

function promptTemplateNode(template: string, format: TemplateFormat, base?: LcNode, root = 'langchain_core'): LcNode {
  const prev = base ? readPromptTemplate(base) : undefined;
  if (base && prev && prev.template === template && prev.templateFormat === format) return clone(base);
  const node = base ? clone(base) : { lc: 1, type: 'constructor', id: [root, 'prompts', 'prompt', 'PromptTemplate'], kwargs: {} };
  node.kwargs = { ...(node.kwargs ?? {}), input_variables: extractVariables(template, format), template_format: format, template };
  return node;
}

function messageVariables(m: ChatMessage): string[] {
  if (m.kind === 'placeholder') return m.optional ? [] : [m.variableName];
  if (typeof m.template === 'string') return extractVariables(m.template, m.templateFormat);
  return m.template.flatMap((p) => (p.type === 'text' ? extractVariables(p.template, p.templateFormat) : []));
}

function messageNode(m: ChatMessage, root: string): LcNode {
  if (m.kind === 'placeholder') {
    const base = m.raw ? clone(m.raw) : { lc: 1, type: 'constructor', id: [root, 'prompts', 'chat', 'MessagesPlaceholder'], kwargs: {} };
    const k = base.kwargs ?? {};
    const same = m.raw && k['variable_name'] === m.variableName && !!k['optional'] === m.optional;
    if (!same) {
      k['variable_name'] = m.variableName;
      if (m.optional || 'optional' in k) k['optional'] = m.optional;
    }
    base.kwargs = k;
    return base;
  }
  const rawCls = m.raw ? className(m.raw) : undefined;
  const rawRole = m.raw ? (rawCls === 'ChatMessagePromptTemplate' ? String(m.raw.kwargs?.['role']) : ROLE_BY_CLASS[rawCls ?? '']) : undefined;
  let node: LcNode;
  if (m.raw && rawRole === m.role) node = clone(m.raw);
  else {
    const cls = CLASS_BY_ROLE[m.role] ?? 'ChatMessagePromptTemplate';
    node = { lc: 1, type: 'constructor', id: [ns(m.raw) === 'langchain' ? 'langchain' : root, 'prompts', 'chat', cls], kwargs: cls === 'ChatMessagePromptTemplate' ? { role: m.role } : {} };
  }
  const k = node.kwargs ?? {};
  const rawPrompt = m.raw?.kwargs?.['prompt'];
  if (typeof m.template === 'string') {
    k['prompt'] = promptTemplateNode(m.template, m.templateFormat, isLcNode(rawPrompt) ? rawPrompt : undefined, root);
  } else {
    k['prompt'] = m.template.map((p) => (p.type === 'opaque' ? clone(p.raw) : promptTemplateNode(p.template, p.templateFormat, p.raw, root)));
  }
  node.kwargs = k;
  return node;
}

function sameStrings(a: unknown, b: string[]): boolean {
  return Array.isArray(a) && a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');
}

function promptNode(p: PromptModel): LcNode {
  const root = ns(p.raw);
  if (p.kind === 'string') return promptTemplateNode(p.template, p.templateFormat, p.raw, root);
  const node = p.raw ? clone(p.raw) : { lc: 1, type: 'constructor', id: [root, 'prompts', 'chat', 'ChatPromptTemplate'], kwargs: {} };
  const k = node.kwargs ?? {};
  k['messages'] = p.messages.map((m) => messageNode(m, root));
  const vars = [...new Set(p.messages.flatMap(messageVariables))];
  // Keep the original list (and its order) when it names the same variables.
  if (!sameStrings(k['input_variables'], vars)) k['input_variables'] = vars;
  if (p.templateFormat !== undefined) k['template_format'] = p.templateFormat;
  else if (!p.raw) delete k['template_format'];
  node.kwargs = k;
  return node;
}

/** Writes a manifest; for an unchanged model read by {@link readManifest}, the original JSON. */
export function writeManifest(m: PromptManifest): LcNode {
  const prompt = promptNode(m.prompt);
  if (!m.wrapper) return prompt;
  const w = clone(m.wrapper);
  w.kwargs = { ...(w.kwargs ?? {}), first: prompt, ...(m.model !== undefined ? { last: clone(m.model) } : {}) };
  return w;
}

/** A new chat prompt manifest with `langchain_core` ids. */
export function chatPromptManifest(
  messages: ({ role: MessageRole; template: string } | { placeholder: string; optional?: boolean })[],
  templateFormat: TemplateFormat = 'f-string',
): LcNode {
  checkTemplateFormat(templateFormat);
  return writeManifest({
    prompt: {
      kind: 'chat',
      templateFormat,
      inputVariables: [],
      messages: messages.map((m) =>
        'placeholder' in m
          ? { kind: 'placeholder', variableName: m.placeholder, optional: !!m.optional }
          : { kind: 'message', role: m.role, template: m.template, templateFormat },
      ),
    },
  });
}

/** The inputs a prompt needs, computed from its templates. */
export function promptVariables(p: PromptModel): string[] {
  if (p.kind === 'string') return extractVariables(p.template, p.templateFormat);
  return [...new Set(p.messages.flatMap(messageVariables))];
}

export interface RenderedMessage {
  role: MessageRole;
  content: string;
}

/** Renders a chat prompt; placeholders take a list of `{role, content}` from values. */
export function renderChatPrompt(p: ChatPrompt, values: Record<string, unknown>): RenderedMessage[] {
  const out: RenderedMessage[] = [];
  for (const m of p.messages) {
    if (m.kind === 'placeholder') {
      const v = Object.hasOwn(values, m.variableName) ? values[m.variableName] : undefined;
      if (v === undefined && m.optional) continue;
      if (!Array.isArray(v) || v.some((msg) => !msg || typeof msg !== 'object'))
        throw new LangSmithValidationError(`Placeholder ${m.variableName} needs a list of messages`);
      for (const msg of v as RenderedMessage[]) out.push({ role: msg.role, content: String(msg.content) });
      continue;
    }
    const content =
      typeof m.template === 'string'
        ? renderTemplate(m.template, values, m.templateFormat)
        : m.template.map((part) => (part.type === 'text' ? renderTemplate(part.template, values, part.templateFormat) : '')).join('');
    out.push({ role: m.role, content });
  }
  return out;
}
