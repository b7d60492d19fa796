/** A prompt template as a runnable: values in, a rendered prompt out (runs of type `prompt`). */
import { LangSmithValidationError } from '../errors';
import { promptVariables, readManifest, renderChatPrompt, renderTemplate, type PromptModel } from '../templates';
import { ChatPromptValue, isMessage, StringPromptValue, type Message, type PromptValue } from './messages';
import { Runnable, type RunContext } from './runnable';

export interface FollowUpKeys {
  /** Values key of the earlier turns (a list of messages), placed after the template's messages. */
  historyKey: string;
  /** Values key of the new human message, placed last when it is a non-empty string. */
  inputKey: string;
}

export interface PromptTemplateOptions {
  /** For chat: earlier turns and a new message after the template (what the history wrapper feeds). */
  followUp?: FollowUpKeys;
}

export class PromptTemplate extends Runnable<Record<string, unknown>, PromptValue> {
  readonly name: string;
  override readonly runType = 'prompt';

  constructor(
    readonly prompt: PromptModel,
    private readonly options: PromptTemplateOptions = {},
  ) {
    super();
    this.name = prompt.kind === 'chat' ? 'ChatPromptTemplate' : 'PromptTemplate';
  }

  /** From a LangChain prompt manifest (a commit's manifest, model-bound or not). */
  static fromManifest(manifest: unknown, options: PromptTemplateOptions = {}): PromptTemplate {
    return new PromptTemplate(readManifest(manifest).prompt, options);
  }

  /** The values the templates use. */
  get inputVariables(): string[] {
    return promptVariables(this.prompt);
  }

  /**
   * Renders without running (nothing traced): the check before a call. Raises the spec's
   * `(f-string) Missing value for input {name}` when an f-string variable has no value.
   */
  format(values: Record<string, unknown>): PromptValue {
    if (this.prompt.kind === 'string') {
      return new StringPromptValue(renderTemplate(this.prompt.template, values, this.prompt.templateFormat));
    }
    const messages: Message[] = renderChatPrompt(this.prompt, values);
    const follow = this.options.followUp;
    if (follow) {
      const history = values[follow.historyKey];
      if (history !== undefined) {
        if (!Array.isArray(history) || !history.every(isMessage)) {
          throw new LangSmithValidationError(`${follow.historyKey} must be a list of {role, content} messages`);
        }
        messages.push(...history);
      }
      const next = values[follow.inputKey];
      if (typeof next === 'string' && next.trim()) messages.push({ role: 'human', content: next });
    }
    return new ChatPromptValue(messages);
  }

  protected async call(values: Record<string, unknown>, _ctx: RunContext): Promise<PromptValue> {
    return this.format(values);
  }
}
