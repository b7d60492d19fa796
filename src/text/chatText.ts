// The text of a chat held in an example's inputs or outputs, for the row that shows it: a chat reads as its last
// human message, not as `[{"role":"system","content":…`. Plain data in, text out (no vscode), so any view can use it.
//
// Messages come in the shapes LangSmith stores: OpenAI's {role, content}; LangChain's dict {type: 'human', content}
// or {type: 'human', data: {content}}; LangChain's serialized {lc: 1, id: [..., 'HumanMessage'], kwargs: {content}}.
// Content is a string or a list of parts (strings, or objects with a `text`); parts without text (images) are left out.

type Role = 'human' | 'ai' | 'other';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const HUMAN = new Set(['human', 'user', 'humanmessage', 'humanmessagechunk']);
const AI = new Set(['ai', 'assistant', 'aimessage', 'aimessagechunk']);
const OTHER = new Set(['system', 'developer', 'tool', 'function', 'chat', 'generic', 'systemmessage', 'systemmessagechunk', 'toolmessage', 'toolmessagechunk', 'functionmessage', 'functionmessagechunk', 'chatmessage', 'chatmessagechunk']);

function roleName(name: unknown): Role | undefined {
  if (typeof name !== 'string') return undefined;
  const n = name.toLowerCase();
  return HUMAN.has(n) ? 'human' : AI.has(n) ? 'ai' : OTHER.has(n) ? 'other' : undefined;
}

/** A message's role and content, or undefined when the value is not a chat message. */
function message(v: unknown): { role: Role; content: unknown } | undefined {
  if (!isRecord(v)) return undefined;
  // LangChain serialized: {lc: 1, type: 'constructor', id: ['langchain', ..., 'HumanMessage'], kwargs: {content}}.
  if (v['lc'] !== undefined && Array.isArray(v['id']) && isRecord(v['kwargs'])) {
    const role = roleName(v['id'].at(-1));
    return role && { role, content: v['kwargs']['content'] };
  }
  // LangChain's message dict: {type: 'human', data: {content}}.
  if (isRecord(v['data']) && 'content' in v['data']) {
    const role = roleName(v['type']);
    return role && { role, content: v['data']['content'] };
  }
  if (!('content' in v)) return undefined;
  const role = roleName(v['role']) ?? roleName(v['type']);
  return role && { role, content: v['content'] };
}

/** The text of a message's content: a string, or the text of its parts joined by spaces. */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content.map((p) => (typeof p === 'string' ? p : isRecord(p) && typeof p['text'] === 'string' ? p['text'] : undefined)).filter((t): t is string => t !== undefined && t.trim() !== '');
  return parts.length ? parts.join(' ') : undefined;
}

/** A list of messages (a list of lists, as chat model runs record them, read as one list), or undefined. */
function messageList(v: unknown): { role: Role; content: unknown }[] | undefined {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const flat = v.every(Array.isArray) ? (v as unknown[][]).flat() : v;
  const messages = flat.map(message);
  return messages.length && messages.every((m) => m !== undefined) ? (messages as { role: Role; content: unknown }[]) : undefined;
}

/** The chat in inputs or outputs: `messages` first, else the first field holding a list of messages or one message. */
function chatOf(value: unknown): { role: Role; content: unknown }[] | undefined {
  if (!isRecord(value)) return undefined;
  const own = message(value);
  if (own) return [own];
  const keys = Object.keys(value);
  for (const key of ['messages', ...keys.filter((k) => k !== 'messages')]) {
    if (!Object.hasOwn(value, key)) continue;
    const list = messageList(value[key]) ?? (message(value[key]) ? [message(value[key])!] : undefined);
    if (list) return list;
  }
  return undefined;
}

/** The text of the last human (user) message of a chat in an example's inputs, or undefined when they hold no chat. */
export function lastHumanMessage(inputs: unknown): string | undefined {
  const chat = chatOf(inputs);
  if (!chat) return undefined;
  for (let i = chat.length - 1; i >= 0; i--) {
    if (chat[i]!.role !== 'human') continue;
    const text = contentText(chat[i]!.content);
    if (text !== undefined && text.trim() !== '') return text;
  }
  return undefined;
}

/** The text of the last message of a chat in an example's outputs (the reference answer), or undefined. */
export function lastMessage(outputs: unknown): string | undefined {
  const chat = chatOf(outputs);
  if (!chat) return undefined;
  for (let i = chat.length - 1; i >= 0; i--) {
    const text = contentText(chat[i]!.content);
    if (text !== undefined && text.trim() !== '') return text;
  }
  return undefined;
}
