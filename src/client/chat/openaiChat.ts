/**
 * A chat model over any OpenAI-compatible chat-completions endpoint (OpenAI, Azure OpenAI's v1 API, Ollama,
 * vLLM, the local server's `local-echo`), as a runnable of type `llm`: the whole answer or a stream of
 * server-sent events. The request goes through the client's request policy (timeouts, retries with
 * backoff honouring Retry-After, the caller's AbortSignal); the key travels as a bearer token and is kept
 * where the request policy keeps keys, out of reach of logs and serialisation.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import * as z from 'zod';
import { LangSmithError, LangSmithValidationError } from '../errors';
import { HttpClient, type HttpConfig } from '../http';
import { AIMessage, toMessages, type Message, type ModelInput, type Usage } from '../runnables/messages';
import { Runnable, type RunContext } from '../runnables/runnable';

export interface OpenAIChatOptions {
  /** The API root, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:1984/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when given. */
  apiKey?: string;
  model: string;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  stop?: string[];
  /** Further request fields, sent as they are (`seed`, `presence_penalty`…). */
  modelKwargs?: Record<string, unknown>;
  /** Per attempt; while streaming, the longest wait for the next piece. Default 90 s. */
  timeoutMs?: number;
  /** Default 2 (a repeated completion costs tokens, nothing else). */
  maxRetries?: number;
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  fetch?: HttpConfig['fetch'];
  dispatcher?: HttpConfig['dispatcher'];
  headers?: Record<string, string>;
}

const UsageWire = z.object({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number().optional(),
});

const CompletionWire = z.object({
  id: z.string().optional(),
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z.object({ role: z.string().optional(), content: z.string().nullable().optional() }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
  usage: UsageWire.nullable().optional(),
});

const ChunkWire = z.object({
  id: z.string().optional(),
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        delta: z.object({ content: z.string().nullable().optional() }).optional(),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .optional(),
  usage: UsageWire.nullable().optional(),
  error: z.unknown().optional(),
});

/** Our roles as chat-completions names them (other roles go as they are). */
export function wireRole(role: string): string {
  if (role === 'human') return 'user';
  if (role === 'ai') return 'assistant';
  return role;
}

function usageOf(u: z.infer<typeof UsageWire> | null | undefined): Usage | undefined {
  if (!u) return undefined;
  return { input_tokens: u.prompt_tokens, output_tokens: u.completion_tokens, total_tokens: u.total_tokens ?? u.prompt_tokens + u.completion_tokens };
}

export class OpenAIChatModel extends Runnable<ModelInput, AIMessage> {
  readonly name = 'ChatOpenAI';
  override readonly runType = 'llm';
  readonly model: string;
  private readonly http: HttpClient;

  constructor(private readonly options: OpenAIChatOptions) {
    super();
    if (!options.model?.trim()) throw new LangSmithValidationError('A chat model needs a model name');
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new LangSmithValidationError(`Invalid model endpoint URL: ${options.baseUrl}`);
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new LangSmithValidationError(`Model endpoint must be http or https: ${options.baseUrl}`);
    this.model = options.model.trim();
    this.http = new HttpClient({
      apiUrl: options.baseUrl,
      headers: { ...(options.headers ?? {}), ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries ?? 2,
      retryBaseDelayMs: options.retryBaseDelayMs,
      retryMaxDelayMs: options.retryMaxDelayMs,
      fetch: options.fetch,
      dispatcher: options.dispatcher,
    });
  }

  /** The endpoint (for messages): its base URL, never the key. */
  get endpoint(): string {
    return this.http.apiUrl;
  }

  private get action(): string {
    return `get a chat completion from ${this.model}`;
  }

  /** The request body for these messages. */
  body(messages: Message[], stream: boolean): Record<string, unknown> {
    const o = this.options;
    return {
      ...(o.modelKwargs ?? {}),
      model: this.model,
      messages: messages.map((m) => ({ role: wireRole(m.role), content: m.content })),
      ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
      ...(o.maxTokens !== undefined ? { max_tokens: o.maxTokens } : {}),
      ...(o.topP !== undefined ? { top_p: o.topP } : {}),
      ...(o.stop?.length ? { stop: o.stop } : {}),
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    };
  }

  protected override traceInputs(input: ModelInput): Record<string, unknown> {
    return { messages: toMessages(input).map((m) => ({ role: wireRole(m.role), content: m.content })) };
  }

  protected override traceOutputs(out: AIMessage): Record<string, unknown> {
    return {
      choices: [{ index: 0, message: { role: 'assistant', content: out.content }, finish_reason: out.responseMetadata.finish_reason ?? null }],
      ...(out.usage ? { usage_metadata: out.usage } : {}),
    };
  }

  protected override traceExtra(): { metadata: Record<string, unknown>; extra: Record<string, unknown> } {
    const o = this.options;
    const params = { model: this.model, temperature: o.temperature, max_tokens: o.maxTokens, top_p: o.topP, stop: o.stop };
    return {
      metadata: {
        ls_provider: 'openai',
        ls_model_type: 'chat',
        ls_model_name: this.model,
        ...(o.temperature !== undefined ? { ls_temperature: o.temperature } : {}),
        ...(o.maxTokens !== undefined ? { ls_max_tokens: o.maxTokens } : {}),
      },
      extra: { invocation_params: Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)) },
    };
  }

  protected async call(input: ModelInput, ctx: RunContext): Promise<AIMessage> {
    const answer = await this.http.request({
      method: 'POST',
      path: '/chat/completions',
      json: this.body(toMessages(input), false),
      action: this.action,
      idempotent: true,
      signal: ctx.signal,
      schema: CompletionWire,
    });
    const choice = answer.choices[0]!;
    return new AIMessage(choice.message.content ?? '', usageOf(answer.usage), {
      model: answer.model,
      id: answer.id,
      finish_reason: choice.finish_reason ?? undefined,
    });
  }

  protected override async *streamCall(input: ModelInput, ctx: RunContext): AsyncGenerator<AIMessage> {
    const text = await this.http.stream({
      method: 'POST',
      path: '/chat/completions',
      json: this.body(toMessages(input), true),
      action: this.action,
      idempotent: true,
      signal: ctx.signal,
    });
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (e) => events.push(e) });
    let done = false;
    let sawEvent = false;
    /** The body while it has no event: a server that ignores `stream` answers with one JSON completion. */
    let plain = '';
    for await (const piece of text) {
      if (!sawEvent && plain.length < 10_000_000) plain += piece;
      parser.feed(piece);
      if (events.length) sawEvent = true;
      while (events.length) {
        const event = events.shift()!;
        if (event.data.trim() === '[DONE]') {
          done = true;
          break;
        }
        const chunk = this.parseChunk(event.data);
        if (chunk) yield chunk;
      }
      if (done) break;
    }
    if (!done) {
      // Some servers end the stream without [DONE]; whatever is left in the parser is the last event.
      parser.feed('\n\n');
      if (events.length) sawEvent = true;
      for (const event of events) if (event.data.trim() !== '[DONE]') {
        const chunk = this.parseChunk(event.data);
        if (chunk) yield chunk;
      }
    }
    if (!sawEvent && plain.trim()) yield this.parseWhole(plain);
  }

  private parseWhole(text: string): AIMessage {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new LangSmithError(`Failed to ${this.action}: the answer is neither server-sent events nor JSON: ${text.slice(0, 200)}`, { action: this.action });
    }
    const parsed = CompletionWire.safeParse(json);
    if (!parsed.success) throw new LangSmithError(`Failed to ${this.action}: unexpected answer: ${parsed.error.issues[0]?.message ?? ''}`, { action: this.action });
    const choice = parsed.data.choices[0]!;
    return new AIMessage(choice.message.content ?? '', usageOf(parsed.data.usage), { model: parsed.data.model, id: parsed.data.id, finish_reason: choice.finish_reason ?? undefined });
  }

  private parseChunk(data: string): AIMessage | undefined {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      throw new LangSmithError(`Failed to ${this.action}: a streamed piece of the answer is not JSON: ${data.slice(0, 200)}`, { action: this.action });
    }
    const parsed = ChunkWire.safeParse(json);
    if (!parsed.success) {
      throw new LangSmithError(`Failed to ${this.action}: unexpected streamed answer: ${parsed.error.issues[0]?.message ?? ''}`, { action: this.action });
    }
    const c = parsed.data;
    if (c.error !== undefined) {
      const message = (c.error as { message?: unknown })?.message;
      throw new LangSmithError(`Failed to ${this.action}: ${typeof message === 'string' ? message : JSON.stringify(c.error)}`, { action: this.action });
    }
    const choice = c.choices?.[0];
    const content = choice?.delta?.content ?? '';
    const usage = usageOf(c.usage);
    if (!content && !usage && !choice?.finish_reason) return undefined;
    return new AIMessage(content, usage, { model: c.model, id: c.id, finish_reason: choice?.finish_reason ?? undefined });
  }
}
