/** The model's answer as plain text (runs of type `parser`); streams piece by piece. */
import { AIMessage } from './messages';
import { Runnable, type RunContext } from './runnable';

export class StringOutputParser extends Runnable<AIMessage | string, string> {
  readonly name = 'StrOutputParser';
  override readonly runType = 'parser';

  private text(input: AIMessage | string): string {
    return typeof input === 'string' ? input : input.content;
  }

  protected async call(input: AIMessage | string, _ctx: RunContext): Promise<string> {
    return this.text(input);
  }

  protected override async *transformCall(inputs: AsyncIterable<AIMessage | string>, _ctx: RunContext): AsyncGenerator<string> {
    for await (const piece of inputs) {
      const text = this.text(piece);
      if (text) yield text;
    }
  }
}
