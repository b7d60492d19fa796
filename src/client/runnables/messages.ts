/** Chat messages as runnables pass them: a role and text, and the model's answer with its usage. */
import type { MessageRole } from '../templates';

export type Role = MessageRole;

export interface Message {
  role: Role;
  content: string;
}

/** Token counts as LangSmith records them on an llm run (`usage_metadata`). */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

export interface ResponseMetadata {
  model?: string;
  finish_reason?: string;
  id?: string;
}

/** The model's answer, whole or a piece of it; pieces concat into the whole. */
export class AIMessage implements Message {
  readonly role = 'ai' as const;
  constructor(
    readonly content: string,
    readonly usage?: Usage,
    readonly responseMetadata: ResponseMetadata = {},
  ) {}

  concat(other: AIMessage): AIMessage {
    return new AIMessage(this.content + other.content, other.usage ?? this.usage, { ...this.responseMetadata, ...stripUndefined(other.responseMetadata) });
  }

  toJSON(): Record<string, unknown> {
    return {
      role: 'ai',
      content: this.content,
      ...(this.usage ? { usage_metadata: this.usage } : {}),
      ...(Object.keys(this.responseMetadata).length ? { response_metadata: this.responseMetadata } : {}),
    };
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A rendered chat prompt. */
export class ChatPromptValue {
  readonly kind = 'chat' as const;
  constructor(readonly messages: Message[]) {}
  toJSON(): Record<string, unknown> {
    return { messages: this.messages };
  }
}

/** A rendered string prompt. */
export class StringPromptValue {
  readonly kind = 'string' as const;
  constructor(readonly text: string) {}
  toJSON(): Record<string, unknown> {
    return { text: this.text };
  }
}

export type PromptValue = ChatPromptValue | StringPromptValue;

/** What a chat model accepts: a rendered prompt, messages, or one human message's text. */
export type ModelInput = PromptValue | Message[] | string;

export function toMessages(input: ModelInput): Message[] {
  if (typeof input === 'string') return [{ role: 'human', content: input }];
  if (Array.isArray(input)) return input;
  return input.kind === 'chat' ? input.messages : [{ role: 'human', content: input.text }];
}

/** A message from outside (a session's stored history): `{role, content}` with text content. */
export function isMessage(v: unknown): v is Message {
  return !!v && typeof v === 'object' && typeof (v as Message).role === 'string' && typeof (v as Message).content === 'string';
}
