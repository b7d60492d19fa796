// What a run's payload is, so it can be shown as what it is: a conversation (OpenAI or LangChain messages),
// retriever documents, a prompt's text, a single string, or else JSON. Pure: no React. Every piece keeps its
// path in the payload, so a value the host cut can be asked for whole.

export type Path = (string | number)[];

export type Role = 'system' | 'human' | 'ai' | 'tool' | 'function' | 'other';

export type Part =
  | { type: 'text'; text: string; path: Path }
  | { type: 'image'; url: string; path: Path }
  | { type: 'json'; value: unknown; path: Path };

export interface ToolCall {
  id: string | null;
  name: string;
  /** The arguments: parsed when they were a JSON string that parses. */
  args: unknown;
  /** Arguments given as a string that is not JSON. */
  rawArgs: string | null;
  path: Path;
}

export interface Message {
  role: Role;
  /** The role as the payload spelled it (for `other`). */
  roleName: string;
  name: string | null;
  content: Part[];
  toolCalls: ToolCall[];
  toolCallId: string | null;
  path: Path;
}

export interface Doc {
  content: string;
  source: string | null;
  metadata: unknown;
  path: Path;
}

export type View =
  | { kind: 'messages'; messages: Message[] }
  | { kind: 'documents'; documents: Doc[] }
  | { kind: 'text'; label: string | null; text: string; path: Path }
  | { kind: 'json' };

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const ROLES: Record<string, Role> = {
  system: 'system',
  developer: 'system',
  user: 'human',
  human: 'human',
  assistant: 'ai',
  ai: 'ai',
  tool: 'tool',
  function: 'function',
  // LangChain class names
  SystemMessage: 'system',
  HumanMessage: 'human',
  AIMessage: 'ai',
  AIMessageChunk: 'ai',
  ToolMessage: 'tool',
  FunctionMessage: 'function',
  ChatMessage: 'other',
  SystemMessageChunk: 'system',
  HumanMessageChunk: 'human',
  ToolMessageChunk: 'tool',
};

const CHUNK_TYPES: Record<string, string> = { AIMessageChunk: 'ai', HumanMessageChunk: 'human' };

function content(value: unknown, path: Path): Part[] | undefined {
  if (typeof value === 'string') return value === '' ? [] : [{ type: 'text', text: value, path }];
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  return value.map((part, i): Part => {
    const at = [...path, i];
    if (typeof part === 'string') return { type: 'text', text: part, path: at };
    if (isObj(part)) {
      if (part.type === 'text' && typeof part.text === 'string') return { type: 'text', text: part.text, path: [...at, 'text'] };
      if (part.type === 'image_url') {
        const img = part.image_url;
        const url = typeof img === 'string' ? img : isObj(img) && typeof img.url === 'string' ? img.url : undefined;
        if (url !== undefined) return { type: 'image', url, path: at };
      }
    }
    return { type: 'json', value: part, path: at };
  });
}

function parseArgs(args: unknown): { args: unknown; rawArgs: string | null } {
  if (typeof args !== 'string') return { args, rawArgs: null };
  try {
    return { args: JSON.parse(args) as unknown, rawArgs: null };
  } catch {
    return { args: null, rawArgs: args };
  }
}

function toolCalls(value: unknown, path: Path): ToolCall[] | undefined {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return undefined;
  const out: ToolCall[] = [];
  for (let i = 0; i < value.length; i++) {
    const call = value[i];
    if (!isObj(call)) return undefined;
    const id = typeof call.id === 'string' ? call.id : null;
    if (isObj(call.function) && typeof call.function.name === 'string') {
      // OpenAI: {id, type: 'function', function: {name, arguments}}
      out.push({ id, name: call.function.name, ...parseArgs(call.function.arguments), path: [...path, i, 'function', 'arguments'] });
    } else if (typeof call.name === 'string') {
      // LangChain: {name, args, id}
      out.push({ id, name: call.name, ...parseArgs(call.args), path: [...path, i, 'args'] });
    } else return undefined;
  }
  return out;
}

/** The message in `value` (OpenAI or one of LangChain's shapes), or undefined when it is not one. */
export function asMessage(value: unknown, path: Path): Message | undefined {
  if (!isObj(value)) return undefined;
  let body: Obj;
  let roleName: string;
  let at: Path;
  if (value.lc === 1 && value.type === 'constructor' && Array.isArray(value.id) && isObj(value.kwargs)) {
    const cls = value.id[value.id.length - 1];
    if (typeof cls !== 'string' || !(cls in ROLES)) return undefined;
    body = value.kwargs;
    roleName = cls === 'ChatMessage' && typeof body.role === 'string' ? body.role : (CHUNK_TYPES[cls] ?? cls);
    at = [...path, 'kwargs'];
  } else if (typeof value.type === 'string' && isObj(value.data) && ('content' in value.data || 'tool_calls' in value.data)) {
    body = value.data;
    roleName = value.type;
    at = [...path, 'data'];
  } else if (typeof value.role === 'string' && ('content' in value || 'tool_calls' in value)) {
    body = value;
    roleName = value.role;
    at = path;
  } else if (typeof value.type === 'string' && value.type in ROLES && 'content' in value) {
    body = value;
    roleName = value.type;
    at = path;
  } else return undefined;
  const role = ROLES[roleName] ?? 'other';
  const parts = content(body.content, [...at, 'content']);
  if (!parts) return undefined;
  let calls = toolCalls(body.tool_calls, [...at, 'tool_calls']);
  if (calls && !calls.length && isObj(body.additional_kwargs)) calls = toolCalls(body.additional_kwargs.tool_calls, [...at, 'additional_kwargs', 'tool_calls']);
  if (!calls) return undefined;
  return {
    role,
    roleName,
    name: typeof body.name === 'string' ? body.name : null,
    content: parts,
    toolCalls: calls,
    toolCallId: typeof body.tool_call_id === 'string' ? body.tool_call_id : null,
    path,
  };
}

/** A list of messages (or LangChain's list of lists of them); undefined unless every item is a message. */
export function asMessages(value: unknown, path: Path): Message[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const out: Message[] = [];
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    if (Array.isArray(item)) {
      const inner = asMessages(item, [...path, i]);
      if (!inner) return undefined;
      out.push(...inner);
      continue;
    }
    const m = asMessage(item, [...path, i]);
    if (!m) return undefined;
    out.push(m);
  }
  return out;
}

function asDocument(value: unknown, path: Path): Doc | undefined {
  if (!isObj(value)) return undefined;
  let body = value;
  let at = path;
  if (value.lc === 1 && isObj(value.kwargs)) {
    body = value.kwargs;
    at = [...path, 'kwargs'];
  }
  if (typeof body.page_content !== 'string') return undefined;
  const meta = body.metadata;
  const source = isObj(meta) ? (['source', 'url', 'title', 'file_path'].map((k) => meta[k]).find((s) => typeof s === 'string') as string | undefined) : undefined;
  return { content: body.page_content, source: source ?? null, metadata: meta ?? null, path: [...at, 'page_content'] };
}

function generationMessages(generations: unknown): Message[] | undefined {
  if (!Array.isArray(generations) || !generations.length) return undefined;
  const out: Message[] = [];
  const one = (g: unknown, path: Path): boolean => {
    if (!isObj(g)) return false;
    const m = asMessage(g.message, [...path, 'message']);
    if (m) {
      out.push(m);
      return true;
    }
    if (typeof g.text === 'string') {
      out.push({ role: 'ai', roleName: 'ai', name: null, content: [{ type: 'text', text: g.text, path: [...path, 'text'] }], toolCalls: [], toolCallId: null, path });
      return true;
    }
    return false;
  };
  for (let i = 0; i < generations.length; i++) {
    const g = generations[i];
    if (Array.isArray(g)) {
      for (let j = 0; j < g.length; j++) if (!one(g[j], ['generations', i, j])) return undefined;
    } else if (!one(g, ['generations', i])) return undefined;
  }
  return out.length ? out : undefined;
}

/** What a run's inputs or outputs are. */
export function classify(value: unknown): View {
  if (typeof value === 'string') return { kind: 'text', label: null, text: value, path: [] };
  const single = asMessage(value, []);
  if (single) return { kind: 'messages', messages: [single] };
  const list = asMessages(value, []);
  if (list) return { kind: 'messages', messages: list };
  if (!isObj(value)) return { kind: 'json' };

  const messages = asMessages(value.messages, ['messages']);
  if (messages) return { kind: 'messages', messages };
  const generations = generationMessages(value.generations);
  if (generations) return { kind: 'messages', messages: generations };
  if (Array.isArray(value.choices) && value.choices.length) {
    const out: Message[] = [];
    for (let i = 0; i < value.choices.length; i++) {
      const c = value.choices[i];
      const m = isObj(c) ? asMessage(c.message, ['choices', i, 'message']) : undefined;
      if (!m) return { kind: 'json' };
      out.push(m);
    }
    return { kind: 'messages', messages: out };
  }
  if (Array.isArray(value.documents)) {
    const docs: Doc[] = [];
    for (let i = 0; i < value.documents.length; i++) {
      const d = asDocument(value.documents[i], ['documents', i]);
      if (!d) return { kind: 'json' };
      docs.push(d);
    }
    if (docs.length) return { kind: 'documents', documents: docs };
  }
  // An agent's or a chain's output that is a message, beside other keys.
  const output = asMessage(value.output, ['output']);
  if (output) return { kind: 'messages', messages: [output] };
  // A serialized prompt value: StringPromptValue {text} or ChatPromptValue {messages}.
  if (value.lc === 1 && isObj(value.kwargs) && typeof value.kwargs.text === 'string') return { kind: 'text', label: null, text: value.kwargs.text, path: ['kwargs', 'text'] };
  const keys = Object.keys(value);
  if (keys.length === 1) {
    const key = keys[0]!;
    const inner = value[key];
    const asMsg = asMessage(inner, [key]) ?? undefined;
    if (asMsg) return { kind: 'messages', messages: [asMsg] };
    const innerList = asMessages(inner, [key]);
    if (innerList) return { kind: 'messages', messages: innerList };
    if (typeof inner === 'string') return { kind: 'text', label: key, text: inner, path: [key] };
    // A prompt value: {output: {messages}} or {output: {text}}, LangChain's serialized ChatPromptValue.
    if (isObj(inner)) {
      const body = inner.lc === 1 && isObj(inner.kwargs) ? inner.kwargs : inner;
      const base: Path = body === inner ? [key] : [key, 'kwargs'];
      const promptMessages = asMessages(body.messages, [...base, 'messages']);
      if (promptMessages) return { kind: 'messages', messages: promptMessages };
      if (typeof body.text === 'string' && Object.keys(body).length <= 2) return { kind: 'text', label: 'text', text: body.text, path: [...base, 'text'] };
    }
  }
  if (value.lc === 1 && isObj(value.kwargs) && Array.isArray(value.kwargs.messages)) {
    const promptMessages = asMessages(value.kwargs.messages, ['kwargs', 'messages']);
    if (promptMessages) return { kind: 'messages', messages: promptMessages };
  }
  return { kind: 'json' };
}

/** The text of a message (its text parts joined). */
export function messageText(m: Message): string {
  return m.content
    .filter((p): p is Extract<Part, { type: 'text' }> => p.type === 'text')
    .map((p) => p.text)
    .join('\n');
}

/** A turn's human input: the last human message, else the first string value. */
export function humanInput(value: unknown): { message: Message } | { text: string; path: Path } | undefined {
  const view = classify(value);
  if (view.kind === 'messages') {
    const human = [...view.messages].reverse().find((m) => m.role === 'human');
    if (human) return { message: human };
  }
  return firstString(value);
}

/** A turn's answer: the last AI message, else the first string value. */
export function aiAnswer(value: unknown): { message: Message } | { text: string; path: Path } | undefined {
  const view = classify(value);
  if (view.kind === 'messages') {
    const ai = [...view.messages].reverse().find((m) => m.role === 'ai');
    if (ai) return { message: ai };
  }
  return firstString(value);
}

function firstString(value: unknown): { text: string; path: Path } | undefined {
  if (typeof value === 'string') return { text: value, path: [] };
  if (!isObj(value)) return undefined;
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') return { text: v, path: [k] };
  return undefined;
}
