/**
 * A chain with a memory: the earlier turns of a session go into each call, and the call's new message and
 * answer are added to them afterwards. Sessions are named by `configurable.sessionId`; a call without one
 * is refused before anything runs (spec §5).
 */
import { LangSmithValidationError } from '../errors';
import { MSG } from '../messages';
import { AIMessage, type Message } from './messages';
import { Runnable, type RunContext } from './runnable';

/** Where a session's messages are kept. */
export interface MessageHistory {
  getMessages(): Promise<Message[]> | Message[];
  addMessages(messages: Message[]): Promise<void> | void;
  clear(): Promise<void> | void;
}

export class InMemoryMessageHistory implements MessageHistory {
  private messages: Message[] = [];
  getMessages(): Message[] {
    return this.messages.map((m) => ({ ...m }));
  }
  addMessages(messages: Message[]): void {
    this.messages.push(...messages.map((m) => ({ role: m.role, content: m.content })));
  }
  clear(): void {
    this.messages = [];
  }
}

/** Histories by session id, in memory. */
export class InMemoryHistoryStore {
  private readonly sessions = new Map<string, InMemoryMessageHistory>();
  get(sessionId: string): InMemoryMessageHistory {
    let h = this.sessions.get(sessionId);
    if (!h) this.sessions.set(sessionId, (h = new InMemoryMessageHistory()));
    return h;
  }
  delete(sessionId: string): void {
    this.sessions.delete(sessionId);
  }
  get sessionIds(): string[] {
    return [...this.sessions.keys()];
  }
}

export interface WithHistoryOptions {
  /** The session's history (made on first use). */
  getMessageHistory: (sessionId: string) => MessageHistory;
  /** Input key of the new human message (recorded in the history when it is a non-empty string). */
  inputMessagesKey: string;
  /** Input key under which the earlier turns are passed to the wrapped runnable. Default `history`. */
  historyMessagesKey?: string;
}

export class RunnableWithMessageHistory<O extends AIMessage | string = AIMessage | string> extends Runnable<Record<string, unknown>, O> {
  readonly name = 'RunnableWithMessageHistory';
  private readonly historyKey: string;

  constructor(
    private readonly runnable: Runnable<Record<string, unknown>, O>,
    private readonly options: WithHistoryOptions,
  ) {
    super();
    this.historyKey = options.historyMessagesKey ?? 'history';
  }

  /** The session's history, or the spec's error when the config names no session. */
  private history(ctx: RunContext): MessageHistory {
    const sessionId = ctx.config.configurable?.sessionId;
    if (typeof sessionId !== 'string' || !sessionId.trim()) throw new LangSmithValidationError(MSG.sessionIdRequired);
    return this.options.getMessageHistory(sessionId);
  }

  override invoke(input: Record<string, unknown>, config: Parameters<Runnable['invoke']>[1] = {}): Promise<O> {
    // Checked before anything runs or is traced.
    const sessionId = config.configurable?.sessionId;
    if (typeof sessionId !== 'string' || !sessionId.trim()) return Promise.reject(new LangSmithValidationError(MSG.sessionIdRequired));
    return super.invoke(input, config);
  }

  override stream(input: Record<string, unknown>, config: Parameters<Runnable['stream']>[1] = {}): AsyncGenerator<O> {
    const sessionId = config.configurable?.sessionId;
    if (typeof sessionId !== 'string' || !sessionId.trim()) throw new LangSmithValidationError(MSG.sessionIdRequired);
    return super.stream(input, config);
  }

  private async withHistory(input: Record<string, unknown>, history: MessageHistory): Promise<Record<string, unknown>> {
    return { ...input, [this.historyKey]: await history.getMessages() };
  }

  private async record(input: Record<string, unknown>, history: MessageHistory, answer: O): Promise<void> {
    const said = input[this.options.inputMessagesKey];
    const added: Message[] = [];
    if (typeof said === 'string' && said.trim()) added.push({ role: 'human', content: said });
    added.push({ role: 'ai', content: typeof answer === 'string' ? answer : answer.content });
    await history.addMessages(added);
  }

  protected async call(input: Record<string, unknown>, ctx: RunContext): Promise<O> {
    const history = this.history(ctx);
    const out = await this.runnable.invokeWithin(await this.withHistory(input, history), ctx);
    await this.record(input, history, out);
    return out;
  }

  protected override async *streamCall(input: Record<string, unknown>, ctx: RunContext): AsyncGenerator<O> {
    const history = this.history(ctx);
    let whole: O | undefined;
    for await (const piece of this.runnable.streamWithin(await this.withHistory(input, history), ctx)) {
      whole = whole === undefined ? piece : ((typeof whole === 'string' ? whole + (piece as string) : (whole as AIMessage).concat(piece as AIMessage)) as O);
      yield piece;
    }
    // Only a complete answer becomes part of the conversation.
    if (whole !== undefined) await this.record(input, history, whole);
  }
}
