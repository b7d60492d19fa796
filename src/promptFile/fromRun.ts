// An llm run's messages as a prompt file, to run again in the playground: the chat messages of its inputs in
// OpenAI's shape (`{role, content}`) or LangChain's (serialized constructors, `{type, data}`), as a chat prompt
// whose templates are the messages' text (mustache: single braces stay text; a `{{name}}` in a message becomes
// a variable the playground asks for).
import type { FileMessage, PromptFile } from './model';

type Role = 'system' | 'human' | 'ai';

const OPENAI_ROLES: Record<string, Role> = { system: 'system', developer: 'system', user: 'human', human: 'human', assistant: 'ai', ai: 'ai' };
const LANGCHAIN_CLASSES: Record<string, Role> = { SystemMessage: 'system', HumanMessage: 'human', AIMessage: 'ai', AIMessageChunk: 'ai', HumanMessageChunk: 'human', SystemMessageChunk: 'system' };

function record(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** The text of a message's content: a string, or the text parts of a list. */
function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.map((p) => (typeof p === 'string' ? p : record(p)?.['type'] === 'text' ? record(p)?.['text'] : undefined)).filter((t): t is string => typeof t === 'string');
  return texts.length ? texts.join('\n') : undefined;
}

/** One message's role and text, or undefined when it is no chat message this knows (a tool result, say). */
export function chatMessage(m: unknown): { role: Role; text: string } | undefined {
  const r = record(m);
  if (!r) return undefined;
  // OpenAI: {role, content}
  if (typeof r['role'] === 'string') {
    const role = OPENAI_ROLES[r['role']];
    const text = textOf(r['content']);
    return role && text !== undefined ? { role, text } : undefined;
  }
  // LangChain serialized: {lc: 1, type: 'constructor', id: [..., 'HumanMessage'], kwargs: {content}}
  if (r['type'] === 'constructor' && Array.isArray(r['id'])) {
    const role = LANGCHAIN_CLASSES[String(r['id'][r['id'].length - 1])];
    const text = textOf(record(r['kwargs'])?.['content']);
    return role && text !== undefined ? { role, text } : undefined;
  }
  // LangChain dict: {type: 'human', data: {content}} or {type: 'human', content}
  if (typeof r['type'] === 'string') {
    const role = OPENAI_ROLES[r['type']];
    const text = textOf(record(r['data'])?.['content'] ?? r['content']);
    return role && text !== undefined ? { role, text } : undefined;
  }
  return undefined;
}

/** The chat messages of an llm run's inputs: `messages` (or LangChain's nested `[[…]]`), or a `prompts` list. */
export function runChatMessages(inputs: unknown): { role: Role; text: string }[] {
  const r = record(inputs);
  if (!r) return [];
  let list = r['messages'];
  if (Array.isArray(list) && list.length === 1 && Array.isArray(list[0])) list = list[0];
  if (Array.isArray(list)) return list.map(chatMessage).filter((m): m is { role: Role; text: string } => m !== undefined);
  const prompts = r['prompts'] ?? r['prompt'];
  if (Array.isArray(prompts) && typeof prompts[0] === 'string') return [{ role: 'human', text: prompts[0] }];
  if (typeof prompts === 'string') return [{ role: 'human', text: prompts }];
  return [];
}

/** A chat prompt file of the run's messages, or undefined when the run has none. */
export function promptFileFromRun(inputs: unknown, model?: { name: string; settings: Record<string, unknown> }): PromptFile | undefined {
  const messages = runChatMessages(inputs);
  if (!messages.length) return undefined;
  const body: FileMessage[] = messages.map((m) => ({ kind: 'message', role: m.role, chatRole: false, template: m.text, templateFormat: 'mustache' }));
  return {
    templateFormat: 'mustache',
    body: { kind: 'chat', messages: body },
    ...(model ? { model: { id: ['langchain', 'chat_models', 'openai', 'ChatOpenAI'], settings: { model: model.name, ...model.settings } } } : {}),
  };
}
